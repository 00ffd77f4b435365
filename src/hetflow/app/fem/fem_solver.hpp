#pragma once
#include "hetflow/app/solver.hpp"

namespace hetflow::app {

// The edge-based finite-element solver (docs/fem.md); for now its pressure SpMV's tunable.
Solver fem_solver();

}  // namespace hetflow::app
