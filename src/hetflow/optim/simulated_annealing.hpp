#pragma once
#include <cstddef>
#include <cstdint>

#include "hetflow/optim/evaluation.hpp"
#include "hetflow/optim/run.hpp"
#include "hetflow/optim/space.hpp"

namespace hetflow::optim {

struct AnnealingOptions {
  Point start;  // a feasible point of the space; empty: every parameter at its first value
  // Proposals per step, evaluated as one batch; the temperature falls once per step.
  std::size_t batch_size = 4;
  // T₀; 0: chosen so that the median uphill change among `probes` random neighbours of the start is
  // accepted with probability 0.8 (the probes are evaluated with the start, as the first batch).
  double initial_temperature = 0;
  std::size_t probes = 5;
  double cooling = 0.9;                    // geometric schedule: T ← cooling · T after every step
  double final_temperature_ratio = 1e-3;  // the schedule ends when T < ratio · T₀
  std::uint64_t seed = 1;
  RunOptions run;
};

// Simulated annealing over a mixed space (Myre 2013, Sec. 6.3.3; the schedule is this module's own). A
// neighbour changes one parameter drawn at random: a categorical one to another choice, an integer or
// grid one by a Gaussian number of grid steps (σ = a tenth of its range, at least one step), a continuous
// one by a Gaussian of σ = a tenth of its range, clipped. Each step draws batch_size neighbours of the
// current point, evaluates those not seen before as one batch (values are memoised, so a point is never
// evaluated twice), then applies the Metropolis test to them in the order drawn; all random numbers come
// from one generator seeded by `seed`, so a run is reproducible and can be resumed from its log. A failed
// proposal is rejected. Result::iterations counts steps.
Result simulated_annealing(const Space& space, const BatchObjective& objective, const AnnealingOptions& options);

}  // namespace hetflow::optim
