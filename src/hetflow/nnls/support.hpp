#pragma once
#include <cstddef>

#include "hetflow/nnls/matrix.hpp"

namespace hetflow::nnls {

// What counts as a positive entry of a solution: above sqrt(DBL_EPSILON) (about 1.5e-8) times the
// largest |x_j|. TNT solves the normal equations, whose round-off grows with cond(A)^2, so a variable
// whose optimum is 0 may come out as 5e-14 instead; the solvers set the variables they bind to exactly 0.
inline constexpr double support_relative_threshold = 1.4901161193847656e-08;

// How the entries of x split at threshold = support_relative_threshold * max_j |x_j|: positive (x_j >
// threshold), tiny (0 < |x_j| <= threshold), exactly zero, and negative (x_j < -threshold, which a
// feasible x has none of).
struct Support {
  double threshold = 0.0;
  std::size_t positive = 0, tiny = 0, zero = 0, negative = 0;
};

Support support(const Vector& x);

}  // namespace hetflow::nnls
