#pragma once
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "hetflow/optim/evaluation.hpp"
#include "hetflow/optim/run.hpp"

namespace hetflow::optim {

// The one path from a method to its objective: counts evaluations and batches, answers from the log
// while a resumed run replays it and appends to it afterwards, normalises the answers, and records
// failures. Methods ask refusal() before a batch and failure_stop() after one.
class Evaluator {
 public:
  Evaluator(std::string_view method, BatchObjective objective, const RunOptions& options);

  std::vector<Evaluation> evaluate(std::span<const Point> points);
  Evaluation evaluate_one(const Point& point);

  // Why a batch of `n` points may not be evaluated (budget spent, SIGINT/SIGTERM under an
  // io::InterruptGuard), or nothing if it may.
  std::optional<std::string> refusal(std::size_t n) const;
  // The stop reason after a batch with a failure when the options say to stop on failures.
  std::optional<std::string> failure_stop() const { return failure_stop_; }

  void set_iteration(std::size_t iteration) { iteration_ = iteration; }
  std::size_t evaluations() const { return evaluations_; }

  // Copies the counters and failures into `result` and sets its stop reason.
  Result finish(Result result, std::string stop_reason, bool converged) const;

 private:
  BatchObjective objective_;
  RunOptions options_;
  std::size_t iteration_ = 0;
  std::size_t evaluations_ = 0;
  std::size_t batches_ = 0;
  std::vector<FailedEvaluation> failures_;
  std::optional<std::string> failure_stop_;
};

// "(1, 2.5, -3)", for stop reasons and errors.
std::string point_text(std::span<const double> point);

}  // namespace hetflow::optim
