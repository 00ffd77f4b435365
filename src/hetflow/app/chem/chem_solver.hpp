#pragma once
#include "hetflow/app/solver.hpp"

namespace hetflow::app {

// The chemistry solvers (ignition sweeps, reactor batches on RADAU5): cases, benchmark and RADAU5's tuning.
Solver chem_solver();

}  // namespace hetflow::app
