#include "hetflow/optim/line_search.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "hetflow/optim/vector_math.hpp"

namespace hetflow::optim {

namespace {

struct Sample {
  double step;
  double value;  // +∞ for a failed candidate
  Point x;
};

// Minimiser of the parabola through three points with the middle one lowest; NaN when they are collinear.
double parabola_minimum(const Sample& a, const Sample& b, const Sample& c) {
  const double p = (b.step - a.step) * (b.value - c.value);
  const double q = (b.step - c.step) * (b.value - a.value);
  const double denominator = p - q;
  if (denominator == 0) return std::numeric_limits<double>::quiet_NaN();
  return b.step - 0.5 * ((b.step - a.step) * p - (b.step - c.step) * q) / denominator;
}

std::vector<double> ladder(double centre, std::size_t count) {
  std::vector<double> steps;
  const int first = -static_cast<int>(count / 2);
  for (std::size_t k = 0; k < count; ++k) steps.push_back(std::ldexp(centre, first + static_cast<int>(k)));
  return steps;
}

}  // namespace

LineSearchOutcome line_search(Evaluator& evaluator, const Bounds& bounds, const Point& x, double value,
                              std::span<const double> gradient, std::span<const double> direction,
                              double initial_step, const LineSearchOptions& options) {
  const std::size_t count = std::max<std::size_t>(options.trial_steps, 1);
  const double tiny_step = std::numeric_limits<double>::epsilon() * (1 + norm_inf(x)) / std::max(norm_inf(direction), 1e-300);
  std::vector<Sample> samples{{0.0, value, x}};
  std::vector<double> next = ladder(initial_step, count);
  std::size_t refinements = 0;
  LineSearchOutcome outcome;

  const auto sufficient = [&](const Sample& s) {
    double decrease = 0;
    for (std::size_t i = 0; i < x.size(); ++i) decrease += gradient[i] * (s.x[i] - x[i]);
    return s.step > 0 && s.value <= value + options.armijo * decrease && s.value < value;
  };

  for (std::size_t batch = 0; batch < options.max_batches && !next.empty(); ++batch) {
    if (auto why = evaluator.refusal(next.size())) {
      outcome.stop = why;
      break;
    }
    std::vector<Point> points;
    for (double step : next) {
      Point p = x;
      for (std::size_t i = 0; i < p.size(); ++i) p[i] += step * direction[i];
      points.push_back(bounds.project(std::move(p)));
    }
    const auto evaluations = evaluator.evaluate(points);
    for (std::size_t k = 0; k < next.size(); ++k) {
      const double v = evaluations[k].ok() ? evaluations[k].value : std::numeric_limits<double>::infinity();
      samples.push_back({next[k], v, std::move(points[k])});
    }
    if (auto why = evaluator.failure_stop()) {
      outcome.stop = why;
      break;
    }
    std::sort(samples.begin(), samples.end(), [](const Sample& a, const Sample& b) { return a.step < b.step; });
    // The first lowest value: on a flat stretch (the path pressed against a bound) the shorter step.
    std::size_t best = 0;
    for (std::size_t k = 1; k < samples.size(); ++k)
      if (samples[k].value < samples[best].value) best = k;
    next.clear();
    if (best == 0 || !sufficient(samples[best])) {
      // Every step was too long: the next ladder lies wholly below the shortest one tried.
      const double shortest = samples[1].step;
      if (shortest < tiny_step) break;
      next = ladder(std::ldexp(shortest, -static_cast<int>(count - count / 2)), count);
    } else if (best + 1 == samples.size()) {
      // Still descending at the longest step: the next ladder lies wholly beyond it.
      next = ladder(std::ldexp(samples[best].step, static_cast<int>(count) / 2 + 1), count);
    } else if (refinements < options.refinements) {
      const double step = parabola_minimum(samples[best - 1], samples[best], samples[best + 1]);
      const bool fresh = step > samples[best - 1].step && step < samples[best + 1].step && step != samples[best].step;
      if (fresh) {
        next = {step};
        ++refinements;
      }
    }
  }

  const auto best = std::min_element(samples.begin(), samples.end(),
                                     [](const Sample& a, const Sample& b) { return a.value < b.value; });
  if (sufficient(*best)) {
    outcome.moved = true;
    outcome.x = best->x;
    outcome.value = best->value;
    outcome.step = best->step;
  }
  return outcome;
}

}  // namespace hetflow::optim
