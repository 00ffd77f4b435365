#include "hetflow/fem/amg_hierarchy.hpp"

#include <cmath>
#include <string>

#include "hetflow/core/error.hpp"
#include "hetflow/fem/amg_aggregation.hpp"

namespace hetflow::fem {
namespace {

std::vector<double> inverse_of(const std::vector<double>& d) {
  std::vector<double> inv(d.size());
  for (std::size_t i = 0; i < d.size(); ++i) {
    if (!(d[i] > 0) || !std::isfinite(d[i]))
      throw core::Error("AMG: row " + std::to_string(i) + " has diagonal " + std::to_string(d[i]) +
                        " (needs a positive, finite diagonal entry)");
    inv[i] = 1 / d[i];
  }
  return inv;
}

double norm(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x * x;
  return std::sqrt(s);
}

// ρ(D⁻¹A) by power iteration on the symmetric D^-1/2 A D^-1/2 from a fixed, non-smooth start vector.
double spectral_radius(const SparseRows& a, const std::vector<double>& inv_diag, int iterations) {
  const std::size_t n = a.rows;
  std::vector<double> v(n), scale(n);
  for (std::size_t i = 0; i < n; ++i) {
    scale[i] = std::sqrt(inv_diag[i]);
    v[i] = 1 + std::sin(1.0 + 7.0 * static_cast<double>(i));
  }
  double rho = 0;
  for (int k = 0; k < iterations; ++k) {
    const double length = norm(v);
    if (length == 0) break;
    for (std::size_t i = 0; i < n; ++i) v[i] *= scale[i] / length;
    v = multiply(a, v);
    for (std::size_t i = 0; i < n; ++i) v[i] *= scale[i];
    rho = norm(v);
  }
  return rho;
}

// P = (I − ω D⁻¹ A) P̂: P̂'s single entry per row sits in the pattern of A P̂ (A has its diagonal).
SparseRows smoothed_prolongation(const SparseRows& a, const SparseRows& tentative, const std::vector<double>& inv_diag,
                                 double omega) {
  SparseRows p = product(a, tentative);
  for (std::size_t i = 0; i < p.rows; ++i) {
    for (std::int32_t k = p.row_start[i]; k < p.row_start[i + 1]; ++k) {
      p.values[k] *= -omega * inv_diag[i];
      for (std::int32_t t = tentative.row_start[i]; t < tentative.row_start[i + 1]; ++t)
        if (tentative.col[t] == p.col[k]) p.values[k] += tentative.values[t];
    }
  }
  return p;
}

// The inverse of a symmetric positive definite dense matrix through its Cholesky factor L Lᵀ. A pivot
// at or below 1e-13 of the largest diagonal entry counts as singular.
std::vector<double> dense_inverse(const SparseRows& a) {
  const std::size_t n = a.rows;
  std::vector<double> l(n * n, 0.0);
  double largest = 0;
  for (std::size_t i = 0; i < n; ++i)
    for (std::int32_t k = a.row_start[i]; k < a.row_start[i + 1]; ++k) l[i * n + a.col[k]] = a.values[k];
  for (std::size_t i = 0; i < n; ++i) largest = std::max(largest, l[i * n + i]);
  for (std::size_t j = 0; j < n; ++j) {
    double pivot = l[j * n + j];
    for (std::size_t k = 0; k < j; ++k) pivot -= l[j * n + k] * l[j * n + k];
    if (!(pivot > 1e-13 * largest))
      throw core::Error("AMG: the coarsest matrix (" + std::to_string(n) +
                        " unknowns) is not positive definite: is a pressure fixed in every connected part of the "
                        "mesh?");
    const double ljj = std::sqrt(pivot);
    l[j * n + j] = ljj;
    for (std::size_t i = j + 1; i < n; ++i) {
      double s = l[i * n + j];
      for (std::size_t k = 0; k < j; ++k) s -= l[i * n + k] * l[j * n + k];
      l[i * n + j] = s / ljj;
    }
  }
  std::vector<double> inv(n * n, 0.0), y(n);
  for (std::size_t c = 0; c < n; ++c) {
    for (std::size_t i = 0; i < n; ++i) {  // L y = e_c
      double s = i == c ? 1.0 : 0.0;
      for (std::size_t k = 0; k < i; ++k) s -= l[i * n + k] * y[k];
      y[i] = s / l[i * n + i];
    }
    for (std::size_t i = n; i-- > 0;) {  // Lᵀ x = y
      double s = y[i];
      for (std::size_t k = i + 1; k < n; ++k) s -= l[k * n + i] * inv[k * n + c];
      inv[i * n + c] = s / l[i * n + i];
    }
  }
  // The two triangular solves leave the inverse symmetric only to rounding; the device reads it by
  // columns, so it is made exactly symmetric.
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j) inv[i * n + j] = inv[j * n + i] = 0.5 * (inv[i * n + j] + inv[j * n + i]);
  return inv;
}

void check(const AmgOptions& o) {
  if (!(o.strength >= 0) || !std::isfinite(o.strength))
    throw core::Error("AMG: strength must be non-negative and finite, got " + std::to_string(o.strength));
  if (o.coarse_size < 1 || o.max_levels < 1 || o.power_iterations < 1)
    throw core::Error("AMG: coarse_size, max_levels and power_iterations must be at least 1, got " +
                      std::to_string(o.coarse_size) + ", " + std::to_string(o.max_levels) + " and " +
                      std::to_string(o.power_iterations));
}

}  // namespace

