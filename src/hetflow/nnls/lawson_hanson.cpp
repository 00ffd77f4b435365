#include "hetflow/nnls/lawson_hanson.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "hetflow/nnls/baseline_active_set.hpp"
#include "hetflow/nnls/input_check.hpp"
#include "hetflow/nnls/kkt.hpp"
#include "hetflow/nnls/lapack.hpp"

namespace hetflow::nnls {
namespace {

constexpr double eps = std::numeric_limits<double>::epsilon();

class QrPassiveSet final : public PassiveSetSolver {
 public:
  QrPassiveSet(MatrixView A, const Vector& b) : A_(A), b_(b), r_(b.size()) {}

  void gradient(const Vector& x, Vector& w) override {
    const int m = static_cast<int>(A_.rows), n = static_cast<int>(A_.cols), one = 1;
    const double plus = 1.0, minus = -1.0, zero = 0.0;
    r_ = b_;
    dgemv_("N", &m, &n, &minus, A_.data, &m, x.data(), &one, &plus, r_.data(), &one);
    dgemv_("T", &m, &n, &plus, A_.data, &m, r_.data(), &one, &zero, w.data(), &one);
  }

  bool solve(const std::vector<std::size_t>& passive, Vector& z) override {
    const std::size_t k = passive.size();
    if (k == 0) {
      z.clear();
      return true;
    }
    if (k > A_.rows) return false;  // more columns than rows: dependent
    z.assign(b_.begin(), b_.end());
    const int m = static_cast<int>(A_.rows), kk = static_cast<int>(k), one = 1;
    qr_.resize(A_.rows * k);
    for (std::size_t c = 0; c < k; ++c) std::copy_n(A_.column(passive[c]), A_.rows, qr_.data() + c * A_.rows);
    tau_.resize(k);
    const int lwork = 64 * kk;
    work_.resize(static_cast<std::size_t>(lwork));
    int info = 0;
    dgeqrf_(&m, &kk, qr_.data(), &m, tau_.data(), work_.data(), &lwork, &info);
    // Numerical rank: a diagonal entry of R at the rounding level of the (unit-norm) columns.
    double largest = 0.0;
    for (std::size_t c = 0; c < k; ++c) largest = std::max(largest, std::abs(qr_[c + c * A_.rows]));
    for (std::size_t c = 0; c < k; ++c)
      if (std::abs(qr_[c + c * A_.rows]) <= eps * static_cast<double>(std::max(A_.rows, A_.cols)) * largest)
        return false;
    dormqr_("L", "T", &m, &one, &kk, qr_.data(), &m, tau_.data(), z.data(), &m, work_.data(), &lwork, &info);
    dtrtrs_("U", "N", "N", &kk, &one, qr_.data(), &m, z.data(), &m, &info);
    z.resize(k);
    return info == 0;
  }

 private:
  MatrixView A_;
  const Vector& b_;
  Vector r_, qr_, tau_, work_;
};

}  // namespace

Solution lawson_hanson(MatrixView A, const Vector& b, const BaselineOptions& options) {
  check_problem(A, b);
  const std::size_t m = A.rows, n = A.cols;
  const Vector d = column_norms(A);
  Matrix scaled(m, n);
  double norm1 = 0.0;  // ||scaled||_1, the largest column sum
  for (std::size_t j = 0; j < n; ++j) {
    double sum = 0.0;
    for (std::size_t i = 0; i < m; ++i) sum += std::abs(scaled(i, j) = A(i, j) / d[j]);
    norm1 = std::max(norm1, sum);
  }
  const double tol = options.tolerance > 0.0
                         ? options.tolerance
                         : 10.0 * eps * static_cast<double>(std::max(m, n)) * norm1;
  const double b_norm = norm2(b);

  Solution out;
  if (b_norm == 0.0) {  // x = 0 is optimal: no gradient is positive
    out.x.assign(n, 0.0);
    out.converged = true;
    return out;
  }
  QrPassiveSet solver(scaled, b);
  ActiveSetResult result = run_active_set(solver, n, tol, b_norm, options);
  out.x = std::move(result.x);
  for (std::size_t j = 0; j < n; ++j) out.x[j] /= d[j];
  out.residual_norm = residual_norm(A, b, out.x);
  out.iterations = result.iterations;
  out.converged = result.converged;
  out.diagnosis = std::move(result.diagnosis);
  return out;
}

}  // namespace hetflow::nnls
