#include "hetflow/app/ftle/ftle_case.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <optional>

#include "hetflow/app/ftle/ftle_boundary_report.hpp"
#include "hetflow/app/ftle/ftle_case_setup.hpp"
#include "hetflow/app/ftle/ftle_flow_map_error.hpp"
#include "hetflow/app/ftle/ftle_nan_seeds.hpp"
#include "hetflow/app/ftle/ftle_png.hpp"
#include "hetflow/app/ftle/ftle_ridges.hpp"
#include "hetflow/app/ftle/ftle_statistics.hpp"
#include "hetflow/app/ftle/ftle_tunable.hpp"
#include "hetflow/app/step_chunks.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/core/event.hpp"
#include "hetflow/core/number_text.hpp"
#include "hetflow/ftle/body.hpp"
#include "hetflow/io/hdf5_xdmf.hpp"
#include "hetflow/io/interrupt.hpp"
#include "hetflow/display/progress.hpp"
#include "hetflow/io/npy.hpp"
#include "hetflow/io/pvd.hpp"
#include "hetflow/io/vtk_writer.hpp"

namespace hetflow::app {
namespace {

std::string number(double v) { return core::number_text(v, 6); }

// `which` names the field when the run computes two (output.ridges); empty for the case's own field.
[[noreturn]] void rethrow_tracer_error(const ftle::TracerError& e, const ftle::Config& config,
                                       const std::string& which) {
  throw core::Error(
      std::string("ftle: non-finite tracer") + (which.empty() ? "" : " in the " + which) + ": " + e.what() + " (step " +
      std::to_string(e.step()) + " of " + std::to_string(config.steps) +
      ", dt = " + number(config.duration / static_cast<double>(config.steps)) +
      "): the velocity or the time step is too large for the tracers to stay finite; no field was written");
}

nlohmann::json seeds_json(const ftle::SeedGrid& seeds) {
  return {{"counts", std::vector<std::size_t>(seeds.counts.begin(), seeds.counts.begin() + seeds.dimension)},
          {"origin", std::vector<double>(seeds.origin.begin(), seeds.origin.begin() + seeds.dimension)},
          {"spacing", std::vector<double>(seeds.spacing.begin(), seeds.spacing.begin() + seeds.dimension)},
          {"total", seeds.size()}};
}

std::string frame_name(std::size_t k, const char* extension) {
  char text[32];
  std::snprintf(text, sizeof text, "ftle_%04zu%s", k, extension);
  return text;
}

std::string mib(std::size_t bytes) { return number(static_cast<double>(bytes) / (1 << 20)) + " MiB"; }

// sequence.count > 1: the fields at start times t0 + k interval through ftle::Sequence, written as
// ftle_NNNN.vti (+ ftle.pvd, time = start time) and ftle_NNNN.png frames with one colour range for all.
RunOutcome run_sequence(const casefile::Case& c, RunContext& ctx, const FtleSetup& setup, const core::WallTimer& total) {
  RunDirectory& dir = ctx.directory;
  const ftle::SeedGrid& seeds = setup.seeds;
  const ftle::Config& config = setup.config;
  const ftle::SequenceSpec& spec = setup.sequence;
  const bool flow_maps = spec.method == ftle::SequenceMethod::intermediate;
  const auto* analytic = std::get_if<ftle::AnalyticFlow>(&setup.flow);
  const ftle::VelocityGrid* grid =
      analytic ? nullptr : std::get<std::shared_ptr<const ftle::VelocityGrid>>(setup.flow).get();

  // What the sequence costs and needs, before anything is allocated.
  const ftle::SequenceCost cost = ftle::Sequence::cost(config, spec);
  const ftle::SequenceMemory need = analytic ? ftle::Sequence::memory(ctx.devices, *analytic, seeds, config, spec)
                                             : ftle::Sequence::memory(ctx.devices, *grid, seeds, config, spec);
  const ftle::MemoryPlan plan = analytic ? ftle::Solver::memory_plan(ctx.devices, *analytic, seeds, config)
                                         : ftle::Solver::memory_plan(ctx.devices, *grid, seeds, config);
  const long planned_steps = flow_maps ? cost.map_steps : cost.direct_steps;
  nlohmann::json seq = {{"count", spec.fields},
                        {"interval", spec.interval},
                        {"method", flow_maps ? "flow_maps" : "direct"},
                        {"direct_steps", cost.direct_steps},
                        {"planned_steps", planned_steps}};
  if (flow_maps) {
    seq["composition"] = ftle::to_string(spec.composition);
    seq["short_maps"] = cost.short_maps;
    seq["window"] = cost.short_maps - static_cast<long>(spec.fields) + 1;
    seq["map_steps"] = cost.map_steps;
    seq["compositions"] = cost.compositions;
    seq["step_saving"] = cost.step_saving();
  }
  dir.manifest()["memory"] = {{"velocity", plan.streamed ? "streamed" : "resident"},
                              {"snapshot_slots", plan.slots},
                              {"pinned_host_bytes", plan.pinned_bytes},
                              {"device_bytes", need.total()},
                              {"solver_bytes", need.solver_bytes},
                              {"map_bytes", need.map_bytes},
                              {"work_bytes", need.work_bytes}};
  dir.write_manifest("running");

  display::Progress progress(planned_steps, "ftle sequence", ctx.verbosity);
  progress.note("sequence of " + std::to_string(spec.fields) + " fields, start times " + number(config.t0) + " + k " +
                number(spec.interval) + ", method " + (flow_maps ? "flow_maps" : "direct") + ": " +
                (flow_maps ? std::to_string(cost.short_maps) + " short maps, " + std::to_string(cost.map_steps) +
                                 " steps + " + std::to_string(cost.compositions) + " compositions (direct: " +
                                 std::to_string(cost.direct_steps) + " steps, saving " + number(cost.step_saving()) +
                                 "x)"
                           : std::to_string(cost.direct_steps) + " steps"));
  progress.note("device memory needed: " + mib(need.total()) + " (solver " + mib(need.solver_bytes) +
                (flow_maps ? ", short maps " + mib(need.map_bytes) + ", composition " + mib(need.work_bytes) : "") +
                ")" + (plan.streamed ? ", velocity streamed, " + mib(plan.pinned_bytes) + " pinned host memory" : ""));

  std::optional<ftle::Sequence> sequence;
  if (analytic) sequence.emplace(ctx.devices, *analytic, seeds, config, spec);
  else sequence.emplace(ctx.devices, *grid, seeds, config, spec);
  const core::WallTimer timer;
  std::vector<std::vector<double>> fields;
  try {
    // At least one field, interrupted or not, so that a stopped run still writes a frame.
    fields = sequence->run([&](long steps, std::size_t done) {
      progress.update(steps);
      return done == 0 || !io::interrupted();
    });
  } catch (const ftle::TracerError& e) {
    throw core::Error(std::string("ftle: non-finite tracer in the sequence: ") + e.what() + " (step " +
                      std::to_string(e.step()) + ", dt = " + number(config.duration / static_cast<double>(config.steps)) +
                      "): the velocity or the time step is too large for the tracers to stay finite; no field was "
                      "written");
  }
  const double stepping = timer.seconds();
  const bool stopped = fields.size() < spec.fields;
  if (!stopped) progress.update(planned_steps);
  progress.finish();

  const core::WallTimer output_timer;
  const NanSeeds nan = nan_seeds(setup);
  std::vector<FieldStats> stats;
  double low = std::numeric_limits<double>::infinity(), high = -low;  // over the shown planes, NaN left out
  for (auto& f : fields) {
    if (!nan.mask.empty()) ftle::mask_seeds(nan.mask, f);
    stats.push_back(statistics(f, seeds, nan.mask));
    for (const double v : shown_plane(f, seeds)) {
      low = std::min(low, v);
      high = std::max(high, v);
    }
  }
  // One colour range for every frame, so that a movie does not flicker: output.range, or auto over all frames.
  const auto given = c.get<std::vector<double>>("output.range");
  std::array<double, 2> range = given.size() == 2 ? std::array<double, 2>{given[0], given[1]}
                                                  : std::array<double, 2>{low, high > low ? high : low + 1e-12};

  const io::ImageGrid image{seeds.counts, seeds.origin, seeds.spacing};
  const bool fp32 = config.precision == core::Precision::f32;
  std::optional<io::PvdSeries> pvd;
  if (c.get<bool>("output.vti")) pvd.emplace(dir.file("ftle.pvd"));
  // One XDMF collection over the frames (time = start time), as the LBM writes its fields.
  std::optional<io::XdmfSeries> xdmf;
  if (c.get<bool>("output.hdf5")) xdmf.emplace(dir.file("ftle.xmf"));
  nlohmann::json frames = nlohmann::json::array();
  FieldStats all{0, stats.front().min, stats.front().max, 0};
  for (std::size_t k = 0; k < fields.size(); ++k) {
    const double t0 = sequence->start_time(k);
    std::vector<io::Field> arrays;
    const std::vector<float> field32 =
        fp32 ? std::vector<float>(fields[k].begin(), fields[k].end()) : std::vector<float>{};
    if (fp32) arrays.emplace_back("ftle", field32);
    else arrays.emplace_back("ftle", fields[k]);
    nlohmann::json frame = {{"index", k},
                            {"start_time", t0},
                            {"mean_ftle", stats[k].mean},
                            {"min_ftle", stats[k].min},
                            {"max_ftle", stats[k].max},
                            {"interior_mean_ftle", stats[k].interior_mean},
                            {"negative_ftle_share", stats[k].negative_share}};
    if (pvd) {
      io::write_vti(dir.file(frame_name(k, ".vti")), image, arrays);
      pvd->add(t0, dir.file(frame_name(k, ".vti")));
      frame["vti"] = frame_name(k, ".vti");
    }
    if (xdmf) frame["h5"] = xdmf->add(k, t0, image, arrays).filename().string();
    if (c.get<bool>("output.png")) {
      ftle::Config shown = config;
      shown.t0 = t0;
      write_ftle_png(dir.file(frame_name(k, ".png")), c, fields[k], seeds, shown, config.steps, range);
      frame["png"] = frame_name(k, ".png");
    }
    frames.push_back(frame);
    all.mean += stats[k].mean / static_cast<double>(fields.size());
    all.min = std::min(all.min, stats[k].min);
    all.max = std::max(all.max, stats[k].max);
  }
  const std::string plane = seeds.dimension == 3 ? "middle z-plane" : "field";
  if (pvd) {
    dir.add_output("ftle.pvd", "the series of FTLE fields ftle_NNNN.vti on the seed grid, time = start time");
    dir.add_output("ftle_*.vti", "the FTLE field of one start time (NNNN: the start time's index)");
    progress.note("wrote " + dir.file("ftle.pvd").string() + " and " + std::to_string(fields.size()) + " .vti files");
  }
  if (xdmf) {
    dir.add_output("ftle.xmf", "the series of FTLE fields as HDF5 + XDMF, time = start time");
    dir.add_output("ftle_*.h5", "each FTLE field's data (NNNNNN: the start time's index), described by ftle.xmf");
  }
  if (c.get<bool>("output.png"))
    dir.add_output("ftle_*.png", "each FTLE " + plane + " with a colour bar, one colour range for all frames");

  seq["start_times"] = nlohmann::json::array();
  for (std::size_t k = 0; k < fields.size(); ++k) seq["start_times"].push_back(sequence->start_time(k));
  seq["completed"] = fields.size();
  seq["steps_taken"] = sequence->steps_taken();
  seq["compositions_done"] = sequence->compositions_done();
  seq["peak_device_bytes"] = sequence->peak_memory().total();
  dir.manifest()["result"] = {{"mean_ftle", all.mean},
                              {"min_ftle", all.min},
                              {"max_ftle", all.max},
                              {"png_range", range},
                              {"png_range_source", given.size() == 2 ? "output.range" : "auto: min and max over all frames"},
                              {"seeds", seeds_json(seeds)},
                              {"masked_seeds", nan.body},
                              {"edge_seeds", nan.edges},
                              {"steps", config.steps},
                              {"dt", config.duration / static_cast<double>(config.steps)},
                              {"integration_time", config.duration},
                              {"sequence", seq},
                              {"frames", frames}};
  dir.add_timing("stepping", stepping);
  dir.add_timing("output", output_timer.seconds());
  dir.add_timing("total", total.seconds());
  char headline[256];
  std::snprintf(headline, sizeof headline,
                "ftle: %zu fields of %zu seeds (%s, %ld steps%s) in %.2f s: mean FTLE %.4f (min %.4f, max %.4f)",
                fields.size(), seeds.size(), flow_maps ? "flow_maps" : "direct", sequence->steps_taken(),
                flow_maps ? (" + " + std::to_string(sequence->compositions_done()) + " compositions").c_str() : "",
                stepping, all.mean, all.min, all.max);
  print_headline(ctx, headline);
  return stopped ? RunOutcome::interrupted : RunOutcome::complete;
}

// output.pathlines: the positions of every stride-th seed per axis, read back at t0, every N steps and at
// the run's last step, written as pathlines.vtp (one polyline per seed, point data 'time').
class Pathlines {
 public:
  Pathlines() = default;  // none: the opposite direction's solve (output.ridges) records no pathlines
  Pathlines(const casefile::Case& c, const ftle::SeedGrid& seeds) : every_(c.get<long>("output.pathlines.every")) {
    if (every_ <= 0) return;
    auto stride = c.get<std::vector<long>>("output.pathlines.stride");
    stride.resize(3, 1);
    const auto& n = seeds.counts;
    for (std::size_t z = 0; z < n[2]; z += static_cast<std::size_t>(stride[2]))
      for (std::size_t y = 0; y < n[1]; y += static_cast<std::size_t>(stride[1]))
        for (std::size_t x = 0; x < n[0]; x += static_cast<std::size_t>(stride[0])) selected_.push_back(x + n[0] * (y + n[1] * z));
  }
  bool on() const { return every_ > 0; }
  // The steps the next chunk may take from `done` so that it ends on a multiple of N.
  long limit(long done, long steps) const { return (on() ? std::min(steps, (done / every_ + 1) * every_) : steps) - done; }
  // After a chunk: records at multiples of N and at the last step (`last`), once per step.
  void record(const ftle::Solver& solver, bool last) {
    if (!on() || solver.step() == recorded_ || (!last && solver.step() % every_ != 0)) return;
    recorded_ = solver.step();
    const std::vector<double> map = solver.flow_map();
    const auto dim = static_cast<std::size_t>(solver.dimension());
    std::vector<double> frame(3 * selected_.size(), 0.0);
    for (std::size_t k = 0; k < selected_.size(); ++k)
      for (std::size_t d = 0; d < dim; ++d) frame[3 * k + d] = map[dim * selected_[k] + d];
    frames_.push_back(std::move(frame));
    times_.push_back(solver.time());
  }
  std::size_t lines() const { return selected_.size(); }
  std::size_t points_per_line() const { return frames_.size(); }
  void write(const std::filesystem::path& path, bool fp32) const {
    const std::size_t m = frames_.size();
    std::vector<double> points(3 * m * selected_.size()), time(m * selected_.size());
    std::vector<std::int64_t> connectivity(points.size() / 3), offsets(selected_.size());
    std::vector<std::int32_t> seed(selected_.size());  // Int32: point data has no Int64 type
    for (std::size_t k = 0; k < selected_.size(); ++k) {
      for (std::size_t j = 0; j < m; ++j) {
        const std::size_t p = k * m + j;
        for (std::size_t d = 0; d < 3; ++d) points[3 * p + d] = frames_[j][3 * k + d];
        time[p] = times_[j];
        connectivity[p] = static_cast<std::int64_t>(p);
      }
      offsets[k] = static_cast<std::int64_t>((k + 1) * m);
      seed[k] = static_cast<std::int32_t>(selected_[k]);
    }
    const std::vector<float> points32 = fp32 ? std::vector<float>(points.begin(), points.end()) : std::vector<float>{};
    const io::PointSpan shown = fp32 ? io::PointSpan(std::span<const float>(points32)) : io::PointSpan(std::span<const double>(points));
    const std::vector<io::Field> point_data{{"time", time}};
    const std::vector<io::Field> cell_data{{"seed", seed}};
    io::write_vtp(path, io::PolyLines{shown, connectivity, offsets}, point_data, cell_data);
  }

