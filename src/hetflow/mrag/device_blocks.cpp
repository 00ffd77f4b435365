#include "hetflow/mrag/device_blocks.hpp"

#include <cmath>
#include <span>
#include <string>
#include <utility>

#include "hetflow/core/buffer.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/core/kernel_args.hpp"
#include "hetflow/core/program.hpp"
#include "hetflow/mrag/block_rhs.hpp"

namespace hetflow::mrag {
namespace {

// The ghost band the adaptation reads (mrag_adapt.cl): a detail of coarse cell I needs the coarse cells
// I − 2 .. I + 2, which are fine cells 2I − 4 .. 2I + 5, across corners too.
constexpr int adapt_ghosts = 4;

template <class Real>
class DeviceBlocksOf final : public DeviceBlocks {
 public:
  DeviceBlocksOf(const core::Queue& queue, int s, const Sides& sides, double root_size, const SpatialScheme& scheme)
      : queue_(queue), s_(s), sides_(sides), root_size_(root_size), scheme_(scheme) {
    const core::Context& context = queue.context();
    global_ = mrag_range(context.device().info);
    local_ = core::NDRange(mrag_work_group);
    partial_ = core::Buffer<Real>(context, global_.size[0] / mrag_work_group);
    core::BuildOptions options(precision_of<Real>);
    options.define("BLOCK", s);
    if (scheme.colour) scheme.colour->define(options);
    const core::Program& program = context.program("mrag/mrag_step.cl", options);
    max_rate_ = program.kernel("mrag_max_rate");
    max_rates_ = program.kernel("mrag_max_rates");
  }

  // The tree's ghost table is built once, for the band of 4 with corners that the adaptation reads; the
  // right-hand side's band (3, no corners) lies within it and takes its part.
  void bind(const BlockTree& tree, bool stiffened) override {
    const std::size_t blocks = tree.leaves().size();
    GhostTable wide = ghost_table(tree, s_, adapt_ghosts, true, sides_);
    rhs_ = std::make_unique<BlockRhs<Real>>(queue_, tree, narrowed(wide, s_, rhs_ghosts, false), s_, sides_, root_size_,
                                            stiffened, scheme_);
    band_ = std::make_unique<DeviceGhosts<Real>>(queue_, std::move(wide), blocks, s_, adapt_ghosts, true, sides_);
    for (core::Buffer<Real>* b : {&q_, &q1_, &q2_}) *b = core::Buffer<Real>(queue_.context(), rhs_->values());
    core::KernelArgs(max_rate_)
        .add(static_cast<cl_uint>(tree.leaves().size()))
        .add(rhs_->inv_h())
        .add(q_)
        .add(core::LocalMemory{mrag_work_group * sizeof(Real)})
        .add(partial_);
    core::KernelArgs(max_rates_)
        .add(static_cast<cl_uint>(rhs_->rates().size()))
        .add(rhs_->rates())
        .add(core::LocalMemory{mrag_work_group * sizeof(Real)})
        .add(partial_);
    stepped_ = false;
  }

  std::size_t values() const override { return rhs_->values(); }

  void write(const std::vector<double>& data) override {
    const std::vector<Real> real(data.begin(), data.end());
    q_.write(queue_, std::span<const Real>(real));
    stepped_ = false;
  }

  std::vector<double> read() const override {
    std::vector<Real> real(values());
    q_.read(queue_, std::span<Real>(real));
    return {real.begin(), real.end()};
  }

  void step(double dt, TimeScheme scheme) override {
    // Each stage is a q0 + b (q + dt L(q)) with q0 the step's start, q the last stage: third order
    // q1 = q0 + dt L(q0), q2 = 3/4 q0 + 1/4 (q1 + dt L(q1)), q = 1/3 q0 + 2/3 (q2 + dt L(q2)); second order
    // q1 = q0 + dt L(q0), q = 1/2 q0 + 1/2 (q1 + dt L(q1)). The last stage overwrites q0 cell by cell.
    rhs_->update(queue_, q_, q_, q1_, 0, 1, dt);
    if (scheme == TimeScheme::ssp_rk3) {
      rhs_->update(queue_, q1_, q_, q2_, 0.75, 0.25, 0.25 * dt);
      rhs_->update(queue_, q2_, q_, q_, 1.0 / 3, 2.0 / 3, 2.0 / 3 * dt);
    } else {
      rhs_->update(queue_, q1_, q_, q_, 0.5, 0.5, 0.5 * dt);
    }
    stepped_ = true;
  }

