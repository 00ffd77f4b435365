#pragma once
#include "hetflow/app/solver.hpp"

namespace hetflow::app {

// The NNLS solver: its command (`hetflow nnls`), benchmark and dense-kernel tuning.
Solver nnls_solver();

}  // namespace hetflow::app
