#include "hetflow/mrag/block_flow.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <span>
#include <string>
#include <utility>

#include "hetflow/core/build_options.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/core/kernel_args.hpp"
#include "hetflow/core/number_text.hpp"
#include "hetflow/core/program.hpp"
#include "hetflow/core/trace.hpp"
#include "hetflow/mrag/stiffened_gas.hpp"

namespace hetflow::mrag {

BlockFlow::BlockFlow(const core::Queue& queue, const BlockTree& tree, int s, const Sides& sides, double root_size,
                     TimeScheme scheme, core::Precision precision, const SpatialScheme& spatial)
    : BlockFlow(device_blocks(queue, precision, s, sides, root_size, spatial), tree, s, sides, root_size, scheme,
                precision, spatial) {}

BlockFlow::BlockFlow(const core::DeviceSet& devices, const BlockTree& tree, int s, const Sides& sides, double root_size,
                     TimeScheme scheme, core::Precision precision, const SpatialScheme& spatial,
                     std::span<const double> weights, core::Link* processes)
    : BlockFlow(device_blocks(devices, weights, processes, precision, s, sides, root_size, spatial), tree, s, sides,
                root_size, scheme, precision, spatial) {}

BlockFlow::BlockFlow(std::unique_ptr<DeviceBlocks> blocks, const BlockTree& tree, int s, const Sides& sides,
                     double root_size, TimeScheme scheme, core::Precision precision, const SpatialScheme& spatial)
    : tree_(tree),
      s_(s),
      sides_(sides),
      root_size_(root_size),
      scheme_(scheme),
      precision_(precision),
      spatial_(spatial),
      blocks_(std::move(blocks)),
      memory_(blocks_->memory()) {
  if (spatial.colour) check(*spatial.colour);
  check_memory(tree_);
}

void BlockFlow::limit_memory(std::uint64_t bytes) {
  memory_ = {std::min(memory_.total, bytes), std::min(memory_.buffer, bytes)};
  check_memory(tree_);
}

void BlockFlow::check_memory(const BlockTree& tree) const {
  const int value_bytes = precision_ == core::Precision::f32 ? 4 : 8;
  const double leaves = static_cast<double>(tree.leaves().size());
  const double total = tree_bytes(leaves, s_, value_bytes), state = state_bytes(leaves, s_, value_bytes);
  if (total <= static_cast<double>(memory_.total) && state <= static_cast<double>(memory_.buffer)) return;
  int finest = 0;
  for (const BlockKey& leaf : tree.leaves()) finest = std::max(finest, leaf.level);
  const auto gib = [](double bytes) { return core::number_text(bytes / 0x1p30, 4) + " GiB"; };
  throw core::Error("mrag: step " + std::to_string(steps_) + " (t = " + core::number_text(time_, 6) + "): a grid of " +
                    std::to_string(tree.leaves().size()) + " blocks of " + std::to_string(s_) + " x " +
                    std::to_string(s_) + " cells, finest level " + std::to_string(finest) + ", would take " +
                    gib(total) + " of device memory (" + gib(state) + " in one buffer), and the flow may use " +
                    gib(static_cast<double>(memory_.total)) + " (" + gib(static_cast<double>(memory_.buffer)) +
                    " in one buffer): raise the refinement threshold, lower the finest level or use a device with "
                    "more memory");
}

std::size_t BlockFlow::values() const { return tree_.leaves().size() * fields * static_cast<std::size_t>(s_) * s_; }

DeviceBlocks& BlockFlow::state() const {
  if (!bound_) throw core::Error("mrag: the flow has no state yet: set() or load() gives it one");
  return *blocks_;
}

template <class F>
void BlockFlow::for_each_cell(F f) const {
  std::size_t b = 0;
  for (const BlockKey& leaf : tree_.leaves()) {
    const double h = root_size_ / (s_ * static_cast<double>(1 << leaf.level));
    for (int j = 0; j < s_; ++j)
      for (int i = 0; i < s_; ++i) f(b, i, j, Cell{(leaf.x * s_ + i + 0.5) * h, (leaf.y * s_ + j + 0.5) * h, h, {}});
    ++b;
  }
}

void BlockFlow::set(const std::function<FaceState(double, double)>& initial) {
  std::vector<double> data(values());
  const std::size_t cells = static_cast<std::size_t>(s_) * s_;
  for_each_cell([&](std::size_t b, int i, int j, const Cell& c) {
    FaceState w = initial(c.x, c.y);
    if (spatial_.colour) {
      if (w.big_pi != 0)
        throw core::Error("mrag: the colour function closes ideal gases only, and the initial state at (" +
                          core::number_text(c.x) + ", " + core::number_text(c.y) + ") is a stiffened gas");
      // The energy follows from Γ as given, the stored closure field is the colour.
      std::array<double, 6> q = mrag::conserved(w);
      q[4] = spatial_.colour->colour(w.big_gamma);
      for (std::size_t f = 0; f < fields; ++f) data[(b * fields + f) * cells + i + s_ * j] = q[f];
      return;
    }
    const std::array<double, 6> q = mrag::conserved(w);
    for (std::size_t f = 0; f < fields; ++f) data[(b * fields + f) * cells + i + s_ * j] = q[f];
  });
  load(data, 0, 0);
}

void BlockFlow::local_time_steps(int depth) {
  if (depth < 0) throw core::Error("mrag: local time steps need a depth of at least 0, not " + std::to_string(depth));
  if (bound_) throw core::Error("mrag: local time steps are chosen before the flow is given a state");
  blocks_->local_steps(depth);
}

double BlockFlow::stable_dt(double cfl) {
  const double rate = state().max_rate();
  if (!std::isfinite(rate) || rate <= 0) throw core::Error(bad_cell_message());
  return cfl / rate;
}

void BlockFlow::step(double dt) {
  state().step(dt, scheme_);
  time_ += dt;
  ++steps_;
  // The device runs the step (queued in order before the adaptation's commands) while the host decides.
  if (pending_) adapt(*std::exchange(pending_, std::nullopt));
}

std::string BlockFlow::bad_cell_message() const {
  std::size_t b = 0, k = 0;
  const std::vector<Cell> all = cells();
  for (const BlockKey& leaf : tree_.leaves()) {
    for (int c = 0; c < s_ * s_; ++c, ++k) {
      const FaceState& w = all[k].state;
      const double speed = sound_speed(w.big_gamma, w.big_pi, w.rho, w.p);  // NaN where c² < 0
      if (std::isfinite(w.rho) && std::isfinite(w.un) && std::isfinite(w.ut) && std::isfinite(speed) && w.rho > 0 &&
          speed > 0)
        continue;
      return "mrag: step " + std::to_string(steps_) + " (t = " + core::number_text(time_) + "): leaf " +
             std::to_string(b) + " (level " + std::to_string(leaf.level) + ", block " + std::to_string(leaf.x) + ", " +
             std::to_string(leaf.y) + "), cell (" + std::to_string(c % s_) + ", " + std::to_string(c / s_) +
             ") holds rho " + core::number_text(w.rho, 6) + ", p " + core::number_text(w.p, 6) +
             ": not finite, or a density or c^2 that is not positive";
    }
    ++b;
  }
  return "mrag: step " + std::to_string(steps_) + " (t = " + core::number_text(time_) +
         "): the largest signal speed is not finite, and no cell read back shows why";
}

std::vector<double> BlockFlow::conserved() const { return state().read(); }

void BlockFlow::load(const std::vector<double>& data, double time, long steps) {
  if (data.size() != values())
    throw core::Error("mrag: " + std::to_string(data.size()) + " values given for a grid of " +
                      std::to_string(values()));
  // Ideal gases alone (Π = 0 in every cell and inflow) let the kernels leave Π out.
  const std::size_t cells = static_cast<std::size_t>(s_) * s_;
  bool stiffened = false;
  for (std::size_t b = 0; b < tree_.leaves().size() && !stiffened; ++b)
    for (std::size_t c = 0; c < cells && !stiffened; ++c) stiffened = data[(b * fields + 5) * cells + c] != 0;
  const Edge edges[4] = {sides_.west, sides_.east, sides_.south, sides_.north};
  for (std::size_t side = 0; side < 4; ++side)
    stiffened = stiffened || (edges[side] == Edge::inflow && sides_.inflow[side].big_pi != 0);
  if (!bound_ || stiffened != stiffened_) {
    stiffened_ = stiffened;
    blocks_->bind(tree_, stiffened_);
    bound_ = true;
  }
  blocks_->write(data);
  pending_.reset();
  time_ = time;
  steps_ = steps;
}

std::vector<BlockFlow::Cell> BlockFlow::cells() const {
  const std::vector<double> data = conserved();
  const std::size_t cells = static_cast<std::size_t>(s_) * s_;
  std::vector<Cell> out;
  for_each_cell([&](std::size_t b, int i, int j, Cell c) {
    std::array<double, 6> q{};
    for (std::size_t f = 0; f < fields; ++f) q[f] = data[(b * fields + f) * cells + i + s_ * j];
    if (spatial_.colour) q[4] = spatial_.colour->big_gamma(q[4]);
    c.state = primitive(q);
    out.push_back(c);
  });
  return out;
}

BlockFlow::Adaptation BlockFlow::adapt(double eps_refine, double eps_compress) {
  adapt_with_next_step(eps_refine, eps_compress);
  return adapt(*std::exchange(pending_, std::nullopt));
}

void BlockFlow::adapt_with_next_step(double eps_refine, double eps_compress) {
  // Host marks on the command timeline (core/trace.hpp) end each phase of an adaptation; the first ends
  // the host's work before it.
  core::trace::mark("mrag adapt: begin");
  pending_ = Details{state().details(tree_), eps_refine, eps_compress};
  core::trace::mark("mrag adapt: details");
}

BlockFlow::Adaptation BlockFlow::adapt(const Details& details) {
  const std::size_t blocks = tree_.leaves().size();
  const std::vector<double>& d = details.values;
  const double eps_refine = details.eps_refine, eps_compress = details.eps_compress;
  // Each field's range over the grid scales its details.
  double range[2];
  for (int k = 0; k < 2; ++k) {
    double low = INFINITY, high = -INFINITY;
    for (std::size_t b = 0; b < blocks; ++b) {
      low = std::min(low, d[6 * b + 2 + 2 * k]);
      high = std::max(high, d[6 * b + 3 + 2 * k]);
    }
    range[k] = high > low ? high - low : 1;
  }
  // The leaves in order (the tree's), found by bisection.
  const std::vector<BlockKey>& leaves = tree_.leaves();
  const auto index_of = [&](const BlockKey& key) -> std::optional<cl_uint> {
    const auto at = std::lower_bound(leaves.begin(), leaves.end(), key);
    if (at == leaves.end() || *at != key) return std::nullopt;
    return static_cast<cl_uint>(at - leaves.begin());
  };
  std::vector<double> detail(blocks);
  for (std::size_t b = 0; b < blocks; ++b) detail[b] = std::max(d[6 * b] / range[0], d[6 * b + 1] / range[1]);
  BlockTree next = tree_;
  Adaptation done;
  for (std::size_t b = 0; b < blocks; ++b)
    if (detail[b] >= eps_refine && leaves[b].level < tree_.max_level() && next.is_leaf(leaves[b])) {
      next.refine(leaves[b]);
      ++done.refined;
    }
  // Groups of four sibling leaves, parents ascending: in the leaves' order a first child (even x and y) is
  // followed by its sibling above, and the two to its right lie together further on.
  for (std::size_t b = 0; b + 1 < blocks; ++b) {
    const BlockKey& first = leaves[b];
    if (first.level == 0 || (first.x & 1) || (first.y & 1) || leaves[b + 1] != first.parent().child(0, 1)) continue;
    const std::optional<cl_uint> right = index_of(first.parent().child(1, 0));
    if (!right || *right + 1 >= blocks || leaves[*right + 1] != first.parent().child(1, 1)) continue;
    const bool quiet = detail[b] < eps_compress && detail[b + 1] < eps_compress && detail[*right] < eps_compress &&
                       detail[*right + 1] < eps_compress;
    if (quiet && next.collapse(first.parent())) ++done.collapsed;
  }
  if (next.leaves() == tree_.leaves()) return done;

  // Where each new leaf's cells come from, by the remap's modes (mrag_adapt.cl's REMAP_COPY, REMAP_PREDICT
  // and REMAP_RESTRICT).
  enum : cl_int { copy = 0, predict = 1, restrict_ = 2 };
  std::vector<cl_int> mode, child;
  std::vector<cl_uint> source;
  // Both trees' leaves ascend, so a kept leaf is found by walking the old ones alongside.
  std::size_t old = 0;
  for (const BlockKey& leaf : next.leaves()) {
    while (old < blocks && leaves[old] < leaf) ++old;
    if (old < blocks && leaves[old] == leaf) {
      mode.push_back(copy);
      source.insert(source.end(), {static_cast<cl_uint>(old), 0, 0, 0});
    } else if (const std::optional<cl_uint> parent = leaf.level > 0 ? index_of(leaf.parent()) : std::nullopt) {
      mode.push_back(predict);
      source.insert(source.end(), {*parent, 0, 0, 0});
    } else {
      mode.push_back(restrict_);
      for (int c = 0; c < 2; ++c)
        for (int a = 0; a < 2; ++a) {
          const std::optional<cl_uint> at = index_of(leaf.child(a, c));
          if (!at) throw core::Error("mrag: adaptation moved a block by more than one level");
          source.push_back(*at);
        }
    }
    child.push_back(leaf.x & 1);
    child.push_back(leaf.y & 1);
  }
  core::trace::mark("mrag adapt: decisions");
  check_memory(next);
  blocks_->remap(next, mode, source, child, stiffened_);
  tree_ = std::move(next);
  return done;
}

}  // namespace hetflow::mrag
