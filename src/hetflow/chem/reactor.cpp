#include "hetflow/chem/reactor.hpp"

#include <stdexcept>

#include "hetflow/chem/thermo.hpp"

namespace hetflow::chem {

Reactor::Reactor(const Kinetics& kinetics) : kinetics_(kinetics), weights_(kinetics.mechanism().molecular_weights()) {}

void Reactor::check_sizes(std::span<const double> y, std::size_t out, std::size_t want) const {
  if (y.size() != size())
    throw std::invalid_argument("reactor state needs " + std::to_string(size()) + " entries (mass fractions and T)");
  if (out != want) throw std::invalid_argument("reactor output needs " + std::to_string(want) + " entries");
}

double Reactor::balance(std::span<const double> mass_fractions, double rho, std::span<const double> wdot,
                      std::span<const double> energy, std::span<const double> capacity, std::span<double> dydt) const {
  const std::size_t n = weights_.size();
  double capacity_mass = 0.0;
  double heat_release = 0.0;
  for (std::size_t k = 0; k < n; ++k) {
    capacity_mass += mass_fractions[k] * capacity[k] / weights_[k];
    heat_release += energy[k] * wdot[k];
    dydt[k] = weights_[k] * wdot[k] / rho;
  }
  dydt[n] = -heat_release / (rho * capacity_mass);
  return capacity_mass;
}

double Reactor::capacity_slope(std::span<const double> mass_fractions, double T) const {
  double slope = 0.0;
  for (std::size_t k = 0; k < weights_.size(); ++k)
    slope += mass_fractions[k] * (gas_constant * cp_over_r_slope(kinetics_.mechanism().species[k].thermo, T)) /
             weights_[k];
  return slope;
}

ConstantPressureReactor::ConstantPressureReactor(const Kinetics& kinetics, double pressure)
    : Reactor(kinetics), pressure_(pressure) {}

void ConstantPressureReactor::rhs(std::span<const double> y, std::span<double> dydt) const {
  const std::size_t n = weights_.size();
  check_sizes(y, dydt.size(), n + 1);
  const double T = y[n];
  const auto mass_fractions = y.first(n);
  const double rho = chem::density(T, pressure_, mass_fractions, weights_);
  const std::vector<double> c = chem::concentrations(T, pressure_, mass_fractions, weights_);
  const std::vector<double> wdot = kinetics_.production_rates(T, pressure_, c);
  const SpeciesThermo thermo = species_thermo(kinetics_.mechanism(), T);
  balance(mass_fractions, rho, wdot, thermo.h, thermo.cp, dydt);
}

ConstantVolumeReactor::ConstantVolumeReactor(const Kinetics& kinetics, double density)
    : Reactor(kinetics), density_(density) {}

std::vector<double> ConstantVolumeReactor::concentrations(std::span<const double> mass_fractions) const {
  std::vector<double> c(weights_.size());
  for (std::size_t k = 0; k < c.size(); ++k) c[k] = density_ * mass_fractions[k] / weights_[k];
  return c;
}

double ConstantVolumeReactor::pressure_at(double T, std::span<const double> c) {
  double c_total = 0.0;
  for (const double ck : c) c_total += ck;
  return gas_constant * T * c_total;
}

double ConstantVolumeReactor::pressure(std::span<const double> y) const {
  check_sizes(y, 0, 0);
  return pressure_at(y.back(), concentrations(y.first(weights_.size())));
}

ConstantVolumeReactor::Energies ConstantVolumeReactor::energies(double T) const {
  const SpeciesThermo thermo = species_thermo(kinetics_.mechanism(), T);
  Energies e{thermo.h, thermo.cp};
  const double RT = gas_constant * T;
  for (std::size_t k = 0; k < e.u.size(); ++k) {
    e.u[k] -= RT;
    e.cv[k] -= gas_constant;
  }
  return e;
}

void ConstantVolumeReactor::rhs(std::span<const double> y, std::span<double> dydt) const {
  const std::size_t n = weights_.size();
  check_sizes(y, dydt.size(), n + 1);
  const double T = y[n];
  const auto mass_fractions = y.first(n);
  const std::vector<double> c = concentrations(mass_fractions);
  const std::vector<double> wdot = kinetics_.production_rates(T, pressure_at(T, c), c);
  const Energies e = energies(T);
  balance(mass_fractions, density_, wdot, e.u, e.cv, dydt);
}

}  // namespace hetflow::chem
