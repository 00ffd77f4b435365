#include "hetflow/chem/reactor.hpp"

#include <stdexcept>

#include "hetflow/chem/thermo.hpp"

namespace hetflow::chem {

ConstantPressureReactor::ConstantPressureReactor(const Kinetics& kinetics, double pressure)
    : kinetics_(kinetics), pressure_(pressure), weights_(kinetics.mechanism().molecular_weights()) {}

void ConstantPressureReactor::check_sizes(std::span<const double> y, std::size_t out, std::size_t want) const {
  if (y.size() != size())
    throw std::invalid_argument("reactor state needs " + std::to_string(size()) + " entries (mass fractions and T)");
  if (out != want) throw std::invalid_argument("reactor output needs " + std::to_string(want) + " entries");
}

void ConstantPressureReactor::rhs(std::span<const double> y, std::span<double> dydt) const {
  const std::size_t n = weights_.size();
  check_sizes(y, dydt.size(), n + 1);
  const double T = y[n];
  const auto mass_fractions = y.first(n);
  const double rho = density(T, pressure_, mass_fractions, weights_);
  const std::vector<double> c = concentrations(T, pressure_, mass_fractions, weights_);
  const std::vector<double> wdot = kinetics_.production_rates(T, pressure_, c);
  const SpeciesThermo thermo = species_thermo(kinetics_.mechanism(), T);
  double cp_mass = 0.0;
  double heat_release = 0.0;
  for (std::size_t k = 0; k < n; ++k) {
    cp_mass += mass_fractions[k] * thermo.cp[k] / weights_[k];
    heat_release += thermo.h[k] * wdot[k];
    dydt[k] = weights_[k] * wdot[k] / rho;
  }
  dydt[n] = -heat_release / (rho * cp_mass);
}

}  // namespace hetflow::chem
