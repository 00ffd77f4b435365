#pragma once
#include "hetflow/app/case_type.hpp"

namespace hetflow::app {

// `type: lbm`: a D3Q19 lattice-Boltzmann flow (lbm::Solver) through a generated or loaded voxel mask,
// driven by a body force. Writes rho, u and node_type as a .vti series, |u| slices as PNG, a CSV of
// mass, velocity and Darcy permeability, and stops with the step and cell when the flow goes
// non-finite or too fast for the lattice (docs/lbm.md).
class LbmCase : public CaseType {
 public:
  casefile::Schema schema() const override;
  void check(const casefile::Case& c) const override;
  RunOutcome run(const casefile::Case& c, RunContext& context) const override;
  // Over the ranks through lbm::Solver's link (z-slabs, one per device of every rank).
  bool runs_across_processes() const override { return true; }
  // `hetflow tune lbm-devices` for the case's storage and physics model.
  std::optional<ChoiceKey> device_choice(const casefile::Case& c) const override;
};

}  // namespace hetflow::app
