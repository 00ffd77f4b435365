#include "hetflow/nnls/pcgnr.hpp"

#include <array>
#include <cmath>
#include <limits>
#include <span>

namespace hetflow::nnls {
namespace {

// Slots of the scalars buffer, read together once per iteration: q.q, z.z, then z.w of the current
// and of the next iteration, whose roles swap each iteration (beta = new z.w / old z.w).
constexpr std::size_t qq = 0, zz = 1, zw0 = 2;

}  // namespace

template <class Real>
Pcgnr<Real>::Pcgnr(DeviceDense<Real>& dense, const core::Queue& queue, std::size_t m, std::size_t n)
    : dense_(dense), queue_(queue), m_(m) {
  const core::Context& c = queue.context();
  const std::size_t k = std::max<std::size_t>(n, 1);
  r_ = core::Buffer<Real>(c, m + k);
  q_ = core::Buffer<Real>(c, m + k);
  for (core::Buffer<Real>* v : {&y_, &y_prev_, &z_, &w_, &p_, &tail_, &scratch_}) *v = core::Buffer<Real>(c, k);
  scalars_ = core::Buffer<Real>(c, 4);
}

template <class Real>
int Pcgnr<Real>::solve(const DeviceMatrixView<Real>& a, const core::Buffer<cl_int>& f, std::size_t k,
                       const DeviceMatrixView<Real>& r_factor, const core::Buffer<Real>& b, double lambda,
                       int max_iterations, double tolerance) {
  const core::Queue& q = queue_;
  const bool tikhonov = lambda > 0.0;
  const Real root = static_cast<Real>(std::sqrt(lambda));
  const std::size_t rows = tikhonov ? m_ + k : m_;  // length of r and q

  y_.fill(q, Real(0), 0, k);
  r_.copy_from(q, b, 0, 0, m_);
  if (tikhonov) r_.fill(q, Real(0), m_, k);  // the appended rows' right-hand side is 0
  dense_.gemv_t(q, Real(1), a, f, k, r_, Real(0), z_);
  dense_.precondition(q, r_factor, z_, w_, scratch_);
  p_.copy_from(q, w_, 0, 0, k);
  std::size_t cur = zw0, next = zw0 + 1;
  dense_.dot(q, k, z_, w_, scalars_, cur);
  dense_.dot(q, k, z_, z_, scalars_, zz);
  std::array<Real, 4> s{};
  scalars_.read(q, std::span<Real>(s));
  const double start = std::sqrt(static_cast<double>(s[zz]));
  if (!(s[zz] > 0) || !(s[cur] > 0)) return 0;  // B^T b = 0: y = 0 is the answer
  // Past the attainable accuracy the iteration does not just stall: in FP32 ||B^T r|| can grow
  // again by 1e5 within 20 iterations (and x with it). So a rise of ||B^T r|| once it is below
  // sqrt(eps) ||B^T b|| ends the solve at the previous iterate; above that a rise is ordinary CG.
  const double stall = std::sqrt(std::numeric_limits<Real>::epsilon()) * start;
  double last = start;

  for (int it = 1; it <= max_iterations; ++it) {
    y_prev_.copy_from(q, y_, 0, 0, k);
    dense_.gemv_n(q, Real(1), a, f, k, p_, Real(0), q_);
    if (tikhonov) {  // q's tail: sqrt(lambda) p
      tail_.fill(q, Real(0), 0, k);
      dense_.axpy(q, k, root, p_, tail_);
      q_.copy_from(q, tail_, 0, m_, k);
    }
    dense_.dot(q, rows, q_, q_, scalars_, qq);
    dense_.axpy_ratio(q, k, scalars_, cur, qq, Real(1), p_, y_);      // y += alpha p
    dense_.axpy_ratio(q, rows, scalars_, cur, qq, Real(-1), q_, r_);  // r -= alpha q
    dense_.gemv_t(q, Real(1), a, f, k, r_, Real(0), z_);
    if (tikhonov) {  // z = [B; sqrt(lambda) I]^T r
      tail_.copy_from(q, r_, m_, 0, k);
      dense_.axpy(q, k, root, tail_, z_);
    }
    dense_.precondition(q, r_factor, z_, w_, scratch_);
    dense_.dot(q, k, z_, w_, scalars_, next);
    dense_.dot(q, k, z_, z_, scalars_, zz);
    dense_.xpby_ratio(q, k, scalars_, next, cur, w_, p_);  // p = w + beta p
    scalars_.read(q, std::span<Real>(s));
    if (!(s[qq] > 0) || !std::isfinite(static_cast<double>(s[qq])) || !std::isfinite(static_cast<double>(s[zz])) ||
        !std::isfinite(static_cast<double>(s[next]))) {
      y_.copy_from(q, y_prev_, 0, 0, k);
      return it;
    }
    const double now = std::sqrt(static_cast<double>(s[zz]));
    if (now > last && now <= stall) {
      y_.copy_from(q, y_prev_, 0, 0, k);
      return it;
    }
    if (now <= tolerance * start || !(s[next] > 0)) return it;
    last = now;
    std::swap(cur, next);
  }
  return max_iterations;
}

template class Pcgnr<float>;
template class Pcgnr<double>;

}  // namespace hetflow::nnls
