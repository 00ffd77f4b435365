#pragma once
#include <functional>

#include "hetflow/core/event.hpp"
#include "hetflow/core/statistics.hpp"

namespace hetflow::tune {

// One repetition of the work being tuned; returns its duration in seconds, from OpenCL events
// (device time, no host noise) or from the wall clock when host work belongs to the cost.
using TimedRun = std::function<double()>;

struct MeasureOptions {
  // First runs pay for program builds, first-touch allocation, caches and clock ramp-up; they are
  // run but not counted.
  int warmup = 1;
  // The median of the repeats resists the odd slow run (another process, a clock dip) that a mean
  // would absorb and a minimum would hide.
  int repeats = 5;
};

// Runs `run` warmup times, then repeats times, and summarises the repeats' seconds (median, min,
// max). core::Error for repeats < 1, warmup < 0 or a non-positive or non-finite duration.
core::Summary measure(const TimedRun& run, const MeasureOptions& options);

// A TimedRun of `work` by the host wall clock; `work` must return only when the work is done
// (e.g. it ends with a queue's finish()).
TimedRun wall_clock(std::function<void()> work);

// A TimedRun of the device-time span between the two events `enqueue` returns: the first command's
// start to the last one's end, so gaps the host leaves between launches count but host work does not.
TimedRun event_span(std::function<std::pair<core::Event, core::Event>()> enqueue);

}  // namespace hetflow::tune
