#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <type_traits>
#include <vector>

#include "hetflow/core/buffer.hpp"
#include "hetflow/core/build_options.hpp"
#include "hetflow/core/kernel.hpp"
#include "hetflow/mrag/block_tree.hpp"
#include "hetflow/mrag/device_recipes.hpp"
#include "hetflow/mrag/ghost_recipes.hpp"
#include "hetflow/mrag/ghost_table.hpp"

namespace hetflow::mrag {

// The precision of kernels built for block data of Real (float or double).
template <class Real>
constexpr core::Precision precision_of = std::is_same_v<Real, float> ? core::Precision::f32 : core::Precision::f64;

// The ghost band of a tree's leaves on one device for block data of Real, and the kernel that fills it from
// the blocks' recipes (mrag_ghosts.cl): the band and its corners as the recipes were built. The fill covers
// the leaves `own` (a part of the leaves fills those it updates). With `direct` (a band without corners), a
// side whose ghosts all copy the cells of one neighbouring block of the same level, unflipped, is left to
// the kernels that read the band: neighbours() names that block for each side (NO_NEIGHBOUR where the
// ghosts are filled), and the fill skips its ghosts.
template <class Real>
class DeviceGhosts {
 public:
  // `recipes` made `plan`; the ghosts keep them. The buffers of `recycled` (the same band of the tree
  // before an adaptation) are taken over: its tables, band and nodes kept where they are large enough
  // (core::at_least, core::upload_into), its band layout and inflow states as they are.
  DeviceGhosts(const core::Queue& queue, std::shared_ptr<const DeviceRecipes<Real>> recipes, const GhostPlan& plan,
               const LeafList& own, bool direct = false, DeviceGhosts* recycled = nullptr);

  // A stage of local time steps (mrag/local_steps.hpp): the leaves of other groups than `group` are read at
  // the stage's time, w0 start + w1 first_stage + w2 state with (w0, w1, w2) = weights[weight_first + 3 g ..]
  // for a leaf of group groups[leaf] = g.
  struct StageTime {
    const core::Buffer<Real>& start;
    const core::Buffer<Real>& first_stage;
    const core::Buffer<Real>& state;
    const core::Buffer<cl_uint>& groups;
    cl_uint group;
    const core::Buffer<Real>& weights;
    cl_uint weight_first;
  };

  // Enqueues the fill of ghosts() from `data` (with `time`, the own group's leaves only): each own block's
  // nodes depth by depth, then its ghosts.
  void fill(const core::Queue& queue, const core::Buffer<Real>& data, const StageTime* time = nullptr);

  // The options of programs that read the band (BLOCK, GHOSTS, GHOST_COUNT).
  const core::BuildOptions& build_options() const { return options_; }
  const core::Buffer<Real>& ghosts() const { return ghosts_; }
  const core::Buffer<cl_int>& slots() const { return slots_; }
  // Four per block (west, east, south, north): the block whose cells a side's ghosts copy, or NO_NEIGHBOUR.
  const core::Buffer<cl_uint>& neighbours() const { return neighbours_; }

 private:
  std::shared_ptr<const DeviceRecipes<Real>> recipes_;
  core::BuildOptions options_;
  core::Buffer<cl_uint> blocks_, slot_leaf_, neighbours_;
  core::Buffer<cl_uchar> ghost_side_;
  core::Buffer<Real> inflow_, ghosts_, nodes_;
  core::Buffer<cl_int> slots_;
  std::size_t count_ = 0;
  core::Kernel fill_;
  // The fill's first argument set per launch (the data, then the stage time).
  cl_uint stage_args_ = 0;
  core::NDRange global_, local_;
};

// What DeviceGhosts's neighbours() holds where a side's ghosts are filled.
inline constexpr cl_uint no_neighbour = 0xFFFFFFFFu;
// Per side of a band `width` wide without corners, the slot of the recipe whose same-level cells the side's
// ghosts all copy unflipped, or no_neighbour.
std::array<cl_uint, 4> direct_sides(const GhostRecipe& recipe, int s, int width);
// The same per block of a plan, as the blocks the slots name, from each kind's direct_sides().
std::vector<cl_uint> direct_neighbours(std::span<const std::array<cl_uint, 4>> sides, const GhostPlan& plan);

// The launch of the mrag kernels that stride over their items: work-groups of 64, 32 per compute unit.
core::NDRange mrag_range(const core::DeviceInfo& device);
inline constexpr std::size_t mrag_work_group = 64;

}  // namespace hetflow::mrag
