#pragma once
#include <filesystem>
#include <string>
#include <string_view>

#include "hetflow/chem/mechanism.hpp"

namespace hetflow::chem {

// Reads a Cantera YAML mechanism: the `units` block, one ideal-gas phase (by name, or the first; a phase
// of another thermo model is refused, naming the file's ideal-gas phases), its elements
// and species (NASA7 thermo), and its reactions of type elementary, three-body, falloff,
// chemically-activated and pressure-dependent-Arrhenius, with efficiencies, Troe, SRI, orders and
// duplicate flags. Quantities may carry their own units ("1.0 atm", "10 kcal/mol"). Problems throw
// MechanismError naming the file and line.
Mechanism read_yaml_mechanism(const std::filesystem::path& path, const std::string& phase = {});
Mechanism parse_yaml_mechanism(std::string_view text, const std::string& source, const std::string& phase = {});

}  // namespace hetflow::chem
