#pragma once
#include <cstddef>

#include <type_traits>

#include "hetflow/core/buffer.hpp"
#include "hetflow/core/build_options.hpp"
#include "hetflow/core/kernel.hpp"
#include "hetflow/mrag/block_tree.hpp"
#include "hetflow/mrag/ghost_table.hpp"

namespace hetflow::mrag {

// The precision of kernels built for block data of Real (float or double).
template <class Real>
constexpr core::Precision precision_of = std::is_same_v<Real, float> ? core::Precision::f32 : core::Precision::f64;

// A tree's ghost table on one device for block data of Real, and the kernel that fills the ghosts of block
// data from it (mrag_ghosts.cl): the band `width` cells wide, with or without its corners.
template <class Real>
class DeviceGhosts {
 public:
  DeviceGhosts(const core::Queue& queue, const BlockTree& tree, int s, int width, bool corners, const Sides& sides);

  // Enqueues the fill of ghosts() from `data`.
  void fill(const core::Queue& queue, const core::Buffer<Real>& data);

  // The options of programs that read the band (BLOCK, GHOSTS, GHOST_COUNT).
  const core::BuildOptions& build_options() const { return options_; }
  const core::Buffer<Real>& ghosts() const { return ghosts_; }
  const core::Buffer<cl_int>& slots() const { return slots_; }

 private:
  core::BuildOptions options_;
  core::Buffer<cl_uint> start_, source_block_, source_cell_;
  core::Buffer<cl_uchar> flip_;
  core::Buffer<Real> weight_, inflow_, ghosts_;
  core::Buffer<cl_int> slots_;
  core::Kernel fill_;
  core::NDRange global_, local_;
};

// The launch of the mrag kernels that stride over their items: work-groups of 64, 32 per compute unit.
core::NDRange mrag_range(const core::DeviceInfo& device);
inline constexpr std::size_t mrag_work_group = 64;

}  // namespace hetflow::mrag
