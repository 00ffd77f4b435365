#pragma once
#include <cstddef>

#include "hetflow/core/device_set.hpp"
#include "hetflow/core/link.hpp"
#include "hetflow/core/partition.hpp"
#include "hetflow/core/plan.hpp"
#include "hetflow/ftle/seed_grid.hpp"
#include "hetflow/ftle/solver.hpp"

namespace hetflow::ftle {

// The seed planes of every part, one per device of every process in rank order, weighted as one
// process splits them over its devices.
core::Partition plane_split(const core::PartPlacement& placement, const SeedGrid& seeds, bool processes);

// One part per device, weighted by config.device_weights (checked here: one positive weight per device).
core::PartPlacement place_parts(const core::DeviceSet& devices, core::Link* processes, const Config& config);

// A part's own seed planes and the planes it advects: one more on either side where there is one.
struct PartPlanes {
  std::size_t own0, own, first, planes;
};

PartPlanes part_planes(const core::Share& share, std::size_t total);

}  // namespace hetflow::ftle
