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
#include "hetflow/fem/amg_part.hpp"

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
                         const CgOptions& options, const AmgHierarchy* amg, NodeHalo* halo)
    : options_(options),
      a_(queue, a),
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
  groups_ = static_cast<int>(reduce_global_.size[0] / reduce_wg_);
  product_groups_ = static_cast<int>(spmv_global_.size[0] / spmv_local_.size[0]);
  const std::size_t n = a.n;
  const std::vector<double> inv = inverse_diagonal(a);
  inv_diag_ = core::Buffer<Real>(context, n);
  inv_diag_.write(queue, std::span<const Real>(std::vector<Real>(inv.begin(), inv.end())));
  for (core::Buffer<Real>* v : {&r_, &z_, &p_, &q_}) *v = core::Buffer<Real>(context, n);
  // A part's product runs in three launches (DeviceCg::enqueue_product), each with its partial sums.
  pq_partial_ = core::Buffer<Real>(context, static_cast<std::size_t>(product_slots() * product_groups_));
  scalars_ = core::Buffer<Real>(context, scalar_count);
  state_ = core::Buffer<cl_int>(context, 2);
  int pairs = groups_;
  if (options_.preconditioner == Preconditioner::amg) {
    if (halo) {
      const AmgLevel finest = amg_part_level(*amg, halo->part());
      amg_ = std::make_unique<DeviceAmg<Real>>(queue, *amg, shape, state_, &finest, halo);
    } else if (amg) {
      amg_ = std::make_unique<DeviceAmg<Real>>(queue, *amg, shape, state_);
    } else {
      amg_ = std::make_unique<DeviceAmg<Real>>(queue, AmgHierarchy(a), shape, state_);
    }
    if (amg_->size() != static_cast<std::size_t>(rows_))
      throw core::Error("CG: the AMG hierarchy has " + std::to_string(amg_->size()) + " unknowns for " +
                        std::to_string(rows_) + " rows");
    pairs = amg_->partial_pairs();
  }
  partial_ = core::Buffer<Real>(context, 2 * static_cast<std::size_t>(std::max(groups_, pairs)));
  // The kernels that finish a reduction read these counts and sums: this part's, or every part's.
  int pq_count = product_groups_, start_pairs = groups_;
  const core::Buffer<Real>* pq_sums = &pq_partial_;
  const core::Buffer<Real>* pair_sums = &partial_;
  if (halo_) {
    const int pq_values = product_slots() * product_groups_;
    const auto largest = static_cast<std::size_t>(std::max({pq_values, 2 * groups_, 2 * pairs}));
    relay_out_ = std::make_unique<core::PinnedBuffer<Real>>(queue, largest);
    const std::array<double, 3> mine{double(pq_values), double(groups_), double(pairs)};
    const std::vector<double> every = halo_->all_gather(mine);
    pq_count = start_pairs = pairs = 0;
    for (std::size_t k = 0; k < every.size(); k += 3) {
      pq_count += static_cast<int>(every[k]);
      start_pairs += static_cast<int>(every[k + 1]);
      pairs += static_cast<int>(every[k + 2]);
    }
    relay_in_ = std::make_unique<core::PinnedBuffer<Real>>(
        queue, static_cast<std::size_t>(std::max({pq_count, 2 * start_pairs, 2 * pairs})));
    pq_all_ = core::Buffer<Real>(context, static_cast<std::size_t>(pq_count));
    pairs_all_ = core::Buffer<Real>(context, 2 * static_cast<std::size_t>(std::max(start_pairs, pairs)));
    pq_sums = &pq_all_;
    pair_sums = &pairs_all_;
  }
  start_pairs_ = start_pairs;
  pairs_ = pairs;

  const core::Program& p =
      context.program("fem/sparse.cl", sparse_build_options(precision_of<Real>(), shape, reduce_wg_));
  start_ = p.kernel("fem_cg_start");
  start_sums_ = p.kernel("fem_cg_start_sums");
  product_ = p.kernel("fem_cg_product");
  direction_ = p.kernel("fem_cg_direction");
  const cl_int n32 = rows_;
  core::KernelArgs(start_sums_).skip().add(*pair_sums).add(scalars_).add(state_);
  core::KernelArgs(product_)
      .add(cl_int{0})
      .add(n32)
      .add(a_.row_start)
      .add(a_.col)
      .add(a_.values)
      .add(p_)
      .add(q_)
      .add(pq_partial_)
      .add(cl_int{0})
      .add(state_);
  core::KernelArgs(direction_, precision_of<Real>())
      .add(n32)
      .add(pairs)
      .add(*pair_sums)
      .add(scalars_)
      .add(z_)
      .add(p_)
      .add(state_)
      .real(options_.tolerance * options_.tolerance)
      .add(options_.max_iterations);
  // The step's x is the caller's, set per solve.
  if (amg_) {
    step_ = p.kernel("fem_cg_update");
    core::KernelArgs(step_).add(n32).add(pq_count).add(*pq_sums).add(scalars_).skip().add(r_).add(p_).add(q_)
        .add(state_);
    first_direction_ = p.kernel("fem_cg_first_direction");
    core::KernelArgs(first_direction_).add(n32).add(z_).add(p_).add(state_);
  } else {
    step_ = p.kernel("fem_cg_step");
    core::KernelArgs(step_).add(n32).add(pq_count).add(*pq_sums).add(scalars_).skip().add(r_).add(p_).add(q_)
        .add(inv_diag_).add(z_).add(partial_).add(state_);
  }
}

