#pragma once

namespace hetflow::nnls {

// Options of the host baselines (Lawson-Hanson, FNNLS). Both solve the column-scaled problem (every
// column of A divided by its 2-norm) and stop when no variable at zero has a scaled gradient
// a_j^T (b - A x) / (||a_j|| ||b||) above `tolerance`, so the result does not depend on the units of
// the variables or of b.
struct BaselineOptions {
  // 0 selects the reference code's default on the scaled problem: lsqnonneg's 10 eps max(m,n) ||A||_1
  // for Lawson-Hanson, Bro & de Jong's 10 eps n ||A^T A||_1 for FNNLS.
  double tolerance = 0.0;
  // 0 selects 3n, the default of lsqnonneg and of the FORTRAN original.
  int max_iterations = 0;
};

}  // namespace hetflow::nnls
