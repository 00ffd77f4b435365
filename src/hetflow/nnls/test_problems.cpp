#include "hetflow/nnls/test_problems.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "hetflow/core/error.hpp"
#include "hetflow/nnls/input_check.hpp"
#include "hetflow/nnls/lapack.hpp"

namespace hetflow::nnls {
namespace {

class Random {
 public:
  explicit Random(std::uint64_t seed) : engine_(seed) {}

  // In (0, 1): the top 53 bits, offset by half a step so that 0 never comes out.
  double uniform() { return (static_cast<double>(engine_() >> 11) + 0.5) * 0x1p-53; }

  // Box-Muller; the second variate of each pair is dropped to keep the state simple.
  double normal() {
    const double u = uniform(), v = uniform();
    return std::sqrt(-2.0 * std::log(u)) * std::cos(2.0 * std::numbers::pi * v);
  }

  // Uniform in [0, n) without modulo bias: reject draws from the incomplete last block.
  std::size_t index(std::size_t n) {
    const std::uint64_t range = n, limit = std::numeric_limits<std::uint64_t>::max() -
                                           std::numeric_limits<std::uint64_t>::max() % range;
    std::uint64_t k = engine_();
    while (k >= limit) k = engine_();
    return static_cast<std::size_t>(k % range);
  }

 private:
  std::mt19937_64 engine_;
};

// The Q of a Householder QR of G (m x k, k <= m), columns signed so that diag(R) > 0: for Gaussian G,
// a Haar-distributed matrix with orthonormal columns.
Matrix orthonormal_columns(Matrix G) {
  const int m = static_cast<int>(G.rows), k = static_cast<int>(G.cols), lwork = 64 * std::max(k, 1);
  if (k == 0) return G;
  Vector tau(G.cols), work(static_cast<std::size_t>(lwork));
  int info = 0;
  dgeqrf_(&m, &k, G.data.data(), &m, tau.data(), work.data(), &lwork, &info);
  std::vector<double> sign(G.cols);
  for (std::size_t j = 0; j < G.cols; ++j) sign[j] = G(j, j) < 0.0 ? -1.0 : 1.0;
  dorgqr_(&m, &k, &k, G.data.data(), &m, tau.data(), work.data(), &lwork, &info);
  for (std::size_t j = 0; j < G.cols; ++j)
    for (std::size_t i = 0; i < G.rows; ++i) G(i, j) *= sign[j];
  return G;
}

Matrix gaussian(std::size_t m, std::size_t n, Random& random) {
  Matrix G(m, n);
  for (double& g : G.data) g = random.normal();
  return G;
}

Matrix columns(const Matrix& A, const std::vector<std::size_t>& which) {
  Matrix B(A.rows, which.size());
  for (std::size_t c = 0; c < which.size(); ++c) std::copy_n(A.column(which[c]), A.rows, B.column(c));
  return B;
}

// C := C - Q (Q^T C): the part of C orthogonal to range(Q).
void project_out(const Matrix& Q, Matrix& C) {
  if (Q.cols == 0 || C.cols == 0) return;
  const int m = static_cast<int>(Q.rows), k = static_cast<int>(Q.cols), n = static_cast<int>(C.cols);
  const double plus = 1.0, minus = -1.0, zero = 0.0;
  Matrix QtC(Q.cols, C.cols);
  dgemm_("T", "N", &k, &n, &m, &plus, Q.data.data(), &m, C.data.data(), &m, &zero, QtC.data.data(), &k);
  dgemm_("N", "N", &m, &n, &k, &minus, Q.data.data(), &m, QtC.data.data(), &k, &plus, C.data.data(), &m);
}

// The least-norm r minimising ||C^T r + mu||_2 (SVD-based dgelsd; the singular values below the
// rounding level count as zero, which matters when C has more columns than its rank).
Vector least_norm_residual(Matrix C, const Vector& mu) {
  const std::size_t rows = C.cols, cols = C.rows;  // of C^T
  Matrix Ct(rows, cols);
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j) Ct(i, j) = C(j, i);
  const std::size_t ldb = std::max(rows, cols);
  Vector rhs(ldb, 0.0), s(std::min(rows, cols));
  for (std::size_t i = 0; i < rows; ++i) rhs[i] = -mu[i];
  const int m = static_cast<int>(rows), n = static_cast<int>(cols), one = 1, ld = static_cast<int>(ldb);
  const double rcond = 100.0 * std::numeric_limits<double>::epsilon() * static_cast<double>(ldb);
  int rank = 0, info = 0, query = -1, iwork_size = 0;
  double work_size = 0.0;
  dgelsd_(&m, &n, &one, Ct.data.data(), &m, rhs.data(), &ld, s.data(), &rcond, &rank, &work_size, &query,
          &iwork_size, &info);
  const int lwork = static_cast<int>(work_size);
  Vector work(static_cast<std::size_t>(lwork));
  std::vector<int> iwork(static_cast<std::size_t>(std::max(iwork_size, 1)));
  dgelsd_(&m, &n, &one, Ct.data.data(), &m, rhs.data(), &ld, s.data(), &rcond, &rank, work.data(), &lwork,
          iwork.data(), &info);
  rhs.resize(cols);
  return rhs;
}

Vector times(const Matrix& A, const Vector& x) {
  Vector y(A.rows, 0.0);
  const int m = static_cast<int>(A.rows), n = static_cast<int>(A.cols), one = 1;
  const double plus = 1.0, zero = 0.0;
  if (m > 0 && n > 0) dgemv_("N", &m, &n, &plus, A.data.data(), &m, x.data(), &one, &zero, y.data(), &one);
  return y;
}

double norm2(const Vector& v) {
  double s = 0.0;
  for (double x : v) s += x * x;
  return std::sqrt(s);
}

}  // namespace

