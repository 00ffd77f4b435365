#include "hetflow/mrag/device_blocks.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <future>
#include <span>
#include <string>
#include <utility>

#include "hetflow/core/buffer.hpp"
#include "hetflow/core/device_set.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/core/kernel_args.hpp"
#include "hetflow/core/program.hpp"
#include "hetflow/core/thread_link.hpp"
#include "hetflow/core/trace.hpp"
#include "hetflow/mrag/block_parts.hpp"
#include "hetflow/mrag/block_rhs.hpp"
#include "hetflow/mrag/device_recipes.hpp"
#include "hetflow/mrag/ghost_recipes.hpp"
#include "hetflow/mrag/local_steps.hpp"

namespace hetflow::mrag {
namespace {

// Words of a new block's record for the remap (mrag_adapt.cl's REMAP_RECORD).
constexpr std::size_t remap_record = 8;

// What the parts of a tree's leaves share: the grid of its leaves (which the adaptation's band plans from
// on another thread), the flux correction's table and the split into parts, which reads the plan of the
// right-hand side's band (`recipes`, 3 wide without corners) when there are several.
struct TreeTables {
  std::shared_ptr<const LeafGrid> grid;
  RefluxTable reflux;
  BlockParts parts;
};

TreeTables tree_tables(const BlockTree& tree, int s, const Sides& sides, std::span<const double> weights,
                       GhostRecipes& recipes) {
  auto grid = std::make_shared<const LeafGrid>(tree);
  RefluxTable reflux = reflux_table(*grid, s, sides);
  TreeTables t{std::move(grid), std::move(reflux), {}};
  const std::size_t leaves = tree.leaves().size();
  if (weights.size() == 1) {
    t.parts = BlockParts{{all_leaves(leaves)}, std::vector<std::uint32_t>(leaves, 0), {{{}}}, {{{}}}};
    return t;
  }
  t.parts = block_parts(tree, recipes, recipes.plan(*t.grid), t.reflux, s, weights);
  return t;
}

// The blocks on one device: those of the whole tree, or with a link part link->rank() of the leaves
// split by `weights` (one per part), whose right-hand side updates its own leaves and trades its halo
// with the other parts (docs/mrag.md, Several devices). Every part holds block data of the whole tree;
// before an adaptation every part gathers it all, then adapts it as one device would. Every method but
// values() is then collective.
template <class Real>
class DeviceBlocksOf final : public DeviceBlocks {
 public:
  DeviceBlocksOf(const core::Queue& queue, int s, const Sides& sides, double root_size, const SpatialScheme& scheme,
                 core::Link* link = nullptr, std::vector<double> weights = {1}, const core::Queue* transfer = nullptr)
      : queue_(queue),
        transfer_(transfer ? *transfer : queue),
        s_(s),
        sides_(sides),
        root_size_(root_size),
        scheme_(scheme),
        link_(link),
        weights_(std::move(weights)),
        rhs_recipes_(std::make_shared<DeviceRecipes<Real>>(queue.context(), s, rhs_ghosts, false, sides)),
        band_recipes_(std::make_shared<DeviceRecipes<Real>>(queue.context(), s, adapt_ghosts, true, sides)) {
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

  void bind(const BlockTree& tree, bool stiffened) override {
    bind(tree, stiffened, tree_tables(tree, s_, sides_, weights_, rhs_recipes_->recipes()));
  }

  // Binds `tree` with its tables, and with `data` (block data of the tree) as the state, or none; then
  // starts the adaptation's band of the tree (start_band).
  void bind(const BlockTree& tree, bool stiffened, TreeTables t, core::Buffer<Real> data = {}) {
    if (local_depth_ > 0) {
      rhs_.reset();
      steps_ = std::make_unique<LocalSteps<Real>>(queue_, tree, *t.grid, t.reflux, rhs_recipes_, s_, root_size_,
                                                  stiffened, scheme_, local_depth_, steps_.get());
      values_ = steps_->values();
      bind_state(std::move(data));
      // The rate whose CFL step is the coarsest group's, over every cell (the stages leave no rates here).
      bind_max_rate(steps_->leaf_count(), steps_->leaves(), steps_->rate_inv_h());
      start_band(std::move(t.grid));
      return;
    }
    steps_.reset();
    const LeafList& own = t.parts.leaves[link_ ? link_->rank() : 0];
    halo_ = link_ ? std::make_unique<BlockHalo<Real>>(queue_, transfer_, *link_, t.parts, s_) : nullptr;
    GhostPlan plan = rhs_recipes_->plan(queue_, *t.grid);
    core::trace::mark("mrag bind: ghost plan");
    typename BlockRhs<Real>::Part part{own, rhs_recipes_, std::move(plan),
                                       link_ ? owned_entries(t.reflux, own) : std::move(t.reflux), halo_.get(),
                                       nullptr};
    rhs_ = std::make_unique<BlockRhs<Real>>(queue_, tree, std::move(part), s_, root_size_, stiffened, scheme_,
                                            rhs_.get());
    core::trace::mark("mrag bind: right-hand side");
    values_ = rhs_->values();
    for (core::Buffer<Real>* b : {&q1_, &q2_}) *b = core::at_least(queue_.context(), std::exchange(*b, {}), values_);
    bind_state(std::move(data));
    bind_max_rate(rhs_->own_count(), rhs_->own(), rhs_->inv_h());
    core::KernelArgs(max_rates_)
        .add(static_cast<cl_uint>(rhs_->rate_count()))
        .add(rhs_->rates())
        .add(core::LocalMemory{mrag_work_group * sizeof(Real)})
        .add(partial_);
    start_band(std::move(t.grid));
    core::trace::mark("mrag bind: done");
  }

  void local_steps(int depth) override {
    if (depth > 0 && link_)
      throw core::Error("mrag: local time steps run on one device, and this run splits the leaves over " +
                        std::to_string(weights_.size()) + " parts");
    local_depth_ = depth;
  }

  std::size_t values() const override { return values_; }

  void write(const std::vector<double>& data) override {
    upload(data);
    stepped_ = band_filled_ = false;
  }

  std::vector<double> read() const override {
    if (halo_) return halo_->gather_blocks(q_);
    std::vector<Real> real(values());
    q_.read(queue_, std::span<Real>(real));
    return {real.begin(), real.end()};
  }

  void step(double dt, TimeScheme scheme) override {
    band_filled_ = false;
    if (steps_) {
      steps_->step(q_, dt, scheme);
      queue_.flush();
      return;
    }
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
    // The device starts on the step while the host goes on, to plan an adaptation the step carries out.
    queue_.flush();
  }

  // After a step, from the rates its last stage left per tile; otherwise over every cell. The largest of
  // every part's.
  double max_rate() override {
    (stepped_ ? max_rates_ : max_rate_).enqueue(queue_, global_, local_);
    std::vector<Real> partial(partial_.size());
    partial_.read(queue_, std::span<Real>(partial));
    std::vector<double> rates(partial.begin(), partial.end());
    if (link_)
      for (const std::vector<double>& part : link_->all_gather(std::vector<double>{max_of(rates)}))
        rates.push_back(part.front());
    return max_of(rates);
  }

  std::vector<double> details(const BlockTree& tree) override {
    fill_band();
    const std::size_t blocks = tree.leaves().size();
    if (!details_.get()) details_ = adapt_program().kernel("mrag_block_details");
    details_out_ = core::at_least(queue_.context(), std::exchange(details_out_, {}), 6 * blocks);
    core::KernelArgs(details_)
        .add(static_cast<cl_uint>(blocks))
        .add(q_)
        .add(band_->ghosts())
        .add(band_->slots())
        .add(details_out_);
    details_.enqueue(queue_, global_, local_);
    std::vector<Real> d(6 * blocks);
    details_out_.read(queue_, std::span<Real>(d));
    return {d.begin(), d.end()};
  }

  void remap(const BlockTree& next, const std::vector<cl_int>& mode, const std::vector<cl_uint>& source,
             const std::vector<cl_int>& child, bool stiffened) override {
    core::Buffer<Real> data = remapped(next, mode, source, child);
    core::trace::mark("mrag adapt: remap");
    TreeTables t = tree_tables(next, s_, sides_, weights_, rhs_recipes_->recipes());
    core::trace::mark("mrag adapt: grid and flux table");
    bind(next, stiffened, std::move(t), std::move(data));
  }

  DeviceMemory memory() const override {
    const core::DeviceInfo& info = queue_.context().device().info;
    DeviceMemory least{info.global_mem, info.max_alloc};
    if (link_)
      for (const std::vector<double>& part : link_->all_gather(
               std::vector<double>{static_cast<double>(least.total), static_cast<double>(least.buffer)})) {
        least.total = std::min(least.total, static_cast<std::uint64_t>(part[0]));
        least.buffer = std::min(least.buffer, static_cast<std::uint64_t>(part[1]));
      }
    return least;
  }

  // The block data of `next` built from the state (DeviceBlocks::remap), on a part after details() gathered
  // the whole state.
  core::Buffer<Real> remapped(const BlockTree& next, const std::vector<cl_int>& mode,
                              const std::vector<cl_uint>& source, const std::vector<cl_int>& child) {
    // A step since details() leaves the band behind the state.
    if (!band_filled_) fill_band();
    // One record of remap_record words per new block (mrag_adapt.cl's REMAP_RECORD), sent in one write
    // that does not wait for the step before it.
    const std::size_t blocks = next.leaves().size();
    std::vector<cl_uint>& records = remap_host_records_;
    records.assign(remap_record * blocks, 0);
    for (std::size_t b = 0; b < blocks; ++b) {
      cl_uint* r = &records[remap_record * b];
      r[0] = static_cast<cl_uint>(mode[b]);
      r[1] = static_cast<cl_uint>(child[2 * b]);
      r[2] = static_cast<cl_uint>(child[2 * b + 1]);
      std::copy_n(&source[4 * b], 4, r + 4);
    }
    remap_records_ = core::at_least(queue_.context(), std::exchange(remap_records_, {}), records.size());
    remap_records_.write(queue_, std::span<const cl_uint>(records), 0, core::Blocking::no);
    core::Buffer<Real> q = core::at_least(queue_.context(), std::exchange(spare_, {}),
                                          blocks * fields * static_cast<std::size_t>(s_) * s_);
    if (!remap_.get()) remap_ = adapt_program().kernel("mrag_remap");
    core::KernelArgs(remap_)
        .add(static_cast<cl_uint>(blocks))
        .add(remap_records_)
        .add(q_)
        .add(band_->ghosts())
        .add(band_->slots())
        .add(q);
    remap_.enqueue(queue_, global_, local_);
    queue_.flush();
    return q;
  }

 private:
  // Builds the adaptation's band of the tree whose grid is `grid` on another thread, which plans it while
  // the steps run and adds its uploads to the queue between theirs; it takes over the buffers of the band
  // before. details() waits for it. A band still being built for a tree bound before (with no adaptation
  // since) is finished first and dropped: two threads must not plan from the recipes at once.
  void start_band(std::shared_ptr<const LeafGrid> grid) {
    if (next_band_.valid()) next_band_.wait();
    next_band_ = std::async(std::launch::async, [queue = queue_, recipes = band_recipes_, grid = std::move(grid),
                                                 old = std::move(band_)] {
      const GhostPlan plan = recipes->recipes().plan(*grid);
      recipes->sync(queue);
      return std::make_unique<DeviceGhosts<Real>>(queue, recipes, plan, all_leaves(grid->leaves().size()), false,
                                                  old.get());
    });
  }

  // Fills the adaptation's band from the state; a part adapts the whole tree, so it takes the other parts'
  // leaves first (the rates the last step left stay valid).
  void fill_band() {
    if (halo_) halo_->share_blocks(q_);
    if (next_band_.valid()) band_ = next_band_.get();
    band_->fill(queue_, q_);
    band_filled_ = true;
  }

  // `data` as the state, or the spare buffer; the state before is kept as the spare (the next remap's
  // output). The rates of the last stage are not the state's.
  void bind_state(core::Buffer<Real> data) {
    if (data.empty()) data = core::at_least(queue_.context(), std::exchange(spare_, {}), values_);
    spare_ = std::exchange(q_, std::move(data));
    stepped_ = band_filled_ = false;
  }

  // The rate over every cell of the `count` leaves `leaves`, each leaf's cells `inv_h` wide.
  void bind_max_rate(std::size_t count, const core::Buffer<cl_uint>& leaves, const core::Buffer<Real>& inv_h) {
    core::KernelArgs(max_rate_)
        .add(static_cast<cl_uint>(count))
        .add(leaves)
        .add(inv_h)
        .add(q_)
        .add(core::LocalMemory{mrag_work_group * sizeof(Real)})
        .add(partial_);
  }

  void upload(const std::vector<double>& data) {
    const std::vector<Real> real(data.begin(), data.end());
    q_.write(queue_, std::span<const Real>(real));
  }

  // The largest of `rates`, NaN if any is.
  static double max_of(const std::vector<double>& rates) {
    double rate = 0;
    for (double r : rates) rate = std::isnan(r) || std::isnan(rate) ? NAN : std::max(rate, r);
    return rate;
  }

  const core::Program& adapt_program() const {
    core::BuildOptions options = band_->build_options();
    options.define("GROUP", static_cast<long>(mrag_work_group));
    return queue_.context().program("mrag/mrag_adapt.cl", options);
  }

  const core::Queue& queue_;
  // The halo's transfers overlap the kernels on a second queue.
  const core::Queue& transfer_;
  int s_;
  Sides sides_;
  double root_size_;
  SpatialScheme scheme_;
  core::Link* link_;
  std::vector<double> weights_;
  // The recipes of the bands, the right-hand side's and the adaptation's band of 4 with corners, are kept
  // across adaptations, so that a new tree builds recipes only for surroundings not met before.
  std::shared_ptr<DeviceRecipes<Real>> rhs_recipes_, band_recipes_;
  std::unique_ptr<BlockHalo<Real>> halo_;
  // The right-hand side of global steps, or the local steps of `local_depth_` > 0 levels.
  std::unique_ptr<BlockRhs<Real>> rhs_;
  int local_depth_ = 0;
  std::unique_ptr<LocalSteps<Real>> steps_;
  std::size_t values_ = 0;
  // The state and the stages' of global steps (q2 for the third-order scheme alone), each holding at least
  // values_ values, and the buffer the next remap writes.
  core::Buffer<Real> q_, q1_, q2_, spare_, partial_;
  core::Kernel max_rate_, max_rates_;
  // The adaptation's kernels, made on first use, the details' output and the remap's records.
  core::Kernel details_, remap_;
  core::Buffer<Real> details_out_;
  core::Buffer<cl_uint> remap_records_;
  std::vector<cl_uint> remap_host_records_;
  // Whether the state is the last step's output, whose rates the update left, and whether the adaptation's
  // band holds the state's ghosts.
  bool stepped_ = false, band_filled_ = false;
  // The adaptation's band of the bound tree, being built (start_band) or taken by details().
  std::future<std::unique_ptr<DeviceGhosts<Real>>> next_band_;
  std::unique_ptr<DeviceGhosts<Real>> band_;
  core::NDRange global_, local_;
};

// The leaves split over the devices of one process, a part on each, run on a thread each (core::ThreadLink):
// the tables of a tree are built once for all parts.
template <class Real>
class ThreadedBlocks final : public DeviceBlocks {
 public:
  ThreadedBlocks(const core::DeviceSet& devices, const std::vector<double>& weights, int s, const Sides& sides,
                 double root_size, const SpatialScheme& scheme)
      : hub_(devices.size()), s_(s), sides_(sides), weights_(weights), recipes_(s, rhs_ghosts, false, sides) {
    for (std::size_t k = 0; k < devices.size(); ++k) links_.push_back(std::make_unique<core::ThreadLink>(hub_, k));
    for (std::size_t k = 0; k < devices.size(); ++k)
      parts_.push_back(std::make_unique<DeviceBlocksOf<Real>>(devices.compute(k), s, sides, root_size, scheme,
                                                              links_[k].get(), weights, &devices.transfer(k)));
  }

