#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "hetflow/core/buffer.hpp"
#include "hetflow/core/build_options.hpp"
#include "hetflow/core/kernel.hpp"
#include "hetflow/mrag/block_tree.hpp"
#include "hetflow/mrag/ghost_table.hpp"

namespace hetflow::mrag {

// The precision of kernels built for block data of Real (float or double).
template <class Real>
constexpr core::Precision precision_of = std::is_same_v<Real, float> ? core::Precision::f32 : core::Precision::f64;

// A ghost table of `blocks` leaves on one device for block data of Real, and the kernel that fills the
// ghosts of block data from it (mrag_ghosts.cl): the band `width` cells wide, with or without its corners,
// as the table was built. With `direct`
// (a band without corners), a side whose ghosts all copy the cells of one neighbouring block of the same
// level, unflipped, is left to the kernels that read the band: neighbours() names that block for each side
// (NO_NEIGHBOUR where the ghosts are filled), and the fill skips its ghosts. The fill covers the ghosts
// that have sources alone (a part of the leaves has none for the others' ghosts: narrowed()).
template <class Real>
class DeviceGhosts {
 public:
  DeviceGhosts(const core::Queue& queue, const GhostTable& table, std::size_t blocks, int s, int width, bool corners,
               const Sides& sides, bool direct = false);

  // Enqueues the fill of ghosts() from `data`: the table's nodes pass by pass, then the ghosts.
  void fill(const core::Queue& queue, const core::Buffer<Real>& data);

  // The options of programs that read the band (BLOCK, GHOSTS, GHOST_COUNT).
  const core::BuildOptions& build_options() const { return options_; }
  const core::Buffer<Real>& ghosts() const { return ghosts_; }
  const core::Buffer<cl_int>& slots() const { return slots_; }
  // Four per block (west, east, south, north): the block whose cells a side's ghosts copy, or NO_NEIGHBOUR.
  const core::Buffer<cl_uint>& neighbours() const { return neighbours_; }

 private:
  core::BuildOptions options_;
  core::Buffer<cl_uint> start_, source_block_, source_cell_;
  core::Buffer<cl_uchar> flip_;
  core::Buffer<Real> weight_, inflow_, ghosts_, nodes_;
  core::Buffer<cl_int> slots_;
  core::Buffer<cl_uint> neighbours_;
  // The table's entries (block × ghosts per block + ghost) that have sources: the ghosts the fill writes.
  core::Buffer<cl_uint> filled_;
  std::size_t filled_count_ = 0;
  std::vector<std::uint32_t> node_pass_;
  // The nodes pass by pass, then the ghosts.
  core::Kernel fill_nodes_, fill_;
  core::NDRange global_, local_;
};

// What DeviceGhosts's neighbours() holds where a side's ghosts are filled.
inline constexpr cl_uint no_neighbour = 0xFFFFFFFFu;
// Per block and side of a band without corners, the block whose same-level cells the side's ghosts all copy
// unflipped, or no_neighbour; and the table's `start` without those sides' ghosts (their sources empty), as
// the fill reads it.
std::vector<cl_uint> direct_neighbours(const GhostTable& table, std::size_t blocks, int s);
std::vector<std::uint32_t> filled_start(const GhostTable& table, const std::vector<cl_uint>& neighbours, int s);

// The launch of the mrag kernels that stride over their items: work-groups of 64, 32 per compute unit.
core::NDRange mrag_range(const core::DeviceInfo& device);
inline constexpr std::size_t mrag_work_group = 64;

}  // namespace hetflow::mrag
