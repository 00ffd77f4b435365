#pragma once

namespace hetflow::app {

// How many steps a run advances between progress updates and interrupt checks: the count doubles or
// halves so that a chunk takes about 0.2 s of wall time, short enough for a responsive Ctrl-C, long
// enough that the host's finish() per chunk costs nothing measurable.
class StepChunks {
 public:
  explicit StepChunks(long first) : steps_(first) {}
  long steps() const { return steps_; }
  // After a chunk of `ran` steps that took `seconds`. A chunk cut short (by an output step) says nothing
  // about a longer one, so only a whole chunk grows the count: otherwise runs whose outputs come often
  // would double it without bound.
  void adapt(double seconds, long ran) {
    if (seconds < target_seconds / 2 && ran >= steps_) steps_ *= 2;
    else if (seconds > 2 * target_seconds && steps_ > 1) steps_ /= 2;
  }

 private:
  static constexpr double target_seconds = 0.2;
  long steps_;
};

}  // namespace hetflow::app
