#pragma once
#include <cstddef>

#include "hetflow/optim/bounds.hpp"
#include "hetflow/optim/evaluation.hpp"
#include "hetflow/optim/finite_difference.hpp"
#include "hetflow/optim/line_search.hpp"
#include "hetflow/optim/run.hpp"

namespace hetflow::optim {

enum class ConjugateUpdate {
  fletcher_reeves,     // β = r'r / r₀'r₀
  polak_ribiere_plus,  // β = max(0, r'(r − r₀) / r₀'r₀): restarts by itself when progress stalls
};

struct NlcgOptions {
  ConjugateUpdate update = ConjugateUpdate::polak_ribiere_plus;
  Bounds bounds;
  DifferenceOptions gradient;
  LineSearchOptions line_search;
  // Steepest-descent restart after this many iterations. 0: every n for Fletcher–Reeves, which jams
  // without them; never for PR+, whose β = 0 restarts it when needed (periodic restarts every n slowed
  // 2-D Rosenbrock tenfold). Restarts also happen when the set of active bounds changes and when the
  // conjugate direction is not a descent direction.
  std::size_t restart_every = 0;
  double gradient_tolerance = 1e-8;  // converged when ‖projected gradient‖∞ ≤ this
  double value_tolerance = 1e-15;    // converged when an iteration lowers f by ≤ this · |f|
  double step_tolerance = 1e-12;     // converged when an iteration moves x by ≤ this · (1 + ‖x‖∞)
  std::size_t max_iterations = 1000;
  RunOptions run;
};

// Non-linear conjugate gradients (Shewchuk 1994; Myre 2013, Eqs. 6.2–6.3) on the box by projection: the
// gradient is projected (components pushing out of the box at an active bound are dropped), the direction
// keeps off active bounds, and the line search follows the projected path. Each gradient is one batch of
// finite differences. Result::iterations counts line searches.
Result nlcg(const BatchObjective& objective, const Point& start, const NlcgOptions& options);

}  // namespace hetflow::optim
