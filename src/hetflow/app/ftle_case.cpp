#include "hetflow/app/ftle_case.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <optional>

#include "hetflow/app/ftle_case_setup.hpp"
#include "hetflow/app/step_chunks.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/core/event.hpp"
#include "hetflow/io/hdf5_xdmf.hpp"
#include "hetflow/io/interrupt.hpp"
#include "hetflow/io/preview.hpp"
#include "hetflow/io/progress.hpp"
#include "hetflow/io/vtk_writer.hpp"

namespace hetflow::app {
namespace {

std::string number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", v);
  return text;
}

[[noreturn]] void rethrow_tracer_error(const ftle::TracerError& e, const ftle::Solver& solver) {
  throw core::Error(std::string("ftle: non-finite tracer: ") + e.what() + " (step " + std::to_string(e.step()) +
                    " of " + std::to_string(solver.config().steps) + ", dt = " + number(solver.dt()) +
                    "): the velocity or the time step is too large for the tracers to stay finite; no field was written");
}

struct FieldStats {
  double mean = 0, min = 0, max = 0, interior_mean = 0;
};

// Statistics of the field; a non-finite value (a degenerate flow-map gradient) stops the run with its seed.
FieldStats statistics(const std::vector<double>& f, const ftle::SeedGrid& seeds) {
  FieldStats s{0, f.front(), f.front(), 0};
  double interior = 0;
  std::size_t inner = 0;
  const auto& n = seeds.counts;
  for (std::size_t i = 0; i < f.size(); ++i) {
    const std::size_t x = i % n[0], y = i / n[0] % n[1], z = i / (n[0] * n[1]);
    if (!std::isfinite(f[i])) {
      throw core::Error("ftle: the FTLE of seed " + std::to_string(i) + " (grid index (" + std::to_string(x) + ", " +
                        std::to_string(y) + (seeds.dimension == 3 ? ", " + std::to_string(z) : "") +
                        ")) is " + number(f[i]) + ": the flow map's gradient there is degenerate");
    }
    s.mean += f[i];
    s.min = std::min(s.min, f[i]);
    s.max = std::max(s.max, f[i]);
    const auto inside = [](std::size_t k, std::size_t count) { return k > 0 && k + 1 < count; };
    if (inside(x, n[0]) && inside(y, n[1]) && (seeds.dimension == 2 || inside(z, n[2]))) {
      interior += f[i];
      ++inner;
    }
  }
  s.mean /= static_cast<double>(f.size());
  s.interior_mean = inner ? interior / static_cast<double>(inner) : s.mean;
  return s;
}

void write_png(RunDirectory& dir, const io::Case& c, const std::vector<double>& field, const ftle::SeedGrid& seeds,
               const ftle::Config& config, long steps) {
  const std::size_t nx = seeds.counts[0], ny = seeds.counts[1];
  // 3D: the middle z-plane.
  const std::size_t z = seeds.dimension == 3 ? seeds.counts[2] / 2 : 0;
  const std::span<const double> slice = std::span<const double>(field).subspan(z * nx * ny, nx * ny);
  io::PreviewOptions look;
  look.colormap = c.get<std::string>("output.colormap");
  const auto range = c.get<std::vector<double>>("output.range");
  if (range.size() == 2) {
    look.min = range[0];
    look.max = range[1];
  }
  look.extent = {seeds.origin[0], seeds.position(0, nx - 1), seeds.origin[1], seeds.position(1, ny - 1)};
  const double elapsed = static_cast<double>(steps) * config.duration / static_cast<double>(config.steps);
  look.title = std::string(config.duration > 0 ? "forward" : "backward") + " FTLE  t0 = " + number(config.t0) +
               "  T = " + number(elapsed) +
               (seeds.dimension == 3 ? "  z = " + number(seeds.position(2, z)) : std::string());
  look.value_label = "FTLE (1/time)";
  const double width = std::abs(seeds.position(0, nx - 1) - seeds.origin[0]);
  const double height = std::abs(seeds.position(1, ny - 1) - seeds.origin[1]);
  const double aspect = width > 0 ? height / width : 1.0;
  const int pixels_y = static_cast<int>(std::clamp(200.0 + 600.0 * aspect, 440.0, 760.0));
  io::write_preview_png(dir.file("ftle.png"), io::PreviewField{slice, nx, ny}, 900, pixels_y, look);
  dir.add_output("ftle.png", seeds.dimension == 3 ? "the FTLE field's middle z-plane with a colour bar"
                                                  : "the FTLE field with a colour bar");
}

}  // namespace

