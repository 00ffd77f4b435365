#pragma once
#include <vector>

#include "hetflow/app/solver.hpp"

namespace hetflow::app {

// Every solver the `hetflow` command knows, in the order its help lists them.
const std::vector<Solver>& solvers();

}  // namespace hetflow::app
