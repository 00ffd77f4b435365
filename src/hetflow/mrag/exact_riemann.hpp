#pragma once
#include "hetflow/mrag/stiffened_gas.hpp"

namespace hetflow::mrag {

// Density, normal velocity and pressure of one side of a 1D Riemann problem.
struct Primitive1d {
  double rho = 1;
  double u = 0;
  double p = 1;
};

// The exact solution of the 1D Riemann problem between two stiffened gases (Toro, Riemann Solvers and
// Numerical Methods for Fluid Dynamics, 3rd ed., ch. 4, with p + p∞ in place of p on each side): the star
// pressure from Newton's method on f_L(p) + f_R(p) + u_R − u_L = 0, then the self-similar solution. The
// reference the solver's shock tubes are measured against (docs/mrag.md, Validation).
class ExactRiemann {
 public:
  // Throws core::Error for a gas check() rejects, a density or p + p∞ that is not positive, data that
  // would open a vacuum, or a Newton iteration that does not converge.
  ExactRiemann(const Primitive1d& left, const Primitive1d& right, const StiffenedGas& left_gas,
               const StiffenedGas& right_gas);

  double star_pressure() const { return p_star_; }
  double star_velocity() const { return u_star_; }
  // The densities either side of the contact.
  double star_density_left() const { return rho_star_[0]; }
  double star_density_right() const { return rho_star_[1]; }

  // The state at x/t = xi, and whether it is the left gas (left of the contact).
  struct Sample {
    Primitive1d state;
    bool left = true;
  };
  Sample sample(double xi) const;

 private:
  // f_K(p) of side k and its derivative.
  double wave_function(int k, double p, double* derivative) const;
  // The state of side k's fan at x/t = xi.
  Primitive1d fan(int k, double xi) const;

  Primitive1d side_[2];
  StiffenedGas gas_[2];
  double c_[2];
  double p_star_ = 0, u_star_ = 0;
  double rho_star_[2] = {0, 0};
};

}  // namespace hetflow::mrag
