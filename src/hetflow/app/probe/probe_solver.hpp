#pragma once
#include "hetflow/app/solver.hpp"

namespace hetflow::app {

// The device probe: the bandwidth benchmark every other one refers to, and its work-groups' tuning.
Solver probe_solver();

}  // namespace hetflow::app
