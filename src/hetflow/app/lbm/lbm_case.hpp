#pragma once
#include <array>
#include <optional>

#include "hetflow/app/case_type.hpp"
#include "hetflow/lbm/solver.hpp"

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

// The solver's configuration from the `lbm:` keys (and the multiphase sections), as a case runs it.
lbm::Config lbm_solver_config(const casefile::Case& c);

// The force density that drives the flow: the body force, plus a pressure drop dp over the nz nodes of a
// period along z as the mean gradient dp / nz.
std::array<double, 3> driving_force(const lbm::Config& config, const std::array<int, 3>& dims);

// The axis a force drives the flow along: the only non-zero component, if there is exactly one.
std::optional<int> flow_axis(const std::array<double, 3>& force);

}  // namespace hetflow::app
