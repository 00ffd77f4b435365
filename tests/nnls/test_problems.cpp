// The test-problem generator: requested singular values, reproducibility, and b built around a
// known KKT point.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "hetflow/core/error.hpp"
#include "hetflow/nnls/kkt.hpp"
#include "hetflow/nnls/test_problems.hpp"
#include "nnls_measures.hpp"

namespace hetflow::nnls {
namespace {

using test::singular_values;

double norm2(const Vector& v) {
  double s = 0.0;
  for (double x : v) s += x * x;
  return std::sqrt(s);
}

TEST(NnlsTestProblems, RandomMatrixHasGeometricSingularValues) {
  for (const double kappa : {1e1, 1e4, 1e8})
    for (const auto& [m, n] : {std::pair<std::size_t, std::size_t>{40, 30}, {30, 40}, {25, 25}}) {
      SCOPED_TRACE(std::to_string(m) + "x" + std::to_string(n) + " kappa " + std::to_string(kappa));
      const Vector s = singular_values(random_matrix(m, n, kappa, 42));
      const double p = static_cast<double>(s.size());
      // The SVD is accurate to a few eps relative to s_1 = 1 (Demmel & Kahan), absolutely, not
      // relatively for the small ones.
      for (std::size_t i = 0; i < s.size(); ++i)
        EXPECT_NEAR(s[i], std::pow(kappa, -static_cast<double>(i) / (p - 1.0)), 1e-14) << "i = " << i;
    }
}

// The engine's output is fixed by the standard and the variates are computed here, so a seed gives the
// same matrix everywhere (to the rounding of libm's log and cos, of which these digits are clear).
TEST(NnlsTestProblems, SeedFixesTheMatrix) {
  const Matrix A = random_matrix(6, 4, 100.0, 1), again = random_matrix(6, 4, 100.0, 1);
  EXPECT_EQ(A.data, again.data);
  EXPECT_NE(random_matrix(6, 4, 100.0, 2).data, A.data);
  EXPECT_NEAR(A(0, 0), 0.01979898027890685, 1e-13);
  EXPECT_NEAR(A(5, 3), 0.61595450866980639, 1e-13);
  const Problem p = with_active_set(A, 0.5, 3), q = with_active_set(A, 0.5, 3);
  EXPECT_EQ(p.b, q.b);
  EXPECT_EQ(p.x, q.x);
}

TEST(NnlsTestProblems, SolutionIsAStrictKktPoint) {
  for (const double fraction : {0.0, 0.05, 0.2, 0.5, 1.0})
    for (const auto& [m, n] : {std::pair<std::size_t, std::size_t>{40, 30}, {50, 50}}) {
      SCOPED_TRACE(std::to_string(m) + "x" + std::to_string(n) + " active " + std::to_string(fraction));
      const Matrix A = random_matrix(m, n, 1e4, 7);
      const Problem p = with_active_set(A, fraction, 8);
      EXPECT_TRUE(p.strict);
      const auto bound = std::count(p.x.begin(), p.x.end(), 0.0);
      EXPECT_EQ(bound, std::llround(fraction * static_cast<double>(n)));
      for (double x : p.x)
        if (x != 0.0) {
          EXPECT_GE(x, 0.5);
          EXPECT_LT(x, 1.5);
        }
      const KktReport kkt = kkt_report(A, p.b, p.x);
      EXPECT_GE(kkt.min_x, 0.0);
      EXPECT_LE(kkt.max_free_gradient, 1e-14);  // A_F^T r = 0 to rounding
      if (bound > 0) {
        EXPECT_LT(kkt.max_active_gradient, 0.0);  // A_Z^T r < 0: strict complementarity
      }
    }
}

// |F| >= m leaves no room for a residual orthogonal to range(A_F): b = A x is consistent.
TEST(NnlsTestProblems, NoRoomForResidualGivesConsistentProblem) {
  const Matrix A = random_matrix(30, 40, 10.0, 9);
  const Problem p = with_active_set(A, 0.2, 10);  // |F| = 32 > 30
  EXPECT_FALSE(p.strict);
  Vector r = p.b;
  for (std::size_t j = 0; j < A.cols; ++j)
    for (std::size_t i = 0; i < A.rows; ++i) r[i] -= A(i, j) * p.x[j];
  EXPECT_LE(norm2(r), 1e-15 * norm2(p.b));
  EXPECT_TRUE(kkt_report(A, p.b, p.x).satisfied(1e-14));
}

// Tall 400 x 100: the singular values of G / sqrt(m) fill Marchenko-Pastur's [1 - sqrt(n/m), 1 + sqrt(n/m)]
// = [0.5, 1.5] up to finite-size fluctuations; a shift adds to the leading diagonal and nothing else.
TEST(NnlsTestProblems, GaussianMatrixHasMarchenkoPasturSpectrum) {
  const Matrix A = gaussian_matrix(400, 100, 0.0, 3);
  const Vector s = singular_values(A);
  EXPECT_GT(*std::min_element(s.begin(), s.end()), 0.45);
  EXPECT_LT(*std::max_element(s.begin(), s.end()), 1.55);
  EXPECT_GT(*std::max_element(s.begin(), s.end()), 1.4);
  const Matrix shifted = gaussian_matrix(400, 100, 2.5, 3);
  for (std::size_t j = 0; j < 100; ++j)
    for (std::size_t i = 0; i < 400; ++i) EXPECT_NEAR(shifted(i, j) - A(i, j), i == j ? 2.5 : 0.0, 1e-15);
}

// The blur is symmetric Toeplitz with 1 on its diagonal, and its eigenvalues (its singular values: it is
// positive definite) lie in the range of its symbol f(theta) = sum_k exp(-k^2 / (2 w^2)) e^{ik theta}, the
// smallest near f(pi).
TEST(NnlsTestProblems, BlurMatrixHasTheSpectrumOfItsSymbol) {
  const double w = 1.5;
  const Matrix A = blur_matrix(200, w);
  EXPECT_EQ(A(7, 7), 1.0);
  EXPECT_EQ(A(3, 5), A(5, 3));
  EXPECT_EQ(A(3, 5), std::exp(-0.5 * (2 / w) * (2 / w)));
  double high = 0, low = 0;
  for (int k = -60; k <= 60; ++k) {
    high += std::exp(-0.5 * k * k / (w * w));
    low += (k % 2 == 0 ? 1 : -1) * std::exp(-0.5 * k * k / (w * w));
  }
  const Vector s = singular_values(A);
  const double smallest = *std::min_element(s.begin(), s.end()), largest = *std::max_element(s.begin(), s.end());
  EXPECT_LE(largest, high * (1 + 1e-12));
  EXPECT_GE(smallest, low * (1 - 1e-6));
  EXPECT_LT(smallest, 1.1 * low);
  EXPECT_GT(largest / smallest, 1e4);  // severely ill-conditioned, as deconvolution is
  EXPECT_THROW(blur_matrix(10, 0.0), core::Error);
  EXPECT_THROW(blur_matrix(10, std::numeric_limits<double>::infinity()), core::Error);
}

TEST(NnlsTestProblems, BadArgumentsThrow) {
  EXPECT_THROW(random_matrix(4, 3, 0.5, 1), core::Error);
  EXPECT_THROW(random_matrix(4, 3, std::numeric_limits<double>::infinity(), 1), core::Error);
  const Matrix A = random_matrix(4, 3, 2.0, 1);
  EXPECT_THROW(with_active_set(A, 1.5, 1), core::Error);
  EXPECT_THROW(with_active_set(A, std::numeric_limits<double>::quiet_NaN(), 1), core::Error);
}

}  // namespace
}  // namespace hetflow::nnls
