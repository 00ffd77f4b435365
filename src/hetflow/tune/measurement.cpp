#include "hetflow/tune/measurement.hpp"

#include <cmath>
#include <vector>

#include "hetflow/core/error.hpp"
#include "hetflow/core/number_text.hpp"

namespace hetflow::tune {

core::Summary measure(const TimedRun& run, const MeasureOptions& options) {
  if (options.repeats < 1) throw core::Error("a measurement needs at least one repeat");
  if (options.warmup < 0) throw core::Error("the number of warm-up runs cannot be negative");
  for (int i = 0; i < options.warmup; ++i) run();
  std::vector<double> seconds;
  for (int i = 0; i < options.repeats; ++i) {
    const double s = run();
    if (!(s > 0) || !std::isfinite(s)) throw core::Error("a timed run took " + core::number_text(s) + " s");
    seconds.push_back(s);
  }
  return core::summarize(std::move(seconds));
}

TimedRun wall_clock(std::function<void()> work) {
  return [work = std::move(work)] {
    const core::WallTimer timer;
    work();
    return timer.seconds();
  };
}

TimedRun event_span(std::function<std::pair<core::Event, core::Event>()> enqueue) {
  return [enqueue = std::move(enqueue)] {
    const auto [first, last] = enqueue();
    return first.seconds_until(last);
  };
}

}  // namespace hetflow::tune
