#pragma once
#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include "hetflow/core/build_options.hpp"
#include "hetflow/core/context.hpp"
#include "hetflow/core/device_set.hpp"
#include "hetflow/core/link.hpp"
#include "hetflow/mrag/block_tree.hpp"
#include "hetflow/mrag/ghost_table.hpp"
#include "hetflow/mrag/spatial_scheme.hpp"
#include "hetflow/mrag/tree_memory.hpp"

namespace hetflow::mrag {

// The ghost band the adaptation reads (mrag_adapt.cl): a detail of coarse cell I needs the coarse cells
// I − 2 .. I + 2, which are fine cells 2I − 4 .. 2I + 5, across corners too.
inline constexpr int adapt_ghosts = 4;

// The Runge–Kutta scheme of a step: the three-stage, third-order SSP scheme of Shu & Osher (1988), or the
// paper's two-stage second-order one (Heun's, also SSP).
enum class TimeScheme { ssp_rk3, ssp_rk2 };

// The device half of a BlockFlow: the leaves' block data (BlockRhs's layout) in one precision on one device,
// the Runge–Kutta stages, the CFL rate and the adaptation's kernels. Data crosses to the host as FP64.
class DeviceBlocks {
 public:
  virtual ~DeviceBlocks() = default;

  // Builds the right-hand side and the stage buffers of `tree` (BlockRhs's `stiffened`); the data is then
  // undefined until write().
  virtual void bind(const BlockTree& tree, bool stiffened) = 0;
  // Values in the block data of the bound tree.
  virtual std::size_t values() const = 0;
  virtual void write(const std::vector<double>& data) = 0;
  virtual std::vector<double> read() const = 0;
  virtual void step(double dt, TimeScheme scheme) = 0;
  // With depth > 0, the next bind() steps the finest `depth` levels present locally (LocalSteps; one device
  // only, core::Error otherwise), and step()'s dt and max_rate() are the coarsest group's.
  virtual void local_steps(int depth) = 0;
  // The largest (|u| + |v| + 2c)/h of any cell: NaN when a cell is not finite or has ρ ≤ 0 or c² ≤ 0.
  virtual double max_rate() = 0;
  // Per leaf of the bound tree `tree`, six values (mrag_adapt.cl): the largest wavelet detail of ρ and of Γ,
  // the least and largest ρ, the least and largest Γ. Keeps the ghost band they read for remap().
  virtual std::vector<double> details(const BlockTree& tree) = 0;
  // Replaces the data by that of `next` built from it (after details(), and steps since then, of the same
  // tree): per new leaf a mode (mrag_adapt.cl's REMAP_*), four source leaves and its position among its
  // siblings; then binds `next`.
  virtual void remap(const BlockTree& next, const std::vector<cl_int>& mode, const std::vector<cl_uint>& source,
                     const std::vector<cl_int>& child, bool stiffened) = 0;
  // The memory of the least of the devices (over every process too), in all and in one buffer.
  virtual DeviceMemory memory() const = 0;
};

// Blocks of s² cells whose level-0 blocks are root_size wide, in FP32 or FP64 (core::Error for FP64 on a
// device without it; FP32 needs FP64 too, for the WENO weights), with `scheme`'s fluxes and closure.
std::unique_ptr<DeviceBlocks> device_blocks(const core::Queue& queue, core::Precision precision, int s,
                                            const Sides& sides, double root_size, const SpatialScheme& scheme);
// The same over every device of `devices`, the leaves split in shares by `weights`, one per device
// (docs/mrag.md, Several devices); with `processes` over the processes of the link instead, each with one
// device. Every process then calls every method but values() collectively.
std::unique_ptr<DeviceBlocks> device_blocks(const core::DeviceSet& devices, std::span<const double> weights,
                                            core::Link* processes, core::Precision precision, int s, const Sides& sides,
                                            double root_size, const SpatialScheme& scheme);

}  // namespace hetflow::mrag
