#pragma once
#include "hetflow/app/case_type.hpp"

namespace hetflow::app {

// `type: flamelet`: the unsteady laminar flamelet of a fuel and an oxidizer stream in mixture-fraction
// space, split into device diffusion and batched RADAU5 chemistry (chem::Flamelet), run to steady state
// or for a given time at each stoichiometric dissipation rate of a list or geometric range: the S-curve,
// continued from one rate to the next, with extinction detected where T falls to the mixing line. Writes
// flamelet.csv (T and Y_k against z per rate), scurve.csv (per rate: status, T_max, rise above the mixing
// line, steps) and plots; the manifest's result names the extinction. docs/chem.md.
class FlameletCase : public CaseType {
 public:
  casefile::Schema schema() const override;
  void check(const casefile::Case& c) const override;
  RunOutcome run(const casefile::Case& c, RunContext& context) const override;
};

}  // namespace hetflow::app
