#include "hetflow/nnls/kkt.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "hetflow/nnls/input_check.hpp"
#include "hetflow/nnls/lapack.hpp"

namespace hetflow::nnls {

Vector column_norms(MatrixView A) {
  Vector d(A.cols);
  for (std::size_t j = 0; j < A.cols; ++j) {
    double s = 0.0;
    for (std::size_t i = 0; i < A.rows; ++i) s += A(i, j) * A(i, j);
    d[j] = s > 0.0 ? std::sqrt(s) : 1.0;
  }
  return d;
}

KktReport kkt_report(MatrixView A, const Vector& b, const Vector& x) {
  check_problem(A, b);
  check_solution(A, x);
  const int m = static_cast<int>(A.rows), n = static_cast<int>(A.cols), one = 1;
  const double plus = 1.0, minus = -1.0, zero = 0.0;
  Vector r = b, g(A.cols, 0.0);
  if (m > 0 && n > 0) {
    dgemv_("N", &m, &n, &minus, A.data, &m, x.data(), &one, &plus, r.data(), &one);
    dgemv_("T", &m, &n, &plus, A.data, &m, r.data(), &one, &zero, g.data(), &one);
  }
  double beta = 0.0;
  for (double v : b) beta += v * v;
  beta = beta > 0.0 ? std::sqrt(beta) : 1.0;

  const Vector d = column_norms(A);
  KktReport report;
  report.min_x = A.cols > 0 ? x[0] * d[0] / beta : 0.0;
  report.max_active_gradient = -std::numeric_limits<double>::infinity();
  for (std::size_t j = 0; j < A.cols; ++j) {
    const double gj = g[j] / (d[j] * beta);
    report.min_x = std::min(report.min_x, x[j] * d[j] / beta);
    if (x[j] == 0.0)
      report.max_active_gradient = std::max(report.max_active_gradient, gj);
    else if (x[j] > 0.0)
      report.max_free_gradient = std::max(report.max_free_gradient, std::abs(gj));
  }
  if (std::isinf(report.max_active_gradient)) report.max_active_gradient = 0.0;  // no variable at 0
  return report;
}

}  // namespace hetflow::nnls