Matrix random_matrix(std::size_t m, std::size_t n, double kappa, std::uint64_t seed) {
  if (!std::isfinite(kappa) || kappa < 1.0)
    throw core::Error("kappa = " + std::to_string(kappa) + ": the condition number must be finite and >= 1");
  const std::size_t p = std::min(m, n);
  Matrix A(m, n);
  if (p == 0) return A;
  Random random(seed);
  Matrix U = orthonormal_columns(gaussian(m, p, random));
  const Matrix V = orthonormal_columns(gaussian(n, p, random));
  for (std::size_t j = 0; j < p; ++j) {
    const double s = p == 1 ? 1.0 : std::pow(kappa, -static_cast<double>(j) / static_cast<double>(p - 1));
    for (std::size_t i = 0; i < m; ++i) U(i, j) *= s;
  }
  const int mm = static_cast<int>(m), nn = static_cast<int>(n), pp = static_cast<int>(p);
  const double plus = 1.0, zero = 0.0;
  dgemm_("N", "T", &mm, &nn, &pp, &plus, U.data.data(), &mm, V.data.data(), &nn, &zero, A.data.data(), &mm);
  return A;
}

Matrix gaussian_matrix(std::size_t m, std::size_t n, double shift, std::uint64_t seed) {
  Random random(seed);
  Matrix A = gaussian(m, n, random);
  const double scale = m == 0 ? 0.0 : 1.0 / std::sqrt(static_cast<double>(m));
  for (double& a : A.data) a *= scale;
  for (std::size_t j = 0; j < std::min(m, n); ++j) A(j, j) += shift;
  return A;
}

Matrix blur_matrix(std::size_t n, double width) {
  if (!std::isfinite(width) || !(width > 0))
    throw core::Error("blur width = " + std::to_string(width) + ": it must be finite and > 0");
  Matrix A(n, n);
  for (std::size_t j = 0; j < n; ++j)
    for (std::size_t i = 0; i < n; ++i) {
      const double d = (static_cast<double>(i) - static_cast<double>(j)) / width;
      A(i, j) = std::exp(-0.5 * d * d);
    }
  return A;
}

Problem with_active_set(const Matrix& A, double active_fraction, std::uint64_t seed) {
  check_problem(A, Vector(A.rows));
  if (!(active_fraction >= 0.0 && active_fraction <= 1.0))
    throw core::Error("active_fraction = " + std::to_string(active_fraction) + ": it must lie in [0, 1]");
  const std::size_t m = A.rows, n = A.cols;
  Random random(seed);
  std::vector<std::size_t> order(n);
  for (std::size_t j = 0; j < n; ++j) order[j] = j;
  for (std::size_t j = n; j > 1; --j) std::swap(order[j - 1], order[random.index(j)]);  // Fisher-Yates
  const auto bound = static_cast<std::size_t>(std::llround(active_fraction * static_cast<double>(n)));
  std::vector<std::size_t> Z(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(bound));
  std::vector<std::size_t> F(order.begin() + static_cast<std::ptrdiff_t>(bound), order.end());
  std::sort(Z.begin(), Z.end());
  std::sort(F.begin(), F.end());

  Problem out;
  out.x.assign(n, 0.0);
  for (std::size_t j : F) out.x[j] = 0.5 + random.uniform();
  out.b = times(A, out.x);

  // Vacuously strict without bound variables; the residual then stays 0.
  out.strict = Z.empty() && F.size() <= m;
  if (F.size() < m && !Z.empty()) {
    Vector mu(Z.size());
    for (double& v : mu) v = 0.5 + random.uniform();
    const Matrix Q = orthonormal_columns(columns(A, F));
    Matrix C = columns(A, Z);
    project_out(Q, C);
    Matrix r(m, 1);
    r.data = least_norm_residual(std::move(C), mu);
    project_out(Q, r);  // remove what rounding left in range(A_F)
    double largest = -std::numeric_limits<double>::infinity();  // of a_j^T r over Z: must be < 0
    for (std::size_t j : Z) {
      double dot = 0.0;
      for (std::size_t i = 0; i < m; ++i) dot += A(i, j) * r.data[i];
      largest = std::max(largest, dot);
    }
    const double size = norm2(r.data);
    if (size > 0.0 && largest < 0.0) {
      out.strict = true;
      const double target = norm2(out.b) > 0.0 ? norm2(out.b) / 2.0 : 1.0;
      for (std::size_t i = 0; i < m; ++i) out.b[i] += target / size * r.data[i];
    }
  }
  return out;
}

}  // namespace hetflow::nnls
