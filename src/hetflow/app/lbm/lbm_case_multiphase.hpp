#pragma once
#include <vector>

#include "hetflow/casefile/case.hpp"
#include "hetflow/casefile/schema.hpp"
#include "hetflow/lbm/geometry.hpp"
#include "hetflow/lbm/solver.hpp"

namespace hetflow::app {

// The multiphase part of `type: lbm`: lbm.model picks single-phase flow, Shan-Chen single-component
// multiphase (section shan_chen) or two-component multiphase (section two_component); section
// `initial` sets the starting densities: uniform, a drop, or a randomly perturbed mixture (spinodal
// decomposition). docs/lbm.md describes the keys.
void declare_multiphase(casefile::Schema& schema);

// Keys of the model not chosen, list lengths that must match the component count, a drop without a
// radius: appended to `problems` as "file:line: message".
void check_multiphase(const casefile::Case& c, std::vector<std::string>& problems);

// Sets the model's parameters in `config`.
void configure_multiphase(const casefile::Case& c, lbm::Config& config);

// Brings the solver to step 0: the initial densities of every component at lbm.initial_velocity.
void initialise_multiphase(const casefile::Case& c, const lbm::Geometry& geometry, lbm::Solver& solver);

// The density a PNG slice shows: rho, or component a's density with two components.
const std::vector<double>& shown_density(const lbm::Fields& fields);

}  // namespace hetflow::app
