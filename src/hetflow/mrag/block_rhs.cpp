#include "hetflow/mrag/block_rhs.hpp"

#include <algorithm>
#include <iterator>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "hetflow/core/device.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/core/kernel_args.hpp"
#include "hetflow/core/program.hpp"
#include "hetflow/mrag/reflux_table.hpp"

namespace hetflow::mrag {
namespace {

// A part's leaves in the order its update takes them: first those whose cells or faces other parts read
// (`sent`) and the leaves whose faces the flux corrections of those read, then the rest, each ascending;
// `edge` of the first kind. Its flux corrections: the `reflux` entries of sent leaves, `sent` of them with
// `sent_x` on x sides first, then the others', with `other_x` on x sides first.
struct LeafOrder {
  LeafList leaves;
  std::size_t edge = 0;
  RefluxTable reflux;
  std::size_t sent_x = 0, sent = 0, other_x = 0;
};

LeafOrder leaf_order(const LeafList& own, const LeafList& sent, RefluxTable reflux) {
  LeafOrder order;
  if (sent.empty()) {  // one part, or a group of local steps: the table as it is
    order.leaves = own;
    order.other_x = reflux.x_entries;
    order.reflux = std::move(reflux);
    return order;
  }
  LeafList edge = sent;
  for (const RefluxEntry& e : reflux.entries)
    if (std::binary_search(sent.begin(), sent.end(), e.coarse_block)) edge.push_back(e.fine_block);
  std::sort(edge.begin(), edge.end());
  std::set_intersection(own.begin(), own.end(), edge.begin(), edge.end(), std::back_inserter(order.leaves));
  order.leaves.erase(std::unique(order.leaves.begin(), order.leaves.end()), order.leaves.end());
  order.edge = order.leaves.size();
  LeafList rest;
  std::set_difference(own.begin(), own.end(), order.leaves.begin(), order.leaves.end(), std::back_inserter(rest));
  order.leaves.insert(order.leaves.end(), rest.begin(), rest.end());
  LeafList others;
  std::set_difference(own.begin(), own.end(), sent.begin(), sent.end(), std::back_inserter(others));
  const RefluxTable other = owned_entries(reflux, others);
  order.reflux = owned_entries(reflux, sent);
  order.sent_x = order.reflux.x_entries;
  order.sent = order.reflux.size();
  order.other_x = other.x_entries;
  append_entries(order.reflux, other);
  return order;
}

}  // namespace

template <class Real>
BlockRhs<Real>::BlockRhs(const core::Queue& queue, const BlockTree& tree, int s, const Sides& sides, double root_size,
                         bool stiffened, const SpatialScheme& scheme)
    : BlockRhs(queue, tree, whole_tree(queue, tree, s, sides), s, root_size, stiffened, scheme) {}

template <class Real>
typename BlockRhs<Real>::Part BlockRhs<Real>::whole_tree(const core::Queue& queue, const BlockTree& tree, int s,
                                                          const Sides& sides) {
  auto recipes = std::make_shared<DeviceRecipes<Real>>(queue.context(), s, rhs_ghosts, false, sides);
  const LeafGrid grid(tree);
  GhostPlan plan = recipes->plan(queue, grid);
  return Part{all_leaves(tree.leaves().size()), std::move(recipes), std::move(plan),
              reflux_table(grid, s, sides), nullptr, nullptr};
}

template <class Real>
BlockRhs<Real>::BlockRhs(const core::Queue& queue, const BlockTree& tree, Part part, int s, double root_size,
                         bool stiffened, const SpatialScheme& scheme, BlockRhs* recycled)
    : blocks_(tree.leaves().size()),
      cells_(static_cast<std::size_t>(s) * s),
      halo_(part.halo),
      ghosts_(queue, part.recipes, part.band, part.own, true, recycled ? &recycled->ghosts_ : nullptr) {
  if (part.face_sums && part.halo) throw core::Error("block right-hand side: local time steps run without a halo");
  LeafOrder order = leaf_order(part.own, halo_ ? halo_->sent_leaves() : LeafList{}, std::move(part.reflux));
  own_ = core::upload_into(queue, order.leaves, core::taken_from(recycled, &BlockRhs::own_));
  own_count_ = order.leaves.size();
  edge_count_ = order.edge;
  std::vector<Real> inv_h;
  for (const BlockKey& leaf : tree.leaves())
    inv_h.push_back(static_cast<Real>(s * static_cast<double>(1 << leaf.level) / root_size));
  inv_h_ = core::upload_into(queue, inv_h, core::taken_from(recycled, &BlockRhs::inv_h_));
  if (part.face_sums) {
    faces_ = part.face_sums;
  } else {
    own_faces_ = core::at_least(queue.context(), core::taken_from(recycled, &BlockRhs::own_faces_),
                                blocks_ * 4 * static_cast<std::size_t>(s) * (fields + 1));
    faces_ = &own_faces_;
  }
  // A work-item per y face of a tile, which covers its x faces and its cells too; the tile's primitives with
  // their band and its faces' fluxes have to fit the device's local memory and work-group.
  const core::DeviceInfo& device = queue.context().device().info;
  const auto tile_group = [s](int rows) { return static_cast<std::size_t>(s) * (rows + 1); };
  const auto local_bytes = [s](int rows) {
    return sizeof(Real) * (fields * (rows + 2 * rhs_ghosts) * (s + 2 * rhs_ghosts) + (fields + 1) * s * (rows + 1));
  };
  while (tile_rows_ > 1 && (s % tile_rows_ != 0 || local_bytes(tile_rows_) > device.local_mem ||
                            tile_group(tile_rows_) > device.max_work_group))
    tile_rows_ /= 2;
  if (local_bytes(tile_rows_) > device.local_mem || tile_group(tile_rows_) > device.max_work_group)
    throw core::Error("block right-hand side: blocks of " + std::to_string(s) + "² cells need " +
                      std::to_string(local_bytes(1)) + " bytes of local memory and work-groups of " +
                      std::to_string(tile_group(1)) + " on " + device.name + ", which has " +
                      std::to_string(device.local_mem) + " and " + std::to_string(device.max_work_group));
  core::BuildOptions options = ghosts_.build_options();
  options.define("ROWS", tile_rows_);
  options.define("TILE_GROUP", static_cast<long>(tile_group(tile_rows_)));
  std::size_t reduction = 1;  // the least power of two not below the work-group
  while (reduction < tile_group(tile_rows_)) reduction *= 2;
  options.define("TILE_REDUCTION", static_cast<long>(reduction));
  options.define("STIFFENED", stiffened ? 1 : 0);
  options.define("HLLC", scheme.riemann == RiemannSolver::hllc ? 1 : 0);
  options.define("FACE_SUMS", part.face_sums ? 1 : 0);
  // The stage's loads go first in FP64 and last in FP32, where the registers they would hold through the
  // sweeps cost more than the wait (docs/mrag.md, Right-hand side on the device).
  options.define("EARLY_STAGE_LOADS", std::is_same_v<Real, double> ? 1 : 0);
  if (scheme.colour) scheme.colour->define(options);
  const core::Program& program = queue.context().program("mrag/mrag_rhs.cl", options);
  update_ = program.kernel("mrag_update");
  rates_ = core::at_least(queue.context(), core::taken_from(recycled, &BlockRhs::rates_),
                          std::max<std::size_t>(own_count() * (s / tile_rows_), 1));
  core::KernelArgs(update_, precision_of<Real>, 3)
      .add(inv_h_)
      .skip()
      .add(ghosts_.ghosts())
      .add(ghosts_.slots())
      .add(ghosts_.neighbours())
      .skip(2)
      .add(*faces_)
      .add(rates_)
      .add(own());
  tile_group_ = core::NDRange(tile_group(tile_rows_));
  tiles_per_leaf_ = static_cast<std::size_t>(s / tile_rows_);
  const RefluxTable& table = order.reflux;
  groups_ = {std::pair{std::size_t{0}, order.sent_x}, std::pair{order.sent_x, order.sent - order.sent_x},
             std::pair{order.sent, order.other_x},
             std::pair{order.sent + order.other_x, table.size() - order.sent - order.other_x}};
  // mrag_rhs.cl's layout of an entry: coarse block, fine block, first cell, side | depth << 2.
  std::vector<cl_uint4> entries(table.size());
  for (std::size_t e = 0; e < table.size(); ++e) {
    const RefluxEntry& r = table.entries[e];
    entries[e] = cl_uint4{{r.coarse_block, r.fine_block, r.first_cell, r.side | r.depth << 2}};
  }
  reflux_entries_ = core::upload_into(queue, entries, core::taken_from(recycled, &BlockRhs::reflux_entries_));
  reflux_ = program.kernel("mrag_reflux");
  core::KernelArgs(reflux_).skip(3).add(reflux_entries_).add(inv_h_).skip().add(*faces_);
  global_ = mrag_range(queue.context().device().info);
  local_ = core::NDRange(mrag_work_group);
}

template <class Real>
void BlockRhs<Real>::operator()(const core::Queue& queue, const core::Buffer<Real>& data, core::Buffer<Real>& rhs) {
  update(queue, data, data, rhs, 0, 0, 1);
}

template <class Real>
void BlockRhs<Real>::update(const core::Queue& queue, const core::Buffer<Real>& data, const core::Buffer<Real>& q0,
                            core::Buffer<Real>& out, double a, double c, double d,
                            const typename DeviceGhosts<Real>::StageTime* time, double face_weight) {
  if (data.size() < values() || q0.size() < values() || out.size() < values())
    throw core::Error("block right-hand side: buffers of " + std::to_string(data.size()) + ", " +
                      std::to_string(q0.size()) + " and " + std::to_string(out.size()) + " values for " +
                      std::to_string(values()));
  ghosts_.fill(queue, data, time);
  core::KernelArgs(update_, precision_of<Real>).real(a).real(c).real(d);
  core::KernelArgs(update_, precision_of<Real>, 14).real(face_weight);
  update_.set(4, data);
  update_.set(8, q0);
  update_.set(9, out);
  core::KernelArgs(reflux_, precision_of<Real>, 2).real(d);
  reflux_.set(5, data);
  reflux_.set(7, out);
  if (faces_ != &own_faces_) {  // a local time step's group, corrected by correct_sums()
    update_leaves(queue, 0, own_count_);
    return;
  }
  // The leaves other parts read are updated and corrected first, so that their cells travel while the
  // rest is updated.
  update_leaves(queue, 0, edge_count_);
  if (halo_) halo_->exchange_faces(*faces_);
  correct(queue, 0);
  if (halo_) halo_->begin_cells(out);
  update_leaves(queue, edge_count_, own_count_ - edge_count_);
  correct(queue, 2);
  if (halo_) halo_->end_cells(out);
}

template <class Real>
void BlockRhs<Real>::correct_sums(const core::Queue& queue, const core::Buffer<Real>& start,
                                  core::Buffer<Real>& state) {
  core::KernelArgs(reflux_, precision_of<Real>, 2).real(1.0);
  reflux_.set(5, start);
  reflux_.set(7, state);
  correct(queue, 0);
  correct(queue, 2);
}

template <class Real>
void BlockRhs<Real>::update_leaves(const core::Queue& queue, std::size_t first, std::size_t count) {
  if (count == 0) return;
  update_.set(13, static_cast<cl_uint>(first));
  update_.enqueue(queue, core::NDRange(count * tiles_per_leaf_ * tile_group_.size[0]), tile_group_);
}

// The x sides' corrections, then the y sides': a corner cell has one of each.
template <class Real>
void BlockRhs<Real>::correct(const core::Queue& queue, std::size_t first) {
  for (std::size_t g = first; g < first + 2; ++g) {
    const auto [from, count] = groups_[g];
    if (count == 0) continue;
    reflux_.set(0, static_cast<cl_uint>(from));
    reflux_.set(1, static_cast<cl_uint>(count));
    reflux_.enqueue(queue, global_, local_);
  }
}

template class BlockRhs<float>;
template class BlockRhs<double>;

}  // namespace hetflow::mrag
