#pragma once
#include <cstddef>

#include "hetflow/optim/bounds.hpp"
#include "hetflow/optim/evaluation.hpp"
#include "hetflow/optim/finite_difference.hpp"
#include "hetflow/optim/run.hpp"

namespace hetflow::optim {

struct LevenbergMarquardtOptions {
  Bounds bounds;
  DifferenceOptions jacobian;
  double initial_damping = 1e-3;     // λ₀, relative to the Marquardt scaling diag(JᵀJ)
  double gradient_tolerance = 1e-10;  // converged when ‖projected Jᵀr‖∞ ≤ this
  double value_tolerance = 1e-15;    // converged when an accepted step lowers ½‖r‖² by ≤ this · ½‖r‖²
  double step_tolerance = 1e-12;     // converged when a step is ≤ this · (1 + ‖x‖∞)
  std::size_t max_iterations = 1000;
  RunOptions run;
};

// Levenberg–Marquardt for least-squares misfits ½‖r(x)‖²; the objective must return residual vectors
// (Evaluation::of_residuals), all of one length. Each step solves (JᵀJ + λD)δ = −Jᵀr with Marquardt's
// scaling D = diag(JᵀJ) kept at its largest value so far (Moré 1978), which makes the step independent
// of the parameters' units; λ follows Nielsen's gain-ratio rule. The Jacobian is one batch of finite
// differences. Bounds by projection: coordinates held at a bound by the gradient leave the system, and
// the step is projected onto the box. Result::iterations counts trial steps.
Result levenberg_marquardt(const BatchObjective& objective, const Point& start, const LevenbergMarquardtOptions& options);

}  // namespace hetflow::optim
