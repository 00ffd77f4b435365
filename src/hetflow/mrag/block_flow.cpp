#include "hetflow/mrag/block_flow.hpp"

#include <algorithm>
#include <cmath>
#include <span>

#include "hetflow/core/build_options.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/core/kernel_args.hpp"
#include "hetflow/core/number_text.hpp"
#include "hetflow/core/program.hpp"

namespace hetflow::mrag {
namespace {

constexpr std::size_t work_group = 64;
constexpr std::size_t groups_per_unit = 32;

}  // namespace

BlockFlow::BlockFlow(const core::Queue& queue, const BlockTree& tree, int s, Edge x_edge, Edge y_edge, double root_size)
    : queue_(queue), tree_(tree), s_(s), root_size_(root_size), rhs_(queue, tree, s, x_edge, y_edge, root_size) {
  const core::Context& context = queue.context();
  q_ = core::Buffer<double>(context, rhs_.values());
  q0_ = core::Buffer<double>(context, rhs_.values());
  dq_ = core::Buffer<double>(context, rhs_.values());
  global_ = core::strided_range(context.device().info, work_group, groups_per_unit);
  local_ = core::NDRange(work_group);
  partial_ = core::Buffer<double>(context, global_.size[0] / work_group);
  core::BuildOptions options(core::Precision::f64);
  options.define("BLOCK", s);
  const core::Program& program = context.program("mrag/mrag_step.cl", options);
  stage_ = program.kernel("mrag_stage");
  max_rate_ = program.kernel("mrag_max_rate");
  core::KernelArgs(stage_).add(static_cast<cl_uint>(rhs_.values())).skip(3).add(q0_).add(dq_).add(q_);
  core::KernelArgs(max_rate_)
      .add(static_cast<cl_uint>(tree.leaves().size()))
      .add(rhs_.inv_h())
      .add(q_)
      .add(core::LocalMemory{work_group * sizeof(double)})
      .add(partial_);
}

void BlockFlow::set(const std::function<FaceState(double, double)>& initial) {
  std::vector<double> data(rhs_.values());
  const std::size_t cells = static_cast<std::size_t>(s_) * s_;
  std::size_t b = 0;
  for (const BlockKey& leaf : tree_.leaves()) {
    const double h = root_size_ / (s_ * static_cast<double>(1 << leaf.level));
    for (int j = 0; j < s_; ++j)
      for (int i = 0; i < s_; ++i) {
        const FaceState w = initial((leaf.x * s_ + i + 0.5) * h, (leaf.y * s_ + j + 0.5) * h);
        const std::array<double, 6> q = conserved(w);
        for (std::size_t f = 0; f < fields; ++f) data[(b * fields + f) * cells + i + s_ * j] = q[f];
      }
    ++b;
  }
  q_.write(queue_, std::span<const double>(data));
  time_ = 0;
}

double BlockFlow::stable_dt(double cfl) {
  max_rate_.enqueue(queue_, global_, local_);
  std::vector<double> partial(partial_.size());
  partial_.read(queue_, std::span<double>(partial));
  double rate = 0;
  for (double r : partial) rate = std::isnan(r) || std::isnan(rate) ? NAN : std::max(rate, r);
  if (!std::isfinite(rate) || rate <= 0)
    throw core::Error("mrag: at t = " + core::number_text(time_) +
                      " a cell holds a non-finite state, a density that is not positive or a negative c^2");
  return cfl / rate;
}

void BlockFlow::step(double dt) {
  // q1 = q + dt L(q); q2 = 3/4 q + 1/4 (q1 + dt L(q1)); q = 1/3 q + 2/3 (q2 + dt L(q2)), with q0 = q.
  q0_.copy_from(queue_, q_, 0, 0, rhs_.values());
  const double weights[3][2] = {{0, 1}, {0.75, 0.25}, {1.0 / 3, 2.0 / 3}};
  for (const auto& [a, b] : weights) {
    rhs_(queue_, q_, dq_);
    core::KernelArgs(stage_, core::Precision::f64, 1).real(a).real(b).real(dt);
    stage_.enqueue(queue_, global_, local_);
  }
  time_ += dt;
}

std::vector<BlockFlow::Cell> BlockFlow::cells() const {
  std::vector<double> data(rhs_.values());
  q_.read(queue_, std::span<double>(data));
  const std::size_t cells = static_cast<std::size_t>(s_) * s_;
  std::vector<Cell> out;
  std::size_t b = 0;
  for (const BlockKey& leaf : tree_.leaves()) {
    const double h = root_size_ / (s_ * static_cast<double>(1 << leaf.level));
    for (int j = 0; j < s_; ++j)
      for (int i = 0; i < s_; ++i) {
        std::array<double, 6> q{};
        for (std::size_t f = 0; f < fields; ++f) q[f] = data[(b * fields + f) * cells + i + s_ * j];
        out.push_back({(leaf.x * s_ + i + 0.5) * h, (leaf.y * s_ + j + 0.5) * h, h, primitive(q)});
      }
    ++b;
  }
  return out;
}

}  // namespace hetflow::mrag
