#include "hetflow/fem/device_cg.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "hetflow/core/error.hpp"
#include "hetflow/core/kernel_args.hpp"
#include "hetflow/core/program.hpp"

namespace hetflow::fem {
namespace {

// Work-groups per compute unit of the grid-stride vector kernels and of the first reduction stage.
constexpr std::size_t reduce_groups_per_unit = 4;

// Where fem/sparse.cl keeps r.r and b.b among the solve's scalars.
constexpr std::size_t scalar_rr = 2;
constexpr std::size_t scalar_bb = 3;
constexpr std::size_t scalar_count = 4;

void check_options(const CgOptions& o) {
  if (!(o.tolerance > 0) || !std::isfinite(o.tolerance))
    throw core::Error("CG: tolerance must be positive and finite, got " + std::to_string(o.tolerance));
  if (o.max_iterations < 1)
    throw core::Error("CG: max_iterations must be at least 1, got " + std::to_string(o.max_iterations));
  if (o.check_interval < 1)
    throw core::Error("CG: check_interval must be at least 1, got " + std::to_string(o.check_interval));
}

double relative_residual(double rr, double bb) { return bb > 0 ? std::sqrt(rr / bb) : 0.0; }

}  // namespace

template <class Real>
DeviceCg<Real>::DeviceCg(const core::Queue& queue, const CsrMatrix& a, const SpmvShape& shape,
                         const CgOptions& options, const AmgHierarchy* amg)
    : options_(options), a_(queue, a), check_(queue, 4) {
  check_options(options_);
  const core::Context& context = queue.context();
  const core::DeviceInfo& info = context.device().info;
  check(shape, info);
  reduce_wg_ = reduce_work_group(info);
  reduce_global_ = core::strided_range(info, reduce_wg_, reduce_groups_per_unit);
  spmv_global_ = spmv_range(info, shape);
  spmv_local_ = core::NDRange(shape.work_group());
  groups_ = static_cast<int>(reduce_global_.size[0] / reduce_wg_);
  const int product_groups = static_cast<int>(spmv_global_.size[0] / spmv_local_.size[0]);
  const std::size_t n = a.n;
  const std::vector<double> inv = inverse_diagonal(a);
  inv_diag_ = core::Buffer<Real>(context, n);
  inv_diag_.write(queue, std::span<const Real>(std::vector<Real>(inv.begin(), inv.end())));
  for (core::Buffer<Real>* v : {&r_, &z_, &p_, &q_}) *v = core::Buffer<Real>(context, n);
  pq_partial_ = core::Buffer<Real>(context, static_cast<std::size_t>(product_groups));
  scalars_ = core::Buffer<Real>(context, scalar_count);
  state_ = core::Buffer<cl_int>(context, 2);
  int pairs = groups_;
  if (options_.preconditioner == Preconditioner::amg) {
    if (amg) {
      amg_ = std::make_unique<DeviceAmg<Real>>(queue, *amg, shape, state_);
    } else {
      amg_ = std::make_unique<DeviceAmg<Real>>(queue, AmgHierarchy(a), shape, state_);
    }
    if (amg_->size() != n)
      throw core::Error("CG: the AMG hierarchy has " + std::to_string(amg_->size()) + " unknowns for a matrix of " +
                        std::to_string(n));
    pairs = amg_->partial_pairs();
  }
  partial_ = core::Buffer<Real>(context, 2 * static_cast<std::size_t>(std::max(groups_, pairs)));

  const core::Program& p =
      context.program("fem/sparse.cl", sparse_build_options(precision_of<Real>(), shape, reduce_wg_));
  start_ = p.kernel("fem_cg_start");
  start_sums_ = p.kernel("fem_cg_start_sums");
  product_ = p.kernel("fem_cg_product");
  direction_ = p.kernel("fem_cg_direction");
  const cl_int n32 = static_cast<cl_int>(n);
  core::KernelArgs(start_sums_).skip().add(partial_).add(scalars_).add(state_);
  core::KernelArgs(product_).add(n32).add(a_.row_start).add(a_.col).add(a_.values).add(p_).add(q_).add(pq_partial_)
      .add(state_);
  core::KernelArgs(direction_, precision_of<Real>())
      .add(n32)
      .add(pairs)
      .add(partial_)
      .add(scalars_)
      .add(z_)
      .add(p_)
      .add(state_)
      .real(options_.tolerance * options_.tolerance)
      .add(options_.max_iterations);
  // The step's x is the caller's, set per solve.
  if (amg_) {
    step_ = p.kernel("fem_cg_update");
    core::KernelArgs(step_).add(n32).add(product_groups).add(pq_partial_).add(scalars_).skip().add(r_).add(p_).add(q_)
        .add(state_);
    first_direction_ = p.kernel("fem_cg_first_direction");
    core::KernelArgs(first_direction_).add(n32).add(z_).add(p_).add(state_);
  } else {
    step_ = p.kernel("fem_cg_step");
    core::KernelArgs(step_).add(n32).add(product_groups).add(pq_partial_).add(scalars_).skip().add(r_).add(p_).add(q_)
        .add(inv_diag_).add(z_).add(partial_).add(state_);
  }
}

template <class Real>
void DeviceCg<Real>::enqueue_iteration(const core::Queue& queue) {
  const core::NDRange one_group(reduce_wg_);
  product_.launch(queue, spmv_global_, spmv_local_);
  step_.launch(queue, reduce_global_, one_group);
  if (amg_) amg_->enqueue(queue, r_, z_, partial_);
  direction_.launch(queue, reduce_global_, one_group);
}

template <class Real>
CgResult DeviceCg<Real>::solve(const core::Queue& queue, const core::Buffer<Real>& b, core::Buffer<Real>& x) {
  if (b.size() < a_.n || x.size() < a_.n)
    throw core::Error("CG: b and x have " + std::to_string(b.size()) + " and " + std::to_string(x.size()) +
                      " entries for " + std::to_string(a_.n) + " unknowns");
  const core::NDRange one_group(reduce_wg_);
  core::KernelArgs(start_)
      .add(static_cast<cl_int>(a_.n))
      .add(b)
      .add(inv_diag_)
      .add(x)
      .add(r_)
      .add(z_)
      .add(p_)
      .add(partial_);
  start_.launch(queue, reduce_global_, one_group);
  step_.set(4, x);
  start_sums_.set(0, static_cast<cl_int>(groups_));
  start_sums_.launch(queue, one_group, one_group);
  if (amg_) {
    // The Jacobi start above set the state word and b.b; the V-cycle replaces z and so p and r.z.
    amg_->enqueue(queue, r_, z_, partial_);
    first_direction_.launch(queue, reduce_global_, one_group);
    start_sums_.set(0, static_cast<cl_int>(amg_->partial_pairs()));
    start_sums_.launch(queue, one_group, one_group);
  }

  std::array<core::Event, 2> pending;
  int enqueued = 0;
  for (int check = 0;; ++check) {
    const int slot = check % 2;
    const int batch = std::min(options_.check_interval, options_.max_iterations - enqueued);
    for (int k = 0; k < batch; ++k) enqueue_iteration(queue);
    enqueued += batch;
    pending[slot] = state_.read(queue, check_.span().subspan(2 * slot, 2), 0, core::Blocking::no);
    queue.flush();
    if (enqueued >= options_.max_iterations) break;
    if (check == 0) continue;
    pending[1 - slot].wait();
    if (check_[2 * (1 - slot)] != 0) break;
  }
  queue.finish();
  const std::vector<cl_int> final_state = state_.to_vector(queue);
  const std::vector<Real> s = scalars_.to_vector(queue);
  CgResult result;
  result.status = static_cast<CgStatus>(final_state[0]);
  result.iterations = final_state[1];
  result.residual = relative_residual(s[scalar_rr], s[scalar_bb]);
  return result;
}

template class DeviceCg<float>;
template class DeviceCg<double>;

}  // namespace hetflow::fem
