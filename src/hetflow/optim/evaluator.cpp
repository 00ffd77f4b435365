#include "hetflow/optim/evaluator.hpp"

#include "hetflow/core/number_text.hpp"
#include "hetflow/io/interrupt.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/optim/evaluation_log.hpp"

namespace hetflow::optim {

std::string point_text(std::span<const double> point) {
  std::string text = "(";
  for (std::size_t i = 0; i < point.size(); ++i) text += (i ? ", " : "") + core::number_text(point[i], 10);
  return text + ")";
}

Evaluator::Evaluator(std::string_view method, BatchObjective objective, const RunOptions& options)
    : objective_(std::move(objective)), options_(options) {
  if (!objective_) throw core::Error(std::string(method) + " was given no objective");
  if (options_.log) options_.log->begin(method);
}

std::vector<Evaluation> Evaluator::evaluate(std::span<const Point> points) {
  std::optional<std::vector<Evaluation>> answers;
  if (options_.log) answers = options_.log->replay(points);
  if (!answers) {
    answers = objective_(points);
    if (answers->size() != points.size())
      throw core::Error("the objective returned " + std::to_string(answers->size()) + " evaluations for a batch of " +
                  std::to_string(points.size()) + " points");
    for (auto& e : *answers) e = normalised(std::move(e));
    if (options_.log) options_.log->append(iteration_, points, *answers);
  }
  for (std::size_t i = 0; i < points.size(); ++i) {
    const Evaluation& e = (*answers)[i];
    if (e.ok()) continue;
    failures_.push_back({points[i], e.failure, batches_});
    if (options_.on_failure == OnFailure::stop && !failure_stop_)
      failure_stop_ = "the objective failed at " + point_text(points[i]) + ": " + e.failure;
  }
  evaluations_ += points.size();
  ++batches_;
  return std::move(*answers);
}

Evaluation Evaluator::evaluate_one(const Point& point) { return std::move(evaluate(std::span(&point, 1)).front()); }

std::optional<std::string> Evaluator::refusal(std::size_t n) const {
  if (io::interrupted()) return "interrupted by a signal";
  if (options_.keep_going && !options_.keep_going(evaluations_)) return "stopped by its caller";
  if (evaluations_ + n > options_.max_evaluations)
    return "the budget of " + std::to_string(options_.max_evaluations) + " evaluations would be exceeded";
  return std::nullopt;
}

Result Evaluator::finish(Result result, std::string stop_reason, bool converged) const {
  result.evaluations = evaluations_;
  result.batches = batches_;
  result.failures = failures_;
  result.stop_reason = std::move(stop_reason);
  result.converged = converged;
  return result;
}

}  // namespace hetflow::optim
