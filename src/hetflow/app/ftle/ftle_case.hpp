#pragma once
#include "hetflow/app/case_type.hpp"
#include "hetflow/app/ftle/ftle_case_setup.hpp"

namespace hetflow::app {

// `type: ftle`: finite-time Lyapunov exponents (ftle::Solver) of an analytic flow or of gridded velocity
// read from files, on a seed grid. Writes the field as ftle.vti (2D: one point thick), a PNG with a
// colour bar, optionally HDF5 + XDMF and the final flow map; the manifest's result holds the field's
// mean, min and max. A tracer that goes non-finite stops the run with its seed and step (docs/ftle.md).
// The built-in default case of `hetflow run` is this type's defaults: the double gyre.
class FtleCase : public CaseType {
 public:
  casefile::Schema schema() const override;
  void check(const casefile::Case& c) const override;
  std::vector<std::string> overruled_keys(const casefile::Case& c) const override { return ftle_overruled_keys(c); }
  RunOutcome run(const casefile::Case& c, RunContext& context) const override;
  // A single field, over the ranks through ftle::Solver's link; a sequence refuses (ftle::Sequence has none).
  bool runs_across_processes() const override { return true; }
  // `hetflow tune ftle-devices` for the case's precision.
  std::optional<ChoiceKey> device_choice(const casefile::Case& c) const override;
};

}  // namespace hetflow::app