  void bind(const BlockTree& tree, bool stiffened) override {
    const TreeTables t = tree_tables(tree, s_, sides_, weights_, recipes_);
    on_parts([&](std::size_t k) { parts_[k]->bind(tree, stiffened, t); });
  }
  std::size_t values() const override { return parts_.front()->values(); }
  void write(const std::vector<double>& data) override {
    on_parts([&](std::size_t k) { parts_[k]->write(data); });
  }
  std::vector<double> read() const override {
    return gathered<std::vector<double>>([&](std::size_t k) { return parts_[k]->read(); });
  }
  void step(double dt, TimeScheme scheme) override {
    on_parts([&](std::size_t k) { parts_[k]->step(dt, scheme); });
  }
  double max_rate() override {
    return gathered<double>([&](std::size_t k) { return parts_[k]->max_rate(); });
  }
  void local_steps(int depth) override {
    if (depth > 0)
      throw core::Error("mrag: local time steps run on one device, and this run splits the leaves over " +
                        std::to_string(parts_.size()));
  }
  std::vector<double> details(const BlockTree& tree) override {
    return gathered<std::vector<double>>([&](std::size_t k) { return parts_[k]->details(tree); });
  }
  void remap(const BlockTree& next, const std::vector<cl_int>& mode, const std::vector<cl_uint>& source,
             const std::vector<cl_int>& child, bool stiffened) override {
    std::vector<core::Buffer<Real>> data(parts_.size());
    on_parts([&](std::size_t k) { data[k] = parts_[k]->remapped(next, mode, source, child); });
    const TreeTables t = tree_tables(next, s_, sides_, weights_, recipes_);
    on_parts([&](std::size_t k) { parts_[k]->bind(next, stiffened, t, std::move(data[k])); });
  }
  DeviceMemory memory() const override {
    return gathered<DeviceMemory>([&](std::size_t k) { return parts_[k]->memory(); });
  }

