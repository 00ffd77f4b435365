#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "hetflow/chem/mechanism.hpp"

namespace hetflow::chem {

enum class ThirdBodyMark { none, plus_m, falloff };

// A reaction equation as Chemkin and Cantera write it: "2 O + M <=> O2 + M", "H + O2 (+AR) = HO2 (+AR)",
// "0.5 H2 + OH => H2O". Repeated species are merged into one term.
struct ParsedEquation {
  std::vector<Term> reactants, products;
  bool reversible = true;
  ThirdBodyMark third_body = ThirdBodyMark::none;
  int collider = -1;  // the species of "(+SPECIES)"; -1 for "(+M)"
};

// Resolves names against m.species; throws MechanismError at file:line for an undeclared species or a
// malformed equation.
ParsedEquation parse_equation(std::string_view text, const Mechanism& m, const std::string& file, int line);

}  // namespace hetflow::chem
