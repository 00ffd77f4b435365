#pragma once
#include "hetflow/nnls/matrix.hpp"

namespace hetflow::nnls {

// How far x is from satisfying the KKT conditions of min ||A x - b||_2 s.t. x >= 0, measured on the
// column-scaled problem so that the numbers do not depend on the units of the variables or of b.
// With d_j = ||a_j||_2 (the j-th column; d_j = 1 for a zero column), beta = ||b||_2 (1 if b = 0) and
// r = b - A x:
//   g_j = a_j^T r / (d_j beta)                  scaled negative gradient, |g_j| <= ||r|| / beta
//   min_x = min_j x_j d_j / beta                 scaled x (0 for n = 0)
//   max_active_gradient = max g_j over x_j == 0  (0 if no x_j is 0); > 0 means releasing j lowers ||r||
//   max_free_gradient = max |g_j| over x_j > 0   (0 if no x_j is positive)
// Entries are compared with 0 exactly: the solvers set the variables they bind to exactly 0.
struct KktReport {
  double min_x = 0.0;
  double max_active_gradient = 0.0;
  double max_free_gradient = 0.0;

  bool satisfied(double tol) const {
    return min_x >= 0.0 && max_active_gradient <= tol && max_free_gradient <= tol;
  }
};

// Throws core::Error on malformed input (see check_problem) or x.size() != A.cols.
KktReport kkt_report(MatrixView A, const Vector& b, const Vector& x);

// The d_j above: ||a_j||_2, or 1 for a zero column (which then never changes the residual).
Vector column_norms(MatrixView A);

}  // namespace hetflow::nnls
