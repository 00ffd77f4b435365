#include "hetflow/app/fem/fem_case.hpp"

#include <filesystem>
#include <iostream>
#include <optional>

#include "hetflow/app/fem/fem_case_mesh.hpp"
#include "hetflow/app/fem/fem_case_setup.hpp"
#include "hetflow/app/fem/fem_outputs.hpp"
#include "hetflow/app/fem/fem_stepping.hpp"
#include "hetflow/app/fem/fem_tunable.hpp"
#include "hetflow/casefile/error.hpp"
#include "hetflow/core/event.hpp"
#include "hetflow/core/number_text.hpp"
#include "hetflow/fem/checkpoint.hpp"
#include "hetflow/fem/device_edge_data.hpp"
#include "hetflow/fem/edge_data.hpp"
#include "hetflow/fem/mesh_error.hpp"

namespace hetflow::app {
namespace {

fem::BoundaryConstraints boundary_constraints(const casefile::Case& c, const fem::Mesh& mesh, const std::string& source) {
  try {
    return fem::build_boundary_constraints(mesh, patch_conditions(c), source, pressure_reference(c));
  } catch (const fem::MeshError& e) {
    throw casefile::CaseError(c.source() + ": boundary: " + e.what());
  }
}

fem::FlowState initial_state(const casefile::Case& c, const fem::FlowSolver& solver, const fem::Mesh& mesh) {
  const std::string checkpoint = c.get<std::string>("initial.checkpoint");
  if (!checkpoint.empty()) {
    if (!std::filesystem::exists(checkpoint)) throw casefile::CaseError(c.missing_file("initial.checkpoint"));
    try {
      return fem::read_checkpoint(checkpoint, mesh);
    } catch (const io::FormatError& e) {
      throw casefile::CaseError(c.where("initial.checkpoint") + ": initial.checkpoint: " + e.what());
    }
  }
  fem::FlowState s = solver.rest_state();
  const auto u = c.get<std::vector<double>>("initial.velocity");
  s.velocity.assign(s.velocity.size(), fem::Vec3{u[0], u[1], u[2]});
  return s;
}

std::string headline(const FemRunSummary& s, const fem::FlowSolver& solver, const FemForces& forces,
                     const fem::FlowParameters& p) {
  using core::number_text;
  const fem::FlowDiagnostics& d = solver.diagnostics();
  std::string text = "incompressible: t = " + number_text(solver.time(), 6) + " after " +
                     std::to_string(solver.step()) + " steps" + (s.steady ? " (steady)" : "") +
                     ", max |u| = " + number_text(d.max_speed, 4) + ", kinetic energy " +
                     number_text(d.kinetic_energy, 4) + ", ||div u|| = " + number_text(d.divergence, 3);
  if (s.first_force) {
    const fem::Vec3& f = *s.first_force;
    const double scale = 2 / (p.momentum.density * forces.velocity * forces.velocity * forces.area);
    const auto along = [&](const fem::Vec3& e) { return scale * (f[0] * e[0] + f[1] * e[1] + f[2] * e[2]); };
    text += ", on " + forces.patches.front() + " c_D = " + number_text(along(forces.drag), 5) +
            ", c_L = " + number_text(along(forces.lift), 4);
  }
  return text;
}

// Runs one stage of the set-up (mesh, edge data, solver), saying on stderr what it does before it starts and
// how long it took, so that the seconds a large mesh takes are not a silent wait.
template <class Work>
auto stage(const RunContext& ctx, const std::string& what, Work&& work) {
  const bool say = ctx.verbosity != display::Verbosity::quiet;
  if (say) std::cerr << "incompressible: " << what << " ..." << std::flush;
  const core::WallTimer timer;
  auto result = work();
  if (say) std::cerr << " " << core::number_text(timer.seconds(), 2) << " s\n";
  return result;
}

}  // namespace

casefile::Schema IncompressibleCase::schema() const {
  casefile::Schema s("incompressible", "transient incompressible Navier-Stokes on tetrahedra: edge-based P1 "
                                       "finite elements, fractional step with RK4 momentum (docs/fem.md)");
  declare_fem_mesh(s);
  declare_fem_setup(s);
  return s;
}

void IncompressibleCase::check(const casefile::Case& c) const {
  std::vector<std::string> problems;
  check_fem_mesh(c, problems);
  check_fem_setup(c, problems);
  throw_problems(c, std::move(problems));
}

RunOutcome IncompressibleCase::run(const casefile::Case& c, RunContext& ctx) const {
  const core::WallTimer total;
  RunDirectory& dir = ctx.directory;
  nlohmann::json& manifest = dir.manifest();
  // Every rank builds the whole mesh (a file can be missing on one host only) before the solver's
  // collective set-up.
  const fem::Mesh mesh = ctx.ranks.make_together(
      [&] { return stage(ctx, "building and checking the mesh", [&] { return make_fem_mesh(c, manifest["mesh"]); }); });
  const fem::BoundaryConstraints constraints = boundary_constraints(c, mesh, manifest["mesh"]["source"]);
  manifest["boundary"] = {{"closed_flux_imbalance", constraints.balanced_imbalance}};
  const FemSchedule schedule = fem_schedule(c);
  const FemForces forces = fem_forces(c);
  const FemOutputConfig output_config = fem_output_config(c, mesh);

  const core::WallTimer setup;
  const fem::EdgeData data = stage(ctx, "building the edge data of " + std::to_string(mesh.nodes.size()) + " nodes",
                                   [&] { return fem::build_edge_data(mesh); });
  fem::FlowParameters parameters = flow_parameters(c);
  if (c.get<std::vector<int>>("solver.spmv").empty())
    parameters.spmv = tuned_spmv_shape(ctx.devices, manifest["tuning"]).value_or(fem::SpmvShape{});
  std::vector<std::string> labels;
  std::string on;
  for (std::size_t k = 0; k < ctx.devices.size(); ++k) {
    labels.push_back(ctx.devices.device(k).label());
    on += (k ? ", " : "") + labels.back();
  }
  manifest["solver"] = {{"devices", labels}, {"spmv", {parameters.spmv.wg_bits, parameters.spmv.row_bits}}};
  // Several devices, or processes, split the nodes in shares by their measured copy bandwidth (docs/fem.md,
  // "Several devices").
  fem::FlowSolver solver = stage(ctx, "setting up the solver on " + on, [&] {
    return ctx.devices.size() == 1 && ctx.ranks.size() == 1
               ? fem::FlowSolver(ctx.devices, 0, mesh, data, parameters, constraints)
               : fem::FlowSolver(ctx.devices, mesh, data, parameters, constraints, core::Distribution::bandwidth,
                                 ctx.ranks.link());
  });
  const fem::FlowState initial = ctx.ranks.make_together([&] { return initial_state(c, solver, mesh); });
  solver.set_state(initial);
  // Rank 0 alone writes; the others take part in the solver's downloads.
  std::optional<FemOutputs> outputs;
  ctx.ranks.together([&] {
    if (!ctx.ranks.root()) return;
    try {
      outputs.emplace(dir, mesh, data, output_config);
    } catch (const std::invalid_argument& e) {
      throw casefile::CaseError(c.source() + ": output: " + e.what());
    }
  });
  dir.add_timing("setup", setup.seconds());
  dir.add_output("log.csv", "one row per step: time, dt, Courant number, pressure CG iterations and residual, "
                            "||div u||, kinetic energy, max |u|");
  dir.add_output("forces.csv", "forces of the fluid on forces.patches and their coefficients, per sample");
  dir.add_output("checkpoint.bin", "the last state, to continue from with initial.checkpoint");

  FemStepping stepping(ctx, solver, mesh, data, parameters, schedule, forces, outputs ? &*outputs : nullptr);
  const FemRunSummary s = stepping.run();
  const bool complete = s.steady || solver.time() >= schedule.end;
  manifest["result"] = {{"steps", s.steps},
                        {"time", solver.time()},
                        {"steady", s.steady},
                        {"cg_iterations_per_step", s.steps > 0 ? static_cast<double>(s.cg_iterations) / s.steps : 0.0},
                        {"kinetic_energy", solver.diagnostics().kinetic_energy},
                        {"divergence", solver.diagnostics().divergence},
                        {"max_speed", solver.diagnostics().max_speed}};
  print_headline(ctx, headline(s, solver, forces, parameters));
  dir.add_timing("stepping", s.seconds - s.output_seconds);
  dir.add_timing("output", s.output_seconds);
  dir.add_timing("total", total.seconds());
  return complete ? RunOutcome::complete : RunOutcome::interrupted;
}

}  // namespace hetflow::app
