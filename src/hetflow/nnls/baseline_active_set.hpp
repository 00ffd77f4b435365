#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "hetflow/nnls/baseline_options.hpp"
#include "hetflow/nnls/matrix.hpp"

namespace hetflow::nnls {

// The part in which the two baselines differ: Lawson-Hanson works on A (QR of the passive columns),
// FNNLS on A^T A and A^T b (Cholesky of the passive block). Both see the column-scaled problem.
class PassiveSetSolver {
 public:
  virtual ~PassiveSetSolver() = default;
  // w = A^T (b - A x) for every variable.
  virtual void gradient(const Vector& x, Vector& w) = 0;
  // z (one entry per passive variable, in `passive` order) minimising ||A(:, passive) z - b||_2; false
  // when A(:, passive) is singular to working precision.
  virtual bool solve(const std::vector<std::size_t>& passive, Vector& z) = 0;
};

struct ActiveSetResult {
  Vector x;  // of the scaled problem
  int iterations = 0;
  bool converged = false;
  std::string diagnosis;
};

// Lawson & Hanson's outer/inner iteration (Solving Least Squares Problems, 1974, ch. 23, algorithm NNLS)
// on n variables: release the variable of largest gradient w_j > tolerance * b_norm, solve on the
// passive set, and while the solution has entries <= 0 step back along the segment from x by
// alpha = min x_j / (x_j - z_j) and bind the variables that reach 0. b_norm = ||b||_2 > 0 makes the
// tolerance relative to b.
ActiveSetResult run_active_set(PassiveSetSolver& solver, std::size_t n, double tolerance, double b_norm,
                               const BaselineOptions& options);

double norm2(const Vector& v);

// ||b - A x||_2, in the caller's units.
double residual_norm(MatrixView A, const Vector& b, const Vector& x);

}  // namespace hetflow::nnls
