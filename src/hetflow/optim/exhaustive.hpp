#pragma once
#include <cstddef>

#include "hetflow/optim/evaluation.hpp"
#include "hetflow/optim/run.hpp"
#include "hetflow/optim/space.hpp"

namespace hetflow::optim {

struct ExhaustiveOptions {
  std::size_t batch_size = 64;  // points per objective call
  RunOptions run;
};

// Evaluates every feasible point of a small enumerable space in enumeration order (last parameter
// fastest), batch_size at a time, and returns the lowest (the first of equals). core::Error if a parameter is
// continuous or the feasible points outnumber run.max_evaluations: a partial enumeration would claim an
// optimum it has not seen. Result::iterations counts batches.
Result exhaustive_search(const Space& space, const BatchObjective& objective, const ExhaustiveOptions& options);

}  // namespace hetflow::optim
