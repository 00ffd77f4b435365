#include "hetflow/optim/nlcg.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "hetflow/core/number_text.hpp"
#include "hetflow/optim/evaluator.hpp"
#include "hetflow/optim/vector_math.hpp"

namespace hetflow::optim {

namespace {

// x_i at a bound with the gradient pushing it outwards: that coordinate cannot move downhill.
std::vector<bool> active_bounds(const Point& x, const std::vector<double>& g, const Bounds& bounds) {
  std::vector<bool> active(x.size());
  for (std::size_t i = 0; i < x.size(); ++i)
    active[i] = (x[i] <= bounds.lower(i) && g[i] > 0) || (x[i] >= bounds.upper(i) && g[i] < 0);
  return active;
}

}  // namespace

Result nlcg(const BatchObjective& objective, const Point& start, const NlcgOptions& options) {
  options.bounds.check_start(start);
  const bool fletcher_reeves = options.update == ConjugateUpdate::fletcher_reeves;
  Evaluator evaluator(fletcher_reeves ? "nlcg-fr" : "nlcg-pr+", objective, options.run);
  const std::size_t n = start.size();
  const std::size_t restart_every = options.restart_every ? options.restart_every
                                    : fletcher_reeves ? n
                                                      : std::numeric_limits<std::size_t>::max();
  const Bounds& bounds = options.bounds;

  Result result;
  result.best = start;
  const auto finish = [&](std::string reason, bool converged) { return evaluator.finish(result, std::move(reason), converged); };

  if (auto why = evaluator.refusal(1)) return finish(*why, false);
  const Evaluation first = evaluator.evaluate_one(start);
  if (!first.ok()) return finish("the objective failed at the start: " + first.failure, false);
  Point x = start;
  double f = first.value;
  result.value = f;

  std::vector<double> d, pg_previous;
  std::vector<bool> active_previous;
  std::size_t since_restart = 0;
  double step_previous = 0, slope_previous = 0;

  for (std::size_t iteration = 0;; ++iteration) {
    result.iterations = iteration;
    evaluator.set_iteration(iteration);
    if (iteration >= options.max_iterations)
      return finish("the limit of " + std::to_string(options.max_iterations) + " iterations was reached", false);

    const DifferenceStencil stencil(x, bounds, options.gradient);
    if (auto why = evaluator.refusal(stencil.points().size())) return finish(*why, false);
    const auto evaluations = evaluator.evaluate(stencil.points());
    if (auto why = evaluator.failure_stop()) return finish(*why, false);
    const auto rows = stencil.derivatives(std::span(&f, 1), evaluations, false);
    if (!rows) return finish("the finite-difference gradient at " + point_text(x) + " is undefined: its stencil points failed", false);
    std::vector<double> g(n), pg(n);
    for (std::size_t i = 0; i < n; ++i) g[i] = (*rows)[i][0];
    const auto active = active_bounds(x, g, bounds);
    for (std::size_t i = 0; i < n; ++i) pg[i] = active[i] ? 0.0 : g[i];
    if (norm_inf(pg) <= options.gradient_tolerance)
      return finish("the projected gradient norm " + core::number_text(norm_inf(pg), 3) + " is below the tolerance", true);

    bool restart = iteration == 0 || since_restart >= restart_every || active != active_previous;
    if (!restart) {
      const double previous = dot(pg_previous, pg_previous);
      double beta = 0;
      if (fletcher_reeves) {
        beta = dot(pg, pg) / previous;
      } else {
        for (std::size_t i = 0; i < n; ++i) beta += pg[i] * (pg[i] - pg_previous[i]);
        beta = std::max(0.0, beta / previous);
      }
      for (std::size_t i = 0; i < n; ++i) {
        d[i] = -pg[i] + beta * d[i];
        if ((x[i] <= bounds.lower(i) && d[i] < 0) || (x[i] >= bounds.upper(i) && d[i] > 0)) d[i] = 0;
      }
      restart = dot(pg, d) >= 0;
    }

    LineSearchOutcome outcome;
    for (;;) {
      if (restart) {
        d = pg;
        for (double& v : d) v = -v;
        since_restart = 0;
      }
      const double slope = dot(pg, d);
      // First step: move the largest coordinate by one unit; later, expect the decrease of the last
      // iteration again (Nocedal & Wright 3.60). The trial ladder corrects either by factors of 2.
      const double initial = iteration == 0 ? 1 / norm_inf(d) : step_previous * slope_previous / slope;
      outcome = line_search(evaluator, bounds, x, f, g, d, initial, options.line_search);
      if (outcome.stop) return finish(*outcome.stop, false);
      if (outcome.moved || restart) break;
      restart = true;  // a conjugate direction that found no decrease: retry along steepest descent
    }
    if (!outcome.moved)
      return finish("the line search found no decrease along the steepest-descent direction", false);

    const double step = distance_inf(outcome.x, x);
    const double decrease = f - outcome.value;
    slope_previous = dot(pg, d);
    step_previous = outcome.step;
    pg_previous = std::move(pg);
    active_previous = active;
    ++since_restart;
    x = std::move(outcome.x);
    const double f_previous = f;
    f = outcome.value;
    result.best = x;
    result.value = f;
    result.iterations = iteration + 1;
    if (step <= options.step_tolerance * (1 + norm_inf(x)))
      return finish("the step " + core::number_text(step, 3) + " is below the tolerance", true);
    if (decrease <= options.value_tolerance * std::max(std::abs(f_previous), std::abs(f)))
      return finish("the relative decrease of the objective is below the tolerance", true);
  }
}

}  // namespace hetflow::optim
