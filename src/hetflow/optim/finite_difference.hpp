#pragma once
#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include "hetflow/optim/bounds.hpp"
#include "hetflow/optim/evaluation.hpp"

namespace hetflow::optim {

enum class Difference {
  central,  // 2n points per gradient, error O(h²)
  forward,  // n points per gradient, error O(h): half the forward models, for expensive ones
};

struct DifferenceOptions {
  Difference scheme = Difference::central;
  // Step h_i = relative_step · max(1, |x_i|); 0 picks the step that balances truncation against
  // rounding: ε^(1/3) for central, ε^(1/2) for forward differences.
  double relative_step = 0;
};

// The points around x whose values give the derivatives at x, all evaluated as one batch. Every point
// lies inside the bounds: next to a bound the central difference becomes the one-sided second-order
// formula (x, x∓h, x∓2h) and the forward difference a backward one, so the batch size stays 2n or n.
class DifferenceStencil {
 public:
  DifferenceStencil(const Point& x, const Bounds& bounds, const DifferenceOptions& options);

  const std::vector<Point>& points() const { return points_; }

  // The derivatives of a vector quantity y (one value, or the residuals) at x, given y(x) and the batch's
  // evaluations; row i of the answer is ∂y/∂x_i. When a stencil point failed, the derivative falls back
  // to a first-order difference with the points left; nothing when none is left for some dimension.
  std::optional<std::vector<std::vector<double>>> derivatives(std::span<const double> y_at_x,
                                                              std::span<const Evaluation> evaluations,
                                                              bool residuals) const;

 private:
  struct Term {
    std::size_t point;  // index into points_
    double offset;      // its displacement from x along the dimension
  };
  std::vector<std::vector<Term>> terms_;  // per dimension: one or two points
  std::vector<Point> points_;
};

}  // namespace hetflow::optim
