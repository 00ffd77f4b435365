#include "hetflow/optim/nelder_mead.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "hetflow/core/number_text.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/optim/evaluator.hpp"
#include "hetflow/optim/vector_math.hpp"

namespace hetflow::optim {

namespace {

struct Vertex {
  Point x;
  double value;  // +∞ for a failed candidate
};

double value_of(const Evaluation& e) { return e.ok() ? e.value : std::numeric_limits<double>::infinity(); }

// c + t (p − c), projected.
Point along(const Point& c, const Point& p, double t, const Bounds& bounds) {
  Point y(c.size());
  for (std::size_t i = 0; i < c.size(); ++i) y[i] = c[i] + t * (p[i] - c[i]);
  return bounds.project(std::move(y));
}

}  // namespace

Result nelder_mead(const BatchObjective& objective, const Point& start, const NelderMeadOptions& options) {
  options.bounds.check_start(start);
  const std::size_t n = start.size();
  if (!options.initial_step.empty() && options.initial_step.size() != n)
    throw core::Error("Nelder–Mead was given " + std::to_string(options.initial_step.size()) + " initial steps for " +
                std::to_string(n) + " dimensions");
  Evaluator evaluator("nelder-mead", objective, options.run);
  const Bounds& bounds = options.bounds;

  Result result;
  result.best = start;
  const auto finish = [&](std::string reason, bool converged) { return evaluator.finish(result, std::move(reason), converged); };

  std::vector<Point> initial{start};
  for (std::size_t i = 0; i < n; ++i) {
    double step = options.initial_step.empty() ? (start[i] != 0 ? 0.05 * std::abs(start[i]) : 0.00025) : options.initial_step[i];
    if (!(step != 0 && std::isfinite(step)))
      throw core::Error("the initial simplex step of dimension " + std::to_string(i) + " is " + core::number_text(step));
    if (start[i] + step > bounds.upper(i) || start[i] + step < bounds.lower(i)) step = -step;
    Point v = start;
    v[i] = start[i] + step;
    initial.push_back(bounds.project(std::move(v)));
  }
  if (auto why = evaluator.refusal(initial.size())) return finish(*why, false);
  const auto first = evaluator.evaluate(initial);
  if (auto why = evaluator.failure_stop()) return finish(*why, false);
  std::vector<Vertex> simplex;
  for (std::size_t k = 0; k <= n; ++k) simplex.push_back({initial[k], value_of(first[k])});

  const auto by_value = [](const Vertex& a, const Vertex& b) { return a.value < b.value; };
  // One vertex; nothing when the run must stop (its reason is then in `stop`).
  std::string stop;
  const auto evaluate = [&](const Point& x) -> std::optional<double> {
    if (auto why = evaluator.refusal(1)) {
      stop = *why;
      return std::nullopt;
    }
    const double v = value_of(evaluator.evaluate_one(x));
    if (auto why = evaluator.failure_stop()) {
      stop = *why;
      return std::nullopt;
    }
    return v;
  };

  for (std::size_t iteration = 0;; ++iteration) {
    std::stable_sort(simplex.begin(), simplex.end(), by_value);
    result.best = simplex[0].x;
    result.value = simplex[0].value;
    result.iterations = iteration;
    evaluator.set_iteration(iteration);
    if (!std::isfinite(simplex[0].value)) return finish("the objective failed at every vertex of the simplex", false);
    double spread = 0, size = 0;
    for (std::size_t k = 1; k <= n; ++k) {
      spread = std::max(spread, simplex[k].value - simplex[0].value);
      size = std::max(size, distance_inf(simplex[k].x, simplex[0].x));
    }
    if (spread <= options.value_tolerance * std::max(1.0, std::abs(simplex[0].value)) && size <= options.step_tolerance)
      return finish("the simplex is smaller than the tolerances", true);
    if (iteration >= options.max_iterations)
      return finish("the limit of " + std::to_string(options.max_iterations) + " iterations was reached", false);

    Point centroid(n, 0.0);
    for (std::size_t k = 0; k < n; ++k)
      for (std::size_t i = 0; i < n; ++i) centroid[i] += simplex[k].x[i] / static_cast<double>(n);
    Vertex& worst = simplex[n];

    const Point reflected = along(centroid, worst.x, -1, bounds);
    const auto fr = evaluate(reflected);
    if (!fr) return finish(stop, false);
    if (*fr < simplex[0].value) {
      const Point expanded = along(centroid, worst.x, -2, bounds);
      const auto fe = evaluate(expanded);
      if (!fe) return finish(stop, false);
      worst = *fe < *fr ? Vertex{expanded, *fe} : Vertex{reflected, *fr};
      continue;
    }
    if (*fr < simplex[n - 1].value) {
      worst = {reflected, *fr};
      continue;
    }
    // Contract outside (towards the reflected point) if it beat the worst vertex, inside otherwise.
    const bool outside = *fr < worst.value;
    const Point contracted = along(centroid, worst.x, outside ? -0.5 : 0.5, bounds);
    const auto fc = evaluate(contracted);
    if (!fc) return finish(stop, false);
    if (outside ? *fc <= *fr : *fc < worst.value) {
      worst = {contracted, *fc};
      continue;
    }
    std::vector<Point> shrunk;
    for (std::size_t k = 1; k <= n; ++k) shrunk.push_back(along(simplex[0].x, simplex[k].x, 0.5, bounds));
    if (auto why = evaluator.refusal(shrunk.size())) return finish(*why, false);
    const auto values = evaluator.evaluate(shrunk);
    if (auto why = evaluator.failure_stop()) return finish(*why, false);
    for (std::size_t k = 1; k <= n; ++k) simplex[k] = {shrunk[k - 1], value_of(values[k - 1])};
  }
}

}  // namespace hetflow::optim
