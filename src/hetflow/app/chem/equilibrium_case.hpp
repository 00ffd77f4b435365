#pragma once
#include "hetflow/app/case_type.hpp"

namespace hetflow::app {

// `type: equilibrium`: the chemical equilibrium (chem::equilibrate) of a fuel / oxidizer mixture at every
// combination of the T0, p and phi lists, holding TP, HP or UV: adiabatic flame temperatures at constant
// pressure (HP) or in a closed vessel (UV), or equilibrium compositions (TP). Writes equilibrium.csv (one
// row per state: T, p, status, the reason of a failed one, every species' mole fraction) and
// temperature.png (T against phi per (T0, p)); the manifest's result lists every state. docs/chem.md.
class EquilibriumCase : public CaseType {
 public:
  casefile::Schema schema() const override;
  void check(const casefile::Case& c) const override;
  RunOutcome run(const casefile::Case& c, RunContext& context) const override;
};

}  // namespace hetflow::app
