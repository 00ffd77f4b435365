#pragma once
#include "hetflow/app/solver.hpp"

namespace hetflow::app {

// The wavelet-adapted compressible two-phase solver (docs/mrag.md): the compressible case type and its benchmark.
Solver compressible_solver();

}  // namespace hetflow::app
