#pragma once
#include <cstddef>
#include <deque>
#include <filesystem>
#include <fstream>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "hetflow/optim/evaluation.hpp"

namespace hetflow::optim {

// The optimisation log: JSON lines, a header naming the method, then one line per evaluation
//   {"batch":3,"size":5,"index":0,"iteration":2,"point":[...],"status":"ok","value":0.25,"residuals":[...]}
//   {"batch":3,"size":5,"index":1,"iteration":2,"point":[...],"status":"failed","reason":"..."}
// written batch by batch and flushed after each, so a stopped run loses at most the batch in flight.
// Doubles are written in their shortest round-trip form, so replayed points and values are bit-exact.
//
// Resuming works because every method is deterministic given the values it receives (simulated
// annealing through its seed): the resumed run issues the same requests in the same order, and the log
// answers them from its records instead of calling the objective, until it runs out and the objective
// takes over. A request that differs from the record means the log belongs to another run: a core::Error.
class EvaluationLog {
 public:
  // A new log at `path`; an existing file there is replaced. The empty file is committed atomically
  // (io::AtomicFile) before lines are appended, so it counts as written like every other output.
  static EvaluationLog create(std::filesystem::path path);
  // An existing log whose complete batches are replayed before new ones are appended. A batch that a
  // crash cut short is cut from the file, so it is evaluated again; a malformed line elsewhere is a core::Error.
  static EvaluationLog resume(std::filesystem::path path);

  const std::filesystem::path& path() const { return path_; }
  std::size_t batches_to_replay() const { return replay_.size(); }

  // Used by the methods (through Evaluator). begin() writes the header of a new log, or checks that a
  // resumed log was written by the same method.
  void begin(std::string_view method);
  // The logged answer to `points` if the replay has one left; core::Error if it does not match the request.
  std::optional<std::vector<Evaluation>> replay(std::span<const Point> points);
  void append(std::size_t iteration, std::span<const Point> points, std::span<const Evaluation> evaluations);

 private:
  struct LoggedBatch {
    std::size_t line = 0;  // of its first evaluation, for errors
    std::vector<Point> points;
    std::vector<Evaluation> evaluations;
  };

  explicit EvaluationLog(std::filesystem::path path) : path_(std::move(path)) {}
  void open(std::ios::openmode mode);

  std::filesystem::path path_;
  std::string method_;  // from the header; empty until one is read or written
  std::deque<LoggedBatch> replay_;
  std::size_t batches_ = 0;  // complete batches in the file
  std::ofstream out_;
};

}  // namespace hetflow::optim
