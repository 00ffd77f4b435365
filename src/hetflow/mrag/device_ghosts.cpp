#include "hetflow/mrag/device_ghosts.hpp"

#include <algorithm>
#include <array>
#include <span>
#include <utility>
#include <vector>

#include "hetflow/core/error.hpp"
#include "hetflow/core/kernel_args.hpp"
#include "hetflow/core/parallel.hpp"
#include "hetflow/core/program.hpp"
#include "hetflow/mrag/block_rhs.hpp"

namespace hetflow::mrag {

core::NDRange mrag_range(const core::DeviceInfo& device) { return core::strided_range(device, mrag_work_group, 32); }

namespace {

// The fill's work-items per block for `blocks` listed blocks: a block's nodes and ghosts take fewer passes
// with more work-items, but fewer blocks are then in flight. Few blocks leave compute units idle and take
// up to 512; more blocks than the compute units hold at once (some 1,024 work-items each) take down to 128,
// below which each work-item would chain too many dependent gathers (docs/mrag.md, Ghosts).
std::size_t fill_group(std::size_t blocks, const core::DeviceInfo& device, std::size_t kernel_limit) {
  std::size_t group = 512;
  while (group > 128 && blocks * group > std::size_t{device.compute_units} * 1024) group /= 2;
  return std::min(group, kernel_limit);
}

// mrag_ghosts.cl's ALL_GROUPS: a fill outside local time steps.
constexpr cl_uint all_groups = 0xFFFFFFFFu;

// The side (west, east, south, north) of a band cell without corners.
int side_of(int i, int j, int s) { return i < 0 ? 0 : i >= s ? 1 : j < 0 ? 2 : 3; }

// The cell a side's ghost (i, j) copies in the neighbouring block of the same level.
std::uint32_t copied_cell(int i, int j, int s) {
  const int x = i < 0 ? i + s : i >= s ? i - s : i, y = j < 0 ? j + s : j >= s ? j - s : j;
  return static_cast<std::uint32_t>(x + s * y);
}

}  // namespace

std::array<cl_uint, 4> direct_sides(const GhostRecipe& recipe, int s, int width) {
  const std::vector<std::pair<int, int>> cells = ghost_cells(s, width, false);
  std::array<cl_uint, 4> named;
  named.fill(no_neighbour);
  bool broken[4] = {false, false, false, false};
  for (std::size_t g = 0; g < cells.size(); ++g) {
    const auto [i, j] = cells[g];
    const int side = side_of(i, j, s);
    const std::uint32_t first = recipe.first[g], last = recipe.first[g + 1];
    if (last != first + 1) {
      broken[side] = true;
      continue;
    }
    const GhostSource& t = recipe.sources[first];
    const bool copy = t.weight == 1 && t.flip == 0 && t.block < recipe.slots.size() &&
                      recipe.slots[t.block].level == 0 && t.cell == copied_cell(i, j, s);
    if (!copy || (named[side] != no_neighbour && named[side] != t.block)) broken[side] = true;
    named[side] = t.block;
  }
  for (int side = 0; side < 4; ++side)
    if (broken[side]) named[side] = no_neighbour;
  return named;
}

std::vector<cl_uint> direct_neighbours(std::span<const std::array<cl_uint, 4>> sides, const GhostPlan& plan) {
  const std::size_t blocks = plan.kind.size();
  std::vector<cl_uint> out(4 * blocks, no_neighbour);
  for (std::size_t b = 0; b < blocks; ++b)
    for (std::size_t side = 0; side < 4; ++side) {
      const cl_uint slot = sides[plan.kind[b]][side];
      if (slot != no_neighbour) out[4 * b + side] = plan.slot_leaf[plan.slot_first[b] + slot];
    }
  return out;
}

template <class Real>
DeviceGhosts<Real>::DeviceGhosts(const core::Queue& queue, std::shared_ptr<const DeviceRecipes<Real>> recipes,
                                 const GhostPlan& plan, const LeafList& own, bool direct, DeviceGhosts* recycled)
    : recipes_(std::move(recipes)), options_(precision_of<Real>) {
  const GhostRecipes& kinds = recipes_->recipes();
  const int s = kinds.block(), width = kinds.width();
  const std::vector<std::pair<int, int>> cells = ghost_cells(s, width, kinds.corners());
  const std::size_t blocks = plan.kind.size(), count = cells.size();
  const std::vector<cl_uint> neighbours =
      direct && !kinds.corners() ? direct_neighbours(recipes_->direct_sides(), plan)
                                 : std::vector<cl_uint>(4 * blocks, no_neighbour);
  // Each own block with a side to fill, with its kind, its slots and its nodes, which follow one another in
  // own order.
  std::vector<cl_uint> listed;
  cl_uint nodes = 0;
  for (const std::uint32_t b : own) {
    if (std::all_of(&neighbours[4 * b], &neighbours[4 * b + 4], [](cl_uint n) { return n != no_neighbour; }))
      continue;
    listed.insert(listed.end(), {b, plan.kind[b], plan.slot_first[b], nodes});
    nodes += static_cast<cl_uint>(kinds.kind(plan.kind[b]).nodes());
  }
  count_ = listed.size() / 4;
  // The tables of `recycled` are written over where they are large enough.
  blocks_ = core::upload_into(queue, listed, core::taken_from(recycled, &DeviceGhosts::blocks_));
  slot_leaf_ = core::upload_into(queue, plan.slot_leaf, core::taken_from(recycled, &DeviceGhosts::slot_leaf_));
  neighbours_ = core::upload_into(queue, neighbours, core::taken_from(recycled, &DeviceGhosts::neighbours_));
  // The band's layout and the inflow states depend on the band and the sides alone: those of `recycled`
  // serve as they are.
  if (recycled) {
    ghost_side_ = std::exchange(recycled->ghost_side_, {});
    inflow_ = std::exchange(recycled->inflow_, {});
    slots_ = std::exchange(recycled->slots_, {});
  } else {
    std::vector<cl_uchar> side(count);
    const int span = s + 2 * width;
    std::vector<cl_int> slots(static_cast<std::size_t>(span) * span, -1);
    for (std::size_t g = 0; g < count; ++g) {
      const auto [i, j] = cells[g];
      side[g] = static_cast<cl_uchar>(side_of(i, j, s));
      slots[static_cast<std::size_t>((j + width) * span + i + width)] = static_cast<cl_int>(g);
    }
    std::vector<Real> inflow;
    for (const FaceState& w : kinds.sides().inflow)
      for (const double q : conserved(w)) inflow.push_back(static_cast<Real>(q));
    ghost_side_ = core::upload(queue, side, CL_MEM_READ_ONLY);
    inflow_ = core::upload(queue, inflow, CL_MEM_READ_ONLY);
    slots_ = core::upload(queue, slots, CL_MEM_READ_ONLY);
  }
  ghosts_ = core::at_least(queue.context(), core::taken_from(recycled, &DeviceGhosts::ghosts_),
                           std::max<std::size_t>(blocks * fields * count, 1));
  nodes_ = core::at_least(queue.context(), core::taken_from(recycled, &DeviceGhosts::nodes_),
                          std::max<std::size_t>(std::size_t{nodes} * fields, 1));
  options_.define("BLOCK", s).define("GHOSTS", width).define("GHOST_COUNT", static_cast<long long>(count));
  options_.define("NO_NEIGHBOUR", static_cast<long long>(no_neighbour));
  options_.define("RECIPE_SLICE", static_cast<long long>(recipe_slice));
  fill_ = queue.context().program("mrag/mrag_ghosts.cl", options_).kernel("mrag_fill_ghosts");
  core::KernelArgs args(fill_);
  args.add(static_cast<cl_uint>(count_)).add(blocks_).add(slot_leaf_).add(neighbours_).add(ghost_side_);
  recipes_->add_tables(args);
  args.add(inflow_);
  stage_args_ = args.next();
  args.skip(8).add(nodes_).add(ghosts_);
  const core::DeviceInfo& device = queue.context().device().info;
  const std::size_t group = fill_group(count_, device, fill_.max_work_group(queue));
  global_ = core::strided_range(device, group, 32);
  local_ = core::NDRange(group);
}

template <class Real>
void DeviceGhosts<Real>::fill(const core::Queue& queue, const core::Buffer<Real>& data, const StageTime* time) {
  core::KernelArgs args(fill_, stage_args_);
  args.add(data);
  // Without a stage time every leaf is read from `data`; the other buffers stand in for arguments not read.
  if (time) {
    args.add(time->start).add(time->first_stage).add(time->state).add(time->groups).add(time->group);
    args.add(time->weights).add(time->weight_first);
  } else {
    args.add(data).add(data).add(data).add(blocks_).add(all_groups).add(inflow_).add(cl_uint{0});
  }
  if (count_ > 0) fill_.enqueue(queue, global_, local_);
}

template class DeviceGhosts<float>;
template class DeviceGhosts<double>;

}  // namespace hetflow::mrag
