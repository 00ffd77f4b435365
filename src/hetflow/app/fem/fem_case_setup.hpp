#pragma once
#include <optional>
#include <string>
#include <vector>

#include "hetflow/app/fem/fem_output_config.hpp"
#include "hetflow/casefile/case.hpp"
#include "hetflow/casefile/schema.hpp"
#include "hetflow/fem/boundary_conditions.hpp"
#include "hetflow/fem/flow_solver.hpp"
#include "hetflow/fem/mesh.hpp"

namespace hetflow::app {

// The sections of an incompressible case besides the mesh: fluid, boundary, time, solver, initial, forces
// and the fem keys of output.
void declare_fem_setup(casefile::Schema& schema);
void check_fem_setup(const casefile::Case& c, std::vector<std::string>& problems);

fem::FlowParameters flow_parameters(const casefile::Case& c);

// One condition per entry of `boundary`, named by the entry (the patch).
std::vector<fem::PatchCondition> patch_conditions(const casefile::Case& c);
// solver.pressure_reference, when the case gives one.
std::optional<fem::Point> pressure_reference(const casefile::Case& c);

// When and how long the steps are, and what is written when.
struct FemSchedule {
  double end = 0;
  double courant = 0.9;
  double max_dt = 0;
  double fixed_dt = 0;    // > 0: every step this long (the last one shortened to end at `end`)
  long every = 0;         // snapshot every this many steps
  double interval = 0;    // > 0: also a snapshot at every multiple of this time, which steps end on
  long checkpoint_every = 0;
  long sample_every = 1;  // probes and forces
  double steady_tolerance = 0;
};
FemSchedule fem_schedule(const casefile::Case& c);

// The forces the run reports: on each listed patch, as F and as coefficients 2 F·e / (ρ U² A).
struct FemForces {
  std::vector<std::string> patches;
  double velocity = 1;
  double area = 1;
  fem::Vec3 drag{1, 0, 0};
  fem::Vec3 lift{0, 1, 0};
};
FemForces fem_forces(const casefile::Case& c);

// The probes, lines and cut plane of the output section; the cut plane's position defaults to the
// middle of the mesh's extent along its axis.
FemOutputConfig fem_output_config(const casefile::Case& c, const fem::Mesh& mesh);

}  // namespace hetflow::app
