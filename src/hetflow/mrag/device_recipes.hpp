#pragma once
#include <array>
#include <cstddef>
#include <vector>

#include "hetflow/core/buffer.hpp"
#include "hetflow/core/context.hpp"
#include "hetflow/core/kernel_args.hpp"
#include "hetflow/mrag/block_tree.hpp"
#include "hetflow/mrag/ghost_recipes.hpp"

namespace hetflow::mrag {

// The ghost recipes of one band on one device (docs/mrag.md, Ghosts): GhostRecipes on the host and every
// kind it holds in device memory, where a tree's plan adds only the kinds not met before. Weights are Real.
// Per kind k, info[4k ..] holds the first of its ghosts' entries in `first` (count + 1 of them, sources
// first[g] .. first[g + 1]), the first of its nodes' entries in `node_first` (likewise), the first of its
// entries in `depth_first` (nodes of depth d + 1 are depth_first[d] .. depth_first[d + 1] of the kind's)
// and its count of depths. Sources name a slot of the block, GhostSource::inflow or GhostSource::node.
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
  // Adds info, first, node_first, depth_first and the sources' slot, cell, weight and flip to `args`.
  void add_tables(core::KernelArgs& args) const;

 private:
  // Device copies of the host arrays, grown by doubling; `sent` values of each were written before.
  template <class T>
  struct Mirror {
    std::vector<T> host;
    core::Buffer<T> device;
    std::size_t sent = 0;
    void sync(const core::Context& context, const core::Queue& queue);
  };
  void clear();

  core::Context context_;
  GhostRecipes recipes_;
  std::size_t generation_ = 0, kinds_ = 0;
  Mirror<cl_uint> info_, first_, node_first_, depth_first_, source_block_, source_cell_;
  Mirror<Real> weight_;
  Mirror<cl_uchar> flip_;
  std::vector<std::array<cl_uint, 4>> direct_;
};

}  // namespace hetflow::mrag
