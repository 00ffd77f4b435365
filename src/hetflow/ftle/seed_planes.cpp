#include "hetflow/ftle/seed_planes.hpp"

#include <algorithm>
#include <string>

#include "hetflow/core/error.hpp"

namespace hetflow::ftle {

core::Partition plane_split(const core::PartPlacement& placement, const SeedGrid& seeds, bool processes) {
  if (seeds.planes() < placement.parts())
    throw core::Error("a seed grid of " + std::to_string(seeds.planes()) + " planes cannot be split over " +
                      std::to_string(placement.parts()) + " devices" + (processes ? " of all processes" : ""));
  return core::Partition(seeds.planes(), 1, placement.weights());
}

core::PartPlacement place_parts(const core::DeviceSet& devices, core::Link* processes) {
  return core::PartPlacement(processes, core::distribution_weights(core::Distribution::uniform, devices));
}

PartPlanes part_planes(const core::Share& share, std::size_t total) {
  const std::size_t first = share.offset > 0 ? share.offset - 1 : 0;
  return {share.offset, share.count, first, std::min(share.offset + share.count + 1, total) - first};
}

}  // namespace hetflow::ftle
