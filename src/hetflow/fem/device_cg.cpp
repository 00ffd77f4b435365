#include "hetflow/fem/device_cg.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <type_traits>
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
constexpr std::size_t scalar_count = 6;

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
                         const CgOptions& options, const AmgHierarchy* amg, NodeHalo* halo, int slice_bits)
    : options_(options),
      a_(queue, a, slice_bits),
      rows_(static_cast<int>(halo ? halo->owned() : a.n)),
      halo_(halo),
      check_(queue, 4) {
  check_options(options_);
  if (halo && !std::is_same_v<Real, double>) throw core::Error("CG: a solve split over parts runs in FP64");
  if (halo && halo->local_count() != a.n)
    throw core::Error("CG: the part's matrix has " + std::to_string(a.n) + " rows for " +
                      std::to_string(halo->local_count()) + " local nodes");
  if (halo && options.preconditioner == Preconditioner::amg && !amg)
    throw core::Error("CG: a part's AMG preconditioner needs the whole mesh's hierarchy");
  const core::Context& context = queue.context();
  const core::DeviceInfo& info = context.device().info;
  check(shape, info);
  reduce_wg_ = reduce_work_group(info);
  reduce_global_ = core::strided_range(info, reduce_wg_, reduce_groups_per_unit);
  spmv_global_ = spmv_range(info, shape);
  spmv_local_ = core::NDRange(shape.work_group());
  product_groups_ = static_cast<int>(spmv_global_.size[0] / spmv_local_.size[0]);
  const std::size_t n = a.n;
  const std::vector<double> inv = inverse_diagonal(a);
  inv_diag_ = core::Buffer<Real>(context, n);
  inv_diag_.write(queue, std::span<const Real>(std::vector<Real>(inv.begin(), inv.end())));
  for (core::Buffer<Real>* v : {&r_, &u_, &w_, &p_, &s_}) *v = core::Buffer<Real>(context, n);
  partial_ = core::Buffer<double>(context, partial_count());
  scalars_ = core::Buffer<double>(context, scalar_count);
  state_ = core::Buffer<cl_int>(context, 3);
  if (options_.preconditioner == Preconditioner::amg) {
    if (halo) {
      amg_ = std::make_unique<DeviceAmg<Real>>(queue, *amg, shape, state_, halo, slice_bits);
    } else if (amg) {
      amg_ = std::make_unique<DeviceAmg<Real>>(queue, *amg, shape, state_, nullptr, slice_bits);
    } else {
      amg_ = std::make_unique<DeviceAmg<Real>>(queue, AmgHierarchy(a), shape, state_, nullptr, slice_bits);
    }
    if (amg_->size() != static_cast<std::size_t>(rows_))
      throw core::Error("CG: the AMG hierarchy has " + std::to_string(amg_->size()) + " unknowns for " +
                        std::to_string(rows_) + " rows");
  }
  // The update adds the product's partial triples, or one triple per part.
  auto triples = static_cast<int>(partial_count() / 3);
  const core::Buffer<double>* sums = &partial_;
  if (halo_) {
    const std::size_t parts = halo_->link().size();
    part_sum_ = core::Buffer<double>(context, 4);
    relay_out_ = std::make_unique<core::PinnedBuffer<double>>(queue, 4);
    relay_in_ = std::make_unique<core::PinnedBuffer<double>>(queue, 3 * parts);
    partial_all_ = core::Buffer<double>(context, 3 * parts);
    triples = static_cast<int>(parts);
    sums = &partial_all_;
  }

  const core::Program& p =
      context.program("fem/sparse.cl", sparse_build_options(precision_of<Real>(), shape, reduce_wg_));
  start_ = p.kernel("fem_cg_start");
  product_ = p.kernel("fem_cg_product");
  update_ = p.kernel("fem_cg_update");
  if (halo_) {
    part_sums_ = p.kernel("fem_cg_part_sums");
    core::KernelArgs(part_sums_).add(static_cast<cl_int>(partial_count() / 3)).add(partial_).add(part_sum_)
        .add(state_);
  }
  const cl_int n32 = rows_;
  const cl_int jacobi = amg_ ? 0 : 1;
  core::KernelArgs(start_).add(n32).skip(2).add(r_).add(jacobi).add(inv_diag_).add(u_).add(state_);
  core::KernelArgs product_args(product_);
  product_args.add(cl_int{0}).add(n32);
  a_.add_layout(product_args);
  product_args.add(r_)
      .add(u_)
      .add(w_)
      .add(partial_)
      .add(cl_int{0})
      .add(scalars_)
      .add(state_);
  // The update's x is the caller's, set per solve.
  core::KernelArgs(update_)
      .add(n32)
      .add(triples)
      .add(*sums)
      .add(scalars_)
      .add(jacobi)
      .add(inv_diag_)
      .add(u_)
      .add(w_)
      .add(p_)
      .add(s_)
      .skip()
      .add(r_)
      .add(state_)
      .add(options_.tolerance * options_.tolerance)
      .add(options_.max_iterations);
}

