#include "hetflow/fem/cg.hpp"

#include <cmath>
#include <sstream>

namespace hetflow::fem {
namespace {

std::string describe(const CgResult& r) {
  std::ostringstream s;
  s << "conjugate gradient stopped: " << to_string(r.status) << " at iteration " << r.iterations
    << ", relative residual " << r.residual;
  return s.str();
}

double dot(std::span<const double> a, std::span<const double> b) {
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

}  // namespace

const char* to_string(CgStatus status) {
  switch (status) {
    case CgStatus::converged: return "converged";
    case CgStatus::max_iterations: return "iteration limit reached";
    case CgStatus::not_positive: return "matrix not positive definite (p.Ap <= 0)";
    case CgStatus::not_finite: return "NaN or infinity in the residual";
  }
  return "unknown status";
}

CgError::CgError(const CgResult& result) : core::Error(describe(result)), result_(result) {}

void require_converged(const CgResult& result) {
  if (!result.converged()) throw CgError(result);
}

CgResult host_cg(const CsrMatrix& a, std::span<const double> b, std::vector<double>& x, const CgOptions& options) {
  check(a);
  const std::vector<double> inv = inverse_diagonal(a);
  const std::size_t n = a.n;
  x.assign(n, 0.0);
  std::vector<double> r(b.begin(), b.end()), z(n), p(n);
  for (std::size_t i = 0; i < n; ++i) z[i] = r[i] * inv[i];
  p = z;
  double rz = dot(r, z), rr = dot(r, r);
  const double bb = rr;
  const auto relative = [&] { return bb > 0 ? std::sqrt(rr / bb) : 0.0; };
  if (!std::isfinite(rz) || !std::isfinite(rr)) return {CgStatus::not_finite, 0, relative()};
  if (bb == 0) return {CgStatus::converged, 0, 0.0};
  const double tol2 = options.tolerance * options.tolerance;
  for (int k = 1;; ++k) {
    const std::vector<double> q = multiply(a, p);
    const double pq = dot(p, q);
    if (!std::isfinite(pq)) return {CgStatus::not_finite, k - 1, relative()};
    if (pq <= 0) return {CgStatus::not_positive, k - 1, relative()};
    const double alpha = rz / pq;
    for (std::size_t i = 0; i < n; ++i) {
      x[i] += alpha * p[i];
      r[i] -= alpha * q[i];
      z[i] = r[i] * inv[i];
    }
    const double rz_new = dot(r, z);
    rr = dot(r, r);
    if (!std::isfinite(rz_new) || !std::isfinite(rr)) return {CgStatus::not_finite, k, relative()};
    if (rr < tol2 * bb) return {CgStatus::converged, k, relative()};
    if (k >= options.max_iterations) return {CgStatus::max_iterations, k, relative()};
    const double beta = rz_new / rz;
    rz = rz_new;
    for (std::size_t i = 0; i < n; ++i) p[i] = z[i] + beta * p[i];
  }
}

}  // namespace hetflow::fem