template <class Real>
bool DeviceCg<Real>::enqueue_iteration(const core::Queue& queue) {
  const core::NDRange one_group(reduce_wg_);
  // A part learns with the product's partial sums whether any part's solve had stopped before it.
  if (halo_) state_.read(queue, check_.span().first(2), 0, core::Blocking::no);
  enqueue_product(queue);
  if (halo_ && relay(queue, pq_partial_, static_cast<std::size_t>(product_slots() * product_groups_), pq_all_,
                     check_.data()))
    return false;
  step_.enqueue(queue, reduce_global_, one_group);
  if (amg_) enqueue_amg(queue);
  if (halo_) relay(queue, partial_, 2 * static_cast<std::size_t>(amg_ ? amg_->partial_pairs() : groups_), pairs_all_);
  direction_.enqueue(queue, reduce_global_, one_group);
  return true;
}

template <class Real>
void DeviceCg<Real>::enqueue_product(const core::Queue& queue) {
  if constexpr (std::is_same_v<Real, double>) {
    if (halo_) {
      // The rows that read no halo run while p's halo travels; the others wait for it.
      const NodeHalo::Rows& inner = halo_->interior();
      halo_->begin_exchange(p_, 1);
      launch_rows(queue, inner.first, inner.count, 0, {});
      const core::Event halo = halo_->end_exchange(p_, 1);
      launch_rows(queue, 0, inner.first, 1, halo);
      launch_rows(queue, inner.first + inner.count, static_cast<std::size_t>(rows_) - inner.first - inner.count, 2, {});
      return;
    }
  }
  product_.enqueue(queue, spmv_global_, spmv_local_);
}

template <class Real>
void DeviceCg<Real>::launch_rows(const core::Queue& queue, std::size_t first, std::size_t count, int slot,
                                 const core::Event& wait) {
  product_.set(0, static_cast<cl_int>(first));
  product_.set(1, static_cast<cl_int>(count));
  product_.set(8, static_cast<cl_int>(slot * product_groups_));
  product_.enqueue(queue, spmv_global_, spmv_local_,
                  wait.get() ? std::span<const core::Event>(&wait, 1) : std::span<const core::Event>());
}

template <class Real>
void DeviceCg<Real>::enqueue_amg(const core::Queue& queue) {
  // A part's cycle reads r at its neighbours.
  if constexpr (std::is_same_v<Real, double>) {
    if (halo_) halo_->exchange(r_, 1);
  }
  amg_->enqueue(queue, r_, z_, partial_);
}

template <class Real>
bool DeviceCg<Real>::relay(const core::Queue& queue, const core::Buffer<Real>& local, std::size_t values,
                           core::Buffer<Real>& all, const cl_int* state) {
  local.read(queue, relay_out_->span().first(values));
  std::vector<double> mine{state && *state != 0 ? 1.0 : 0.0};
  mine.insert(mine.end(), relay_out_->data(), relay_out_->data() + values);
  bool stopped = false;
  std::size_t at = 0;
  for (const std::vector<double>& theirs : halo_->link().all_gather(mine)) {
    stopped = stopped || theirs.front() != 0;
    for (std::size_t k = 1; k < theirs.size(); ++k) (*relay_in_)[at++] = static_cast<Real>(theirs[k]);
  }
  // The next relay's blocking read follows this write on the in-order queue, so relay_in_ is free by then.
  all.write(queue, std::span<const Real>(relay_in_->span().first(at)), 0, core::Blocking::no);
  return stopped;
}

template <class Real>
CgResult DeviceCg<Real>::solve(const core::Queue& queue, const core::Buffer<Real>& b, core::Buffer<Real>& x) {
  if (b.size() < a_.n || x.size() < a_.n)
    throw core::Error("CG: b and x have " + std::to_string(b.size()) + " and " + std::to_string(x.size()) +
                      " entries for " + std::to_string(a_.n) + " unknowns");
  const core::NDRange one_group(reduce_wg_);
  core::KernelArgs(start_)
      .add(static_cast<cl_int>(rows_))
      .add(b)
      .add(inv_diag_)
      .add(x)
      .add(r_)
      .add(z_)
      .add(p_)
      .add(partial_);
  start_.enqueue(queue, reduce_global_, one_group);
  step_.set(4, x);
  if (halo_) relay(queue, partial_, 2 * static_cast<std::size_t>(groups_), pairs_all_);
  start_sums_.set(0, static_cast<cl_int>(start_pairs_));
  start_sums_.enqueue(queue, one_group, one_group);
  if (amg_) {
    // The Jacobi start above set the state word and b.b; the V-cycle replaces z and so p and r.z.
    enqueue_amg(queue);
    first_direction_.enqueue(queue, reduce_global_, one_group);
    if (halo_) relay(queue, partial_, 2 * static_cast<std::size_t>(amg_->partial_pairs()), pairs_all_);
    start_sums_.set(0, static_cast<cl_int>(pairs_));
    start_sums_.enqueue(queue, one_group, one_group);
  }
  if (halo_) {
    // The host takes part in every iteration anyway: it stops when any part's state word has.
    while (enqueue_iteration(queue)) {
    }
    return finished(queue);
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
  return finished(queue);
}

template <class Real>
CgResult DeviceCg<Real>::finished(const core::Queue& queue) {
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
