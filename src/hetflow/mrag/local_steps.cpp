#include "hetflow/mrag/local_steps.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "hetflow/core/build_options.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/core/kernel_args.hpp"
#include "hetflow/core/program.hpp"
#include "hetflow/mrag/device_ghosts.hpp"

namespace hetflow::mrag {

std::vector<std::uint32_t> local_step_groups(const BlockTree& tree, int depth) {
  int coarsest = tree.max_level(), finest = 0;
  for (const BlockKey& leaf : tree.leaves()) {
    coarsest = std::min(coarsest, leaf.level);
    finest = std::max(finest, leaf.level);
  }
  const int finer_groups = std::min(depth, finest - coarsest);
  std::vector<std::uint32_t> groups;
  for (const BlockKey& leaf : tree.leaves())
    groups.push_back(static_cast<std::uint32_t>(std::max(0, leaf.level - (finest - finer_groups))));
  return groups;
}

template <class Real>
LocalSteps<Real>::LocalSteps(const core::Queue& queue, const BlockTree& tree, const LeafGrid& grid,
                             const RefluxTable& reflux, std::shared_ptr<DeviceRecipes<Real>> recipes, int s,
                             double root_size, bool stiffened, const SpatialScheme& scheme, int depth)
    : queue_(queue) {
  if (depth < 1) throw core::Error("mrag: local time steps need a depth of at least 1, not " + std::to_string(depth));
  // Leaves are in level order, so each group's leaves follow one another.
  const std::vector<std::uint32_t> group_of = local_step_groups(tree, depth);
  std::vector<Real> rate_inv_h;
  std::size_t index = 0;
  for (const BlockKey& leaf : tree.leaves())
    rate_inv_h.push_back(
        static_cast<Real>(s * static_cast<double>(1 << leaf.level) / root_size / (1 << group_of[index++])));
  groups_.resize(*std::max_element(group_of.begin(), group_of.end()) + std::size_t{1});
  for (std::uint32_t b = 0; b < group_of.size(); ++b) {
    Group& g = groups_[group_of[b]];
    if (g.count++ == 0) g.first = b;
  }
  const core::Context& context = queue.context();
  leaf_count_ = group_of.size();
  const std::size_t block_values = fields * static_cast<std::size_t>(s) * s;
  face_sums_ = core::Buffer<Real>(context, leaf_count_ * 4 * static_cast<std::size_t>(s) * (fields + 1));
  face_sums_.fill(queue, Real{0});
  const GhostPlan plan = recipes->plan(queue, tree, grid);
  std::vector<std::uint32_t> others;
  std::size_t widest = 1;
  for (std::size_t k = 0; k < groups_.size(); ++k) {
    Group& g = groups_[k];
    LeafList own(g.count);
    for (std::uint32_t i = 0; i < g.count; ++i) own[i] = g.first + i;
    LeafList other;
    for (const std::uint32_t b : own)
      for (std::uint32_t slot = plan.slot_first[b]; slot < plan.slot_first[b + 1]; ++slot)
        if (group_of[plan.slot_leaf[slot]] != k) other.push_back(plan.slot_leaf[slot]);
    std::sort(other.begin(), other.end());
    other.erase(std::unique(other.begin(), other.end()), other.end());
    g.from_group.assign(groups_.size() + 1, 0);
    for (const std::uint32_t b : other) ++g.from_group[group_of[b] + 1];
    for (std::size_t h = 0; h < groups_.size(); ++h) g.from_group[h + 1] += g.from_group[h];
    g.offset = static_cast<std::uint32_t>(others.size());
    others.insert(others.end(), other.begin(), other.end());
    widest = std::max(widest, other.size());
    if (g.count == 0) continue;  // a level between the coarsest and the finest that holds no leaf
    g.rhs = std::make_unique<BlockRhs<Real>>(
        queue, tree,
        typename BlockRhs<Real>::Part{own, recipes, plan, owned_entries(reflux, own), nullptr, other, &face_sums_}, s,
        root_size, stiffened, scheme);
  }
  const std::size_t values = leaf_count_ * block_values;
  for (core::Buffer<Real>* b : {&start_, &first_stage_, &second_stage_}) *b = core::Buffer<Real>(context, values);
  view_ = core::Buffer<Real>(context, widest * block_values);
  rate_inv_h_ = core::upload(queue, rate_inv_h, CL_MEM_READ_ONLY);
  leaves_ = core::upload(queue, all_leaves(leaf_count_), CL_MEM_READ_ONLY);
  others.push_back(0);  // a buffer is never empty
  leaves_of_others_ = core::upload(queue, others, CL_MEM_READ_ONLY);
  core::BuildOptions options(precision_of<Real>);
  options.define("BLOCK", s);
  view_kernel_ = context.program("mrag/mrag_local_steps.cl", options).kernel("mrag_local_view");
  global_ = mrag_range(context.device().info);
  local_ = core::NDRange(mrag_work_group);
}

template <class Real>
void LocalSteps<Real>::step(core::Buffer<Real>& state, double dt, TimeScheme scheme) {
  if (state.size() < values())
    throw core::Error("mrag: local time steps of " + std::to_string(values()) + " values given a state of " +
                      std::to_string(state.size()));
  state_ = &state;
  dt_ = dt;
  scheme_ = scheme;
  // Every group starts where the last step left it: done, its dense output at its end.
  for (std::size_t g = 0; g < groups_.size(); ++g) {
    groups_[g].start = -length(g);
    groups_[g].begun = false;
  }
  advance(0, 0, false);
}

template <class Real>
void LocalSteps<Real>::advance(std::size_t g, Tick start, bool begun) {
  if (!begun)
    for (std::size_t h = g; h < groups_.size(); ++h) begin(h, start);
  finish(g);
  if (g + 1 < groups_.size()) {
    advance(g + 1, start, true);
    advance(g + 1, start + length(g + 1), false);
  }
  if (groups_[g].rhs) groups_[g].rhs->correct_sums(queue_, start_, *state_);
}

template <class Real>
void LocalSteps<Real>::begin(std::size_t g, Tick start) {
  Group& group = groups_[g];
  group.start = start;
  group.begun = true;
  if (group.count == 0) return;
  const std::size_t per_leaf = values() / leaf_count_;
  start_.copy_from(queue_, *state_, group.first * per_leaf, group.first * per_leaf, group.count * per_leaf);
  // The first stage, q⁽¹⁾ = qⁿ + Δt L(qⁿ), weighs 1/6 (third order) or 1/2 (second) of the step's flux.
  const double dt = dt_ * static_cast<double>(length(g)) / static_cast<double>(length(0));
  stage(g, start, *state_, *state_, first_stage_, 0, 1, dt, (scheme_ == TimeScheme::ssp_rk3 ? 1.0 / 6 : 0.5) * dt);
}

template <class Real>
void LocalSteps<Real>::finish(std::size_t g) {
  Group& group = groups_[g];
  const Tick t = group.start, step = length(g);
  const double dt = dt_ * static_cast<double>(step) / static_cast<double>(length(0));
  if (group.count > 0) {
    // The later stages of the SSP schemes (device_blocks.cpp), with their weights of the step's flux.
    if (scheme_ == TimeScheme::ssp_rk3) {
      stage(g, t + step, first_stage_, start_, second_stage_, 0.75, 0.25, 0.25 * dt, dt / 6);
      stage(g, t + step / 2, second_stage_, start_, *state_, 1.0 / 3, 2.0 / 3, 2.0 / 3 * dt, 2.0 / 3 * dt);
    } else {
      stage(g, t + step, first_stage_, start_, *state_, 0.5, 0.5, 0.5 * dt, 0.5 * dt);
    }
  }
  group.begun = false;
}

template <class Real>
void LocalSteps<Real>::stage(std::size_t g, Tick t, const core::Buffer<Real>& data, const core::Buffer<Real>& q0,
                             core::Buffer<Real>& out, double a, double c, double d, double face_weight) {
  const Group& group = groups_[g];
  const cl_uint per_leaf = static_cast<cl_uint>(values() / leaf_count_);
  for (std::size_t h = 0; h < groups_.size(); ++h) {
    const std::uint32_t from = group.from_group[h], count = group.from_group[h + 1] - from;
    if (count == 0) continue;
    // Group h at time t: a finished step's dense output, or a begun step's first stage extended linearly.
    const Group& source = groups_[h];
    const double theta = static_cast<double>(t - source.start) / static_cast<double>(length(h));
    const double weight_start = 1 - theta, weight_first = source.begun ? theta : theta * (1 - theta),
                 weight_state = source.begun ? 0 : theta * theta;
    core::KernelArgs(view_kernel_, precision_of<Real>)
        .add(static_cast<cl_uint>(group.offset + from))
        .add(count)
        .add(from)
        .add(per_leaf)
        .add(leaves_of_others_)
        .real(weight_start)
        .real(weight_first)
        .real(weight_state)
        .add(start_)
        .add(first_stage_)
        .add(*state_)
        .add(view_);
    view_kernel_.enqueue(queue_, global_, local_);
  }
  group.rhs->update(queue_, data, q0, out, a, c, d, &view_, face_weight);
}

template class LocalSteps<float>;
template class LocalSteps<double>;

}  // namespace hetflow::mrag
