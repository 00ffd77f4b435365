#include "hetflow/app/bench/timing.hpp"

namespace hetflow::app {

std::vector<double> launch_seconds(const core::Queue& queue, core::Buffer<double>& stamp, int repeats, int launches,
                                   const std::function<void()>& enqueue) {
  enqueue();
  queue.finish();
  std::vector<double> seconds;
  for (int r = 0; r < repeats; ++r) {
    const core::Event before = stamp.fill(queue, 0.0, 0, 1);
    for (int l = 0; l < launches; ++l) enqueue();
    const core::Event after = stamp.fill(queue, 0.0, 0, 1);
    seconds.push_back((before.seconds_until(after) - before.seconds() - after.seconds()) / launches);
  }
  return seconds;
}

}  // namespace hetflow::app
