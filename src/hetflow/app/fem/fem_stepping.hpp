#pragma once
#include <optional>
#include <string>

#include "hetflow/app/case_type.hpp"
#include "hetflow/app/fem/fem_case_setup.hpp"
#include "hetflow/app/fem/fem_outputs.hpp"
#include "hetflow/fem/flow_solver.hpp"
#include "hetflow/io/csv.hpp"

namespace hetflow::app {

// How the stepping ended, for the manifest and the headline.
struct FemRunSummary {
  long steps = 0;          // steps this run took
  double seconds = 0;      // wall time of the stepping, outputs included
  double output_seconds = 0;
  long cg_iterations = 0;  // summed over the steps
  bool steady = false;     // stopped by time.steady_tolerance
  fem::StepReport last;
  std::optional<fem::Vec3> first_force;  // the first listed patch's force at the last sample
};

// Runs the steps of an incompressible case from the solver's present state to the schedule's end, an
// interruption or a steady state: log.csv gets a row per step (t, dt, Courant number, CG iterations and
// residual, ||div u||, kinetic energy, max |u|), the outputs their snapshots and samples, forces.csv the
// forces on the listed patches, checkpoint.bin the state at the schedule's intervals and at the end. A
// numerical failure (fem::FlowError) is rethrown after the plots of what was written are made, so the
// files of the last good step stay. Across processes the stepping is collective: every rank steps and
// takes part in the solver's downloads, the ranks agree after each step whether to stop, and rank 0
// alone writes (`outputs` is null on the others).
class FemStepping {
 public:
  FemStepping(RunContext& context, fem::FlowSolver& solver, const fem::Mesh& mesh, const fem::EdgeData& data,
              const fem::FlowParameters& parameters,
              const FemSchedule& schedule, const FemForces& forces, FemOutputs* outputs);

  FemRunSummary run();

 private:
  double next_dt() const;
  void sample(const fem::StepReport& report);
  void snapshot();
  void checkpoint();
  void write_walls(double dt);

  RunContext& ctx_;
  fem::FlowSolver& solver_;
  const fem::Mesh& mesh_;
  const fem::EdgeData& data_;
  fem::FlowParameters parameters_;
  FemSchedule schedule_;
  FemForces forces_;
  FemOutputs* outputs_;
  std::vector<std::vector<std::uint32_t>> force_nodes_;
  std::optional<io::CsvWriter> log_;
  std::optional<io::CsvWriter> force_log_;
  FemRunSummary summary_;
  long last_snapshot_ = -1;
};

}  // namespace hetflow::app
