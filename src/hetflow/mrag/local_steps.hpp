#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "hetflow/core/buffer.hpp"
#include "hetflow/core/context.hpp"
#include "hetflow/core/kernel.hpp"
#include "hetflow/mrag/block_rhs.hpp"
#include "hetflow/mrag/block_tree.hpp"
#include "hetflow/mrag/device_blocks.hpp"
#include "hetflow/mrag/device_recipes.hpp"
#include "hetflow/mrag/leaf_grid.hpp"
#include "hetflow/mrag/reflux_table.hpp"
#include "hetflow/mrag/spatial_scheme.hpp"

namespace hetflow::mrag {

// The group of each leaf (tree order) when the finest `depth` levels present step locally: the finest
// level's is min(depth, finest − coarsest), each coarser level's one less, down to 0, which the coarser
// levels share. A leaf of group g takes 2^g steps per step of group 0.
std::vector<std::uint32_t> local_step_groups(const BlockTree& tree, int depth);

// Local time steps on one device (docs/mrag.md, Time integration): the leaves fall into groups by level
// (local_step_groups), each group's step half the next coarser group's. A step of group 0 runs the groups
// coarse first, each finer group twice within its coarser neighbour's step (Berger & Colella's
// subcycling). A stage reads the leaves of other groups at its own time: a coarser group, which has
// finished its step, from its dense output q(θ) = (1 − θ) qⁿ + θ(1 − θ) q⁽¹⁾ + θ² qⁿ⁺¹ (second order, for
// both Runge–Kutta schemes), a finer one, which has made only its first stage, from qⁿ + θ (q⁽¹⁾ − qⁿ).
// Each boundary face sums its fluxes over a group's step; after the finer groups have caught up, the
// coarse faces at resolution jumps take the finer faces' sums, so the step conserves what the global one
// does.
template <class Real>
class LocalSteps {
 public:
  // `reflux` and `grid` are `tree`'s; depth ≥ 1. The stage and face buffers and the groups' right-hand
  // sides' of `recycled` (the local steps of the tree before an adaptation) are taken over, as BlockRhs
  // takes its predecessor's.
  LocalSteps(const core::Queue& queue, const BlockTree& tree, const LeafGrid& grid, const RefluxTable& reflux,
             std::shared_ptr<DeviceRecipes<Real>> recipes, int s, double root_size, bool stiffened,
             const SpatialScheme& scheme, int depth, LocalSteps* recycled = nullptr);

  // Advances `state` (block data of the tree) by dt, group 0's step.
  void step(core::Buffer<Real>& state, double dt, TimeScheme scheme);

  // Per leaf 1/h divided by 2^group: the largest signal speed times it gives the rate whose CFL step is
  // group 0's.
  const core::Buffer<Real>& rate_inv_h() const { return rate_inv_h_; }
  const core::Buffer<cl_uint>& leaves() const { return leaves_; }
  std::size_t leaf_count() const { return leaf_count_; }
  std::size_t groups() const { return groups_.size(); }
  std::size_t values() const { return leaf_count_ * per_leaf_; }

 private:
  // Times count halves of the finest group's step, so that stage times and their fractions are exact.
  using Tick = std::int64_t;
  struct Group {
    std::uint32_t first = 0, count = 0;  // its leaves, consecutive in tree order
    std::unique_ptr<BlockRhs<Real>> rhs;
    Tick start = 0;      // the time its present or last step began
    bool begun = false;  // made its first stage only
  };

  Tick length(std::size_t g) const { return Tick{2} << (groups_.size() - 1 - g); }
  // Walks a step: steps group g from `start` and the finer groups within it; `begun`: its first stage is
  // made. While planning_ it records each stage's weights of the groups' times instead of enqueuing: they
  // depend on the scheme's schedule alone, so one walk serves every step of the scheme.
  void walk(TimeScheme scheme);
  void advance(std::size_t g, Tick start, bool begun);
  void begin(std::size_t g, Tick start);
  void finish(std::size_t g);
  void stage(std::size_t g, Tick t, const core::Buffer<Real>& data, const core::Buffer<Real>& q0,
             core::Buffer<Real>& out, double a, double c, double d, double face_weight);
  // The step of group g.
  double step_of(std::size_t g) const;

  const core::Queue& queue_;
  std::vector<Group> groups_;
  core::Buffer<Real> start_, first_stage_, second_stage_, face_sums_, rate_inv_h_, time_weights_;
  core::Buffer<cl_uint> leaves_, group_of_;
  std::size_t leaf_count_ = 0, per_leaf_ = 0;
  // The scheme whose stage weights time_weights_ holds, if any.
  std::optional<TimeScheme> planned_;
  bool planning_ = false;
  std::vector<Real> plan_;
  std::size_t stage_index_ = 0;
  // The present step's.
  core::Buffer<Real>* state_ = nullptr;
  double dt_ = 0;
  TimeScheme scheme_ = TimeScheme::ssp_rk3;
};

}  // namespace hetflow::mrag
