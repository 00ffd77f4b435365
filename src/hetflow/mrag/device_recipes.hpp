#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "hetflow/core/buffer.hpp"
#include "hetflow/core/context.hpp"
#include "hetflow/core/kernel_args.hpp"
#include "hetflow/mrag/block_tree.hpp"
#include "hetflow/mrag/ghost_recipes.hpp"

namespace hetflow::mrag {

// The work-items whose entries' sources interleave: a warp of NVIDIA GPUs (mrag_ghosts.cl's RECIPE_SLICE).
inline constexpr std::uint32_t recipe_slice = 32;

// A source as mrag_ghosts.cl reads it: bits 0-1 its flip, 2-3 its type (0 a cell, 1 a node, 2 an inflow
// side), then a cell's slot (8 bits) and cell, or the node, or the side. Throws core::Error for a slot past
// 255 or a cell past 2^20.
cl_uint pack_source(const GhostSource& source);

// The ghost recipes of one band on one device (docs/mrag.md, Ghosts): GhostRecipes on the host and every
// kind it holds in device memory, where a tree's plan adds only the kinds not met before. Weights are Real.
// Per kind k, info[4k ..] holds the entry of its first ghost in `heads` (a ghost g is entry info[4k] + g),
// the entry of its first node (likewise), the first of its values in `depth_first` (nodes of depth d + 1 are
// depth_first[d] .. depth_first[d + 1] of the kind's) and its count of depths. An entry's head is (first,
// count): its sources are first + t recipe_slice, t < count, in the order of the host's. Entries lie in
// slices of recipe_slice, a kind's ghosts from the first and each depth's nodes from the depth's first, whose
// sources interleave, so that the work-items of a slice read neighbouring words at each term. A source is
// one word (pack_source) and its weight.
template <class Real>
class DeviceRecipes {
 public:
  DeviceRecipes(const core::Context& context, int s, int width, bool corners, const Sides& sides);

  // The plan of the tree whose grid is `grid`, the kinds it brings uploaded on `queue`.
  GhostPlan plan(const core::Queue& queue, const LeafGrid& grid);
  // Uploads on `queue` the kinds the host's recipes gained since the last upload (after a plan made by
  // recipes() directly, as on another thread).
  void sync(const core::Queue& queue);

  // The host's recipes; kinds another caller adds go to the device with the next plan.
  GhostRecipes& recipes() { return recipes_; }
  const GhostRecipes& recipes() const { return recipes_; }
  // Per kind of a band without corners, direct_sides() of its recipe (device_ghosts.hpp); empty with corners.
  const std::vector<std::array<cl_uint, 4>>& direct_sides() const { return direct_; }
  // Adds info, heads, depth_first, the sources and their weights to `args`.
  void add_tables(core::KernelArgs& args) const;

 private:
  // An array on the device, grown by doubling: `sent` values written, the `tail` that follows them still
  // on the host until sync() writes it.
  template <class T>
  struct Mirror {
    std::vector<T> tail;
    core::Buffer<T> device;
    std::size_t sent = 0;
    std::size_t size() const { return sent + tail.size(); }
    void sync(const core::Context& context, const core::Queue& queue);
  };
  void clear();

  core::Context context_;
  GhostRecipes recipes_;
  std::size_t generation_ = 0, kinds_ = 0;
  // Appends the heads of entries [begin, end) of a kind's `first` and their sources, in slices.
  void append_slices(const std::vector<std::uint32_t>& first, const std::vector<GhostSource>& sources,
                     std::uint32_t begin, std::uint32_t end);

  Mirror<cl_uint> info_, heads_, depth_first_, source_;
  Mirror<Real> weight_;
  std::vector<std::array<cl_uint, 4>> direct_;
};

}  // namespace hetflow::mrag
