#pragma once
#include <cstddef>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "hetflow/optim/evaluation.hpp"

namespace hetflow::optim {

class EvaluationLog;

// What a method does when a candidate fails. Either way the failure is reported in Result::failures and
// logged, and the other candidates of its batch are kept.
enum class OnFailure {
  stop,  // end the run at once, returning the best point so far
  skip,  // treat the candidate as infinitely bad (a rejected trial) and go on
};

// Options every method shares.
struct RunOptions {
  // The run stops before a batch that would exceed this many evaluations.
  std::size_t max_evaluations = 10000;
  OnFailure on_failure = OnFailure::stop;
  // Where every evaluation is appended as it happens; a log from EvaluationLog::resume() replays a
  // stopped run. Not owned; null for no log.
  EvaluationLog* log = nullptr;
  // Asked before every batch with the evaluations so far, for a caller's progress display and stop:
  // false ends the run there at its best point, as a signal does. Empty: never asked.
  std::function<bool(std::size_t evaluations)> keep_going = {};
};

struct FailedEvaluation {
  Point point;
  std::string reason;
  std::size_t batch = 0;
};

struct Result {
  Point best;  // the best point evaluated
  double value = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> residuals;  // at `best`, for least-squares objectives
  std::size_t iterations = 0;     // as the method counts them (line searches, simplex moves, SA steps, batches)
  std::size_t evaluations = 0;    // candidates evaluated, replayed ones included
  std::size_t batches = 0;
  bool converged = false;   // a tolerance was met (or the whole space enumerated), not a budget or a failure
  std::string stop_reason;  // a sentence naming the criterion that ended the run
  std::vector<FailedEvaluation> failures;
};

}  // namespace hetflow::optim
