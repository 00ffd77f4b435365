#include "hetflow/optim/evaluation.hpp"

#include <cmath>

#include "hetflow/core/number_text.hpp"

namespace hetflow::optim {

Evaluation Evaluation::of(double value) {
  Evaluation e;
  e.value = value;
  return e;
}

Evaluation Evaluation::of_residuals(std::vector<double> residuals) {
  Evaluation e;
  e.residuals = std::move(residuals);
  return e;
}

Evaluation Evaluation::failed(std::string reason) {
  Evaluation e;
  e.failure = reason.empty() ? "the objective reported a failure without a reason" : std::move(reason);
  return e;
}

Evaluation normalised(Evaluation e) {
  if (!e.ok()) return e;
  for (std::size_t i = 0; i < e.residuals.size(); ++i) {
    if (!std::isfinite(e.residuals[i]))
      return Evaluation::failed("residual " + std::to_string(i) + " is " + core::number_text(e.residuals[i]));
  }
  if (std::isnan(e.value) && !e.residuals.empty()) {
    double sum = 0;
    for (double r : e.residuals) sum += r * r;
    e.value = 0.5 * sum;
  }
  if (!std::isfinite(e.value)) return Evaluation::failed("the objective value is " + core::number_text(e.value));
  return e;
}

}  // namespace hetflow::optim
