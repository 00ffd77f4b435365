#pragma once
#include "hetflow/app/solver.hpp"

namespace hetflow::app {

// The selftest case, which checks a device end to end.
Solver selftest_solver();

}  // namespace hetflow::app
