#pragma once
#include <cstddef>
#include <string_view>
#include <vector>

#include "hetflow/chem/mechanism.hpp"

namespace hetflow::chem {

// Fuel/air mixtures at 300 K and 1 atm over equivalence ratios 0.5 to 2 (geometric), and their HP
// equilibria: the end states of a flamelet's initial profiles (Sewerin & Rigopoulos 2015). Each state is
// (Y_1..Y_K, T), a reactor's layout.
struct FuelAirPoints {
  std::vector<std::vector<double>> unburnt, burnt;
};

// `points` equivalence ratios of `fuel` (a species name, matched in any case) in air (21 % O2, 79 % N2
// by moles). Throws core::Error when the mechanism lacks the fuel, O2 or N2, or when points < 1.
FuelAirPoints fuel_air_points(const Mechanism& m, std::string_view fuel, int points = 12);

// `count` reactor states spread from cold inert mixtures through igniting ones to nearly equilibrium, as
// in a partially stirred reactor: state i is point i mod points at progress c_i = frac((i + 1) / golden
// ratio), (1 − c) unburnt + c burnt in Y and T. The states follow one another in the result. Throws
// core::Error when `points` holds none.
std::vector<double> partly_burnt_states(const FuelAirPoints& points, std::size_t count);

}  // namespace hetflow::chem
