#pragma once
#include <cstddef>

#include "hetflow/core/buffer.hpp"
#include "hetflow/core/context.hpp"
#include "hetflow/core/kernel.hpp"
#include "hetflow/mrag/block_tree.hpp"
#include "hetflow/mrag/device_ghosts.hpp"

namespace hetflow::mrag {

// The fields of a cell, conserved: ρ, ρu, ρv, ρE, Γ, Π.
inline constexpr int fields = 6;
// The ghost band the right-hand side needs: WENO5 reaches three cells past a face, along the axes only.
inline constexpr int rhs_ghosts = 3;

// The right-hand side dq/dt of the leaves of a tree on one device, FP64 (mrag_rhs.cl): the ghost table,
// each leaf's cell size and the flux correction's table uploaded once per tree; the ghost fill, the
// per-cell fluxes and the correction of coarse faces at resolution jumps bound. Block
// data holds field f of cell x + s y of leaf b (tree order) at (b fields + f) s² + x + s y.
class BlockRhs {
 public:
  // Cells of the level-0 blocks are root_size / s wide. Throws core::Error for a block size the ghost
  // band does not fit.
  BlockRhs(const core::Queue& queue, const BlockTree& tree, int s, const Sides& sides, double root_size);

  // Enqueues the ghost fill and rhs = dq/dt.
  void operator()(const core::Queue& queue, const core::Buffer<double>& data, core::Buffer<double>& rhs);
  // Values in a block-data buffer.
  std::size_t values() const { return blocks_ * fields * cells_; }
  // 1/h of each leaf's cells.
  const core::Buffer<double>& inv_h() const { return inv_h_; }

 private:
  std::size_t blocks_, cells_;
  DeviceGhosts ghosts_;
  core::Buffer<double> inv_h_, faces_;
  core::Kernel rhs_, reflux_;
  // The flux correction's table (reflux_table.hpp) and the size of its two groups of entries.
  core::Buffer<cl_uint> start_, coarse_block_, coarse_cell_, side_, fine_face_;
  core::Buffer<double> fine_weight_;
  std::size_t x_entries_ = 0, y_entries_ = 0;
  core::NDRange global_, local_;
};

}  // namespace hetflow::mrag
