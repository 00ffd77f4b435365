#pragma once
#include <functional>
#include <limits>
#include <span>
#include <string>
#include <vector>

namespace hetflow::optim {

// A candidate: continuous coordinates, or for a mixed Space one number per parameter (an integer value,
// a real value, or the index of a categorical choice), so every method shares one objective type.
using Point = std::vector<double>;

// The outcome of one candidate. A failure carries its reason instead of throwing, so that one failing
// forward model does not lose the others computed in the same batch.
struct Evaluation {
  double value = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> residuals;  // least-squares objectives; then value = ½‖residuals‖²
  std::string failure;            // empty when the evaluation succeeded

  static Evaluation of(double value);
  static Evaluation of_residuals(std::vector<double> residuals);
  static Evaluation failed(std::string reason);

  bool ok() const { return failure.empty(); }
};

// Evaluates a batch of candidates in one call, so a device can run many forward models at once. It must
// return one Evaluation per point, in order. An exception escaping it aborts the run (as a killed process
// would): every batch completed before stays in the log, and a resumed run continues from there.
using BatchObjective = std::function<std::vector<Evaluation>(std::span<const Point>)>;

// The objective's answer as the methods see it: a value left unset by a least-squares objective becomes
// ½‖r‖², and a non-finite value or residual becomes a failure naming it.
Evaluation normalised(Evaluation e);

}  // namespace hetflow::optim
