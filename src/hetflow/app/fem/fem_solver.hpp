#pragma once
#include "hetflow/app/solver.hpp"

namespace hetflow::app {

// The edge-based finite-element solver (docs/fem.md): the incompressible case type and the pressure SpMV's
// tunable.
Solver fem_solver();

}  // namespace hetflow::app
