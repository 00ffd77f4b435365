#pragma once
#include <cstddef>

#include "hetflow/core/buffer.hpp"
#include "hetflow/core/build_options.hpp"
#include "hetflow/core/kernel.hpp"
#include "hetflow/mrag/block_tree.hpp"
#include "hetflow/mrag/ghost_table.hpp"

namespace hetflow::mrag {

// A tree's ghost table on one device, FP64, and the kernel that fills the ghosts of block data from it
// (mrag_ghosts.cl): the band `width` cells wide, with or without its corners.
class DeviceGhosts {
 public:
  DeviceGhosts(const core::Queue& queue, const BlockTree& tree, int s, int width, bool corners, const Sides& sides);

  // Enqueues the fill of ghosts() from `data`.
  void fill(const core::Queue& queue, const core::Buffer<double>& data);

  // The options of programs that read the band (BLOCK, GHOSTS, GHOST_COUNT).
  const core::BuildOptions& build_options() const { return options_; }
  const core::Buffer<double>& ghosts() const { return ghosts_; }
  const core::Buffer<cl_int>& slots() const { return slots_; }

 private:
  core::BuildOptions options_;
  core::Buffer<cl_uint> start_, source_block_, source_cell_;
  core::Buffer<cl_uchar> flip_;
  core::Buffer<double> weight_, inflow_, ghosts_;
  core::Buffer<cl_int> slots_;
  core::Kernel fill_;
  core::NDRange global_, local_;
};

// The launch of the mrag kernels that stride over their items: work-groups of 64, 32 per compute unit.
core::NDRange mrag_range(const core::DeviceInfo& device);
inline constexpr std::size_t mrag_work_group = 64;

}  // namespace hetflow::mrag
