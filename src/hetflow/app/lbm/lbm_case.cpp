#include "hetflow/app/lbm/lbm_case.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

#include "hetflow/app/lbm/lbm_case_geometry.hpp"
#include "hetflow/app/lbm/lbm_case_multiphase.hpp"
#include "hetflow/app/lbm/lbm_case_outputs.hpp"
#include "hetflow/app/lbm/lbm_insitu_ftle.hpp"
#include "hetflow/app/lbm/lbm_tunable.hpp"
#include "hetflow/app/step_chunks.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/core/event.hpp"
#include "hetflow/core/number_text.hpp"
#include "hetflow/io/interrupt.hpp"
#include "hetflow/display/progress.hpp"
#include "hetflow/lbm/geometry.hpp"
#include "hetflow/lbm/memory_plan.hpp"
#include "hetflow/lbm/solver.hpp"

namespace hetflow::app {
namespace {

// Above this lattice speed (Mach ~0.5, the lattice sound speed being 1/sqrt(3)) the BGK scheme's
// compressibility error is large and the run is close to blowing up: stop with a diagnosis instead
// of handing the user numbers that mean nothing.
constexpr double max_lattice_speed = 0.3;

// The least memory of the devices: the even split of the lattice has to fit it.
std::size_t smallest_memory(const core::DeviceSet& devices) {
  std::size_t least = devices.device(0).info.global_mem;
  for (std::size_t k = 1; k < devices.size(); ++k) least = std::min<std::size_t>(least, devices.device(k).info.global_mem);
  return least;
}

// The Solver refuses a lattice that does not fit, but only once the mask exists; a generated mask of a
// lattice far too large would exhaust the host first. The lattice is split evenly over the devices of
// every rank (taken to have as many as this one).
void check_fits(const std::array<std::size_t, 3>& dims, const lbm::Config& config, const core::DeviceSet& devices,
                std::size_t ranks) {
  std::array<int, 3> lattice{};
  for (std::size_t d = 0; d < 3; ++d) {
    if (dims[d] > std::size_t{1} << 30) throw core::Error("lattice dimension " + std::to_string(dims[d]) + " is above 2^30");
    lattice[d] = static_cast<int>(dims[d]);
  }
  const double needed = static_cast<double>(lbm::Solver::required_bytes(lattice, config)) / static_cast<double>(devices.size() * ranks);
  for (std::size_t k = 0; k < devices.size(); ++k) {
    const core::Device& device = devices.device(k);
    if (needed <= static_cast<double>(device.info.global_mem)) continue;
    throw core::Error("the lattice " + lbm::dims_text(dims) + " needs " + lbm::mib(needed) + " of device memory on " +
                      device.label() + ", which has " + lbm::mib(static_cast<double>(device.info.global_mem)) + " (" +
                      lbm::memory_advice(dims, config, smallest_memory(devices), devices.size() * ranks) + ")");
  }
}

std::string fixed(double v, int digits) {
  char text[32];
  std::snprintf(text, sizeof text, "%.*f", digits, v);
  return text;
}

std::string cell_text(const std::array<std::size_t, 3>& p) {
  return "(" + std::to_string(p[0]) + ", " + std::to_string(p[1]) + ", " + std::to_string(p[2]) + ")";
}

// Builds the solver on every rank and sets up its phases. A device grid that does not fit the lattice
// is reported at lbm.device_grid, a lattice the devices cannot hold with a hint.
void start_solver(const casefile::Case& c, RunContext& ctx, const LbmGeometry& geometry, const lbm::Config& config,
                  std::optional<lbm::Solver>& solver) {
  ctx.ranks.together([&] {
    try {
      solver.emplace(ctx.devices, geometry.mask, config, ctx.ranks.link());
    } catch (const core::Error& e) {
      const std::string what = e.what();
      if (what.find("device grid") != std::string::npos || what.find("cannot be split") != std::string::npos) {
        const auto grid = c.get<std::vector<int>>("lbm.device_grid");
        throw core::Error(c.where("lbm.device_grid") + ": lbm.device_grid = [" + std::to_string(grid[0]) + ", " +
                          std::to_string(grid[1]) + ", " + std::to_string(grid[2]) + "]: " + what);
      }
      if (what.find("needs") == std::string::npos) throw;
      throw core::Error(what + " (" +
                        lbm::memory_advice(geometry.mask.dims(), config, smallest_memory(ctx.devices),
                                           ctx.devices.size() * ctx.ranks.size()) +
                        ")");
    }
    initialise_multiphase(c, geometry.mask, *solver);
  });
}

// What the output section asks the outputs to write and show.
LbmOutputs::Options output_options(const casefile::Case& c, const lbm::Config& config,
                                   const std::array<double, 3>& drive, std::optional<int> axis, double nu) {
  LbmOutputs::Options options;
  options.vti = c.get<bool>("output.vti");
  options.png = c.get<bool>("output.png");
  options.hdf5 = c.get<bool>("output.hdf5");
  const std::string slice = c.get<std::string>("output.slice_axis");
  options.slice_axis = slice == "x" ? 0 : slice == "y" ? 1 : 2;
  options.flow_axis = axis;
  options.force = axis ? drive[static_cast<std::size_t>(*axis)] : 0.0;
  options.viscosity = nu;
  options.double_fields = config.storage == lbm::Storage::fp64;
  const std::string shown = c.get<std::string>("output.slice_field");
  options.slice_density = shown == "density" || (shown == "auto" && c.get<std::string>("lbm.model") != "single");
  return options;
}

// Re = U D / nu for an obstacle in a channel, with U the mean velocity through the open channel
// cross-section: the superficial mean over all nodes scaled by the walls' share of each plane.
struct Reynolds {
  const LbmGeometry& geometry;
  std::optional<int> axis;
  double nu;

