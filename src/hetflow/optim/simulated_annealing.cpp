#include "hetflow/optim/simulated_annealing.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

#include "hetflow/core/number_text.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/optim/evaluator.hpp"
#include "hetflow/optim/random.hpp"

namespace hetflow::optim {

namespace {

// A neighbour of x that is feasible and differs from it, or x itself when none turns up: a space whose
// feasible points are all isolated has nowhere to go.
Point neighbour(const Space& space, const Point& x, Random& random) {
  constexpr int tries = 100;
  for (int t = 0; t < tries; ++t) {
    Point y = x;
    const std::size_t i = random.index(space.dimension());
    const Parameter& p = space.parameters()[i];
    const std::size_t count = p.size();
    if (p.kind == Parameter::Kind::categorical) {
      if (count < 2) continue;
      std::size_t c = random.index(count - 1);
      if (c >= static_cast<std::size_t>(x[i])) ++c;
      y[i] = static_cast<double>(c);
    } else if (p.enumerable()) {
      if (count < 2) continue;
      const auto k = static_cast<long long>(std::llround((x[i] - p.lower) / p.step));
      const double sigma = std::max(1.0, 0.1 * static_cast<double>(count - 1));
      const double draw = sigma * random.normal();
      long long jump = std::llround(draw);
      if (jump == 0) jump = draw < 0 ? -1 : 1;
      long long next = std::clamp(k + jump, 0LL, static_cast<long long>(count) - 1);
      if (next == k) next = k - (jump < 0 ? -1 : 1);  // pressed against an end: step back inside
      y[i] = p.value(static_cast<std::size_t>(next));
    } else {
      y[i] = std::clamp(x[i] + 0.1 * (p.upper - p.lower) * random.normal(), p.lower, p.upper);
    }
    if (y != x && space.feasible(y)) return y;
  }
  return x;
}

}  // namespace

Result simulated_annealing(const Space& space, const BatchObjective& objective, const AnnealingOptions& options) {
  Point start = options.start;
  if (start.empty())
    for (const Parameter& p : space.parameters()) start.push_back(p.kind == Parameter::Kind::categorical ? 0.0 : p.lower);
  if (!space.contains(start)) throw core::Error("the start point " + space.describe(start) + " is not a point of the search space");
  if (!space.feasible(start)) throw core::Error("the start point " + space.describe(start) + " is not feasible");
  if (options.batch_size == 0) throw core::Error("simulated annealing needs a batch of at least one proposal");
  if (!(options.cooling > 0 && options.cooling < 1))
    throw core::Error("the cooling factor " + core::number_text(options.cooling) + " must lie in (0, 1)");

  Evaluator evaluator("simulated-annealing", objective, options.run);
  Random random(options.seed);
  std::map<Point, Evaluation> seen;
  Result result;
  result.best = start;
  const auto finish = [&](std::string reason, bool converged) { return evaluator.finish(result, std::move(reason), converged); };
  const auto consider = [&](const Point& x, const Evaluation& e) {
    if (e.ok() && !(e.value >= result.value)) {  // NaN: nothing found yet
      result.best = x;
      result.value = e.value;
    }
  };
  // Evaluates the points not seen before as one batch; the stop reason if the run must end.
  const auto evaluate = [&](const std::vector<Point>& points) -> std::optional<std::string> {
    std::vector<Point> fresh;
    for (const Point& p : points)
      if (!seen.contains(p) && std::find(fresh.begin(), fresh.end(), p) == fresh.end()) fresh.push_back(p);
    if (fresh.empty()) return std::nullopt;
    if (auto why = evaluator.refusal(fresh.size())) return why;
    const auto evaluations = evaluator.evaluate(fresh);
    for (std::size_t k = 0; k < fresh.size(); ++k) {
      consider(fresh[k], evaluations[k]);
      seen.emplace(fresh[k], evaluations[k]);
    }
    return evaluator.failure_stop();
  };

  const bool automatic = options.initial_temperature <= 0;
  std::vector<Point> first{start};
  for (std::size_t k = 0; automatic && k < options.probes; ++k) first.push_back(neighbour(space, start, random));
  if (auto why = evaluate(first)) return finish(*why, false);
  const Evaluation& at_start = seen.at(start);
  if (!at_start.ok()) return finish("the objective failed at the start: " + at_start.failure, false);

  double temperature = options.initial_temperature;
  if (automatic) {
    std::vector<double> uphill, changes;
    for (std::size_t k = 1; k < first.size(); ++k) {
      const Evaluation& e = seen.at(first[k]);
      if (!e.ok()) continue;
      const double change = e.value - at_start.value;
      if (change > 0) uphill.push_back(change);
      if (change != 0) changes.push_back(std::abs(change));
    }
    std::vector<double>& typical = uphill.empty() ? changes : uphill;
    std::sort(typical.begin(), typical.end());
    // exp(−Δ/T₀) = 0.8 for the median Δ; a landscape flat around the start gives no scale, and any T will do.
    temperature = typical.empty() ? 1.0 : typical[typical.size() / 2] / -std::log(0.8);
  }
  const double final_temperature = options.final_temperature_ratio * temperature;

  Point current = start;
  double current_value = at_start.value;
  for (std::size_t step = 1;; ++step) {
    result.iterations = step - 1;
    evaluator.set_iteration(step);
    if (temperature < final_temperature)
      return finish("the temperature fell below " + core::number_text(options.final_temperature_ratio, 3) + " of its start", true);
    std::vector<Point> proposals;
    for (std::size_t k = 0; k < options.batch_size; ++k) proposals.push_back(neighbour(space, current, random));
    if (auto why = evaluate(proposals)) return finish(*why, false);
    for (const Point& p : proposals) {
      const double u = random.uniform();  // drawn for every proposal, so the stream never depends on values
      const Evaluation& e = seen.at(p);
      if (!e.ok()) continue;
      const double change = e.value - current_value;
      if (change <= 0 || u < std::exp(-change / temperature)) {
        current = p;
        current_value = e.value;
      }
    }
    temperature *= options.cooling;
  }
}

}  // namespace hetflow::optim