io::Schema FtleCase::schema() const {
  io::Schema s("ftle", "finite-time Lyapunov exponents of an analytic or gridded flow on a seed grid");
  declare_ftle_keys(s);
  return s;
}

void FtleCase::check(const io::Case& c) const {
  std::vector<std::string> problems;
  check_ftle_case(c, problems);
  // In file order, as the schema's own problems are; overrides and defaults (no line) go last.
  const auto line = [&](const std::string& p) {
    const std::string prefix = c.source() + ":";
    if (p.rfind(prefix, 0) != 0) return std::numeric_limits<long>::max();
    return std::strtol(p.c_str() + prefix.size(), nullptr, 10);
  };
  std::stable_sort(problems.begin(), problems.end(),
                   [&](const std::string& a, const std::string& b) { return line(a) < line(b); });
  if (!problems.empty()) throw io::CaseError(std::move(problems));
}

RunOutcome FtleCase::run(const io::Case& c, RunContext& ctx) const {
  const core::WallTimer total;
  RunDirectory& dir = ctx.directory;
  const FtleSetup setup = make_ftle_setup(c);
  dir.manifest()["flow"] = setup.info;
  // What the run holds, known before anything is allocated: a gridded series over ftle.velocity.budget
  // is streamed (docs/ftle.md, "Streamed snapshots").
  const auto* analytic = std::get_if<ftle::AnalyticFlow>(&setup.flow);
  const ftle::MemoryPlan memory =
      analytic ? ftle::Solver::memory_plan(ctx.devices, *analytic, setup.seeds, setup.config)
               : ftle::Solver::memory_plan(ctx.devices, *std::get<std::shared_ptr<const ftle::VelocityGrid>>(setup.flow),
                                           setup.seeds, setup.config);
  dir.manifest()["memory"] = {{"velocity", memory.streamed ? "streamed" : "resident"},
                              {"snapshot_slots", memory.slots},
                              {"device_bytes", memory.device_bytes},
                              {"pinned_host_bytes", memory.pinned_bytes}};
  std::optional<ftle::Solver> solver;
  if (analytic) {
    solver.emplace(ctx.devices, *analytic, setup.seeds, setup.config);
  } else {
    solver.emplace(ctx.devices, *std::get<std::shared_ptr<const ftle::VelocityGrid>>(setup.flow), setup.seeds,
                   setup.config);
  }

  const long steps = setup.config.steps;
  io::Progress progress(steps, "ftle", ctx.verbosity);
  if (memory.streamed) {
    progress.note("velocity streamed through " + std::to_string(memory.slots) + " snapshot slots per device: " +
                  number(static_cast<double>(memory.device_bytes) / (1 << 20)) + " MiB of device memory, " +
                  number(static_cast<double>(memory.pinned_bytes) / (1 << 20)) + " MiB pinned host memory");
  }
  long done = 0;
  StepChunks chunk(4);
  double stepping = 0.0, device_seconds = 0.0;
  // At least one chunk, interrupted or not: an FTLE needs a non-zero integration time.
  while (done < steps && (done == 0 || !io::interrupted())) {
    const long n = std::min(chunk.steps(), steps - done);
    const core::WallTimer timer;
    const core::Event event = solver->advance(n);
    solver->finish();
    device_seconds += event.seconds();
    const double t = timer.seconds();
    stepping += t;
    chunk.adapt(t);
    done += n;
    progress.update(done);
  }
  progress.finish();

  const core::WallTimer output_timer;
  std::vector<double> field, flow_map;
  const bool want_flow_map = c.get<bool>("output.flow_map");
  try {
    field = solver->ftle();
    if (want_flow_map) flow_map = solver->flow_map();
  } catch (const ftle::TracerError& e) {
    rethrow_tracer_error(e, *solver);
  }
  const FieldStats stats = statistics(field, setup.seeds);

  const ftle::SeedGrid& seeds = setup.seeds;
  const io::ImageGrid image{seeds.counts, seeds.origin, seeds.spacing};
  // fp32 runs write Float32, fp64 runs Float64 (the field is computed in double either way).
  const bool fp32 = setup.config.precision == core::Precision::f32;
  const std::vector<float> field32 = fp32 ? std::vector<float>(field.begin(), field.end()) : std::vector<float>{};
  std::vector<double> positions;  // 3 components per seed, z = 0 in 2D, as ParaView's vectors expect
  if (want_flow_map) {
    const auto dim = static_cast<std::size_t>(seeds.dimension);
    positions.assign(3 * seeds.size(), 0.0);
    for (std::size_t i = 0; i < seeds.size(); ++i) {
      for (std::size_t d = 0; d < dim; ++d) positions[3 * i + d] = flow_map[dim * i + d];
    }
  }
  const std::vector<float> positions32 =
      fp32 ? std::vector<float>(positions.begin(), positions.end()) : std::vector<float>{};
  std::vector<io::Field> arrays;
  if (fp32) arrays.emplace_back("ftle", field32);
  else arrays.emplace_back("ftle", field);
  if (want_flow_map) {
    if (fp32) arrays.emplace_back("flow_map", positions32, 3);
    else arrays.emplace_back("flow_map", positions, 3);
  }
  const std::string what = want_flow_map ? "FTLE and the final tracer positions flow_map on the seed grid"
                                         : "FTLE on the seed grid";
  if (c.get<bool>("output.vti")) {
    io::write_vti(dir.file("ftle.vti"), image, arrays);
    dir.add_output("ftle.vti", what + (seeds.dimension == 2 ? " (one point thick along z)" : ""));
    progress.note("wrote " + dir.file("ftle.vti").string());
  }
  if (c.get<bool>("output.hdf5")) {
    io::write_hdf5_xdmf(dir.file("ftle"), image, arrays);
    dir.add_output("ftle.xmf", what + " (HDF5 + XDMF)");
  }
  if (c.get<bool>("output.png")) {
    write_png(dir, c, field, seeds, setup.config, done);
    progress.note("wrote " + dir.file("ftle.png").string());
  }

  nlohmann::json seeds_json = {{"counts", std::vector<std::size_t>(seeds.counts.begin(), seeds.counts.begin() + seeds.dimension)},
                               {"origin", std::vector<double>(seeds.origin.begin(), seeds.origin.begin() + seeds.dimension)},
                               {"spacing", std::vector<double>(seeds.spacing.begin(), seeds.spacing.begin() + seeds.dimension)},
                               {"total", seeds.size()}};
  dir.manifest()["result"] = {
      {"mean_ftle", stats.mean},
      {"min_ftle", stats.min},
      {"max_ftle", stats.max},
      {"interior_mean_ftle", stats.interior_mean},
      {"seeds", seeds_json},
      {"steps", done},
      {"dt", solver->dt()},
      {"integration_time", static_cast<double>(done) * solver->dt()},
      {"stopped_tracers", solver->stopped_tracers()},
      {"device_seconds", device_seconds},
      {"device_seconds_note", "advection kernels' OpenCL profiling time (last device), output excluded"}};
  dir.add_timing("stepping", stepping);
  dir.add_timing("output", output_timer.seconds());
  dir.add_timing("total", total.seconds());
  if (ctx.verbosity != io::Verbosity::quiet) {
    std::fprintf(stderr, "ftle: %zu seeds, %ld steps of dt = %s: mean FTLE %.4f (min %.4f, max %.4f)\n",
                 seeds.size(), done, number(solver->dt()).c_str(), stats.mean, stats.min, stats.max);
  }
  return done < steps ? RunOutcome::interrupted : RunOutcome::complete;
}

}  // namespace hetflow::app
