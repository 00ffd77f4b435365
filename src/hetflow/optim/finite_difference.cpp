#include "hetflow/optim/finite_difference.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace hetflow::optim {

DifferenceStencil::DifferenceStencil(const Point& x, const Bounds& bounds, const DifferenceOptions& options) {
  const bool central = options.scheme == Difference::central;
  const double eps = std::numeric_limits<double>::epsilon();
  const double relative = options.relative_step > 0 ? options.relative_step : central ? std::cbrt(eps) : std::sqrt(eps);
  terms_.resize(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double lo = bounds.lower(i);
    const double hi = bounds.upper(i);
    // A box narrower than 4h leaves room for two steps on at least one side.
    const double h = std::min(relative * std::max(1.0, std::abs(x[i])), (hi - lo) / 4);
    std::vector<double> steps;
    if (central) {
      if (x[i] - h >= lo && x[i] + h <= hi) steps = {-h, h};
      else if (x[i] + 2 * h <= hi) steps = {h, 2 * h};
      else steps = {-h, -2 * h};
    } else {
      steps = {x[i] + h <= hi ? h : -h};
    }
    for (double step : steps) {
      Point p = x;
      p[i] = x[i] + step;
      // The step actually taken, after rounding of x + h.
      terms_[i].push_back({points_.size(), p[i] - x[i]});
      points_.push_back(std::move(p));
    }
  }
}

std::optional<std::vector<std::vector<double>>> DifferenceStencil::derivatives(std::span<const double> y_at_x,
                                                                               std::span<const Evaluation> evaluations,
                                                                               bool residuals) const {
  const auto y_of = [&](std::size_t point) -> std::span<const double> {
    const Evaluation& e = evaluations[point];
    return residuals ? std::span<const double>(e.residuals) : std::span<const double>(&e.value, 1);
  };
  std::vector<std::vector<double>> rows(terms_.size(), std::vector<double>(y_at_x.size()));
  for (std::size_t i = 0; i < terms_.size(); ++i) {
    std::vector<Term> usable;
    for (const Term& t : terms_[i])
      if (evaluations[t.point].ok()) usable.push_back(t);
    if (usable.empty()) return std::nullopt;
    for (std::size_t k = 0; k < y_at_x.size(); ++k) {
      const double y0 = y_at_x[k];
      const double a = usable[0].offset;
      const double ya = y_of(usable[0].point)[k] - y0;
      if (usable.size() == 1) {
        rows[i][k] = ya / a;
      } else {
        // Derivative at 0 of the parabola through (0, y0), (a, y(a)), (b, y(b)): the central difference
        // when b = −a, the one-sided second-order formula when b = 2a.
        const double b = usable[1].offset;
        const double yb = y_of(usable[1].point)[k] - y0;
        rows[i][k] = (ya * b * b - yb * a * a) / (a * b * (b - a));
      }
    }
  }
  return rows;
}

}  // namespace hetflow::optim
