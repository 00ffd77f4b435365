#pragma once
#include <array>
#include <cmath>
#include <utility>

#include "hetflow/ftle/analytic_flow.hpp"
#include "hetflow/ftle/method.hpp"

namespace hetflow::ftle::reference {

using Matrix = std::array<std::array<double, 3>, 3>;

inline Matrix multiply(const Matrix& a, const Matrix& b, int n) {
  Matrix c{};
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k) c[i][j] += a[i][k] * b[k][j];
  return c;
}

// The discrete flow map of u = G x after `steps` steps of dt: the integrator's stability polynomial
// P(dt G) = I + dt G (+ (dt G)^2 / 2 (+ (dt G)^3 / 6 + (dt G)^4 / 24)), raised to the number of steps.
inline Matrix discrete_flow_map(const LinearFlow& flow, Integrator integrator, double dt, long steps) {
  const int n = flow.dimension;
  Matrix a{}, term{}, p{};
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) a[i][j] = dt * flow.gradient[static_cast<std::size_t>(i * n + j)];
  for (int i = 0; i < n; ++i) term[i][i] = p[i][i] = 1.0;
  for (int k = 1; k <= order(integrator); ++k) {
    term = multiply(term, a, n);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) p[i][j] += term[i][j] / std::tgamma(k + 1.0);
  }
  Matrix m{};
  for (int i = 0; i < n; ++i) m[i][i] = 1.0;
  for (long s = 0; s < steps; ++s) m = multiply(p, m, n);
  return m;
}

// Largest singular value by power iteration on F^T F in long double: a method independent of the
// kernel's closed form (2D) and Jacobi rotations (3D).
inline double largest_singular_value(const Matrix& f, int n) {
  std::array<long double, 3> v{1.0L, 0.7L, 0.3L};
  long double lambda = 0;
  for (int it = 0; it < 2000; ++it) {
    std::array<long double, 3> fv{}, w{};
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) fv[i] += f[i][j] * v[j];
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) w[i] += f[j][i] * fv[j];
    long double norm = 0;
    for (int i = 0; i < n; ++i) norm += w[i] * w[i];
    norm = std::sqrt(norm);
    for (int i = 0; i < n; ++i) v[i] = w[i] / norm;
    lambda = norm;
  }
  return static_cast<double>(std::sqrt(lambda));
}

// Smallest singular value as 1 / sigma_max(F^-1): F inverted by Gauss-Jordan elimination with partial
// pivoting in long double, then power iteration; independent of the kernel's determinant over the
// cofactors' largest singular value.
inline double smallest_singular_value(const Matrix& f, int n) {
  std::array<std::array<long double, 6>, 3> m{};
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) m[i][j] = f[i][j];
    m[i][n + i] = 1.0L;
  }
  for (int c = 0; c < n; ++c) {
    int pivot = c;
    for (int r = c + 1; r < n; ++r)
      if (std::fabs(m[r][c]) > std::fabs(m[pivot][c])) pivot = r;
    std::swap(m[c], m[pivot]);
    const long double d = m[c][c];
    for (int j = 0; j < 2 * n; ++j) m[c][j] /= d;
    for (int r = 0; r < n; ++r) {
      if (r == c) continue;
      const long double e = m[r][c];
      for (int j = 0; j < 2 * n; ++j) m[r][j] -= e * m[c][j];
    }
  }
  Matrix inverse{};
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) inverse[i][j] = static_cast<double>(m[i][n + j]);
  return 1.0 / largest_singular_value(inverse, n);
}

}  // namespace hetflow::ftle::reference
