#include "hetflow/chem/flamelet_profiles.hpp"

#include <cmath>
#include <string>

#include "hetflow/chem/equilibrium.hpp"
#include "hetflow/chem/thermo.hpp"
#include "hetflow/core/error.hpp"

namespace hetflow::chem {
namespace {

// The mass-specific heat capacity c_p [J/(kg K)] of a mixture at T.
double specific_heat(const Mechanism& m, const std::vector<double>& mass_fractions, double temperature) {
  double cp = 0.0;
  for (std::size_t k = 0; k < m.species.size(); ++k)
    cp += mass_fractions[k] / m.species[k].molecular_weight * cp_over_r(m.species[k].thermo, temperature);
  return cp * gas_constant;
}

}  // namespace

double temperature_at_enthalpy(const Mechanism& m, const std::vector<double>& mass_fractions, double h, double guess) {
  MixtureState s{guess, one_atm, mass_fractions};
  for (int i = 0; i < 50; ++i) {
    const double step = (mixture_enthalpy(m, s) - h) / specific_heat(m, mass_fractions, s.temperature);
    s.temperature -= step;
    if (!(s.temperature > 0.0) || !std::isfinite(s.temperature)) break;
    if (std::abs(step) <= 1e-12 * s.temperature) return s.temperature;
  }
  throw core::Error("temperature_at_enthalpy: no temperature found for h = " + std::to_string(h) + " J/kg");
}

std::vector<double> mixing_line(const Mechanism& m, const FlameletStream& oxidizer, const FlameletStream& fuel,
                                const std::vector<double>& z) {
  const std::size_t species = m.species.size(), n = species + 1;
  const double h_oxidizer = mixture_enthalpy(m, {oxidizer.temperature, one_atm, oxidizer.mass_fractions});
  const double h_fuel = mixture_enthalpy(m, {fuel.temperature, one_atm, fuel.mass_fractions});
  std::vector<double> state(z.size() * n);
  std::vector<double> y(species);
  for (std::size_t j = 0; j < z.size(); ++j) {
    for (std::size_t k = 0; k < species; ++k)
      y[k] = (1.0 - z[j]) * oxidizer.mass_fractions[k] + z[j] * fuel.mass_fractions[k];
    std::copy(y.begin(), y.end(), state.begin() + static_cast<std::ptrdiff_t>(j * n));
    const double h = (1.0 - z[j]) * h_oxidizer + z[j] * h_fuel;
    const double guess = (1.0 - z[j]) * oxidizer.temperature + z[j] * fuel.temperature;
    state[j * n + species] = j == 0              ? oxidizer.temperature
                             : j + 1 == z.size() ? fuel.temperature
                                                 : temperature_at_enthalpy(m, y, h, guess);
  }
  return state;
}

std::vector<double> equilibrium_profile(const Mechanism& m, const FlameletStream& oxidizer, const FlameletStream& fuel,
                                        const std::vector<double>& z, double pressure) {
  const std::size_t species = m.species.size(), n = species + 1;
  std::vector<double> state = mixing_line(m, oxidizer, fuel, z);
  for (std::size_t j = 1; j + 1 < z.size(); ++j) {
    const auto at = state.begin() + static_cast<std::ptrdiff_t>(j * n);
    MixtureState unburnt{state[j * n + species], pressure,
                         std::vector<double>(at, at + static_cast<std::ptrdiff_t>(species))};
    try {
      const Equilibrium e = equilibrate(m, unburnt, EquilibriumHold::hp);
      std::copy(e.state.mass_fractions.begin(), e.state.mass_fractions.end(), at);
      state[j * n + species] = e.state.temperature;
    } catch (const EquilibriumError& e) {
      throw EquilibriumError("the HP equilibrium at grid point " + std::to_string(j) + " (z = " + std::to_string(z[j]) +
                             "): " + e.what());
    }
  }
  return state;
}

}  // namespace hetflow::chem
