#include "hetflow/nnls/fnnls.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "hetflow/core/error.hpp"
#include "hetflow/nnls/baseline_active_set.hpp"
#include "hetflow/nnls/input_check.hpp"
#include "hetflow/nnls/lapack.hpp"

namespace hetflow::nnls {
namespace {

constexpr double eps = std::numeric_limits<double>::epsilon();

class CholeskyPassiveSet final : public PassiveSetSolver {
 public:
  CholeskyPassiveSet(const Matrix& AtA, const Vector& Atb) : AtA_(AtA), Atb_(Atb) {}

  void gradient(const Vector& x, Vector& w) override {
    const int n = static_cast<int>(AtA_.rows), one = 1;
    const double plus = 1.0, minus = -1.0;
    w = Atb_;
    dgemv_("N", &n, &n, &minus, AtA_.data.data(), &n, x.data(), &one, &plus, w.data(), &one);
  }

  bool solve(const std::vector<std::size_t>& passive, Vector& z) override {
    const std::size_t k = passive.size();
    z.resize(k);
    if (k == 0) return true;
    block_.resize(k * k);
    for (std::size_t c = 0; c < k; ++c) {
      z[c] = Atb_[passive[c]];
      for (std::size_t r = 0; r <= c; ++r) block_[r + c * k] = AtA_(passive[r], passive[c]);
    }
    const int kk = static_cast<int>(k), one = 1;
    int info = 0;
    dpotrf_("U", &kk, block_.data(), &kk, &info);
    if (info != 0) return false;  // not positive definite to working precision
    dpotrs_("U", &kk, &one, block_.data(), &kk, z.data(), &kk, &info);
    return info == 0;
  }

 private:
  const Matrix& AtA_;
  const Vector& Atb_;
  Vector block_;
};

struct Scaled {
  ActiveSetResult result;
  Vector x;  // in the caller's units
};

// Runs the iteration on D^-1 AtA D^-1 and D^-1 Atb with D = diag(sqrt(AtA_jj)) (unit columns of A).
Scaled solve_scaled(const Matrix& AtA, const Vector& Atb, double b_norm, const BaselineOptions& options) {
  const std::size_t n = AtA.cols;
  Vector d(n);
  for (std::size_t j = 0; j < n; ++j) d[j] = AtA(j, j) > 0.0 ? std::sqrt(AtA(j, j)) : 1.0;
  Matrix scaled = AtA;
  Vector rhs(n);
  double norm1 = 0.0;
  for (std::size_t j = 0; j < n; ++j) {
    double sum = 0.0;
    for (std::size_t i = 0; i < n; ++i) sum += std::abs(scaled(i, j) /= d[i] * d[j]);
    norm1 = std::max(norm1, sum);
    rhs[j] = Atb[j] / d[j];
  }
  const double tol = options.tolerance > 0.0 ? options.tolerance : 10.0 * eps * static_cast<double>(n) * norm1;

  Scaled out;
  if (b_norm == 0.0) {
    out.x.assign(n, 0.0);
    out.result.converged = true;
    return out;
  }
  CholeskyPassiveSet solver(scaled, rhs);
  out.result = run_active_set(solver, n, tol, b_norm, options);
  out.x = out.result.x;
  for (std::size_t j = 0; j < n; ++j) out.x[j] /= d[j];
  return out;
}

Solution finish(Scaled&& s, double residual) {
  Solution out;
  out.x = std::move(s.x);
  out.residual_norm = residual;
  out.iterations = s.result.iterations;
  out.converged = s.result.converged;
  out.diagnosis = std::move(s.result.diagnosis);
  return out;
}

}  // namespace

Matrix normal_matrix(MatrixView A) {
  const int m = static_cast<int>(A.rows), n = static_cast<int>(A.cols);
  const double plus = 1.0, zero = 0.0;
  Matrix AtA(A.cols, A.cols);
  if (n == 0) return AtA;
  dsyrk_("U", "T", &n, &m, &plus, A.data, &m, &zero, AtA.data.data(), &n);
  for (std::size_t j = 0; j < A.cols; ++j)
    for (std::size_t i = j + 1; i < A.cols; ++i) AtA(i, j) = AtA(j, i);
  return AtA;
}

Vector normal_rhs(MatrixView A, const Vector& b) {
  const int m = static_cast<int>(A.rows), n = static_cast<int>(A.cols), one = 1;
  const double plus = 1.0, zero = 0.0;
  Vector Atb(A.cols, 0.0);
  if (m > 0 && n > 0) dgemv_("T", &m, &n, &plus, A.data, &m, b.data(), &one, &zero, Atb.data(), &one);
  return Atb;
}

Solution fnnls(MatrixView A, const Vector& b, const BaselineOptions& options) {
  check_problem(A, b);
  Scaled s = solve_scaled(normal_matrix(A), normal_rhs(A, b), norm2(b), options);
  const double residual = residual_norm(A, b, s.x);
  return finish(std::move(s), residual);
}

Solution fnnls(const Matrix& AtA, const Vector& Atb, double b_norm, const BaselineOptions& options) {
  check_problem(AtA, Atb, "AtA", "Atb");
  if (AtA.rows != AtA.cols)
    throw core::Error("AtA is " + std::to_string(AtA.rows) + " x " + std::to_string(AtA.cols) +
                      ": AtA must be square");
  if (!std::isfinite(b_norm) || b_norm < 0.0)
    throw core::Error("b_norm = " + std::to_string(b_norm) + ": b_norm must be finite and >= 0");
  Scaled s = solve_scaled(AtA, Atb, b_norm, options);
  double btb = b_norm * b_norm;
  for (std::size_t j = 0; j < s.x.size(); ++j) {
    double gram_x = 0.0;  // (AtA x)_j
    for (std::size_t i = 0; i < s.x.size(); ++i) gram_x += AtA(j, i) * s.x[i];
    btb += s.x[j] * (gram_x - 2.0 * Atb[j]);
  }
  return finish(std::move(s), std::sqrt(std::max(0.0, btb)));
}

}  // namespace hetflow::nnls
