#pragma once
#include <array>
#include <cstddef>
#include <vector>

#include "hetflow/mrag/hlle_flux.hpp"

namespace hetflow::mrag {

// The solver's scheme in one dimension on a uniform grid, in FP64 on the host: WENO5 of the primitives
// (ρ, u, p, Γ, Π), HLLE (or HLLC) fluxes, the closure fields' source Γ (u*_{i+½} − u*_{i−½})/h, and the
// three-stage strong-stability-preserving Runge–Kutta scheme of Shu & Osher (1988). The reference that fixes
// the scheme's properties (docs/mrag.md, Validation) before and beside the device kernels.
class Reference1d {
 public:
  enum class Boundary { periodic, outflow };

  // Cells of width h, their primitive states (FaceState with ut = 0).
  Reference1d(const std::vector<FaceState>& cells, double h, Boundary boundary,
              RiemannSolver solver = RiemannSolver::hlle);

  // The largest stable step at Courant number `cfl`: cfl h / max(|u| + c).
  double stable_dt(double cfl) const;
  void step(double dt);
  std::vector<FaceState> primitives() const;

  using Conserved = std::array<double, 6>;
  // dq/dt of every cell at the present state.
  std::vector<Conserved> rate() const { return rate(q_); }

 private:
  // dq/dt of every cell.
  std::vector<Conserved> rate(const std::vector<Conserved>& q) const;

  double h_;
  Boundary boundary_;
  RiemannSolver solver_;
  std::vector<Conserved> q_;
};

}  // namespace hetflow::mrag
