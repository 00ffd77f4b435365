#include "hetflow/app/karst/karst_batches.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>

#include "hetflow/app/step_chunks.hpp"
#include "hetflow/core/event.hpp"

namespace hetflow::app {

namespace {
// The rock state of a batch takes 8 M N bytes per set on the device; batches stay below this.
constexpr double batch_bytes = 256e6;
}  // namespace

std::vector<karst::Series> run_karst_batches(karst::KarstDevice& device, const karst::Series& inlet,
                                             const karst::Series& velocity,
                                             std::span<const karst::KarstParameters> sets, const karst::Grid& grid,
                                             const std::function<bool(std::size_t, std::size_t)>& keep_going) {
  const double set_bytes =
      8.0 * static_cast<double>(grid.nodes) * static_cast<double>(grid.has_rock() ? grid.rock_nodes : 1);
  const auto per_batch = static_cast<std::size_t>(std::max(1.0, std::floor(batch_bytes / set_bytes)));
  std::vector<karst::Series> outlets;
  StepChunks batch(32);
  for (std::size_t first = 0; first < sets.size() && (first == 0 || keep_going(first, sets.size()));) {
    const std::size_t count = std::min({per_batch, static_cast<std::size_t>(batch.steps()), sets.size() - first});
    const core::WallTimer batch_timer;
    auto runs = device.run(inlet, velocity, sets.subspan(first, count), grid);
    if (static_cast<std::size_t>(batch.steps()) <= per_batch) batch.adapt(batch_timer.seconds(), batch.steps());
    outlets.insert(outlets.end(), std::make_move_iterator(runs.begin()), std::make_move_iterator(runs.end()));
    first += count;
  }
  return outlets;
}

}  // namespace hetflow::app