  // After a step, from the rates its last stage left per tile; otherwise over every cell.
  double max_rate() override {
    (stepped_ ? max_rates_ : max_rate_).enqueue(queue_, global_, local_);
    std::vector<Real> partial(partial_.size());
    partial_.read(queue_, std::span<Real>(partial));
    double rate = 0;
    for (Real r : partial) rate = std::isnan(r) || std::isnan(rate) ? NAN : std::max(rate, static_cast<double>(r));
    return rate;
  }

  std::vector<double> details(const BlockTree& tree) override {
    const std::size_t blocks = tree.leaves().size();
    band_->fill(queue_, q_);
    core::Kernel details = adapt_program().kernel("mrag_block_details");
    core::Buffer<Real> out(queue_.context(), 6 * blocks);
    core::KernelArgs(details)
        .add(static_cast<cl_uint>(blocks))
        .add(q_)
        .add(band_->ghosts())
        .add(band_->slots())
        .add(out);
    details.enqueue(queue_, global_, local_);
    std::vector<Real> d(6 * blocks);
    out.read(queue_, std::span<Real>(d));
    return {d.begin(), d.end()};
  }

  void remap(const BlockTree& next, const std::vector<cl_int>& mode, const std::vector<cl_uint>& source,
             const std::vector<cl_int>& child, bool stiffened) override {
    const auto mode_d = core::upload(queue_, mode, CL_MEM_READ_ONLY);
    const auto source_d = core::upload(queue_, source, CL_MEM_READ_ONLY);
    const auto child_d = core::upload(queue_, child, CL_MEM_READ_ONLY);
    core::Buffer<Real> q(queue_.context(), next.leaves().size() * fields * static_cast<std::size_t>(s_) * s_);
    core::Kernel remap = adapt_program().kernel("mrag_remap");
    core::KernelArgs(remap)
        .add(static_cast<cl_uint>(next.leaves().size()))
        .add(mode_d)
        .add(source_d)
        .add(child_d)
        .add(q_)
        .add(band_->ghosts())
        .add(band_->slots())
        .add(q);
    remap.enqueue(queue_, global_, local_);
    bind(next, stiffened);
    q_ = std::move(q);
    max_rate_.set(2, q_);
  }

 private:
  const core::Program& adapt_program() const {
    core::BuildOptions options = band_->build_options();
    options.define("GROUP", static_cast<long>(mrag_work_group));
    return queue_.context().program("mrag/mrag_adapt.cl", options);
  }

  const core::Queue& queue_;
  int s_;
  Sides sides_;
  double root_size_;
  SpatialScheme scheme_;
  std::unique_ptr<BlockRhs<Real>> rhs_;
  // The state and the stages' (q2 for the third-order scheme alone).
  core::Buffer<Real> q_, q1_, q2_, partial_;
  core::Kernel max_rate_, max_rates_;
  // Whether the state is the last step's output, whose rates the update left.
  bool stepped_ = false;
  std::unique_ptr<DeviceGhosts<Real>> band_;
  core::NDRange global_, local_;
};

}  // namespace

std::unique_ptr<DeviceBlocks> device_blocks(const core::Queue& queue, core::Precision precision, int s,
                                            const Sides& sides, double root_size, const SpatialScheme& scheme) {
  if (!queue.context().device().info.fp64)
    throw core::Error("mrag: " + queue.context().device().info.name +
                      " has no FP64, which the WENO weights need in either precision");
  if (precision == core::Precision::f32)
    return std::make_unique<DeviceBlocksOf<float>>(queue, s, sides, root_size, scheme);
  return std::make_unique<DeviceBlocksOf<double>>(queue, s, sides, root_size, scheme);
}

}  // namespace hetflow::mrag