  bool known() const { return geometry.diameter && axis && *axis != 1; }
  double operator()(const LbmDiagnostics& d) const {
    const auto dims = geometry.mask.dims();
    const double open = static_cast<double>(dims[1]) / static_cast<double>(dims[1] - 2);
    return d.mean_u[static_cast<std::size_t>(*axis)] * open * *geometry.diameter / nu;
  }
};

// The run's result for the terminal: the Reynolds number of flow past an obstacle; the permeability of
// other flow driven along one axis, with its Reynolds number Re_k = U sqrt(k) / nu (U the superficial
// velocity, sqrt(k) the pore scale: defined for any geometry, packings and voxel files included); the
// phases' densities of a multiphase run; and the mass drift of every run.
std::string lbm_headline(const casefile::Case& c, const LbmDiagnostics& d, const Reynolds& reynolds,
                         std::optional<double> permeability, double mass_drift) {
  using core::number_text;
  std::string text = "lbm: ";
  if (reynolds.known()) {
    text += "Re = " + number_text(reynolds(d), 4) + " (U the mean velocity through the open channel, D = " +
            number_text(*reynolds.geometry.diameter, 4) + " cells, nu = " + number_text(reynolds.nu, 4) + "), ";
  } else if (permeability) {
    const double u = d.mean_u[static_cast<std::size_t>(*reynolds.axis)];
    text += "permeability k = " + number_text(*permeability, 4) + " cells^2 along " + "xyz"[*reynolds.axis] +
            ", Re_k = U sqrt(k) / nu = " + number_text(u * std::sqrt(std::abs(*permeability)) / reynolds.nu, 4) +
            " (U the superficial velocity), ";
  }
  const std::string model = c.get<std::string>("lbm.model");
  if (model == "shan_chen") {
    text += "density from " + number_text(d.rho_range[0], 4) + " (vapour) to " + number_text(d.rho_range[1], 4) +
            " (liquid), ";
  } else if (model == "two_component") {
    text += "component a's density from " + number_text(d.rho_a_range[0], 4) + " to " +
            number_text(d.rho_a_range[1], 4) + ", ";
  } else if (!reynolds.known() && !permeability) {
    text += "max |u| = " + number_text(d.max_speed, 4) + ", ";
  }
  return text + "mass drift " + number_text(mass_drift, 2);
}

// The stepping of a run, with the outputs every output.every steps and after the last step. Output is
// collective: rank 0 alone writes (`outputs` is null on the others), every rank takes part in
// solver.fields(), and rank 0's checks of the fields fail every rank there, not in a later halo exchange.
class LbmStepping {
 public:
  LbmStepping(RunContext& ctx, lbm::Solver& solver, LbmOutputs* outputs, const LbmGeometry& geometry,
              const Reynolds& reynolds, display::Progress& progress, LbmInsituFtle* insitu)
      : ctx_(ctx),
        solver_(solver),
        outputs_(outputs),
        geometry_(geometry),
        reynolds_(reynolds),
        progress_(progress),
        insitu_(insitu) {}

