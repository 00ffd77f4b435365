#pragma once
#include <functional>

#include "hetflow/chem/flamelet.hpp"

namespace hetflow::chem {

// How a flamelet run ends: steady (the state stops changing), extinct (its temperature falls to near the
// mixing line), at the end time asked for, at the most steps allowed without becoming steady, or stopped
// by the caller.
enum class FlameletOutcome { steady, extinct, end_time, not_steady, stopped };
const char* outcome_name(FlameletOutcome o);  // "steady", "extinct", "end_time", "not_steady", "stopped"

struct FlameletRunSettings {
  double dt = 1e-5;               // the split step [s]
  double end_time = 0.0;          // > 0: run to this time (the last step shortened to land on it); 0: to steady
  double steady_rate = 1e-2;      // steady once FlameletStep::rate falls below this [1/s]
  long max_steps = 100000;        // most steps of one run
  double extinction_rise = 50.0;  // extinct when temperature_rise falls below this [K]
};

struct FlameletRun {
  FlameletOutcome outcome = FlameletOutcome::stopped;
  long steps = 0;               // split steps of this run
  double rate = 0.0;            // FlameletStep::rate of the last step
  double rise = 0.0;            // temperature_rise of the final state [K]
  long reactor_steps = 0;       // RADAU5's accepted steps, summed over nodes and split steps
  long most_reactor_steps = 0;  // the most of one node in one split step
};

// Asked after every step; false stops the run (outcome stopped), keeping the state reached.
using FlameletKeepGoing = std::function<bool(const Flamelet&, const FlameletStep&)>;

// Advances the flamelet from its current state until the run ends (FlameletOutcome). A flamelet is extinct
// when its rise above `mixing` (mixing_line of its grid) is below extinction_rise and it is steady or burnt
// above that rise earlier in this run, so an unburnt start is never called extinct before it had the
// chance to ignite; with an end time it runs to the end and is called extinct there by its rise alone.
// FlameletError from a step propagates, the state that of the step before.
FlameletRun run_flamelet(Flamelet& flamelet, const FlameletRunSettings& settings, const std::vector<double>& mixing,
                         const FlameletKeepGoing& keep_going = {});

}  // namespace hetflow::chem
