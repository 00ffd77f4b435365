#pragma once
#include "hetflow/app/case_type.hpp"

namespace hetflow::app {

// `type: ignition`: ignition delays of a fuel / oxidizer mixture over every combination of the T0, p
// and phi lists, integrated as one ode::Radau5 batch of constant-pressure reactors (find_ignition).
// Writes ignition.csv (one row per system, status and the integrator's reason for a failed one),
// temperature.csv (T(t) on the sample grid), ignition_delay.png (delay against 1000/T0 per (p, phi))
// and temperature.png; the manifest's result lists every system. docs/chem.md.
class IgnitionCase : public CaseType {
 public:
  casefile::Schema schema() const override;
  void check(const casefile::Case& c) const override;
  RunOutcome run(const casefile::Case& c, RunContext& context) const override;
};

}  // namespace hetflow::app