  // Steps to `steps` (or an interruption), writing outputs on the way; returns the steps done. The ranks
  // agree after each chunk, so they take the same chunks (sized by the slowest) and stop after the same one.
  // In-situ FTLE takes its snapshots at the ends of chunks that stop on its steps.
  long run(long steps, long every) {
    if (insitu_) insitu_->take();
    output(0);
    long done = 0;
    StepChunks chunk(8);
    bool interrupted = io::interrupted();
    const long snapshot_every = insitu_ ? insitu_->settings().every : steps;
    while (done < steps && !interrupted) {
      const long next = std::min({steps, (done / every + 1) * every, (done / snapshot_every + 1) * snapshot_every});
      const long n = std::min(chunk.steps(), next - done);
      const Ranks::Agreed agreed = ctx_.ranks.together([&] {
        solver_.advance(n);
        solver_.finish();
      });
      interrupted = agreed.interrupted;
      stepping_seconds += agreed.seconds;
      chunk.adapt(agreed.seconds, n);
      done += n;
      progress_.update(done);
      if (insitu_ && done % snapshot_every == 0) insitu_->take();
      if (done % every == 0 && done < steps) output(done);
    }
    if (last_output_ != done) output(done);
    progress_.finish();
    return done;
  }

  double mass0 = 0.0, output_seconds = 0.0, stepping_seconds = 0.0;
  LbmDiagnostics last;
  nlohmann::json ftle_frames = nlohmann::json::array();

 private:
  void output(long step) {
    const core::WallTimer timer;
    last_output_ = step;
    ctx_.ranks.together([&] {
      const lbm::Fields fields = solver_.fields();
      if (!outputs_) return;
      last = diagnose(fields, step);
      if (step == 0) mass0 = last.mass;
      outputs_->write(step, fields, last, mass0, title_extra(last));
      // An FTLE frame once the window is full, at the steps whose snapshot the ring holds newest.
      if (insitu_ && insitu_->ready() && step % insitu_->settings().every == 0) {
        ftle_frames.push_back(write_insitu_ftle(ctx_.directory, *insitu_, step, insitu_->field(),
                                                solver_.config().storage == lbm::Storage::fp64));
      }
      progress_.note("step " + std::to_string(step) + " written");
      output_seconds += timer.seconds();
      if (last.max_speed > max_lattice_speed) {
        throw core::Error("lbm: max |u| = " + fixed(last.max_speed, 3) + " at step " + std::to_string(step) +
                          ", cell " + cell_text(last.max_cell) + " exceeds " + fixed(max_lattice_speed, 1) +
                          " (lattice Mach ~0.5): the compressibility error is large there and the run is near "
                          "instability; use a smaller lbm.force or a larger lbm.tau. Outputs up to this step are "
                          "kept");
      }
    });
  }

  std::string title_extra(const LbmDiagnostics& d) const {
    if (reynolds_.known()) return "Re = " + fixed(reynolds_(d), 1);
    if (geometry_.kind == "packing" || geometry_.kind == "file") {
      if (const auto k = outputs_->permeability(d)) return "k = " + fixed(*k, 4);
    }
    return {};
  }

