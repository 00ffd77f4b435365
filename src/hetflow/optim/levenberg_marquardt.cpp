#include "hetflow/optim/levenberg_marquardt.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "hetflow/core/number_text.hpp"
#include "hetflow/optim/cholesky.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/optim/evaluator.hpp"
#include "hetflow/optim/vector_math.hpp"

namespace hetflow::optim {

namespace {

void check_residual_count(const Evaluation& e, std::size_t m, const Point& x) {
  if (e.ok() && e.residuals.size() != m)
    throw core::Error("the least-squares objective returned " + std::to_string(e.residuals.size()) + " residuals at " +
                point_text(x) + " but " + std::to_string(m) + " at the start");
}

}  // namespace

Result levenberg_marquardt(const BatchObjective& objective, const Point& start, const LevenbergMarquardtOptions& options) {
  options.bounds.check_start(start);
  Evaluator evaluator("levenberg-marquardt", objective, options.run);
  const Bounds& bounds = options.bounds;
  const std::size_t n = start.size();

  Result result;
  result.best = start;
  const auto finish = [&](std::string reason, bool converged) { return evaluator.finish(result, std::move(reason), converged); };

  if (auto why = evaluator.refusal(1)) return finish(*why, false);
  Evaluation current = evaluator.evaluate_one(start);
  if (!current.ok()) return finish("the objective failed at the start: " + current.failure, false);
  if (current.residuals.empty())
    throw core::Error("Levenberg–Marquardt needs residuals: the objective must return Evaluation::of_residuals");
  const std::size_t m = current.residuals.size();
  Point x = start;
  result.value = current.value;
  result.residuals = current.residuals;

  double damping = options.initial_damping;
  double growth = 2;
  std::vector<double> scale(n, 0.0), normal(n * n), gradient(n);
  std::vector<bool> active(n);
  bool fresh_jacobian = false;

  for (std::size_t iteration = 0;; ++iteration) {
    result.iterations = iteration;
    evaluator.set_iteration(iteration);
    if (iteration >= options.max_iterations)
      return finish("the limit of " + std::to_string(options.max_iterations) + " iterations was reached", false);

    if (!fresh_jacobian) {
      const DifferenceStencil stencil(x, bounds, options.jacobian);
      if (auto why = evaluator.refusal(stencil.points().size())) return finish(*why, false);
      const auto evaluations = evaluator.evaluate(stencil.points());
      if (auto why = evaluator.failure_stop()) return finish(*why, false);
      for (std::size_t k = 0; k < evaluations.size(); ++k) check_residual_count(evaluations[k], m, stencil.points()[k]);
      const auto jacobian = stencil.derivatives(current.residuals, evaluations, true);  // row i: ∂r/∂x_i
      if (!jacobian) return finish("the finite-difference Jacobian at " + point_text(x) + " is undefined: its stencil points failed", false);
      for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t j = 0; j < n; ++j) normal[i * n + j] = dot((*jacobian)[i], (*jacobian)[j]);
        gradient[i] = dot((*jacobian)[i], current.residuals);
        // A parameter without influence would make the scaled system singular; scale 1 keeps it still.
        scale[i] = std::max(scale[i], normal[i * n + i] > 0 ? normal[i * n + i] : 1.0);
        active[i] = (x[i] <= bounds.lower(i) && gradient[i] > 0) || (x[i] >= bounds.upper(i) && gradient[i] < 0);
      }
      fresh_jacobian = true;
      double projected = 0;
      for (std::size_t i = 0; i < n; ++i)
        if (!active[i]) projected = std::max(projected, std::abs(gradient[i]));
      if (projected <= options.gradient_tolerance)
        return finish("the projected gradient norm " + core::number_text(projected, 3) + " is below the tolerance", true);
    }

    // The damped normal equations over the coordinates free to move.
    std::vector<std::size_t> free;
    for (std::size_t i = 0; i < n; ++i)
      if (!active[i]) free.push_back(i);
    const std::size_t nf = free.size();
    std::vector<double> system(nf * nf), delta(nf);
    for (std::size_t a = 0; a < nf; ++a) {
      for (std::size_t b = 0; b < nf; ++b) system[a * nf + b] = normal[free[a] * n + free[b]];
      system[a * nf + a] += damping * scale[free[a]];
      delta[a] = -gradient[free[a]];
    }
    if (!cholesky_solve(system, delta)) {
      damping *= growth;
      growth *= 2;
      continue;
    }
    Point trial = x;
    for (std::size_t a = 0; a < nf; ++a) trial[free[a]] += delta[a];
    trial = bounds.project(std::move(trial));
    std::vector<double> step(n);
    for (std::size_t i = 0; i < n; ++i) step[i] = trial[i] - x[i];
    if (norm_inf(step) <= options.step_tolerance * (1 + norm_inf(x)))
      return finish("the step " + core::number_text(norm_inf(step), 3) + " is below the tolerance", true);
    // The decrease the linear model predicts for the projected step.
    double curvature = 0;
    for (std::size_t i = 0; i < n; ++i) curvature += step[i] * dot(std::span(normal).subspan(i * n, n), step);
    const double predicted = -(dot(gradient, step) + 0.5 * curvature);

    if (auto why = evaluator.refusal(1)) return finish(*why, false);
    Evaluation candidate = evaluator.evaluate_one(trial);
    if (auto why = evaluator.failure_stop()) return finish(*why, false);
    check_residual_count(candidate, m, trial);
    const bool better = candidate.ok() && predicted > 0 && candidate.value < current.value;
    if (!better) {
      damping *= growth;
      growth *= 2;
      continue;
    }
    const double gain = (current.value - candidate.value) / predicted;
    damping *= std::max(1.0 / 3, 1 - std::pow(2 * gain - 1, 3));
    growth = 2;
    const double decrease = current.value - candidate.value;
    x = std::move(trial);
    current = std::move(candidate);
    fresh_jacobian = false;
    result.best = x;
    result.value = current.value;
    result.residuals = current.residuals;
    result.iterations = iteration + 1;
    if (current.value == 0) return finish("the residuals are zero", true);
    if (decrease <= options.value_tolerance * (current.value + decrease))
      return finish("the relative decrease of the misfit is below the tolerance", true);
  }
}

}  // namespace hetflow::optim
