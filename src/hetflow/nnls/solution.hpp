#pragma once
#include <string>

#include "hetflow/nnls/matrix.hpp"

namespace hetflow::nnls {

// What an NNLS solver returns: the host baselines and the TNT solver share it.
struct Solution {
  Vector x;                    // x >= 0, in the units of the caller's A (no internal scaling shows)
  double residual_norm = 0.0;  // ||b - A x||_2
  int iterations = 0;          // outer iterations (one variable, or one batch, released per iteration)
  bool converged = false;      // the stopping test (KKT to the tolerance) held
  std::string diagnosis;       // empty when converged, else why the solver stopped
};

}  // namespace hetflow::nnls
