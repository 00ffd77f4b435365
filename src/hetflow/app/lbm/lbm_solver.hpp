#pragma once
#include "hetflow/app/solver.hpp"

namespace hetflow::app {

// The lattice-Boltzmann solver: its case, benchmarks and launch tuning.
Solver lbm_solver();

}  // namespace hetflow::app
