#pragma once
#include <optional>
#include <string_view>

namespace hetflow::chem {

// SI (mole-based) value of one unit of a Cantera unit expression such as "cm^3/mol/s", "kcal/mol",
// "atm" or "1/s"; nullopt when a unit is unknown. Activation energies may also be given as "K"
// (E/R) or "eV" (per molecule), which this maps to J/mol.
std::optional<double> unit_factor(std::string_view expression);

}  // namespace hetflow::chem
