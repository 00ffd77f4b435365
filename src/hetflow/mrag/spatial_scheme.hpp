#pragma once
#include <optional>

#include "hetflow/mrag/colour_function.hpp"
#include "hetflow/mrag/hlle_flux.hpp"

namespace hetflow::mrag {

// How a flow's right-hand side is formed besides WENO5: the faces' Riemann solver, and the closure field,
// Γ (none given) or the paper's colour function φ.
struct SpatialScheme {
  RiemannSolver riemann = RiemannSolver::hlle;
  std::optional<ColourFunction> colour;
};

}  // namespace hetflow::mrag
