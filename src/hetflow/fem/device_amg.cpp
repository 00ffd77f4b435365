#include "hetflow/fem/device_amg.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <type_traits>

#include "hetflow/core/error.hpp"
#include "hetflow/core/kernel_args.hpp"
#include "hetflow/core/program.hpp"

namespace hetflow::fem {
namespace {

template <class Real>
std::vector<Real> to_real(const std::vector<double>& v) {
  return std::vector<Real>(v.begin(), v.end());
}

double mean_row_length(const SparseRows& m) {
  return m.rows == 0 ? 0.0 : static_cast<double>(m.values.size()) / static_cast<double>(m.rows);
}

}  // namespace

template <class Real>
DeviceAmg<Real>::DeviceAmg(const core::Queue& queue, const AmgHierarchy& hierarchy, const SpmvShape& shape,
                           const core::Buffer<cl_int>& state, NodeHalo* halo, int slice_bits)
    : halo_(halo) {
  if (halo && !std::is_same_v<Real, double>) throw core::Error("AMG: a split run's cycle runs in FP64");
  const std::vector<AmgLevel>& host = hierarchy.levels();
  AmgPart part;
  if (halo) {
    std::vector<std::size_t> node_starts{0};
    for (const double owned : halo->all_gather(std::array<double, 1>{static_cast<double>(halo->owned())}))
      node_starts.push_back(node_starts.back() + static_cast<std::size_t>(owned));
    part = amg_part(hierarchy, halo->part(), node_starts);
    // The halos keep pointers to the layouts, so these are in place first.
    layouts_ = std::move(part.layouts);
    halos_.push_back(halo);
    for (const HaloLayout& layout : layouts_) {
      coarse_halos_.push_back(std::make_unique<NodeHalo>(*halo, layout));
      halos_.push_back(coarse_halos_.back().get());
    }
  }
  const std::size_t split = part.levels.size();
  const auto level_of = [&](std::size_t l) -> const AmgLevel& { return l < split ? part.levels[l] : host[l]; };
  const core::Context& context = queue.context();
  const core::DeviceInfo& info = context.device().info;
  check(shape, info);
  const std::size_t reduce_wg = reduce_work_group(info);
  const core::Program& program =
      context.program("fem/fem_amg.cl", sparse_build_options(precision_of<Real>(), shape, reduce_wg));
  // Each operator's kernels take the tuned shape widened to its rows (widened_shape); the work-group, and
  // with it the launch range, stays the tuned one.
  const double tuned_row_length = mean_row_length(level_of(0).a);
  const auto kernel_for = [&](const SparseRows& m, const char* name) {
    const SpmvShape wide = widened_shape(shape, mean_row_length(m), tuned_row_length);
    return context.program("fem/fem_amg.cl", sparse_build_options(precision_of<Real>(), wide, reduce_wg)).kernel(name);
  };
  spmv_global_ = spmv_range(info, shape);
  spmv_local_ = core::NDRange(shape.work_group());
  coarse_range_ = core::NDRange(reduce_wg);
  for (std::size_t l = 0; l < host.size(); ++l) {
    const AmgLevel& h = level_of(l);
    Level level;
    level.n = static_cast<cl_int>(h.a.rows);
    if (l + 1 < host.size()) {
      const int bits = l == 0 ? slice_bits : 0;
      level.a = DeviceCsr<Real>(queue, h.a, bits);
      level.p = DeviceCsr<Real>(queue, h.p, bits);
      level.r = DeviceCsr<Real>(queue, h.r);
      level.smoother = core::upload(queue, to_real<Real>(h.smoother));
      // A split level's x is read at its halo too (h.a's columns), and so is its t below the finest, the
      // output that the level above reads through P's columns.
      level.x = core::Buffer<Real>(context, h.a.cols);
      level.t = core::Buffer<Real>(context, l > 0 ? h.a.cols : h.a.rows);
    } else {
      level.x = core::Buffer<Real>(context, h.a.rows);
    }
    // So is its b, through the smoother's first step.
    if (l > 0) level.b = core::Buffer<Real>(context, h.a.cols);
    if (halo && l + 1 == split) {
      std::size_t begin = 0, end = 0;
      if (!h.p.col.empty()) {
        const auto [low, high] = std::minmax_element(h.p.col.begin(), h.p.col.end());
        begin = static_cast<std::size_t>(*low);
        end = static_cast<std::size_t>(*high) + 1;
      }
      share_ranges(queue, program, begin, end);
    }
    levels_.push_back(std::move(level));
  }
  // Kernel arguments: level l's right-hand side is the caller's b on level 0 (set per enqueue), its
  // output the caller's z on level 0 and t below (x on the coarsest).
  for (std::size_t l = 0; l + 1 < levels_.size(); ++l) {
    Level& level = levels_[l];
    Level& next = levels_[l + 1];
    core::Buffer<Real>& coarse_output = l + 2 == levels_.size() ? next.x : next.t;
    const AmgLevel& h = level_of(l);
    level.residual_first = kernel_for(h.a, "fem_amg_residual_first");
    level.restrict_ = kernel_for(h.r, "fem_amg_product");
    level.correct_first = kernel_for(h.p, "fem_amg_correct_first");
    level.jacobi = kernel_for(h.a, "fem_amg_jacobi");
    // Each kernel takes an operator's row count and layout first.
    const auto bind = [](core::Kernel& kernel, const DeviceCsr<Real>& m) {
      core::KernelArgs args(kernel);
      args.add(static_cast<cl_int>(m.n));
      m.add_layout(args);
      return args;
    };
    bind(level.residual_first, level.a).add(level.smoother).skip().add(level.t).add(state);
    bind(level.restrict_, level.r).add(level.t).add(next.b).add(state);
    bind(level.correct_first, level.p).add(level.smoother).skip().add(coarse_output).add(level.x).add(state);
    bind(level.jacobi, level.a).add(level.smoother).skip().add(level.x).skip().add(state);
    if (l > 0) {
      level.residual_first.set(6, level.b);
      level.correct_first.set(6, level.b);
      level.jacobi.set(6, level.b);
      level.jacobi.set(8, level.t);
    }
  }
  const Level& coarsest = levels_.back();
  coarse_inverse_ = core::upload(queue, to_real<Real>(hierarchy.coarse_inverse()));
  coarse_solve_ = program.kernel("fem_amg_coarse_solve");
  core::KernelArgs(coarse_solve_).add(coarsest.n).add(coarse_inverse_).skip(2).add(state);
  if (levels_.size() > 1) {
    coarse_solve_.set(2, coarsest.b);
    coarse_solve_.set(3, coarsest.x);
  }
}

template <class Real>
void DeviceAmg<Real>::enqueue(const core::Queue& queue, const core::Buffer<Real>& b, core::Buffer<Real>& z) {
  const std::size_t n = levels_.front().n;
  if (b.size() < n || z.size() < n)
    throw core::Error("AMG: b and z have " + std::to_string(b.size()) + " and " + std::to_string(z.size()) +
                      " entries for " + std::to_string(n) + " unknowns");
  if (levels_.size() == 1) {
    coarse_solve_.set(2, b);
    coarse_solve_.set(3, z);
    coarse_solve_.enqueue(queue, coarse_range_, coarse_range_);
    return;
  }
  Level& finest = levels_.front();
  finest.residual_first.set(6, b);
  finest.correct_first.set(6, b);
  finest.jacobi.set(6, b);
  finest.jacobi.set(8, z);
  const std::size_t split = halos_.size();
  for (std::size_t l = 0; l + 1 < levels_.size(); ++l) {
    levels_[l].residual_first.enqueue(queue, spmv_global_, spmv_local_);
    levels_[l].restrict_.enqueue(queue, spmv_global_, spmv_local_);
    if (l + 1 < split) exchange(l + 1, levels_[l + 1].b, true);
    if (l + 1 == split) add_parts(queue, levels_[l + 1].b);
  }
  coarse_solve_.enqueue(queue, coarse_range_, coarse_range_);
  for (std::size_t l = levels_.size() - 1; l-- > 0;) {
    // P's own rows read the next split level's output at its halo.
    if (l + 1 < split) exchange(l + 1, levels_[l + 1].t, false);
    levels_[l].correct_first.enqueue(queue, spmv_global_, spmv_local_);
    if (l < split) exchange(l, levels_[l].x, false);
    levels_[l].jacobi.enqueue(queue, spmv_global_, spmv_local_);
  }
}

template <class Real>
void DeviceAmg<Real>::exchange(std::size_t level, core::Buffer<Real>& v, bool add) {
  // A cycle in FP32 is never split (the constructor refuses it).
  if constexpr (std::is_same_v<Real, double>) {
    if (add) halos_[level]->add_halo(v);
    halos_[level]->exchange(v, 1);
  }
}

template <class Real>
void DeviceAmg<Real>::share_ranges(const core::Queue& queue, const core::Program& program, std::size_t begin,
                                   std::size_t end) {
  const std::array<double, 2> mine{double(begin), double(end)};
  const std::vector<double> all = halo_->all_gather(mine);
  std::size_t slot = 0, received = 0;
  for (std::size_t j = 0; j < all.size() / 2; ++j) {
    const auto b = static_cast<std::size_t>(all[2 * j]), e = static_cast<std::size_t>(all[2 * j + 1]);
    ranges_.push_back({b, e - b, slot, received});
    slot += e - b;
    if (j != halo_->part().part) received += e - b;
  }
  scratch_ = core::Buffer<Real>(queue.context(), std::max<std::size_t>(slot, 1));
  outgoing_ = std::make_unique<core::PinnedBuffer<Real>>(queue, std::max<std::size_t>(end - begin, 1));
  incoming_ = std::make_unique<core::PinnedBuffer<Real>>(queue, std::max<std::size_t>(received, 1));
  add_ = program.kernel("fem_amg_add");
}

template <class Real>
void DeviceAmg<Real>::add_parts(const core::Queue& queue, core::Buffer<Real>& v) {
  // Every part adds the parts' ranges in part order, on its device, so all hold the same bits: its own
  // range goes to its slot of the scratch, the others' arrive through the host into theirs. The blocking
  // read orders this cycle's use of the host buffers after the last cycle's writes from them.
  const std::size_t me = halo_->part().part;
  const Range& own = ranges_[me];
  scratch_.copy_from(queue, v, own.begin, own.slot, own.count);
  v.read(queue, outgoing_->span().first(own.count), own.begin);
  std::vector<core::Message> sends, receives;
  for (std::size_t j = 0; j < ranges_.size(); ++j) {
    if (j == me) continue;
    if (own.count > 0) sends.push_back({j, 1, std::as_writable_bytes(outgoing_->span().first(own.count))});
    if (ranges_[j].count > 0)
      receives.push_back(
          {j, 1, std::as_writable_bytes(incoming_->span().subspan(ranges_[j].received, ranges_[j].count))});
  }
  halo_->link().exchange(sends, receives);
  std::size_t low = v.size(), high = 0;
  for (std::size_t j = 0; j < ranges_.size(); ++j) {
    const Range& r = ranges_[j];
    if (r.count == 0) continue;
    low = std::min(low, r.begin);
    high = std::max(high, r.begin + r.count);
    if (j != me)
      scratch_.write(queue, std::span<const Real>(incoming_->span().subspan(r.received, r.count)), r.slot,
                     core::Blocking::no);
  }
  if (high > low) v.fill(queue, Real{0}, low, high - low);
  for (const Range& r : ranges_) {
    if (r.count == 0) continue;
    core::KernelArgs(add_)
        .add(static_cast<cl_int>(r.count))
        .add(static_cast<cl_int>(r.slot))
        .add(scratch_)
        .add(static_cast<cl_int>(r.begin))
        .add(v);
    add_.enqueue(queue, spmv_global_, spmv_local_);
  }
}

template class DeviceAmg<float>;
template class DeviceAmg<double>;

}  // namespace hetflow::fem
