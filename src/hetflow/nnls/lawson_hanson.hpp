#pragma once
#include "hetflow/nnls/baseline_options.hpp"
#include "hetflow/nnls/matrix.hpp"
#include "hetflow/nnls/solution.hpp"

namespace hetflow::nnls {

// min ||A x - b||_2 s.t. x >= 0 by Lawson & Hanson's NNLS (1974, ch. 23; MATLAB lsqnonneg, SciPy nnls),
// working on A: every passive-set least-squares problem is solved by a fresh Householder QR of the
// passive columns, which keeps the accuracy of the answer tied to cond(A), not cond(A)^2. One variable
// is released per outer iteration. The columns are scaled to unit 2-norm first (see BaselineOptions).
// A column that depends linearly on the free columns to working precision is never released, so a
// rank-deficient A ends at a KKT point or with a diagnosis. Throws core::Error on malformed input.
Solution lawson_hanson(MatrixView A, const Vector& b, const BaselineOptions& options = {});

}  // namespace hetflow::nnls
