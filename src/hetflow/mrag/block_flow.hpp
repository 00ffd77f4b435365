#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "hetflow/core/build_options.hpp"
#include "hetflow/core/context.hpp"
#include "hetflow/mrag/block_rhs.hpp"
#include "hetflow/mrag/device_blocks.hpp"
#include "hetflow/mrag/hlle_flux.hpp"

namespace hetflow::mrag {

// A flow on a tree of blocks on one device or several: the leaves' conserved fields (BlockRhs's layout), FP64 or FP32
// on the device (docs/mrag.md, Precision), advanced by an SSP Runge–Kutta scheme at a CFL time step
// (docs/mrag.md, Time integration). Its host side takes and gives FP64.
class BlockFlow {
 public:
  BlockFlow(const core::Queue& queue, const BlockTree& tree, int s, const Sides& sides, double root_size,
            TimeScheme scheme = TimeScheme::ssp_rk3, core::Precision precision = core::Precision::f64,
            const SpatialScheme& spatial = {});
  // The same over every device of `devices`, and with `processes` over every process of the link, one
  // device each (docs/mrag.md, Several devices): the leaves split in shares by `weights`, one per device,
  // and the results bit-identical to one device's. Every process passes the same arguments and calls every
  // method but the accessors collectively.
  BlockFlow(const core::DeviceSet& devices, const BlockTree& tree, int s, const Sides& sides, double root_size,
            TimeScheme scheme, core::Precision precision, const SpatialScheme& spatial, std::span<const double> weights,
            core::Link* processes = nullptr);

  // Sets every cell from `initial`(x, y) at its centre, a primitive state with un = u and ut = v. With the
  // colour function the cell's colour follows from its Γ (ColourFunction::colour), and only ideal gases
  // (Π = 0) are allowed (core::Error otherwise).
  void set(const std::function<FaceState(double, double)>& initial);
  // Steps the finest `depth` levels present with local time steps (docs/mrag.md, Time integration): each
  // takes two steps within one of the next coarser, and the coarser levels step together; 0 (the default)
  // steps every leaf alike. One device only; set before the flow has a state (core::Error otherwise).
  void local_time_steps(int depth);

  // cfl over the largest (|u| + |v| + 2c)/h, with local time steps the step of the coarsest levels, whose
  // every cell then keeps the Courant number. Throws core::Error when a cell holds a non-finite state,
  // ρ ≤ 0 or c² ≤ 0, naming the step, the time, the first such leaf and cell, and its ρ and p.
  double stable_dt(double cfl);
  void step(double dt);

  // Adapts the tree to the flow (docs/mrag.md, Adaptation): from each block's largest detail of ρ and of
  // Γ, each divided by that field's range over the grid, leaves at or above eps_refine are refined (and
  // coarser neighbours with them, as the jump limit needs) and groups of four sibling leaves all below
  // eps_compress are collapsed; refined blocks get predicted cells, collapsed ones restricted cells.
  // Returns the leaves refined for their own details (not those refined for the jump limit) and the groups
  // collapsed.
  struct Adaptation {
    std::size_t refined = 0, collapsed = 0;
  };
  Adaptation adapt(double eps_refine, double eps_compress);
  // The same, decided from the present state's details but carried out by the next step(): that step runs
  // on the present tree while the host plans the new one, then its result moves to the new tree (docs/mrag.md,
  // Adaptation with the next step). Until then tree(), conserved() and cells() are the present tree's;
  // set(), load() and adapt() drop the adaptation.
  void adapt_with_next_step(double eps_refine, double eps_compress);
  // Caps the device memory the flow's trees may take (tree_bytes(), and state_bytes() in one buffer), by
  // default the least device's. A tree past it is refused with core::Error: at construction, and by adapt()
  // before it changes anything, naming the step, the time, the leaves and what they would take.
  void limit_memory(std::uint64_t bytes);

  const BlockTree& tree() const { return tree_; }
  int block_size() const { return s_; }
  double root_size() const { return root_size_; }
  const Sides& sides() const { return sides_; }
  double time() const { return time_; }
  long steps() const { return steps_; }
  core::Precision precision() const { return precision_; }
  // The conserved fields in BlockRhs's block-data layout, read back; load() puts such data (of the present
  // tree) back with its time and step count, as a restart needs. Throws core::Error for a size that is not
  // the tree's.
  std::vector<double> conserved() const;
  void load(const std::vector<double>& data, double time, long steps);
  // Every cell's primitive state and centre, leaf by leaf, cells x + s y; with the colour function its Γ is
  // 1/(γ(φ) − 1) and its pressure follows from that.
  struct Cell {
    double x = 0, y = 0, h = 0;
    FaceState state;
  };
  std::vector<Cell> cells() const;

 private:
  BlockFlow(std::unique_ptr<DeviceBlocks> blocks, const BlockTree& tree, int s, const Sides& sides, double root_size,
            TimeScheme scheme, core::Precision precision, const SpatialScheme& spatial);
  // Values in the block data of the tree.
  std::size_t values() const;
  // The device's blocks, once set() or load() has given them a state (core::Error before).
  DeviceBlocks& state() const;
  // An adaptation's input: the details (DeviceBlocks::details) of the tree, and the thresholds.
  struct Details {
    std::vector<double> values;
    double eps_refine, eps_compress;
  };
  // Adapts the tree by `d`: decides the new tree on the host and moves the state onto it.
  Adaptation adapt(const Details& d);
  // core::Error unless `tree` fits the memory the flow may use.
  void check_memory(const BlockTree& tree) const;
  // Where the grid went wrong, read back from the device.
  std::string bad_cell_message() const;
  // Calls f(leaf index, i, j, cell) for every cell in leaf order, the cell's centre and size set.
  template <class F>
  void for_each_cell(F f) const;

  BlockTree tree_;
  int s_;
  Sides sides_;
  double root_size_;
  TimeScheme scheme_;
  core::Precision precision_;
  SpatialScheme spatial_;
  // Whether the device's blocks are built for the tree, and whether some cell or inflow state has Π ≠ 0
  // (BlockRhs's `stiffened`), as the last set() or load() found.
  bool bound_ = false, stiffened_ = true;
  std::unique_ptr<DeviceBlocks> blocks_;
  DeviceMemory memory_;
  double time_ = 0;
  long steps_ = 0;
  // The adaptation the next step carries out (adapt_with_next_step).
  std::optional<Details> pending_;
};

}  // namespace hetflow::mrag
