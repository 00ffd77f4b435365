#pragma once
#include "hetflow/app/case_type.hpp"

namespace hetflow::app {

// `type: incompressible`: transient incompressible Navier–Stokes on a tetrahedral mesh by the edge-based
// fractional-step finite elements of docs/fem.md, on the selected devices (the mesh split over several).
// Writes fields_<step>.vtu with fields.pvd, cut-plane previews, probes.csv, line profiles, forces.csv,
// log.csv and checkpoint.bin (see FemStepping and FemOutputs).
class IncompressibleCase : public CaseType {
 public:
  casefile::Schema schema() const override;
  void check(const casefile::Case& c) const override;
  RunOutcome run(const casefile::Case& c, RunContext& context) const override;
  // One device per process; the mesh is split over the processes' devices (docs/fem.md, "Several devices").
  bool runs_across_processes() const override { return true; }
};

}  // namespace hetflow::app
