#include "hetflow/optim/exhaustive.hpp"

#include <algorithm>
#include <vector>

#include "hetflow/core/error.hpp"
#include "hetflow/optim/evaluator.hpp"

namespace hetflow::optim {

Result exhaustive_search(const Space& space, const BatchObjective& objective, const ExhaustiveOptions& options) {
  for (const Parameter& p : space.parameters())
    if (!p.enumerable()) throw core::Error("parameter '" + p.name + "' is a continuous range: give it a step to enumerate it");
  const auto size = space.size();
  if (!size) throw core::Error("the search space has too many points to count");
  std::vector<std::size_t> feasible;
  for (std::size_t k = 0; k < *size; ++k)
    if (space.feasible(space.at(k))) feasible.push_back(k);
  if (feasible.size() > options.run.max_evaluations)
    throw core::Error("the search space has " + std::to_string(feasible.size()) + " feasible points, more than the budget of " +
                std::to_string(options.run.max_evaluations) + " evaluations");
  const std::size_t batch_size = std::max<std::size_t>(options.batch_size, 1);

  Evaluator evaluator("exhaustive", objective, options.run);
  Result result;
  for (std::size_t first = 0; first < feasible.size(); first += batch_size) {
    result.iterations = first / batch_size;
    evaluator.set_iteration(result.iterations);
    std::vector<Point> points;
    for (std::size_t k = first; k < std::min(first + batch_size, feasible.size()); ++k) points.push_back(space.at(feasible[k]));
    if (auto why = evaluator.refusal(points.size())) return evaluator.finish(result, *why, false);
    const auto evaluations = evaluator.evaluate(points);
    for (std::size_t k = 0; k < points.size(); ++k) {
      if (evaluations[k].ok() && !(evaluations[k].value >= result.value)) {  // NaN: nothing found yet
        result.best = points[k];
        result.value = evaluations[k].value;
      }
    }
    if (auto why = evaluator.failure_stop()) return evaluator.finish(result, *why, false);
  }
  result.iterations = (feasible.size() + batch_size - 1) / batch_size;
  return evaluator.finish(result, "every feasible point was evaluated", true);
}

}  // namespace hetflow::optim
