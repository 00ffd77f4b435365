#include "hetflow/nnls/pcgnr.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "hetflow/nnls/host_dense.hpp"

namespace hetflow::nnls {
namespace {

// Slots of the scalars, read together once per iteration: q.q, z.z, then z.w of the current and of the
// next iteration, whose roles swap each iteration (beta = new z.w / old z.w).
constexpr std::size_t qq = 0, zz = 1, zw0 = 2;
using Scalars = std::array<double, 4>;

// The iteration's control, whichever route runs its steps: `start(cur)` forms r, z, w and p from y = 0,
// `step(cur, next)` runs an iteration, both returning the scalars, and `restore()` puts the previous
// iterate back in y. Past the attainable accuracy the iteration does not just stall: in FP32 ||B^T r||
// can grow again by 1e5 within 20 iterations (and x with it). So a rise of ||B^T r|| once it is below
// sqrt(eps) ||B^T b|| ends the solve at the previous iterate; above that a rise is ordinary CG.
template <class Start, class Step, class Restore>
int iterate(Start start, Step step, Restore restore, double epsilon, int max_iterations, double tolerance) {
  std::size_t cur = zw0, next = zw0 + 1;
  Scalars s = start(cur);
  const double first = std::sqrt(s[zz]);
  if (!(s[zz] > 0) || !(s[cur] > 0)) return 0;  // B^T b = 0: y = 0 is the answer
  const double stall = std::sqrt(epsilon) * first;
  double last = first;
  for (int it = 1; it <= max_iterations; ++it) {
    s = step(cur, next);
    if (!(s[qq] > 0) || !std::isfinite(s[qq]) || !std::isfinite(s[zz]) || !std::isfinite(s[next])) {
      restore();
      return it;
    }
    const double now = std::sqrt(s[zz]);
    if (now > last && now <= stall) {
      restore();
      return it;
    }
    // At least two iterations: the first iterate is the preconditioner's solution of the normal
    // equations, whose ||B^T r|| can pass the tolerance while x still falls a digit or more short of
    // what CGNR attains; the second iteration is CGNR's correction.
    if ((it >= 2 && now <= tolerance * first) || !(s[next] > 0)) return it;
    last = now;
    std::swap(cur, next);
  }
  return max_iterations;
}

double dot(std::size_t n, const double* x, const double* y) {
  double sum = 0.0;
  for (std::size_t i = 0; i < n; ++i) sum += x[i] * y[i];
  return sum;
}

// PCGNR on the host's cores, for a device that is those cores (DenseTuning::cpu_blas): every buffer
// mapped once per solve, where the device route enqueues about twelve commands per iteration and waits
// for each iteration's scalars, a fixed cost per iteration through PoCL. The answer goes to y_out and
// y_host.
int solve_on_host(const core::Queue& q, std::size_t m, const DeviceMatrixView<double>& a, const core::Buffer<cl_int>& f,
                  const InverseView<double>& h, const core::Buffer<double>& b, double lambda, int max_iterations,
                  double tolerance, core::Buffer<double>& y_out, std::span<double> y_host) {
  const std::size_t k = h.k;
  const bool tikhonov = lambda > 0.0;
  const double root = std::sqrt(lambda);
  const std::size_t rows = tikhonov ? m + k : m;
  const auto am = a.map(q, core::MapMode::read);
  const auto wm = h.wt.map(q, core::MapMode::read);
  const auto cm = h.columns.map(q, core::MapMode::read, 0, k);
  const auto qm = h.q.map(q, core::MapMode::read);
  const auto fm = f.map(q, core::MapMode::read, 0, k);
  const auto bm = b.map(q, core::MapMode::read, 0, m);
  const double* matrix = am.data();
  const int* columns = fm.data();
  const HostInverse inverse{h.wt.rows, h.wt.cols, wm.data(), h.wt.ld, cm.data(), k, qm.data(), h.q.ld, h.q.cols};
  std::vector<double> r(rows), qv(rows), y(k), y_prev(k), z(k), w(k), p(k), full, work, u;
  const auto product_t = [&] {  // z = [B; sqrt(lambda) I]^T r
    host_gemv_t(m, a.cols, 1.0, matrix, a.ld, columns, k, r.data(), 0.0, z.data(), full);
    if (tikhonov)
      for (std::size_t i = 0; i < k; ++i) z[i] += root * r[m + i];
  };
  const auto precondition = [&] { host_apply_inverse(inverse, z.data(), w.data(), work, u); };
  Scalars s{};
  const auto start = [&](std::size_t cur) {
    std::copy(bm.data(), bm.data() + m, r.begin());
    product_t();
    precondition();
    p = w;
    s[cur] = dot(k, z.data(), w.data());
    s[zz] = dot(k, z.data(), z.data());
    return s;
  };
  const auto step = [&](std::size_t cur, std::size_t next) {
    y_prev = y;
    host_gemv_n(m, a.cols, 1.0, matrix, a.ld, columns, k, p.data(), 0.0, qv.data(), full);
    if (tikhonov)
      for (std::size_t i = 0; i < k; ++i) qv[m + i] = root * p[i];
    s[qq] = dot(rows, qv.data(), qv.data());
    const double alpha = s[cur] / s[qq];
    for (std::size_t i = 0; i < k; ++i) y[i] += alpha * p[i];
    for (std::size_t i = 0; i < rows; ++i) r[i] -= alpha * qv[i];
    product_t();
    precondition();
    s[next] = dot(k, z.data(), w.data());
    s[zz] = dot(k, z.data(), z.data());
    const double beta = s[next] / s[cur];
    for (std::size_t i = 0; i < k; ++i) p[i] = w[i] + beta * p[i];
    return s;
  };
  const auto restore = [&] { y = y_prev; };
  const int iterations =
      iterate(start, step, restore, std::numeric_limits<double>::epsilon(), max_iterations, tolerance);
  if (k > 0) y_out.write(q, std::span<const double>(y));
  std::copy(y.begin(), y.end(), y_host.begin());
  return iterations;
}

}  // namespace

template <class Real>
Pcgnr<Real>::Pcgnr(DeviceDense<Real>& dense, const core::Queue& queue, std::size_t m, std::size_t n)
    : dense_(dense), queue_(queue), m_(m), iterates_(queue, 2 * std::max<std::size_t>(n, 1)) {
  const core::Context& c = queue.context();
  const std::size_t k = std::max<std::size_t>(n, 1);
  r_ = core::Buffer<Real>(c, m + k);
  q_ = core::Buffer<Real>(c, m + k);
  for (core::Buffer<Real>* v : {&y_, &y_prev_, &z_, &w_, &p_, &tail_}) *v = core::Buffer<Real>(c, k);
  scalars_ = core::Buffer<Real>(c, 12);
  s_ = core::Buffer<Real>(c, static_cast<std::size_t>(dense.tuning().cholesky_block));
}

template <class Real>
int Pcgnr<Real>::solve(const DeviceMatrixView<Real>& a, const core::Buffer<cl_int>& f, const InverseView<Real>& h,
                       const core::Buffer<Real>& b, double lambda, int max_iterations, double tolerance) {
  const std::size_t k = h.k, half = iterates_.size() / 2;
  if constexpr (std::is_same_v<Real, double>) {
    if (dense_.host_blas()) {
      answer_ = iterates_.span().first(k);
      return solve_on_host(queue_, m_, a, f, h, b, lambda, max_iterations, tolerance, y_, iterates_.span().first(k));
    }
  }
  if (u_.size() < h.wt.rows) u_ = core::Buffer<Real>(queue_.context(), h.wt.rows);
  if (s_.size() < h.q.cols) s_ = core::Buffer<Real>(queue_.context(), h.q.cols);
  const core::Queue& q = queue_;
  const bool tikhonov = lambda > 0.0;
  const Real root = static_cast<Real>(std::sqrt(lambda));
  const std::size_t rows = tikhonov ? m_ + k : m_;  // length of r and q
  // Iteration t keeps its q.q, z.z and z.w in slots stage(t) + 0, 1, 2 (three stages in turn), so the
  // start and the first two iterations, which always run, are enqueued before the host reads anything:
  // one wait instead of three. The control (iterate) then sees their scalars as if each had been read on
  // its own, and what it keeps is fixed up afterwards: y holds the second iterate, y_prev the first.
  const auto stage = [](std::size_t t) { return 4 * (t % 3); };
  std::array<Real, 12> seen{};
  // The current iterate comes along with each read of the scalars (into half `it` % 2 of iterates_),
  // so that the answer is usually on the host when the control stops.
  std::array<std::size_t, 2> held{0, 0};  // the iterate in each half (0: none yet)
  const auto read = [&](std::size_t from, std::size_t count, std::size_t it) {
    y_.enqueue_read(q, iterates_.span().subspan((it % 2) * half, k));
    held[it % 2] = it;
    scalars_.read(q, std::span<Real>(seen.data() + from, count), from);
  };
  std::size_t t = 0;  // the iteration iterate() is at
  const auto enqueue_step = [&](std::size_t it) {
    const std::size_t before = stage(it - 1) + 2, now = stage(it);
    y_prev_.enqueue_copy_from(q, y_, 0, 0, k);
    dense_.gemv_n(q, Real(1), a, f, k, p_, Real(0), q_);
    if (tikhonov) {  // q's tail: sqrt(lambda) p
      tail_.enqueue_fill(q, Real(0), 0, k);
      dense_.axpy(q, k, root, p_, tail_);
      q_.enqueue_copy_from(q, tail_, 0, m_, k);
    }
    dense_.dot(q, rows, q_, q_, scalars_, now);
    dense_.axpy_ratio(q, k, scalars_, before, now, Real(1), p_, y_);      // y += alpha p
    dense_.axpy_ratio(q, rows, scalars_, before, now, Real(-1), q_, r_);  // r -= alpha q
    dense_.gemv_t(q, Real(1), a, f, k, r_, Real(0), z_);
    if (tikhonov) {  // z = [B; sqrt(lambda) I]^T r
      tail_.enqueue_copy_from(q, r_, m_, 0, k);
      dense_.axpy(q, k, root, tail_, z_);
    }
    dense_.apply_inverse(q, h, z_, w_, u_, s_);
    dense_.dot(q, k, z_, w_, scalars_, now + 2);
    dense_.dot(q, k, z_, z_, scalars_, now + 1);
    dense_.xpby_ratio(q, k, scalars_, now + 2, before, w_, p_);  // p = w + beta p
  };
  const auto start = [&](std::size_t cur) {
    y_.enqueue_fill(q, Real(0), 0, k);
    r_.enqueue_copy_from(q, b, 0, 0, m_);
    if (tikhonov) r_.enqueue_fill(q, Real(0), m_, k);  // the appended rows' right-hand side is 0
    dense_.gemv_t(q, Real(1), a, f, k, r_, Real(0), z_);
    dense_.apply_inverse(q, h, z_, w_, u_, s_);
    p_.enqueue_copy_from(q, w_, 0, 0, k);
    dense_.dot(q, k, z_, w_, scalars_, stage(0) + 2);
    dense_.dot(q, k, z_, z_, scalars_, stage(0) + 1);
    enqueue_step(1);
    enqueue_step(2);
    read(0, seen.size(), 2);
    Scalars s{};
    s[cur] = seen[stage(0) + 2];
    s[zz] = seen[stage(0) + 1];
    return s;
  };
  const auto step = [&](std::size_t cur, std::size_t next) {
    if (++t > 2) {
      enqueue_step(t);
      read(stage(t), 3, t);
    }
    Scalars s{};
    s[qq] = seen[stage(t)];
    s[zz] = seen[stage(t) + 1];
    s[next] = seen[stage(t) + 2];
    s[cur] = seen[stage(t - 1) + 2];
    return s;
  };
  bool restored = false;
  const auto restore = [&] {
    restored = true;
    if (t == 1)
      y_.enqueue_fill(q, Real(0), 0, k);  // the start's y
    else
      y_.enqueue_copy_from(q, y_prev_, 0, 0, k);
  };
  const int iterations = iterate(start, step, restore, std::numeric_limits<Real>::epsilon(), max_iterations, tolerance);
  if (!restored && iterations == 0) y_.enqueue_fill(q, Real(0), 0, k);
  if (!restored && iterations == 1) y_.enqueue_copy_from(q, y_prev_, 0, 0, k);
  // The answer on the host: read with the scalars, or (kept the first iterate) read now.
  const std::size_t kept = static_cast<std::size_t>(restored ? iterations - 1 : iterations);
  const std::span<Real> answer = iterates_.span().subspan((kept % 2) * half, k);
  if (kept == 0)
    std::fill(answer.begin(), answer.end(), Real(0));
  else if (held[kept % 2] != kept)
    y_.read(q, answer);
  answer_ = answer;
  return iterations;
}

template class Pcgnr<float>;
template class Pcgnr<double>;

}  // namespace hetflow::nnls
