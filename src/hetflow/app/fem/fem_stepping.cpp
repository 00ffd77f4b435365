#include "hetflow/app/fem/fem_stepping.hpp"

#include <algorithm>
#include <cmath>

#include "hetflow/core/event.hpp"
#include "hetflow/core/number_text.hpp"
#include "hetflow/fem/checkpoint.hpp"
#include "hetflow/fem/find_patch.hpp"
#include "hetflow/fem/patch_force.hpp"
#include "hetflow/fem/wall_traction.hpp"
#include "hetflow/io/interrupt.hpp"

namespace hetflow::app {
namespace {

// The progress bar counts thousandths (‰) of the simulated time still to run, so that its percentage and
// ETA follow the time, not the number of steps, which the adaptive step does not know in advance.
constexpr long progress_ticks = 1000;

// Steps end within this fraction of a step of an output time or the end, rather than leave a sliver.
constexpr double time_slack = 1e-9;

double dot(const fem::Vec3& a, const fem::Vec3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

std::vector<std::string> force_columns(const std::vector<std::string>& patches) {
  std::vector<std::string> columns{"time", "step"};
  for (const std::string& p : patches)
    for (const char* c : {"_fx", "_fy", "_fz", "_cd", "_cl"}) columns.push_back(p + c);
  return columns;
}

}  // namespace

FemStepping::FemStepping(RunContext& context, fem::FlowSolver& solver, const fem::Mesh& mesh, const fem::EdgeData& data,
                         const fem::FlowParameters& parameters,
                         const FemSchedule& schedule, const FemForces& forces, FemOutputs* outputs)
    : ctx_(context),
      solver_(solver),
      mesh_(mesh),
      data_(data),
      parameters_(parameters),
      schedule_(schedule),
      forces_(forces),
      outputs_(outputs) {
  if (!outputs_) return;
  log_.emplace(context.directory.file("log.csv"),
               std::vector<std::string>{"step", "time", "dt", "courant", "cg_iterations", "cg_residual", "divergence",
                                        "kinetic_energy", "max_speed"});
  for (const std::string& patch : forces_.patches)
    force_nodes_.push_back(fem::patch_nodes(mesh_, fem::find_patch(mesh_, patch, "forces.patches")));
  if (!forces_.patches.empty()) force_log_.emplace(context.directory.file("forces.csv"), force_columns(forces_.patches));
}

double FemStepping::next_dt() const {
  const double t = solver_.time();
  double dt = schedule_.fixed_dt > 0 ? schedule_.fixed_dt
                                     : std::min(solver_.stable_dt(schedule_.courant), schedule_.max_dt);
  double stop = schedule_.end;
  if (schedule_.interval > 0) {
    const double next = (std::floor(t / schedule_.interval * (1 + time_slack)) + 1) * schedule_.interval;
    stop = std::min(stop, next);
  }
  // Within a slack of the stop, the step goes all the way.
  if (t + dt * (1 + time_slack) >= stop) dt = stop - t;
  return dt;
}

void FemStepping::sample(const fem::StepReport& report) {
  const std::vector<fem::Vec3> u = solver_.velocity();
  const std::vector<double> p = solver_.pressure();
  if (!outputs_) return;
  outputs_->sample(report.step, report.time, u, p);
  if (!force_log_) return;
  std::vector<double> row{report.time, static_cast<double>(report.step)};
  const double scale = 2 / (parameters_.momentum.density * forces_.velocity * forces_.velocity * forces_.area);
  for (std::size_t k = 0; k < force_nodes_.size(); ++k) {
    const fem::Vec3 f = fem::patch_force(data_, parameters_.momentum, u, p, report.dt, force_nodes_[k]);
    if (k == 0) summary_.first_force = f;
    row.insert(row.end(), {f[0], f[1], f[2], scale * dot(f, forces_.drag), scale * dot(f, forces_.lift)});
  }
  force_log_->add_row(row);
}

void FemStepping::snapshot() {
  last_snapshot_ = solver_.step();
  const std::vector<fem::Vec3> u = solver_.velocity();
  const std::vector<double> p = solver_.pressure();
  if (outputs_) outputs_->snapshot(solver_.step(), solver_.time(), u, p);
}

void FemStepping::checkpoint() {
  const fem::FlowState state = solver_.state();
  if (outputs_) fem::write_checkpoint(ctx_.directory.file("checkpoint.bin"), mesh_, state);
}

// The wall pressure and traction (fem::wall_traction) at every node of each force patch, for the state
// the run ends with: the pressure distribution round a body, which the nodal pressure gives with a
// stabilisation excess at the wall (docs/fem.md, Forces).
void FemStepping::write_walls(double dt) {
  if (!outputs_ || forces_.patches.empty()) return;
  const std::vector<fem::Vec3> u = solver_.velocity();
  const std::vector<double> p = solver_.pressure();
  io::CsvWriter walls(ctx_.directory.file("walls.csv"), {"patch", "node", "x", "y", "z", "nx", "ny", "nz", "p_wall",
                                                         "tx", "ty", "tz", "time"});
  for (std::size_t k = 0; k < forces_.patches.size(); ++k) {
    const std::uint32_t patch = fem::find_patch(mesh_, forces_.patches[k], "forces.patches");
    const fem::WallTraction w = fem::wall_traction(mesh_, data_, parameters_.momentum, u, p, dt, patch);
    for (std::size_t i = 0; i < w.nodes.size(); ++i) {
      const fem::Point& x = mesh_.nodes[w.nodes[i]];
      walls.add_row({static_cast<double>(k), static_cast<double>(w.nodes[i]), x[0], x[1], x[2], w.normal[i][0],
                     w.normal[i][1], w.normal[i][2], w.pressure[i], w.traction[i][0], w.traction[i][1],
                     w.traction[i][2], solver_.time()});
    }
  }
  walls.close();
}

FemRunSummary FemStepping::run() {
  const core::WallTimer total;
  const double start = solver_.time();
  const double span = schedule_.end - start;
  display::Progress progress(progress_ticks, "incompressible", ctx_.verbosity);
  progress.count("‰");
  const auto timed = [this](auto&& write) {
    const core::WallTimer timer;
    write();
    summary_.output_seconds += timer.seconds();
  };
  timed([this] { snapshot(); });
  double kinetic = solver_.diagnostics().kinetic_energy;
  try {
    bool interrupted = io::interrupted();
    while (solver_.time() < schedule_.end && !interrupted) {
      fem::StepReport r;
      interrupted = ctx_.ranks.together([&] { r = solver_.advance(next_dt()); }).interrupted;
      ++summary_.steps;
      summary_.cg_iterations += r.cg.iterations;
      summary_.last = r;
      const fem::FlowDiagnostics& d = r.diagnostics;
      if (log_)
        log_->add_row({static_cast<double>(r.step), r.time, r.dt, r.courant, static_cast<double>(r.cg.iterations),
                       r.cg.residual, d.divergence, d.kinetic_energy, d.max_speed});
      const bool at_interval =
          schedule_.interval > 0 &&
          std::abs(r.time / schedule_.interval - std::round(r.time / schedule_.interval)) < time_slack;
      timed([&] {
        if (r.step % schedule_.sample_every == 0) sample(r);
        if (r.step % schedule_.every == 0 || at_interval) snapshot();
        if (schedule_.checkpoint_every > 0 && r.step % schedule_.checkpoint_every == 0) checkpoint();
      });
      progress.update(static_cast<long>(std::floor(progress_ticks * (r.time - start) / span)));
      const double change = std::abs(d.kinetic_energy - kinetic) / (r.dt * std::max(d.kinetic_energy, 1e-300));
      kinetic = d.kinetic_energy;
      if (schedule_.steady_tolerance > 0 && summary_.steps >= 10 && change < schedule_.steady_tolerance) {
        summary_.steady = true;
        progress.note("steady at t = " + core::number_text(r.time, 6) + ": the kinetic energy changes by " +
                      core::number_text(change, 3) + " of itself per unit time");
        break;
      }
    }
  } catch (const fem::FlowError&) {
    progress.finish();
    if (outputs_) outputs_->finish();
    throw;
  }
  timed([&] {
    if (last_snapshot_ != solver_.step()) snapshot();
    if (summary_.last.step == solver_.step() && summary_.last.step % schedule_.sample_every != 0) sample(summary_.last);
    checkpoint();
    if (summary_.steps > 0) write_walls(summary_.last.dt);
    if (outputs_) outputs_->finish();
  });
  progress.finish();
  if (log_) log_->close();
  if (force_log_) force_log_->close();
  summary_.seconds = total.seconds();
  return summary_;
}

}  // namespace hetflow::app
