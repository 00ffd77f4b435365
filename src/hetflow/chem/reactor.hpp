#pragma once
#include <span>
#include <vector>

#include "hetflow/chem/kinetics.hpp"

namespace hetflow::chem {

// Which adiabatic reactor a state evolves in (docs/chem.md): the pressure held (its parameter the
// pressure [Pa]), or the volume, so the density (its parameter the density [kg/m³]).
enum class ReactorKind { constant_pressure, constant_volume };

// What both adiabatic reactors share: the state y = (Y_1..Y_n, T), dY_k/dt = W_k ω̇_k / ρ and an energy
// equation dT/dt = -Σ_k e_k ω̇_k / (ρ c̄), e_k a molar energy and c̄ a mass-specific heat capacity.
class Reactor {
 public:
  std::size_t size() const { return weights_.size() + 1; }

 protected:
  explicit Reactor(const Kinetics& kinetics);

  // Throws std::invalid_argument unless y has size() entries and the output `want`.
  void check_sizes(std::span<const double> y, std::size_t out, std::size_t want) const;
  // The right-hand side from ω̇, each species' energy e_k and heat capacity c_k (molar); returns
  // c̄ = Σ Y_k c_k / W_k.
  double balance(std::span<const double> mass_fractions, double rho, std::span<const double> wdot,
               std::span<const double> energy, std::span<const double> capacity, std::span<double> dydt) const;
  // dc̄_p/dT = dc̄_v/dT = Σ Y_k (dc_p,k/dT) / W_k.
  double capacity_slope(std::span<const double> mass_fractions, double temperature) const;

  const Kinetics& kinetics_;
  std::vector<double> weights_;
};

// The constant-pressure adiabatic reactor:
//   dY_k/dt = W_k ω̇_k / ρ,   dT/dt = -Σ_k h_k ω̇_k / (ρ c̄_p),   ρ = p W̄ / (R T),
// h_k molar enthalpies and c̄_p the mass-specific heat capacity. Every species is integrated.
class ConstantPressureReactor : public Reactor {
 public:
  ConstantPressureReactor(const Kinetics& kinetics, double pressure);

  double pressure() const { return pressure_; }
  // dydt has size() entries.
  void rhs(std::span<const double> y, std::span<double> dydt) const;
  // The exact Jacobian of rhs (reactor_jacobian.cpp), column-major with size()² entries:
  // dfdy[i + j size()] = ∂f_i/∂y_j, the pressure held fixed.
  void jacobian(std::span<const double> y, std::span<double> dfdy) const;

 private:
  double pressure_;
};

// The constant-volume adiabatic reactor, ρ fixed:
//   dY_k/dt = W_k ω̇_k / ρ,   dT/dt = -Σ_k u_k ω̇_k / (ρ c̄_v),   u_k = h_k - R T,
// c̄_v the mass-specific c_v. The rates see the pressure p = R T Σ_k C_k (= ρ R T / W̄), C_k = ρ Y_k / W_k.
class ConstantVolumeReactor : public Reactor {
 public:
  ConstantVolumeReactor(const Kinetics& kinetics, double density);

  double density() const { return density_; }
  // The pressure [Pa] of state y.
  double pressure(std::span<const double> y) const;
  void rhs(std::span<const double> y, std::span<double> dydt) const;
  // The exact Jacobian of rhs (reactor_jacobian.cpp), as ConstantPressureReactor's: the density held
  // fixed, the pressure following T and Y.
  void jacobian(std::span<const double> y, std::span<double> dfdy) const;

 private:
  // C_k = ρ Y_k / W_k.
  std::vector<double> concentrations(std::span<const double> mass_fractions) const;
  // p = (R T) Σ C_k, the sum in species order as the kinetics' total concentration.
  static double pressure_at(double temperature, std::span<const double> concentrations);
  // The species' molar internal energies u_k = h_k - R T and heat capacities c_v,k = c_p,k - R at T.
  struct Energies {
    std::vector<double> u, cv;
  };
  Energies energies(double temperature) const;

  double density_;
};

}  // namespace hetflow::chem
