#pragma once
#include "hetflow/app/solver.hpp"

namespace hetflow::app {

// The FTLE solver: its case, benchmark and launch tuning.
Solver ftle_solver();

}  // namespace hetflow::app