 private:
  long every_ = 0;
  long recorded_ = -1;
  std::vector<std::size_t> selected_;
  std::vector<std::vector<double>> frames_;  // 3 per selected seed, per recorded step
  std::vector<double> times_;
};

nlohmann::json memory_json(const ftle::MemoryPlan& memory) {
  return {{"velocity", memory.streamed ? "streamed" : "resident"},
          {"snapshot_slots", memory.slots},
          {"device_bytes", memory.device_bytes},
          {"pinned_host_bytes", memory.pinned_bytes}};
}

// Plans the solver's memory (into `record`, before the solver exists, so that a failed allocation has it),
// builds it and records the seeds at t0. A rank that fails to plan or build its part fails every rank
// here, before the stepping's agreements. Across processes the plan is rank 0's share.
ftle::MemoryPlan start_solver(const FtleSetup& setup, RunContext& ctx, Pathlines& pathlines,
                              std::optional<ftle::Solver>& solver, nlohmann::json& record) {
  const auto* analytic = std::get_if<ftle::AnalyticFlow>(&setup.flow);
  core::Link* const link = ctx.ranks.link();
  ftle::MemoryPlan memory;
  ctx.ranks.together([&] {
    memory = analytic ? ftle::Solver::memory_plan(ctx.devices, *analytic, setup.seeds, setup.config, link)
                      : ftle::Solver::memory_plan(ctx.devices,
                                                  *std::get<std::shared_ptr<const ftle::VelocityGrid>>(setup.flow),
                                                  setup.seeds, setup.config, link);
    record = memory_json(memory);
    if (analytic) {
      solver.emplace(ctx.devices, *analytic, setup.seeds, setup.config, link);
    } else {
      solver.emplace(ctx.devices, *std::get<std::shared_ptr<const ftle::VelocityGrid>>(setup.flow), setup.seeds,
                     setup.config, link);
    }
    pathlines.record(*solver, true);  // the seeds at t0
  });
  return memory;
}

// How far the stepping got and what it took.
struct Stepping {
  long done = 0;
  double seconds = 0.0, device_seconds = 0.0;
};

// Advances to `steps` in chunks, recording pathlines. At least one chunk, interrupted or not: an FTLE
// needs a non-zero integration time. The ranks agree after each chunk, so they take the same chunks
// (sized by the slowest) and stop after the same one.
Stepping advance_to_end(ftle::Solver& solver, Pathlines& pathlines, RunContext& ctx, display::Progress& progress,
                        long steps) {
  Stepping s;
  StepChunks chunk(4);
  bool interrupted = false;
  while (s.done < steps && (s.done == 0 || !interrupted)) {
    const long n = std::min(chunk.steps(), pathlines.limit(s.done, steps));
    const Ranks::Agreed agreed = ctx.ranks.together([&] {
      const core::Event event = solver.advance(n);
      solver.finish();
      s.device_seconds += event.seconds();
      pathlines.record(solver, s.done + n == steps);
    });
    interrupted = agreed.interrupted;
    s.seconds += agreed.seconds;
    chunk.adapt(agreed.seconds, n);
    s.done += n;
    progress.update(s.done);
  }
  progress.finish();
  return s;
}

// What the run reads back at its end: the field and, when asked for, the flow map, the direction of
// largest stretching and the smallest exponent, per seed.
struct FinalFields {
  std::vector<double> field, flow_map, eigenvector, ftle_min;
  std::vector<double> exit_time;  // boundary freeze: per seed, NaN for a tracer that stayed inside
  std::size_t stopped_tracers = 0, boundary_hits = 0;
  ftle::Solver::Substeps substeps;  // adaptive integrators
};

// Which arrays beside the FTLE field a solve reads back.
struct Extras {
  bool flow_map = false, eigenvector = false, ftle_min = false, exit_time = false;
};

// What the case asks of its own field (the flow map also for output.flow_map_error); the opposite
// direction's (output.ridges) is the FTLE alone.
Extras case_extras(const casefile::Case& c, const FtleSetup& setup) {
  return {c.get<bool>("output.flow_map") || c.get<bool>("output.flow_map_error"), c.get<bool>("output.eigenvector"),
          c.get<bool>("output.lambda_min"), keeps_exit_times(setup)};
}

// The collective reads, whole on rank 0, which alone goes on to write.
FinalFields read_final_fields(ftle::Solver& solver, Pathlines& pathlines, RunContext& ctx, const Extras& extras) {
  FinalFields f;
  ctx.ranks.together([&] {
    f.field = solver.ftle();
    if (extras.flow_map) f.flow_map = solver.flow_map();
    if (extras.eigenvector) f.eigenvector = solver.stretch_direction();
    if (extras.ftle_min) f.ftle_min = solver.ftle_min();
    pathlines.record(solver, true);  // an interrupted run's last step
    f.stopped_tracers = solver.stopped_tracers();
    f.boundary_hits = solver.boundary_hits();
    f.substeps = solver.substeps();
    if (extras.exit_time) f.exit_time = solver.exit_times();
  });
  return f;
}

// One field's whole solve, collective: built, advanced to the end (or an agreed interrupt) and read back.
struct Solved {
  FinalFields fields;
  Stepping stepping;
  double read_seconds = 0;
};

// `which` names the field in a tracer error: empty for the case's own, "backward field (output.ridges)" for
// the opposite direction's; `memory_record` gets the memory plan. The solver is gone on return, so that a
// second solve has its device memory.
Solved solve_field(const FtleSetup& setup, const Extras& extras, RunContext& ctx, Pathlines& pathlines,
                   display::Progress& progress, const std::string& which, nlohmann::json& memory_record) {
  try {
    Solved s;
    std::optional<ftle::Solver> solver;
    progress.activity("starting the solver");
    const ftle::MemoryPlan memory = start_solver(setup, ctx, pathlines, solver, memory_record);
    if (memory.streamed) {
      progress.note("velocity streamed through " + std::to_string(memory.slots) +
                    " snapshot slots per device: " + mib(memory.device_bytes) + " of device memory, " +
                    mib(memory.pinned_bytes) + " pinned host memory");
    }
    s.stepping = advance_to_end(*solver, pathlines, ctx, progress, setup.config.steps);
    const core::WallTimer reading;
    s.fields = read_final_fields(*solver, pathlines, ctx, extras);
    s.read_seconds = reading.seconds();
    return s;
  } catch (const ftle::TracerError& e) {
    rethrow_tracer_error(e, setup.config, which);
  }
}

// `values` (seeds.dimension components per seed) as 3 components per seed, z = 0 in 2D, as ParaView's
// vectors expect.
std::vector<double> three_components(const std::vector<double>& values, const ftle::SeedGrid& seeds) {
  const auto dim = static_cast<std::size_t>(seeds.dimension);
  std::vector<double> out(3 * seeds.size(), 0.0);
  for (std::size_t i = 0; i < seeds.size(); ++i) {
    for (std::size_t d = 0; d < dim; ++d) out[3 * i + d] = values[dim * i + d];
  }
  return out;
}

// `name`.npy: a field of `components` values per seed for NumPy, float64 in C order, x fastest.
void write_npy_field(RunDirectory& dir, display::Progress& progress, const std::string& name,
                     const std::vector<double>& field, const ftle::SeedGrid& seeds, const std::string& what,
                     std::size_t components = 1) {
  std::vector<std::size_t> shape;
  for (int axis = seeds.dimension - 1; axis >= 0; --axis) shape.push_back(seeds.counts[std::size_t(axis)]);
  if (components > 1) shape.push_back(components);
  io::write_npy_c_order(dir.file(name + ".npy"), shape, field);
  const std::string last = components > 1 ? ", " + std::to_string(components) : "";
  dir.add_output(name + ".npy", what + " for NumPy: float64, shape " +
                                    std::string(seeds.dimension == 3 ? "(nz, ny, nx" : "(ny, nx") + last + "), x fastest");
  progress.note("wrote " + dir.file(name + ".npy").string());
}

// Writes the field files the case asks for (VTI, HDF5 + XDMF, pathlines, PNG) on rank 0, with the opposite
// direction's field beside the FTLE when there is one; returns ridges.png's colour ranges where it wrote
// one. fp32 runs write Float32, fp64 runs Float64 (the field is computed in double either way).
std::optional<RidgeRanges> write_field_files(const casefile::Case& c, RunDirectory& dir, display::Progress& progress,
                                             const FinalFields& f, const FtleSetup& setup, const Pathlines& pathlines,
                                             long done, const OppositeField* opposite) {
  const ftle::SeedGrid& seeds = setup.seeds;
  const io::ImageGrid image{seeds.counts, seeds.origin, seeds.spacing};
  const bool want_flow_map = c.get<bool>("output.flow_map"), want_eigenvector = c.get<bool>("output.eigenvector");
  const bool fp32 = setup.config.precision == core::Precision::f32;
  // The arrays only view these: they are kept alive here.
  const std::vector<float> field32 = fp32 ? std::vector<float>(f.field.begin(), f.field.end()) : std::vector<float>{};
  const std::vector<double> positions = want_flow_map ? three_components(f.flow_map, seeds) : std::vector<double>{};
  const std::vector<float> positions32 =
      fp32 ? std::vector<float>(positions.begin(), positions.end()) : std::vector<float>{};
  const std::vector<double> eigenvector3 =
      want_eigenvector ? three_components(f.eigenvector, seeds) : std::vector<double>{};
  const std::vector<float> eigenvector32 =
      fp32 ? std::vector<float>(eigenvector3.begin(), eigenvector3.end()) : std::vector<float>{};
  const bool want_min = !f.ftle_min.empty();
  const std::vector<float> min32 =
      fp32 ? std::vector<float>(f.ftle_min.begin(), f.ftle_min.end()) : std::vector<float>{};
  const std::vector<double> none;
  const std::vector<double>& other = opposite ? opposite->values : none;
  const std::vector<float> other32 = fp32 ? std::vector<float>(other.begin(), other.end()) : std::vector<float>{};
  std::vector<io::Field> arrays;
  if (fp32) arrays.emplace_back("ftle", field32);
  else arrays.emplace_back("ftle", f.field);
  if (opposite) {
    if (fp32)
      arrays.emplace_back(opposite->name, other32);
    else
      arrays.emplace_back(opposite->name, other);
  }
  if (want_min) {
    if (fp32) arrays.emplace_back("ftle_min", min32);
    else arrays.emplace_back("ftle_min", f.ftle_min);
  }
  if (want_flow_map) {
    if (fp32) arrays.emplace_back("flow_map", positions32, 3);
    else arrays.emplace_back("flow_map", positions, 3);
  }
  if (want_eigenvector) {
    if (fp32) arrays.emplace_back("eigenvector", eigenvector32, 3);
    else arrays.emplace_back("eigenvector", eigenvector3, 3);
  }
  const bool want_exit = !f.exit_time.empty();
  const std::vector<float> exit32 =
      fp32 ? std::vector<float>(f.exit_time.begin(), f.exit_time.end()) : std::vector<float>{};
  if (want_exit) {
    if (fp32)
      arrays.emplace_back("exit_time", exit32);
    else
      arrays.emplace_back("exit_time", f.exit_time);
  }
  const std::string what =
      std::string(want_flow_map ? "FTLE and the final tracer positions flow_map on the seed grid"
                                : "FTLE on the seed grid") +
      (opposite ? ", with " + opposite->name + ", the FTLE over T = " + number(opposite->duration) +
                      " from the same t0 (output.ridges)"
                : std::string()) +
      (want_eigenvector ? ", with eigenvector, the direction of largest stretching" : "") +
      (want_min ? ", with ftle_min, the smallest exponent" : "") +
      (want_exit ? ", with exit_time, when each tracer left the data box (NaN: it stayed)" : "") +
      (setup.body ? "; NaN in the body (ftle.body)" : "") +
      (setup.nan_edges ? "; NaN on the seed grid's faces (output.edges: nan)" : "");
  if (c.get<bool>("output.vti")) {
    io::write_vti(dir.file("ftle.vti"), image, arrays);
    dir.add_output("ftle.vti", what + (seeds.dimension == 2 ? " (one point thick along z)" : ""));
    progress.note("wrote " + dir.file("ftle.vti").string());
  }
  if (c.get<bool>("output.hdf5")) {
    io::write_hdf5_xdmf(dir.file("ftle"), image, arrays);
    dir.add_output("ftle.xmf", what + " (HDF5 + XDMF)");
    dir.add_output("ftle.h5", "the data of ftle.xmf");
  }
  if (c.get<bool>("output.npy")) {
    write_npy_field(dir, progress, "ftle", f.field, seeds, "the FTLE field");
    if (want_flow_map)
      write_npy_field(dir, progress, "flow_map", f.flow_map, seeds, "the final tracer positions (output.flow_map)",
                      static_cast<std::size_t>(seeds.dimension));
    if (opposite)
      write_npy_field(dir, progress, opposite->name, opposite->values, seeds,
                      "the FTLE field over T = " + number(opposite->duration) + " (output.ridges)");
  }
  if (pathlines.on()) {
    pathlines.write(dir.file("pathlines.vtp"), fp32);
    dir.add_output("pathlines.vtp", "pathlines of " + std::to_string(pathlines.lines()) + " seeds (output.pathlines."
                   "stride), " + std::to_string(pathlines.points_per_line()) + " points each at t0, every " +
                   std::to_string(c.get<long>("output.pathlines.every")) + " steps and the last step; point data time, "
                   "cell data seed (index in the seed grid)");
    progress.note("wrote " + dir.file("pathlines.vtp").string());
  }
  if (c.get<bool>("output.png")) {
    write_ftle_png(dir.file("ftle.png"), c, f.field, seeds, setup.config, done);
    dir.add_output("ftle.png", seeds.dimension == 3 ? "the FTLE field's middle z-plane with a colour bar"
                                                    : "the FTLE field with a colour bar");
    progress.note("wrote " + dir.file("ftle.png").string());
    if (opposite) return write_ridges_file(c, dir, progress, f.field, *opposite, setup);
  }
  return std::nullopt;
}

// The opposite direction's solve after the case's own, with its own progress display and no pathlines.
Solved solve_opposite(const FtleSetup& setup, RunContext& ctx, nlohmann::json& memory_record) {
  FtleSetup opposite = setup;
  opposite.config = reversed(setup.config);
  const std::string which = direction(opposite.config);
  display::Progress progress(opposite.config.steps, "ftle " + which + " (output.ridges)", ctx.verbosity);
  Pathlines none;
  return solve_field(opposite, Extras{}, ctx, none, progress, which + " field (output.ridges)", memory_record);
}

// output.flow_map_error's reference solve after the case's own, with its own progress display.
Solved solve_reference(const FtleSetup& setup, RunContext& ctx) {
  FtleSetup reference = setup;
  reference.config = reference_config(setup.config);
  display::Progress progress(reference.config.steps, "ftle reference (output.flow_map_error)", ctx.verbosity);
  Pathlines none;
  nlohmann::json memory;
  Extras map;
  map.flow_map = true;
  return solve_field(reference, map, ctx, none, progress, "reference field (output.flow_map_error)", memory);
}

OppositeSolve opposite_summary(const Solved& solved) {
  return {solved.stepping.done, solved.fields.stopped_tracers, solved.stepping.device_seconds};
}

// The manifest's result for the case's own field: its statistics and how it was integrated.
nlohmann::json field_result(const FtleSetup& setup, const FinalFields& f, const FieldStats& stats, const NanSeeds& nan,
                            const Stepping& stepping) {
  const double dt = setup.config.duration / static_cast<double>(setup.config.steps);
  nlohmann::json result = {
      {"mean_ftle", stats.mean},
      {"min_ftle", stats.min},
      {"max_ftle", stats.max},
      {"interior_mean_ftle", stats.interior_mean},
      {"negative_ftle_share", stats.negative_share},
      {"seeds", seeds_json(setup.seeds)},
      {"steps", stepping.done},
      {"dt", dt},
      {"integration_time", static_cast<double>(stepping.done) * dt},
      {"stopped_tracers", f.stopped_tracers},
      {"boundary", boundary_report(setup, f.boundary_hits, f.exit_time)},
      {"masked_seeds", nan.body},
      {"edge_seeds", nan.edges},
      {"device_seconds", stepping.device_seconds},
      {"device_seconds_note", "advection kernels' OpenCL profiling time (last device), output excluded"}};
  if (ftle::adaptive(setup.config.integrator)) {
    const auto seeds = static_cast<double>(setup.seeds.size());
    result["substeps"] = {{"accepted", f.substeps.accepted},
                          {"rejected", f.substeps.rejected},
                          {"per_tracer", static_cast<double>(f.substeps.accepted) / seeds},
                          {"rtol", setup.config.rtol},
                          {"atol", setup.config.atol}};
  }
  if (!f.ftle_min.empty()) {
    const SmallestStats least = smallest_statistics(f.ftle_min, nan.mask);
    result["ftle_min"] = {
        {"mean", least.mean}, {"min", least.min}, {"max", least.max}, {"singular_seeds", least.singular}};
  }
  return result;
}

// sequence.count 1: the case's field and, with output.ridges, the opposite direction's after it. What the
// run holds is known before anything is allocated: a gridded series over ftle.velocity.budget is streamed
// (docs/ftle.md, "Streamed snapshots").
RunOutcome run_single_field(const casefile::Case& c, RunContext& ctx, const FtleSetup& setup,
                            const core::WallTimer& total) {
  RunDirectory& dir = ctx.directory;
  Pathlines pathlines(c, setup.seeds);
  const long steps = setup.config.steps;
  display::Progress progress(steps, "ftle", ctx.verbosity);
  Solved own = solve_field(setup, case_extras(c, setup), ctx, pathlines, progress, "", dir.manifest()["memory"]);
  const long done = own.stepping.done;
  // The ranks agreed on `done`, so they all take the second solve or all skip it.
  std::optional<Solved> opposite;
  nlohmann::json opposite_memory;
  if (c.get<bool>("output.ridges") && done == steps) opposite = solve_opposite(setup, ctx, opposite_memory);
  const bool opposite_complete = opposite && opposite->stepping.done == steps;
  std::optional<Solved> reference;
  if (c.get<bool>("output.flow_map_error") && done == steps && (!opposite || opposite_complete))
    reference = solve_reference(setup, ctx);
  const bool reference_complete = reference && reference->stepping.done == steps;
  const bool stopped = done < steps || (opposite && !opposite_complete) || (reference && !reference_complete);
  const RunOutcome outcome = stopped ? RunOutcome::interrupted : RunOutcome::complete;
  if (!ctx.ranks.root()) return outcome;

  const core::WallTimer output_timer;
  FinalFields& f = own.fields;
  // Seeds in the body start in no fluid, and output.edges: nan hides the faces' one-sided values: theirs
  // are NaN in every exponent array (not in flow_map or exit_time, which the tracers define).
  const NanSeeds nan = nan_seeds(setup);
  if (!nan.mask.empty()) {
    ftle::mask_seeds(nan.mask, f.field);
    if (!f.ftle_min.empty()) ftle::mask_seeds(nan.mask, f.ftle_min);
    if (!f.eigenvector.empty())
      ftle::mask_seeds(nan.mask, f.eigenvector, static_cast<std::size_t>(setup.seeds.dimension));
  }
  const FieldStats stats = statistics(f.field, setup.seeds, nan.mask);
  std::optional<OppositeField> other;
  if (opposite_complete) other = opposite_field(setup, std::move(opposite->fields.field), nan);
  const std::optional<RidgeRanges> ridges_png =
      write_field_files(c, dir, progress, f, setup, pathlines, done, other ? &*other : nullptr);

  nlohmann::json& result = dir.manifest()["result"] = field_result(setup, f, stats, nan, own.stepping);
  if (c.get<bool>("output.ridges"))
    result["ridges"] = ridges_json(c, setup, opposite ? opposite_summary(*opposite) : std::optional<OppositeSolve>(),
                                   other ? &*other : nullptr, opposite_memory, ridges_png);
  std::string error_headline;
  if (reference_complete) {
    const FlowMapError error = flow_map_error(f.flow_map, reference->fields.flow_map, setup.seeds.dimension);
    result["flow_map_error"] = flow_map_error_json(error, reference_config(setup.config), reference->stepping.seconds);
    error_headline = "; flow map within " + number(error.max) + " (rms " + number(error.rms) + ") of DOP853 rtol 1e-13";
  }
  const double opposite_stepping = opposite ? opposite->stepping.seconds : 0.0;
  const double opposite_reading = opposite ? opposite->read_seconds : 0.0;
  dir.add_timing("stepping", own.stepping.seconds + opposite_stepping);
  dir.add_timing("output", own.read_seconds + opposite_reading + output_timer.seconds());
  dir.add_timing("total", total.seconds());
  char headline[256];
  std::snprintf(headline, sizeof headline, "ftle: %zu seeds, %ld steps of dt = %s: mean FTLE %.4f (min %.4f, max %.4f)",
                setup.seeds.size(), done, number(result["dt"].get<double>()).c_str(), stats.mean, stats.min, stats.max);
  print_headline(ctx, headline + (other ? ridges_headline(*other) : std::string()) + error_headline);
  return outcome;
}

}  // namespace

casefile::Schema FtleCase::schema() const {
  casefile::Schema s("ftle", "finite-time Lyapunov exponents of an analytic or gridded flow on a seed grid");
  declare_ftle_keys(s);
  return s;
}

void FtleCase::check(const casefile::Case& c) const {
  std::vector<std::string> problems;
  check_ftle_case(c, problems);
  throw_problems(c, std::move(problems));
}

std::optional<ChoiceKey> FtleCase::device_choice(const casefile::Case& c) const {
  return ftle_devices_key(c.get<std::string>("ftle.precision") == "fp32" ? core::Precision::f32
                                                                         : core::Precision::f64);
}

RunOutcome FtleCase::run(const casefile::Case& c, RunContext& ctx) const {
  const core::WallTimer total;
  RunDirectory& dir = ctx.directory;
  // ftle::Sequence takes no link yet. Every rank sees the same case, so all refuse alike.
  if (ctx.ranks.size() > 1 && c.get<long>("sequence.count") > 1) {
    throw core::Error("ftle: a sequence (sequence.count > 1) under MPI is not supported yet: run it as one process");
  }
  // Every rank reads the velocity itself (a file can be missing on one host only).
  FtleSetup setup = ctx.ranks.make_together([&] { return make_ftle_setup(c); });
  dir.manifest()["flow"] = setup.info;
  const auto* gridded = std::get_if<std::shared_ptr<const ftle::VelocityGrid>>(&setup.flow);
  setup.config = with_ftle_tuning(setup.config, gridded && (*gridded)->dimension == 2, ctx.devices,
                                  dir.manifest()["tuning"]);
  setup.config.device_weights = ctx.device_weights;
  if (setup.sequence.fields > 1) return run_sequence(c, ctx, setup, total);
  return run_single_field(c, ctx, setup, total);
}

}  // namespace hetflow::app
