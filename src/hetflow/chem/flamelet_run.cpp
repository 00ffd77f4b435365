#include "hetflow/chem/flamelet_run.hpp"

#include <algorithm>

namespace hetflow::chem {

const char* outcome_name(FlameletOutcome o) {
  switch (o) {
    case FlameletOutcome::steady:
      return "steady";
    case FlameletOutcome::extinct:
      return "extinct";
    case FlameletOutcome::end_time:
      return "end_time";
    case FlameletOutcome::not_steady:
      return "not_steady";
    case FlameletOutcome::stopped:
      return "stopped";
  }
  return "stopped";
}

FlameletRun run_flamelet(Flamelet& flamelet, const FlameletRunSettings& s, const std::vector<double>& mixing,
                         const FlameletKeepGoing& keep_going) {
  FlameletRun run;
  const std::size_t n = flamelet.components();
  const double start = flamelet.time();
  run.rise = temperature_rise(flamelet.state(), mixing, n);
  bool burnt = run.rise >= s.extinction_rise;
  while (true) {
    if (run.steps >= s.max_steps) {
      run.outcome = FlameletOutcome::not_steady;
      break;
    }
    double dt = s.dt;
    if (s.end_time > 0.0) {
      const double left = start + s.end_time - flamelet.time();
      // A remainder within rounding of the time reached is no step.
      if (left <= 1e-12 * s.end_time) {
        run.outcome = run.rise < s.extinction_rise ? FlameletOutcome::extinct : FlameletOutcome::end_time;
        break;
      }
      dt = std::min(dt, left);
    }
    const FlameletStep step = flamelet.step(dt);
    ++run.steps;
    run.rate = step.rate;
    run.reactor_steps += step.reactor_steps;
    run.most_reactor_steps = std::max(run.most_reactor_steps, step.most_reactor_steps);
    run.rise = temperature_rise(flamelet.state(), mixing, n);
    burnt = burnt || run.rise >= s.extinction_rise;
    const bool steady = step.rate < s.steady_rate;
    if (s.end_time <= 0.0 && run.rise < s.extinction_rise && (steady || burnt)) {
      run.outcome = FlameletOutcome::extinct;
      break;
    }
    if (s.end_time <= 0.0 && steady) {
      run.outcome = FlameletOutcome::steady;
      break;
    }
    if (keep_going && !keep_going(flamelet, step)) {
      run.outcome = FlameletOutcome::stopped;
      break;
    }
  }
  return run;
}

}  // namespace hetflow::chem