  RunContext& ctx_;
  lbm::Solver& solver_;
  LbmOutputs* outputs_;
  const LbmGeometry& geometry_;
  const Reynolds& reynolds_;
  display::Progress& progress_;
  LbmInsituFtle* insitu_;
  long last_output_ = -1;
};

}  // namespace

lbm::Config lbm_solver_config(const casefile::Case& c) {
  lbm::Config config;
  config.tau = c.get<double>("lbm.tau");
  config.collision = lbm::parse_collision(c.get<std::string>("lbm.collision"));
  config.magic = c.get<double>("lbm.magic");
  config.pressure_drop = c.get<double>("lbm.pressure_drop");
  const auto force = c.get<std::vector<double>>("lbm.force");
  std::copy(force.begin(), force.end(), config.force.begin());
  config.pattern = lbm::parse_pattern(c.get<std::string>("lbm.pattern"));
  config.storage = lbm::parse_storage(c.get<std::string>("lbm.storage"));
  config.work_group = c.get<std::size_t>("lbm.work_group");
  config.work_group_y = c.get<std::size_t>("lbm.work_group_y");
  config.max_registers = c.get<unsigned>("lbm.max_registers");
  const auto grid = c.get<std::vector<int>>("lbm.device_grid");
  std::copy(grid.begin(), grid.end(), config.device_grid.begin());
  config.boxes_per_device = c.get<std::size_t>("lbm.boxes_per_device");
  config.exact_arithmetic = c.get<bool>("lbm.exact_arithmetic");
  configure_multiphase(c, config);
  return config;
}

std::array<double, 3> driving_force(const lbm::Config& config, const std::array<int, 3>& dims) {
  std::array<double, 3> drive = config.force;
  drive[2] += config.pressure_drop / dims[2];
  return drive;
}

std::optional<int> flow_axis(const std::array<double, 3>& force) {
  std::optional<int> axis;
  for (int a = 0; a < 3; ++a) {
    if (force[static_cast<std::size_t>(a)] == 0.0) continue;
    if (axis) return std::nullopt;
    axis = a;
  }
  return axis;
}

casefile::Schema LbmCase::schema() const {
  casefile::Schema s("lbm", "D3Q19 lattice-Boltzmann flow through a voxel geometry, driven by a body force or a "
                                 "pressure drop");
  auto& l = s.section("lbm", "the solver; lattice units throughout (cell = 1, time step = 1)");
  l.key<double>("tau", 0.8, "relaxation time (TRT: of the even part); viscosity nu = (tau - 1/2) / 3").above(0.5);
  l.key<std::string>("collision", "bgk", "bgk: one relaxation time; trt: two, the odd part's set by lbm.magic; "
                                         "mrt: one per moment (most stable near tau = 1/2)")
      .one_of({"bgk", "trt", "mrt"});
  l.key<double>("magic", 3.0 / 16, "TRT's (tau - 1/2)(tau_odd - 1/2): 3/16 puts bounce-back walls exactly "
                                   "half-way, 1/4 is the most stable")
      .above(0.0);
  l.key<std::vector<double>>("force", std::vector<double>{0, 0, 0}, "body force per node [fx, fy, fz]")
      .length(3)
      .unit("lattice units");
  l.key<double>("pressure_drop", 0.0, "pressure drop over one period along z: drives as a body force density "
                                      "pressure_drop / nz along z (not with inlets or outlets)")
      .unit("lattice units");
  l.key<std::string>("pattern", "aa", "memory access pattern; all give identical fields")
      .one_of({"aa", "ab", "lagrangian"});
  l.key<std::string>("storage", "fp32", "population storage; fp16 computes in fp32, fp64 in double")
      .one_of({"fp32", "fp16", "fp64"});
  l.key<long>("steps", 1000, "time steps to run").at_least(1).unit("steps");
  l.key<std::vector<double>>("initial_velocity", std::vector<double>{0, 0, 0}, "velocity of the initial equilibrium")
      .length(3)
      .unit("lattice units");
  l.key<int>("work_group", 0, "work-items per group along x; 0: tuned (hetflow tune lbm) or 64").at_least(0);
  l.key<int>("work_group_y", 0, "work-items per group along y; 0: tuned or 1").at_least(0);
  l.key<int>("max_registers", 0, "registers per work-item on NVIDIA GPUs (-cl-nv-maxrregcount); 0: tuned or the "
                                  "compiler's choice; other devices ignore it")
      .at_least(0)
      .at_most(255);
  l.key<std::vector<int>>("device_grid", std::vector<int>{0, 0, 0},
                          "boxes along [x, y, z], one per device of every process; [0, 0, 0]: z-slabs")
      .length(3)
      .at_least(0);
  l.key<int>("boxes_per_device", 0, "boxes each device's box is cut into along z, each with its own buffers (the "
                                    "same bits); 0: the fewest whose buffers fit the device's largest allocation")
      .at_least(0)
      .at_most(4096);
  l.key<bool>("exact_arithmetic", false, "no fused multiply-adds, correctly rounded division: the same bits on "
                                         "every device kind (a few percent slower; always on for mixed platforms)");

  auto& g = s.section("geometry", "the voxel mask; directions without walls are periodic");
  g.key<std::string>("kind", "box: no walls, periodic; duct: walls around x and y; channel: walls at y = 0, ny-1; "
                             "cylinder / sphere: a channel with an obstacle; packing: periodic random spheres; "
                             "file: a voxel file")
      .one_of({"box", "duct", "channel", "cylinder", "sphere", "packing", "file"});
  g.key<std::vector<int>>("size", std::vector<int>{}, "lattice [nx, ny, nz]; with kind file: the file's size, or "
                                                     "left out")
      .required_unless("geometry.kind is file")
      .at_least(1)
      .unit("cells");
  g.key<double>("radius", 0.0, "cylinder or sphere radius; 0: ny / 8").at_least(0).unit("cells");
  g.key<std::vector<double>>("centre", std::vector<double>{}, "cylinder axis or sphere centre [x, y, z]; "
                                                              "empty: the middle of the domain")
      .unit("cells");
  g.key<double>("porosity", 0.4, "packing: target pore fraction").range(0, 1, casefile::Bounds::exclusive);
  g.key<double>("min_radius", 4.0, "packing: smallest sphere radius").above(0).unit("cells");
  g.key<double>("max_radius", 4.0, "packing: largest sphere radius").above(0).unit("cells");
  g.key<int>("seed", 1, "packing: random seed; one seed gives one mask on every platform").at_least(0);
  g.key<std::string>("file", "", "kind file: a .vti or a raw voxel file's .yaml header").path();

  declare_multiphase(s);

  auto& o = s.section("output");
  o.key<int>("every", 100, "output interval").at_least(1).unit("steps");
  auto& f = s.section("ftle", "FTLE of the run's own flow, computed in situ on the device (docs/lbm.md)");
  f.key<long>("every", 0, "lattice steps between the velocity snapshots the FTLE takes; 0: no FTLE")
      .at_least(0)
      .unit("steps");
  f.key<long>("window", 11, "snapshots per FTLE field: T = (window - 1) every").at_least(2).at_most(100000);
  f.key<std::string>("direction", "backward", "backward from the newest snapshot (attracting structures at the "
                                              "output step) or forward from the oldest (repelling, at step - T)")
      .one_of({"backward", "forward"});
  f.key<long>("steps_per_snapshot", 4, "RK4 steps per snapshot interval").at_least(1).at_most(10000);
  o.key<std::string>("slice_axis", "z", "the PNG shows the middle plane normal to this axis").one_of({"x", "y", "z"});
  o.key<std::string>("slice_field", "auto", "what the PNG shows: speed |u|, or density (component a's with two "
                                            "components); auto: density for multiphase models, else speed")
      .one_of({"auto", "speed", "density"});
  return s;
}

void LbmCase::check(const casefile::Case& c) const {
  std::vector<std::string> problems;
  check_lbm_geometry(c, problems);
  check_multiphase(c, problems);
  // In-situ FTLE frames come at output steps, whose snapshot the ring must hold newest.
  const long snapshots = c.get<long>("ftle.every"), outputs = c.get<long>("output.every");
  if (snapshots > 0 && outputs % snapshots != 0) {
    problems.push_back(c.where("ftle.every") + ": ftle.every = " + std::to_string(snapshots) +
                       " does not divide output.every = " + std::to_string(outputs) +
                       ": the FTLE fields come at output steps, which need a snapshot each");
  }
  if (!problems.empty()) throw casefile::CaseError(std::move(problems));
}

std::optional<ChoiceKey> LbmCase::device_choice(const casefile::Case& c) const {
  return lbm_devices_key(lbm_solver_config(c));
}

RunOutcome LbmCase::run(const casefile::Case& c, RunContext& ctx) const {
  const core::WallTimer total;
  RunDirectory& dir = ctx.directory;
  lbm::Config config = with_lbm_tuning(lbm_solver_config(c), c, ctx.devices, ctx.ranks.size(), dir.manifest()["tuning"]);
  config.device_weights = ctx.device_weights;
  const long steps = c.get<long>("lbm.steps");
  const long every = c.get<long>("output.every");
  // Every rank makes the whole mask (a file can be missing on one host only) and builds its share.
  const LbmGeometry geometry = ctx.ranks.make_together([&] {
    if (const auto dims = planned_lbm_dims(c)) check_fits(*dims, config, ctx.devices, ctx.ranks.size());
    return make_lbm_geometry(c);
  });
  dir.manifest()["geometry"] = geometry.info;
  std::optional<lbm::Solver> solver;
  start_solver(c, ctx, geometry, config, solver);

  const double nu = solver->viscosity();
  const std::array<double, 3> drive = driving_force(config, solver->dims());
  const std::optional<int> axis = flow_axis(drive);
  const LbmOutputs::Options options = output_options(c, config, drive, axis, nu);
  // Rank 0 alone writes; the others only take part in solver->fields().
  std::optional<LbmOutputs> outputs;
  if (ctx.ranks.root()) {
    outputs.emplace(dir, geometry.mask, options);
    outputs->write_geometry();
  }
  const Reynolds reynolds{geometry, axis, nu};

  std::optional<LbmInsituFtle> insitu;
  if (const LbmInsituFtle::Settings s = LbmInsituFtle::settings(c); s.every > 0) {
    try {
      insitu.emplace(s, ctx.devices, *solver, geometry.mask);
    } catch (const core::Error& e) {
      throw core::Error(c.where("ftle.every") + ": ftle.every = " + std::to_string(s.every) + ": " + e.what());
    }
  }

  display::Progress progress(steps, "lbm", ctx.verbosity);
  LbmStepping stepping(ctx, *solver, outputs ? &*outputs : nullptr, geometry, reynolds, progress,
                       insitu ? &*insitu : nullptr);
  const long done = stepping.run(steps, every);
  if (insitu && ctx.ranks.root()) {
    dir.manifest()["ftle"] = {{"frames", stepping.ftle_frames},
                              {"integration_time", insitu->duration()},
                              {"snapshots_per_field", insitu->settings().window},
                              {"seeds", insitu->seeds().size()}};
    if (!stepping.ftle_frames.empty()) {
      dir.add_output("ftle_*.vti", "in-situ FTLE fields (1/lattice step) on the lattice's nodes, walls NaN");
      dir.add_output("ftle_*.png", "the in-situ FTLE fields with a colour bar, walls grey");
    }
  }
  const RunOutcome outcome = done < steps ? RunOutcome::interrupted : RunOutcome::complete;
  if (!outputs) return outcome;
  outputs->close();

  const LbmDiagnostics& last = stepping.last;
  const double mass0 = stepping.mass0;
  const double seconds = stepping.stepping_seconds;
  const double mlups = seconds > 0 ? static_cast<double>(solver->nodes()) * static_cast<double>(done) / seconds / 1e6 : 0.0;
  nlohmann::json& result = dir.manifest()["result"];
  result = {{"steps", done},
            {"mass_drift", (last.mass - mass0) / mass0},
            {"max_u", last.max_speed},
            {"mean_u", last.mean_u},
            {"viscosity", nu},
            {"porosity", geometry.mask.porosity()},
            {"boxes_per_device", solver->boxes_per_device()},
            {"mlups", mlups},
            {"mlups_note", "lattice nodes (solids included) x steps / host wall time of the stepping between the "
                           "first and last output, output time excluded"}};
  if (const auto k = outputs->permeability(last)) result["permeability"] = *k;
  if (reynolds.known()) result["reynolds"] = reynolds(last);
  print_headline(ctx, lbm_headline(c, last, reynolds, outputs->permeability(last), (last.mass - mass0) / mass0));
  dir.add_timing("stepping", seconds);
  dir.add_timing("output", stepping.output_seconds);
  dir.add_timing("total", total.seconds());
  return outcome;
}

}  // namespace hetflow::app
