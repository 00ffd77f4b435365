#include "hetflow/mrag/local_steps.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "hetflow/core/error.hpp"
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
                             double root_size, bool stiffened, const SpatialScheme& scheme, int depth,
                             LocalSteps* recycled)
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
  per_leaf_ = fields * static_cast<std::size_t>(s) * s;
  // A buffer of `size` values: recycled's `member` where it is large enough.
  const auto taken = [&](core::Buffer<Real> LocalSteps::*member, std::size_t size) {
    return core::at_least(context, core::taken_from(recycled, member), size);
  };
  face_sums_ = taken(&LocalSteps::face_sums_, leaf_count_ * 4 * static_cast<std::size_t>(s) * (fields + 1));
  face_sums_.fill(queue, Real{0});
  const GhostPlan plan = recipes->plan(queue, grid);
  for (std::size_t k = 0; k < groups_.size(); ++k) {
    Group& g = groups_[k];
    if (g.count == 0) continue;  // a level between the coarsest and the finest that holds no leaf
    LeafList own(g.count);
    for (std::uint32_t i = 0; i < g.count; ++i) own[i] = g.first + i;
    typename BlockRhs<Real>::Part part{own, recipes, plan, owned_entries(reflux, own), nullptr, &face_sums_};
    BlockRhs<Real>* before = recycled && k < recycled->groups_.size() ? recycled->groups_[k].rhs.get() : nullptr;
    g.rhs = std::make_unique<BlockRhs<Real>>(queue, tree, std::move(part), s, root_size, stiffened, scheme, before);
  }
  start_ = taken(&LocalSteps::start_, values());
  first_stage_ = taken(&LocalSteps::first_stage_, values());
  second_stage_ = taken(&LocalSteps::second_stage_, values());
  rate_inv_h_ = core::upload(queue, rate_inv_h, CL_MEM_READ_ONLY);
  leaves_ = core::upload(queue, all_leaves(leaf_count_), CL_MEM_READ_ONLY);
  group_of_ = core::upload(queue, group_of, CL_MEM_READ_ONLY);
}

template <class Real>
void LocalSteps<Real>::step(core::Buffer<Real>& state, double dt, TimeScheme scheme) {
  if (state.size() < values())
    throw core::Error("mrag: local time steps of " + std::to_string(values()) + " values given a state of " +
                      std::to_string(state.size()));
  state_ = &state;
  dt_ = dt;
  if (planned_ != scheme) {
    planning_ = true;
    plan_.clear();
    walk(scheme);
    time_weights_ = core::upload(queue_, plan_, CL_MEM_READ_ONLY);
    planning_ = false;
    planned_ = scheme;
  }
  walk(scheme);
}

template <class Real>
void LocalSteps<Real>::walk(TimeScheme scheme) {
  scheme_ = scheme;
  stage_index_ = 0;
  // Every group starts where the last step left it: done, its dense output at its end.
  for (std::size_t g = 0; g < groups_.size(); ++g) {
    groups_[g].start = -length(g);
    groups_[g].begun = false;
  }
  advance(0, 0, false);
}

template <class Real>
double LocalSteps<Real>::step_of(std::size_t g) const {
  return dt_ * static_cast<double>(length(g)) / static_cast<double>(length(0));
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
  if (!planning_ && groups_[g].rhs) groups_[g].rhs->correct_sums(queue_, start_, *state_);
}

template <class Real>
void LocalSteps<Real>::begin(std::size_t g, Tick start) {
  Group& group = groups_[g];
  group.start = start;
  group.begun = true;
  if (group.count == 0) return;
  const std::size_t first = group.first * per_leaf_;
  if (!planning_) start_.copy_from(queue_, *state_, first, first, group.count * per_leaf_);
  // The first stage, q⁽¹⁾ = qⁿ + Δt L(qⁿ), weighs 1/6 (third order) or 1/2 (second) of the step's flux.
  const double dt = step_of(g);
  stage(g, start, *state_, *state_, first_stage_, 0, 1, dt, (scheme_ == TimeScheme::ssp_rk3 ? 1.0 / 6 : 0.5) * dt);
}

template <class Real>
void LocalSteps<Real>::finish(std::size_t g) {
  Group& group = groups_[g];
  const Tick t = group.start, step = length(g);
  const double dt = step_of(g);
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
  const std::size_t first_weight = 3 * groups_.size() * stage_index_++;
  if (planning_) {
    // Group h at time t: a finished step's dense output, or a begun step's first stage extended linearly.
    for (const Group& source : groups_) {
      const double theta =
          static_cast<double>(t - source.start) / static_cast<double>(length(&source - groups_.data()));
      plan_.push_back(static_cast<Real>(1 - theta));
      plan_.push_back(static_cast<Real>(source.begun ? theta : theta * (1 - theta)));
      plan_.push_back(static_cast<Real>(source.begun ? 0 : theta * theta));
    }
    return;
  }
  const typename DeviceGhosts<Real>::StageTime time{start_,     first_stage_,    *state_,
                                                    group_of_,  static_cast<cl_uint>(g), time_weights_,
                                                    static_cast<cl_uint>(first_weight)};
  groups_[g].rhs->update(queue_, data, q0, out, a, c, d, &time, face_weight);
}

template class LocalSteps<float>;
template class LocalSteps<double>;

}  // namespace hetflow::mrag
