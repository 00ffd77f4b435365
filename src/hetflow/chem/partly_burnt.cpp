#include "hetflow/chem/partly_burnt.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <string>

#include "hetflow/chem/equilibrium.hpp"
#include "hetflow/core/error.hpp"

namespace hetflow::chem {
namespace {

constexpr double unburnt_temperature = 300.0;  // K, fuel and air alike

// The species by name, or else by name in any case: the n-dodecane mechanism spells them in lower case.
std::size_t species(const Mechanism& m, std::string_view name) {
  if (const int k = m.species_index(name); k >= 0) return static_cast<std::size_t>(k);
  auto same = [&](const std::string& other) {
    return std::equal(other.begin(), other.end(), name.begin(), name.end(), [](char a, char b) {
      return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
    });
  };
  for (std::size_t k = 0; k < m.species.size(); ++k)
    if (same(m.species[k].name)) return k;
  throw core::Error("mechanism has no species " + std::string(name) + ", which a fuel/air mixture needs");
}

// Atoms of element `symbol` in a mixture given in moles per species (0 when the mechanism lacks it).
double atoms(const Mechanism& m, const std::vector<double>& moles, std::string_view symbol) {
  const int e = m.element_index(symbol);
  double sum = 0;
  for (std::size_t k = 0; k < moles.size(); ++k)
    for (const auto& [element, count] : m.species[k].composition)
      if (element == e) sum += moles[k] * count;
  return sum;
}

std::vector<double> mass_fractions(const Mechanism& m, const std::vector<double>& moles) {
  std::vector<double> y(moles.size());
  double total = 0;
  for (std::size_t k = 0; k < y.size(); ++k) total += y[k] = moles[k] * m.species[k].molecular_weight;
  for (double& v : y) v /= total;
  return y;
}

// Fuel and air at equivalence ratio phi, in moles per species.
std::vector<double> unburnt_moles(const Mechanism& m, std::string_view fuel, double phi) {
  std::vector<double> moles(m.species.size(), 0.0);
  moles[species(m, fuel)] = 1;
  const double o2_per_fuel = atoms(m, moles, "C") + atoms(m, moles, "H") / 4 - atoms(m, moles, "O") / 2;
  moles[species(m, "O2")] = o2_per_fuel / phi;
  moles[species(m, "N2")] = 3.76 * o2_per_fuel / phi;
  return moles;
}

}  // namespace

FuelAirPoints fuel_air_points(const Mechanism& m, std::string_view fuel, int points) {
  if (points < 1) throw core::Error("fuel/air mixtures: " + std::to_string(points) + " points; at least 1 needed");
  FuelAirPoints f;
  for (int j = 0; j < points; ++j) {
    const double phi = 0.5 * std::pow(4.0, points > 1 ? double(j) / (points - 1) : 0.0);
    const MixtureState unburnt{unburnt_temperature, one_atm, mass_fractions(m, unburnt_moles(m, fuel, phi))};
    const MixtureState burnt = equilibrate(m, unburnt, EquilibriumHold::hp).state;
    f.unburnt.push_back(unburnt.mass_fractions);
    f.unburnt.back().push_back(unburnt.temperature);
    f.burnt.push_back(burnt.mass_fractions);
    f.burnt.back().push_back(burnt.temperature);
  }
  return f;
}

std::vector<double> partly_burnt_states(const FuelAirPoints& points, std::size_t count) {
  if (points.unburnt.empty()) throw core::Error("partly burnt states: no fuel/air points to mix");
  const std::size_t n = points.unburnt[0].size();
  std::vector<double> y(count * n);
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t j = i % points.unburnt.size();
    const double c = std::fmod(double(i + 1) * 0.6180339887498949, 1.0);
    for (std::size_t k = 0; k < n; ++k) y[i * n + k] = (1 - c) * points.unburnt[j][k] + c * points.burnt[j][k];
  }
  return y;
}

}  // namespace hetflow::chem
