#pragma once
#include "hetflow/nnls/baseline_options.hpp"
#include "hetflow/nnls/matrix.hpp"
#include "hetflow/nnls/solution.hpp"

namespace hetflow::nnls {

// min ||A x - b||_2 s.t. x >= 0 by Bro & de Jong's FNNLS (J. Chemometrics 11, 1997): Lawson-Hanson's
// iteration on A^T A and A^T b, each passive-set problem solved by a Cholesky factorisation of
// (A^T A)(P, P). One variable is released per outer iteration. Cheaper per iteration than
// lawson_hanson when m >> n, but the normal equations square the condition number: expect about
// eps * cond(A_P)^2 relative error in x (A_P: the free columns), and a Cholesky that may fail once
// cond(A_P)^2 nears 1 / eps (the variable is then not released; see Solution::diagnosis). The
// columns are scaled to unit 2-norm first (see BaselineOptions).
// Throws core::Error on malformed input.
Solution fnnls(MatrixView A, const Vector& b, const BaselineOptions& options = {});

// The same on precomputed AtA = A^T A and Atb = A^T b, to reuse AtA across right-hand sides.
// b_norm = ||b||_2 makes the stopping test relative to b; residual_norm is then
// sqrt(max(0, ||b||^2 - 2 x^T Atb + x^T AtA x)), which loses the digits of ||b||^2 that cancel: when
// the residual is much smaller than b, recompute it from A.
Solution fnnls(const Matrix& AtA, const Vector& Atb, double b_norm, const BaselineOptions& options = {});

// A^T A (by dsyrk, both triangles stored) and A^T b (by dgemv).
Matrix normal_matrix(MatrixView A);
Vector normal_rhs(MatrixView A, const Vector& b);

}  // namespace hetflow::nnls
