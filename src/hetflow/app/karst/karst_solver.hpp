#pragma once
#include "hetflow/app/solver.hpp"

namespace hetflow::app {

// The karst-conduit model: its forward and inversion cases, benchmark and work-group tuning.
Solver karst_solver();

}  // namespace hetflow::app
