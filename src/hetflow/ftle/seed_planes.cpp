#include "hetflow/ftle/seed_planes.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "hetflow/core/error.hpp"

namespace hetflow::ftle {

core::Partition plane_split(const core::PartPlacement& placement, const SeedGrid& seeds, bool processes) {
  if (seeds.planes() < placement.parts())
    throw core::Error("a seed grid of " + std::to_string(seeds.planes()) + " planes cannot be split over " +
                      std::to_string(placement.parts()) + " devices" + (processes ? " of all processes" : ""));
  core::Partition split(seeds.planes(), 1, placement.weights());
  for (std::size_t k = 0; k < split.parts(); ++k) {
    if (split.share(k).count == 0)
      throw core::Error("the device weights leave part " + std::to_string(k) + " none of the seed grid's " +
                        std::to_string(seeds.planes()) + " planes: raise its weight or use fewer devices");
  }
  return split;
}

core::PartPlacement place_parts(const core::DeviceSet& devices, core::Link* processes, const Config& config) {
  const std::vector<double>& given = config.device_weights;
  if (given.empty())
    return core::PartPlacement(processes, core::distribution_weights(core::Distribution::uniform, devices));
  if (given.size() != devices.size())
    throw core::Error("FTLE device weights: " + std::to_string(given.size()) + " given for " +
                      std::to_string(devices.size()) + " devices");
  for (const double w : given) {
    if (!(w > 0) || !std::isfinite(w))
      throw core::Error("FTLE device weight " + std::to_string(w) + ": expected a finite number above 0");
  }
  return core::PartPlacement(processes, given);
}

PartPlanes part_planes(const core::Share& share, std::size_t total) {
  const std::size_t first = share.offset > 0 ? share.offset - 1 : 0;
  return {share.offset, share.count, first, std::min(share.offset + share.count + 1, total) - first};
}

}  // namespace hetflow::ftle
