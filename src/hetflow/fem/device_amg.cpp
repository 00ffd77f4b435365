#include "hetflow/fem/device_amg.hpp"

#include <algorithm>
#include <string>

#include "hetflow/core/error.hpp"
#include "hetflow/core/kernel_args.hpp"
#include "hetflow/core/program.hpp"

namespace hetflow::fem {
namespace {

template <class T>
core::Buffer<T> device_copy(const core::Queue& queue, const std::vector<T>& host) {
  // A buffer is never empty: an empty operator keeps one unused slot.
  core::Buffer<T> b(queue.context(), std::max<std::size_t>(host.size(), 1));
  if (!host.empty()) b.write(queue, std::span<const T>(host));
  return b;
}

template <class Real>
std::vector<Real> to_real(const std::vector<double>& v) {
  return std::vector<Real>(v.begin(), v.end());
}

}  // namespace

template <class Real>
typename DeviceAmg<Real>::Rows DeviceAmg<Real>::upload(const core::Queue& queue, const SparseRows& m) {
  Rows rows;
  rows.n = static_cast<cl_int>(m.rows);
  rows.row_start = device_copy(queue, m.row_start);
  rows.col = device_copy(queue, m.col);
  rows.values = device_copy(queue, to_real<Real>(m.values));
  return rows;
}

template <class Real>
DeviceAmg<Real>::DeviceAmg(const core::Queue& queue, const AmgHierarchy& hierarchy, const SpmvShape& shape,
                           const core::Buffer<cl_int>& state) {
  const core::Context& context = queue.context();
  const core::DeviceInfo& info = context.device().info;
  check(shape, info);
  const std::size_t reduce_wg = reduce_work_group(info);
  const core::Program& program =
      context.program("fem/fem_amg.cl", sparse_build_options(precision_of<Real>(), shape, reduce_wg));
  spmv_global_ = spmv_range(info, shape);
  spmv_local_ = core::NDRange(shape.work_group());
  coarse_range_ = core::NDRange(reduce_wg);
  const std::vector<AmgLevel>& host = hierarchy.levels();
  for (std::size_t l = 0; l < host.size(); ++l) {
    Level level;
    level.n = static_cast<cl_int>(host[l].a.rows);
    if (l + 1 < host.size()) {
      level.a = upload(queue, host[l].a);
      level.p = upload(queue, host[l].p);
      level.r = upload(queue, host[l].r);
      level.smoother = device_copy(queue, to_real<Real>(host[l].smoother));
      level.x = core::Buffer<Real>(context, host[l].a.rows);
      level.t = core::Buffer<Real>(context, host[l].a.rows);
    } else {
      level.x = core::Buffer<Real>(context, host[l].a.rows);
    }
    if (l > 0) level.b = core::Buffer<Real>(context, host[l].a.rows);
    levels_.push_back(std::move(level));
  }
  // Kernel arguments: level l's right-hand side is the caller's b on level 0 (set per enqueue), its
  // output the caller's z on level 0 and t below (x on the coarsest). The finest level's post-smoothing
  // (or the coarse solve when it is the only level) writes the caller's partial sums; a coarse solve
  // below other levels passes its own output in their place, and writes nothing there.
  for (std::size_t l = 0; l + 1 < levels_.size(); ++l) {
    Level& level = levels_[l];
    Level& next = levels_[l + 1];
    core::Buffer<Real>& coarse_output = l + 2 == levels_.size() ? next.x : next.t;
    level.residual_first = program.kernel("fem_amg_residual_first");
    level.restrict_ = program.kernel("fem_amg_product");
    level.correct_first = program.kernel("fem_amg_correct_first");
    level.jacobi = program.kernel(l == 0 ? "fem_amg_jacobi_sums" : "fem_amg_jacobi");
    const Rows& a = level.a;
    core::KernelArgs(level.residual_first).add(a.n).add(a.row_start).add(a.col).add(a.values).add(level.smoother)
        .skip().add(level.t).add(state);
    core::KernelArgs(level.restrict_).add(level.r.n).add(level.r.row_start).add(level.r.col).add(level.r.values)
        .add(level.t).add(next.b).add(state);
    core::KernelArgs(level.correct_first).add(level.p.n).add(level.p.row_start).add(level.p.col).add(level.p.values)
        .add(level.smoother).skip().add(coarse_output).add(level.x).add(state);
    core::KernelArgs(level.jacobi).add(a.n).add(a.row_start).add(a.col).add(a.values).add(level.smoother).skip()
        .add(level.x).skip(l == 0 ? 2 : 1).add(state);
    if (l > 0) {
      level.residual_first.set(5, level.b);
      level.correct_first.set(5, level.b);
      level.jacobi.set(5, level.b);
      level.jacobi.set(7, level.t);
    }
  }
  const Level& coarsest = levels_.back();
  coarse_inverse_ = device_copy(queue, to_real<Real>(hierarchy.coarse_inverse()));
  coarse_solve_ = program.kernel("fem_amg_coarse_solve");
  core::KernelArgs(coarse_solve_).add(coarsest.n).add(coarse_inverse_).skip(3).add(cl_int{levels_.size() == 1})
      .add(state);
  if (levels_.size() > 1) {
    coarse_solve_.set(2, coarsest.b);
    coarse_solve_.set(3, coarsest.x);
    coarse_solve_.set(4, coarsest.x);
    partial_pairs_ = static_cast<int>(spmv_global_.size[0] / spmv_local_.size[0]);
  }
}

template <class Real>
void DeviceAmg<Real>::enqueue(const core::Queue& queue, const core::Buffer<Real>& b, core::Buffer<Real>& z,
                              core::Buffer<Real>& partial) {
  const std::size_t n = levels_.front().n;
  if (b.size() < n || z.size() < n)
    throw core::Error("AMG: b and z have " + std::to_string(b.size()) + " and " + std::to_string(z.size()) +
                      " entries for " + std::to_string(n) + " unknowns");
  if (partial.size() < 2 * static_cast<std::size_t>(partial_pairs_))
    throw core::Error("AMG: " + std::to_string(partial.size()) + " partial sums for " +
                      std::to_string(partial_pairs_) + " work-groups' pairs");
  if (levels_.size() == 1) {
    coarse_solve_.set(2, b);
    coarse_solve_.set(3, z);
    coarse_solve_.set(4, partial);
    coarse_solve_.launch(queue, coarse_range_, coarse_range_);
    return;
  }
  Level& finest = levels_.front();
  finest.residual_first.set(5, b);
  finest.correct_first.set(5, b);
  finest.jacobi.set(5, b);
  finest.jacobi.set(7, z);
  finest.jacobi.set(8, partial);
  for (std::size_t l = 0; l + 1 < levels_.size(); ++l) {
    levels_[l].residual_first.launch(queue, spmv_global_, spmv_local_);
    levels_[l].restrict_.launch(queue, spmv_global_, spmv_local_);
  }
  coarse_solve_.launch(queue, coarse_range_, coarse_range_);
  for (std::size_t l = levels_.size() - 1; l-- > 0;) {
    levels_[l].correct_first.launch(queue, spmv_global_, spmv_local_);
    levels_[l].jacobi.launch(queue, spmv_global_, spmv_local_);
  }
}

template class DeviceAmg<float>;
template class DeviceAmg<double>;

}  // namespace hetflow::fem
