// What a Solver holds, planned before anything is allocated: resident or streamed velocity, device and
// pinned bytes.
#include <algorithm>
#include <limits>

#include "hetflow/ftle/seed_planes.hpp"
#include "hetflow/ftle/solver.hpp"
#include "hetflow/ftle/streaming.hpp"

namespace hetflow::ftle {

MemoryPlan Solver::plan(const core::DeviceSet& devices, const core::PartPlacement& placement, std::size_t params,
                        const VelocityGrid* grid, const SeedGrid& seeds, const Config& config) {
  const core::Partition split = plane_split(placement, seeds, placement.parts() > devices.size());
  const std::size_t real = config.precision == core::Precision::f64 ? 8 : 4;
  MemoryPlan m;
  std::size_t times = 1;
  m.slots = 1;
  m.snapshot_bytes = real;
  if (grid && !grid->snapshots.empty()) {
    const std::size_t n = grid->snapshots.size();
    times = n;
    m.slots = n;
    m.snapshot_bytes = grid->nodes() * static_cast<std::size_t>(grid->dimension) * real;
    std::uint64_t memory = std::numeric_limits<std::uint64_t>::max(), max_alloc = memory;
    for (std::size_t k = 0; k < devices.size(); ++k) {
      memory = std::min(memory, devices.device(k).info.global_mem);
      max_alloc = std::min(max_alloc, devices.device(k).info.max_alloc);
    }
    const std::size_t budget = config.velocity_budget_bytes ? config.velocity_budget_bytes : memory / 2;
    const std::size_t room = std::min<std::size_t>(budget, max_alloc);
    if (n > 1 && n * m.snapshot_bytes > room) {
      // The ring holds what the widest launch reads plus one slot being uploaded meanwhile, at least 3.
      const StepWindows w(grid->times, config.t0, config.duration / static_cast<double>(config.steps),
                          config.precision);
      long widest = 2;
      for (long s = 0; s < config.steps; s = w.group_end(s, config.steps)) widest = std::max(widest, w.range(s).size());
      const std::size_t slots = std::max(static_cast<std::size_t>(widest) + 1, room / m.snapshot_bytes);
      if (slots < n) {
        m.streamed = true;
        m.slots = slots;
        m.pinned_bytes = n * m.snapshot_bytes;
      }
    }
  }
  const std::size_t dim = static_cast<std::size_t>(seeds.dimension);
  // Freeze keeps one real per tracer: the share of its last step before the face.
  const std::size_t exit_real = grid && config.boundary == Boundary::freeze ? real : 0;
  // Adaptive integrators keep each tracer's next substep size and its substep counts.
  const std::size_t adaptive_bytes = adaptive(config.integrator) ? real + sizeof(cl_uint2) : 0;
  for (std::size_t k = 0; k < devices.size(); ++k) {
    const PartPlanes part = part_planes(split.share(placement.first() + k), seeds.planes());
    const std::size_t tracers = part.planes * seeds.plane();
    m.device_bytes += tracers * (dim * real + exit_real + adaptive_bytes) + tracers * sizeof(cl_uint2) +
                      part.own * seeds.plane() * real + params * real + m.slots * m.snapshot_bytes + times * real;
  }
  return m;
}

}  // namespace hetflow::ftle
