#pragma once
#include <span>

#include "hetflow/chem/kinetics.hpp"

namespace hetflow::chem {

// The constant-pressure adiabatic reactor of spec §3.1, with state y = (Y_1..Y_n, T):
//   dY_k/dt = W_k ω̇_k / ρ,   dT/dt = -Σ_k h_k ω̇_k / (ρ c̄_p),   ρ = p W̄ / (R T),
// h_k molar enthalpies and c̄_p the mass-specific heat capacity. Every species is integrated.
class ConstantPressureReactor {
 public:
  ConstantPressureReactor(const Kinetics& kinetics, double pressure);

  std::size_t size() const { return weights_.size() + 1; }
  double pressure() const { return pressure_; }
  // dydt has size() entries.
  void rhs(std::span<const double> y, std::span<double> dydt) const;

 private:
  const Kinetics& kinetics_;
  double pressure_;
  std::vector<double> weights_;
};

}  // namespace hetflow::chem