AmgHierarchy::AmgHierarchy(const CsrMatrix& matrix, const AmgOptions& options) {
  check(options);
  SparseRows a = sparse_rows(matrix);
  double theta = options.strength;
  for (int l = 0;; ++l) {
    AmgLevel level;
    const std::vector<double> inv_diag = inverse_of(diagonal(a));
    level.spectral_radius = spectral_radius(a, inv_diag, options.power_iterations);
    const double omega = level.spectral_radius > 0 ? 4 / (3 * level.spectral_radius) : 1.0;
    for (double d : inv_diag) level.smoother.push_back(omega * d);
    std::int32_t count = 0;
    if (a.rows > options.coarse_size && l + 1 < options.max_levels) level.aggregate = aggregate_nodes(a, theta, count);
    if (count == 0 || static_cast<std::size_t>(count) >= a.rows) {
      level.a = std::move(a);
      levels_.push_back(std::move(level));
      break;
    }
    level.p = smoothed_prolongation(a, tentative_prolongation(level.aggregate, count), inv_diag, omega);
    level.r = transpose(level.p);
    SparseRows coarse = product(level.r, product(a, level.p));
    level.a = std::move(a);
    levels_.push_back(std::move(level));
    a = std::move(coarse);
    theta /= 2;
  }
  const std::size_t coarse = levels_.back().a.rows;
  if (coarse > 8 * options.coarse_size)
    throw core::Error("AMG: coarsening stalled at " + std::to_string(coarse) + " unknowns on level " +
                      std::to_string(levels_.size() - 1));
  coarse_inverse_ = dense_inverse(levels_.back().a);
}

double AmgHierarchy::operator_complexity() const {
  double sum = 0;
  for (const AmgLevel& l : levels_) sum += static_cast<double>(l.a.nnz());
  return sum / static_cast<double>(levels_.front().a.nnz());
}

std::vector<double> AmgHierarchy::apply(std::span<const double> b) const {
  if (b.size() != levels_.front().a.rows)
    throw core::Error("AMG: b has " + std::to_string(b.size()) + " entries for " +
                      std::to_string(levels_.front().a.rows) + " unknowns");
  return cycle(0, b);
}

std::vector<double> AmgHierarchy::cycle(std::size_t l, std::span<const double> b) const {
  const AmgLevel& level = levels_[l];
  const std::size_t n = level.a.rows;
  std::vector<double> x(n, 0.0);
  if (l + 1 == levels_.size()) {
    for (std::size_t i = 0; i < n; ++i) {
      double s = 0;
      for (std::size_t j = 0; j < n; ++j) s += coarse_inverse_[j * n + i] * b[j];
      x[i] = s;
    }
    return x;
  }
  const std::vector<double>& w = level.smoother;
  for (std::size_t i = 0; i < n; ++i) x[i] = w[i] * b[i];
  std::vector<double> t = multiply(level.a, x);
  for (std::size_t i = 0; i < n; ++i) t[i] = b[i] - t[i];
  const std::vector<double> correction = multiply(level.p, cycle(l + 1, multiply(level.r, t)));
  for (std::size_t i = 0; i < n; ++i) x[i] += correction[i];
  t = multiply(level.a, x);
  for (std::size_t i = 0; i < n; ++i) t[i] = x[i] + w[i] * (b[i] - t[i]);
  return t;
}

}  // namespace hetflow::fem
