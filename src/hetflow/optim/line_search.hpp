#pragma once
#include <cstddef>
#include <optional>
#include <span>
#include <string>

#include "hetflow/optim/bounds.hpp"
#include "hetflow/optim/evaluator.hpp"

namespace hetflow::optim {

struct LineSearchOptions {
  // Steps tried in one batch: α₀·2^k for k around 0 (5: α₀/4 … 4α₀). The batch costs a device about
  // what one forward model does, and usually brackets the minimum along the line at once.
  std::size_t trial_steps = 5;
  // Parabolic refinements inside the bracket, one point each: CG needs a nearly exact line minimum to
  // keep its directions conjugate, and one refinement is exact on a quadratic.
  std::size_t refinements = 2;
  double armijo = 1e-4;  // sufficient decrease: f(x_α) ≤ f(x) + c·∇f·(x_α − x)
  std::size_t max_batches = 30;
};

struct LineSearchOutcome {
  bool moved = false;  // a point with sufficient decrease was found
  Point x;
  double value = 0;
  double step = 0;
  std::optional<std::string> stop;  // the run must end: budget, interruption or a failure
};

// A projected search along d from x: trial points are P(x + αd), so the path bends along the bounds
// and every point requested lies in the box. Batches of trial steps expand or shrink the ladder until
// the best value lies between two others, then parabolas refine it.
LineSearchOutcome line_search(Evaluator& evaluator, const Bounds& bounds, const Point& x, double value,
                              std::span<const double> gradient, std::span<const double> direction,
                              double initial_step, const LineSearchOptions& options);

}  // namespace hetflow::optim
