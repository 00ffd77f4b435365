#pragma once
#include <cstddef>
#include <vector>

#include "hetflow/optim/bounds.hpp"
#include "hetflow/optim/evaluation.hpp"
#include "hetflow/optim/run.hpp"

namespace hetflow::optim {

struct NelderMeadOptions {
  Bounds bounds;
  // Edge of the initial simplex along each coordinate; empty: 5 % of |x_i|, or 0.00025 where x_i = 0
  // (the choice of MATLAB's fminsearch). An edge that would leave the box points the other way.
  std::vector<double> initial_step;
  // Converged when every vertex is within value_tolerance · max(1, |f_best|) of the best value and
  // within step_tolerance of the best vertex in every coordinate.
  double value_tolerance = 1e-12;
  double step_tolerance = 1e-10;
  std::size_t max_iterations = 10000;
  RunOptions run;
};

// The Nelder–Mead simplex with the standard coefficients (reflection 1, expansion 2, contraction ½,
// shrink ½; Lagarias et al. 1998), every trial vertex projected onto the box. The initial simplex and a
// shrink are evaluated as one batch each; the other moves need their previous answer, so they go one
// point at a time. No convergence guarantee (McKinnon 1998). Result::iterations counts simplex moves.
Result nelder_mead(const BatchObjective& objective, const Point& start, const NelderMeadOptions& options);

}  // namespace hetflow::optim
