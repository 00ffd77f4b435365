#pragma once
#include <string>

#include "hetflow/chem/mechanism.hpp"

namespace hetflow::chem {

// The checks both readers end with, so a mechanism is equally trustworthy whatever its format:
// molecular weights from the composition, every reaction balanced in every element, and reactions with
// the same stoichiometry and third-body form allowed only when all of them are marked duplicate.
// Throws MechanismError at the offending reaction's line in `file`.
void finish_mechanism(Mechanism& m, const std::string& file);

}  // namespace hetflow::chem