 private:
  void on_parts(const std::function<void(std::size_t)>& body) const { core::run_on_threads(hub_, body); }
  // Part 0's result of a collective call, which every part returns alike.
  template <class T>
  T gathered(const std::function<T(std::size_t)>& call) const {
    std::vector<T> out(parts_.size());
    on_parts([&](std::size_t k) { out[k] = call(k); });
    return out.front();
  }

  mutable core::ThreadHub hub_;
  int s_;
  Sides sides_;
  std::vector<double> weights_;
  // The right-hand side's recipes, for the split into parts.
  GhostRecipes recipes_;
  std::vector<std::unique_ptr<core::ThreadLink>> links_;
  std::vector<std::unique_ptr<DeviceBlocksOf<Real>>> parts_;
};

}  // namespace

namespace {

void check_fp64(const core::Device& device) {
  if (!device.info.fp64)
    throw core::Error("mrag: " + device.info.name + " has no FP64, which the WENO weights need in either precision");
}

}  // namespace

std::unique_ptr<DeviceBlocks> device_blocks(const core::Queue& queue, core::Precision precision, int s,
                                            const Sides& sides, double root_size, const SpatialScheme& scheme) {
  check_fp64(queue.context().device());
  if (precision == core::Precision::f32)
    return std::make_unique<DeviceBlocksOf<float>>(queue, s, sides, root_size, scheme);
  return std::make_unique<DeviceBlocksOf<double>>(queue, s, sides, root_size, scheme);
}

std::unique_ptr<DeviceBlocks> device_blocks(const core::DeviceSet& devices, std::span<const double> weights,
                                            core::Link* processes, core::Precision precision, int s, const Sides& sides,
                                            double root_size, const SpatialScheme& scheme) {
  for (std::size_t k = 0; k < devices.size(); ++k) check_fp64(devices.device(k));
  if (weights.size() != devices.size())
    throw core::Error("mrag: " + std::to_string(weights.size()) + " weights for " + std::to_string(devices.size()) +
                      " devices");
  if (!processes && devices.size() == 1)
    return device_blocks(devices.compute(0), precision, s, sides, root_size, scheme);
  const std::vector<double> local(weights.begin(), weights.end());
  if (processes) {
    if (devices.size() != 1)
      throw core::Error("mrag: a process of a run over several processes uses one device, and this one has " +
                        std::to_string(devices.size()));
    const core::PartPlacement placement(processes, local);
    if (precision == core::Precision::f32)
      return std::make_unique<DeviceBlocksOf<float>>(devices.compute(0), s, sides, root_size, scheme, processes,
                                                     placement.weights(), &devices.transfer(0));
    return std::make_unique<DeviceBlocksOf<double>>(devices.compute(0), s, sides, root_size, scheme, processes,
                                                    placement.weights(), &devices.transfer(0));
  }
  if (precision == core::Precision::f32)
    return std::make_unique<ThreadedBlocks<float>>(devices, local, s, sides, root_size, scheme);
  return std::make_unique<ThreadedBlocks<double>>(devices, local, s, sides, root_size, scheme);
}

}  // namespace hetflow::mrag