template <class Real>
bool DeviceCg<Real>::enqueue_iteration(const core::Queue& queue) {
  update_.enqueue(queue, reduce_global_, core::NDRange(reduce_wg_));
  return enqueue_product(queue);
}

template <class Real>
bool DeviceCg<Real>::enqueue_product(const core::Queue& queue) {
  if constexpr (std::is_same_v<Real, double>) {
    if (halo_) {
      if (amg_) {
        // A part's cycle reads r at its neighbours.
        halo_->exchange(r_, 1);
        amg_->enqueue(queue, r_, u_);
      }
      // The rows that read no halo run while u's halo travels; the others wait for it.
      const NodeHalo::Rows& inner = halo_->interior();
      halo_->begin_exchange(u_, 1);
      launch_rows(queue, inner.first, inner.count, 0, {});
      const core::Event halo = halo_->end_exchange(u_, 1);
      launch_rows(queue, 0, inner.first, 1, halo);
      launch_rows(queue, inner.first + inner.count, static_cast<std::size_t>(rows_) - inner.first - inner.count, 2, {});
      part_sums_.enqueue(queue, core::NDRange(reduce_wg_), core::NDRange(reduce_wg_));
      return !relay(queue);
    }
  }
  if (amg_) amg_->enqueue(queue, r_, u_);
  product_.enqueue(queue, spmv_global_, spmv_local_);
  return true;
}

template <class Real>
void DeviceCg<Real>::launch_rows(const core::Queue& queue, std::size_t first, std::size_t count, int slot,
                                 const core::Event& wait) {
  product_.set(0, static_cast<cl_int>(first));
  product_.set(1, static_cast<cl_int>(count));
  product_.set(10, static_cast<cl_int>(slot * product_groups_));
  product_.enqueue(queue, spmv_global_, spmv_local_,
                   wait.get() ? std::span<const core::Event>(&wait, 1) : std::span<const core::Event>());
}

template <class Real>
bool DeviceCg<Real>::relay(const core::Queue& queue) {
  part_sum_.read(queue, relay_out_->span());
  // The state rides with the sums, first: a part that stopped tells the others.
  const std::array<double, 4> mine{(*relay_out_)[3], (*relay_out_)[0], (*relay_out_)[1], (*relay_out_)[2]};
  bool stopped = false;
  std::size_t at = 0;
  for (const std::vector<double>& theirs : halo_->link().all_gather(mine)) {
    stopped = stopped || theirs.front() != 0;
    for (std::size_t k = 1; k < theirs.size(); ++k) (*relay_in_)[at++] = theirs[k];
  }
  // The next relay's blocking read follows this write on the in-order queue, so relay_in_ is free by then.
  partial_all_.write(queue, std::span<const double>(relay_in_->span().first(at)), 0, core::Blocking::no);
  return stopped;
}

template <class Real>
CgResult DeviceCg<Real>::solve(const core::Queue& queue, const core::Buffer<Real>& b, core::Buffer<Real>& x) {
  if (b.size() < a_.n || x.size() < a_.n)
    throw core::Error("CG: b and x have " + std::to_string(b.size()) + " and " + std::to_string(x.size()) +
                      " entries for " + std::to_string(a_.n) + " unknowns");
  start_.set(1, b);
  start_.set(2, x);
  start_.enqueue(queue, reduce_global_, core::NDRange(reduce_wg_));
  update_.set(10, x);
  if (halo_) {
    // The host takes part in every iteration anyway: it stops when any part's state word has.
    if (enqueue_product(queue)) {
      while (enqueue_iteration(queue)) {
      }
    }
    return finished(queue);
  }

  enqueue_product(queue);
  // The update after max_iterations steps only tests the last iterate.
  const int limit = options_.max_iterations + 1;
  std::array<core::Event, 2> pending;
  int enqueued = 0;
  for (int check = 0;; ++check) {
    const int slot = check % 2;
    const int batch = std::min(options_.check_interval, limit - enqueued);
    for (int k = 0; k < batch; ++k) enqueue_iteration(queue);
    enqueued += batch;
    pending[slot] = state_.read(queue, check_.span().subspan(2 * slot, 2), 0, core::Blocking::no);
    queue.flush();
    if (enqueued >= limit) break;
    if (check == 0) continue;
    pending[1 - slot].wait();
    if (check_[2 * (1 - slot)] != 0) break;
  }
  return finished(queue);
}

template <class Real>
CgResult DeviceCg<Real>::finished(const core::Queue& queue) {
  queue.finish();
  const std::vector<cl_int> final_state = state_.to_vector(queue);
  const std::vector<double> s = scalars_.to_vector(queue);
  CgResult result;
  result.status = static_cast<CgStatus>(final_state[0]);
  result.iterations = final_state[1];
  result.residual = relative_residual(s[scalar_rr], s[scalar_bb]);
  return result;
}

template class DeviceCg<float>;
template class DeviceCg<double>;

}  // namespace hetflow::fem
