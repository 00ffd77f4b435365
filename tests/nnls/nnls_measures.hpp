#pragma once
// Measures the NNLS tests share: norms, zero sets and the forward error bound two solutions of one
// problem may differ by.
#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <limits>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "hetflow/core/error.hpp"
#include "hetflow/nnls/lapack.hpp"
#include "hetflow/nnls/matrix.hpp"

namespace hetflow::test {

using nnls::Matrix;
using nnls::Vector;

inline constexpr double eps = std::numeric_limits<double>::epsilon();

inline double norm2(const Vector& v) {
  double s = 0.0;
  for (double x : v) s += x * x;
  return std::sqrt(s);
}

inline double relative_difference(const Vector& x, const Vector& reference) {
  Vector d(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) d[i] = x[i] - reference[i];
  return norm2(d) / norm2(reference);
}

inline std::vector<std::size_t> zeros(const Vector& x) {
  std::vector<std::size_t> z;
  for (std::size_t j = 0; j < x.size(); ++j)
    if (x[j] == 0.0) z.push_back(j);
  return z;
}

// Singular values of A, descending (LAPACK's SVD).
inline Vector singular_values(Matrix a) {
  const int m = static_cast<int>(a.rows), n = static_cast<int>(a.cols), one = 1;
  Vector s(std::min(a.rows, a.cols));
  double unused = 0.0, size = 0.0;
  int lwork = -1, info = 0;
  dgesvd_("N", "N", &m, &n, a.data.data(), &m, s.data(), &unused, &one, &unused, &one, &size, &lwork, &info);
  lwork = static_cast<int>(size);
  Vector work(static_cast<std::size_t>(lwork));
  dgesvd_("N", "N", &m, &n, a.data.data(), &m, s.data(), &unused, &one, &unused, &one, work.data(), &lwork, &info);
  EXPECT_EQ(info, 0);
  return s;
}

// Singular values (descending) of the columns of A where x > 0.
inline Vector free_singular_values(const Matrix& A, const Vector& x) {
  std::vector<std::size_t> free;
  for (std::size_t j = 0; j < x.size(); ++j)
    if (x[j] > 0.0) free.push_back(j);
  Matrix B(A.rows, free.size());
  for (std::size_t c = 0; c < free.size(); ++c) std::copy_n(A.column(free[c]), A.rows, B.column(c));
  return singular_values(std::move(B));
}

// How far two solutions of a problem with solution x may differ, relative to ||x||. On the free set F
// NNLS is the least-squares problem of A_F, so perturbation theory for least squares applies (Higham,
// Accuracy and Stability of Numerical Algorithms, 2nd ed., Thm 20.1): a backward-stable solver (QR:
// Lawson-Hanson here and in SciPy) is off by about eps (kappa_F + kappa_F^2 rho), kappa_F = cond(A_F),
// rho = ||r|| / (||A_F|| ||x||); the normal equations (FNNLS) add about eps kappa_F^2 whatever the
// residual (sec. 20.4). The factor 10 covers the dimension-dependent constants at these sizes. kappa_F
// is at most kappa(A) for m >= n but is measured, because for a small free set it is much smaller.
inline double forward_error_bound(const Matrix& A, const Vector& x, double residual, bool normal_equations) {
  const Vector s = free_singular_values(A, x);
  if (s.empty()) return 0.0;
  const double kappa = s.front() / s.back(), rho = residual / (s.front() * norm2(x));
  return 10.0 * eps * (kappa + kappa * kappa * (rho + (normal_equations ? 1.0 : 0.0)));
}

// Expects call() to throw core::Error with exactly `message`.
inline void expect_error(const std::function<void()>& call, const std::string& message) {
  try {
    call();
    ADD_FAILURE() << "no error, expected: " << message;
  } catch (const core::Error& e) {
    EXPECT_EQ(std::string(e.what()), message);
  }
}

}  // namespace hetflow::test
