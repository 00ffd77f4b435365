#include "hetflow/app/ftle/ftle_bench.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "hetflow/app/bench/reference.hpp"
#include "hetflow/core/buffer.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/core/event.hpp"
#include "hetflow/core/probe.hpp"
#include "hetflow/ftle/solver.hpp"

namespace hetflow::app {
namespace {

constexpr double pi = 3.14159265358979323846;

// ---- Work per particle-step, counted from src/hetflow/ftle/ftle.cl ---------------------------------
// FLOPs are counted as the source is written, before any common-subexpression elimination the compiler
// may do: every +, -, *, / of real_t is 1 (a multiply-add, written a * b + c, is 2); floor, clamp,
// min/max, isfinite, integer index arithmetic and int-to-real conversions are 0. Transcendentals (sin,
// cos) are counted apart, as calls: they cost tens of instructions each, far more than one FLOP, so the
// FLOP efficiency of the analytic flow understates how busy the device is.

// velocity_at, FLOW_DOUBLE_GYRE: a = p1 sin(p2 t) 2; b = 1 - 2a 2; f = (a x + b) x 3; dfdx = 2 a x + b 3;
// u = -PI p0 sin(PI f) cos(PI y) 5 (-PI is one constant); v = PI p0 cos(PI f) sin(PI y) dfdx 6.
constexpr double gyre_eval_flops = 21;
constexpr double gyre_eval_transcendentals = 5;  // sin(p2 t), sin(PI f), cos(PI y), cos(PI f), sin(PI y)

// step(), INTEGRATOR 4, in `dim` dimensions: 4 evaluations; mid = 0.5 dt 1; three axpy stage points
// 2 dim each; stage times t + mid, t + mid, t + dt 3; next = x + dt / 6 (k1 + 2 (k2 + k3) + k4) 7 per
// component; plus ftle_advect's step time t_start + s dt 2.
constexpr double rk4_step_flops(double eval, int dim) { return 4 * eval + 1 + 6 * dim + 3 + 7 * dim + 2; }

// sample_snapshot with M4' (4 taps per axis): per axis s - floor(s) 1, weights g = 1 - f 1,
// w0 = -0.5 f g g 3, w1 = 1 - 2.5 f f + 1.5 f f f 7, w2 (same in g) 7, w3 = -0.5 f f g 3: 22. Gather:
// 2D: per tap w0a w1b 1 + 2 components x (mul + add) 4 -> 16 x 5; 3D: per (b, e) w1b w2e 1 -> 16,
// per tap w0a wbe 1 + 3 x 2 -> 64 x 7.
constexpr double m4_sample_flops(int dim) { return 22.0 * dim + (dim == 2 ? 16 * 5 : 16 + 64 * 7); }
// velocity_at, FLOW_GRID: to_grid (x - origin) inv_h 2 per axis, one sample per snapshot read; with two
// snapshots the time weight (t - t0) / (t1 - t0) 3 and (1 - w) u0 + w u1 4 per component (the binary
// search between two snapshots takes no trip).
constexpr double grid_eval_flops(int dim, int snapshots) {
  return 2.0 * dim + snapshots * m4_sample_flops(dim) + (snapshots > 1 ? 3 + 4 * dim : 0);
}
// step(), INTEGRATOR 2 (Heun), clamp: 2 evaluations; stage point axpy 2 dim; t + dt 1; each of two
// admit() calls lo + (n - 1) / inv_h 2 per axis; next = x + dt 0.5 (k1 + k2) 4 per component; step
// time t_start + s dt 2.
constexpr double heun_step_flops(double eval, int dim) { return 2 * eval + 2 * dim + 1 + 4 * dim + 4 * dim + 2; }

// Bytes each Heun step gathers from the velocity field: 2 evaluations x 4^dim M4' taps x dim components
// x the real size x the snapshots read. These are all bytes the loads ask for, not DRAM traffic:
// neighbouring tracers share most of their taps, so nearly all of them hit L1/L2; their ratio to the
// unique bytes below is the reuse the caches give, not an efficiency.
double heun_m4_gathered_bytes(int dim, int snapshots, std::size_t real) {
  return 2.0 * std::pow(4.0, dim) * dim * static_cast<double>(real) * snapshots;
}

// What a resident gridded run is measured against: the tighter of two lower bounds on its time, its FLOPs
// at the FP32 peak and its unique bytes at the copy bandwidth. The unique bytes of a step are the field's
// (the tracers cover the grid, so each step reads every node at least once, from DRAM where the grid
// outgrows the last-level cache, as the GPU cases' grids do), spread over the tracers, which stay in
// registers through the launch. A grid a cache holds loosens the byte bound; the FLOP bound then decides.
struct GriddedBound {
  double efficiency;
  const char* limit;
  double unique_bytes;  // per tracer-step
};
GriddedBound gridded_bound(double steps_per_s, double flops, double peak32_gflops, double field_bytes, double tracers,
                           double bandwidth_GBs) {
  const double unique = field_bytes / tracers;
  const double compute = steps_per_s * flops / (peak32_gflops * 1e9);
  const double memory = steps_per_s * unique / (bandwidth_GBs * 1e9);
  if (compute >= memory) return {compute, "fp32 peak (FLOPs per step as written)", unique};
  return {memory, "copy bandwidth (the field's unique bytes per step)", unique};
}

// ---- Fields ------------------------------------------------------------------------------------

std::array<double, 3> gyre_velocity(const ftle::DoubleGyre& g, const std::array<double, 3>& x, double t) {
  const double a = g.epsilon * std::sin(g.omega * t), b = 1 - 2 * a;
  const double f = (a * x[0] + b) * x[0], dfdx = 2 * a * x[0] + b;
  return {-pi * g.a * std::sin(pi * f) * std::cos(pi * x[1]), pi * g.a * std::cos(pi * f) * std::sin(pi * x[1]) * dfdx,
          0};
}

// The double gyre on [0, 2] x [0, 1] sampled on nx x ny nodes at `times`.
ftle::VelocityGrid gyre_grid(std::size_t nx, std::size_t ny, const std::vector<double>& times) {
  const ftle::DoubleGyre g;
  return ftle::sample_on_grid(2, {nx, ny, 1}, {0, 0, 0}, {2.0 / double(nx - 1), 1.0 / double(ny - 1), 1}, times,
                              [&](const std::array<double, 3>& x, double t) { return gyre_velocity(g, x, t); });
}

// The steady ABC flow on [0, 2 pi]^3 sampled on n^3 nodes.
ftle::VelocityGrid abc_grid(std::size_t n) {
  const ftle::AbcFlow f;
  const double h = 2 * pi / double(n - 1);
  return ftle::sample_on_grid(3, {n, n, n}, {0, 0, 0}, {h, h, h}, {0.0},
                              [&](const std::array<double, 3>& x, double) -> std::array<double, 3> {
                                return {f.a * std::sin(x[2]) + f.c * std::cos(x[1]),
                                        f.b * std::sin(x[0]) + f.a * std::cos(x[2]),
                                        f.c * std::sin(x[1]) + f.b * std::cos(x[0])};
                              });
}

// One seed per node of the grid.
ftle::SeedGrid seeds_on(const ftle::VelocityGrid& g) {
  return ftle::SeedGrid{g.dimension, g.dims, g.origin, g.spacing};
}

std::string size_name(const ftle::SeedGrid& s) {
  std::string name = std::to_string(s.counts[0]);
  for (int d = 1; d < s.dimension; ++d) name.append("x").append(std::to_string(s.counts[std::size_t(d)]));
  return name;
}

// Device seconds of `steps` steps from the seeds, `repeats` times after one warm-up run. Each run starts
// from the seeds again, so every run advects the same trajectories; the seed kernel is not timed.
core::Summary time_advance(ftle::Solver& s, long steps, int repeats) {
  s.initialise();
  s.advance(steps);
  s.finish();
  std::vector<double> seconds;
  for (int r = 0; r < repeats; ++r) {
    s.initialise();
    seconds.push_back(s.advance(steps).seconds());
  }
  s.finish();
  return core::summarize(seconds);
}

// Rates from times: work / seconds, so the fastest run gives the max.
core::Summary rates(const core::Summary& seconds, double work) {
  return {work / seconds.median, work / seconds.max, work / seconds.min, seconds.repeats};
}

const char* precision_name(core::Precision p) { return p == core::Precision::f64 ? "fp64" : "fp32"; }

struct Sizes {
  std::size_t gyre_x, gyre_y;  // analytic seeds and 2D gridded nodes (one tracer each)
  long gyre_steps;             // analytic steps per timed run
  long grid2_steps;
  std::size_t grid3;  // 3D nodes per axis
  long grid3_steps;
  std::size_t table_x, table_y;  // the paper's Table 1 tracers and steps
  long table_steps;
  int table_repeats;
  std::size_t stream_x, stream_y, stream_snapshots;  // streamed series: seeds, grid = seeds / 2 per axis
};

// Host seconds of `steps` steps from the seeds to the device's finish, median of `repeats` after a
// warm-up: wall time, because a streamed advance is many launches and uploads on two queues.
core::Summary wall_advance(ftle::Solver& s, int repeats) {
  std::vector<double> seconds;
  for (int r = 0; r <= repeats; ++r) {
    s.initialise();
    s.finish();
    const core::WallTimer timer;
    s.advance_to_end();
    s.finish();
    if (r > 0) seconds.push_back(timer.seconds());
  }
  return core::summarize(seconds);
}

// Host seconds to upload `count` snapshots of `bytes` from pinned memory on the transfer queue, one
// write each as the streamed solver does them, with nothing else running: the transfer limit.
core::Summary upload_seconds(const core::DeviceSet& devices, std::size_t bytes, std::size_t count, int repeats) {
  const core::Queue& q = devices.transfer(0);
  const core::PinnedBuffer<std::uint8_t> pinned(q, bytes);
  core::Buffer<std::uint8_t> slots(q.context(), 2 * bytes);
  std::vector<double> seconds;
  for (int r = 0; r <= repeats; ++r) {
    q.finish();
    const core::WallTimer timer;
    for (std::size_t u = 0; u < count; ++u) slots.write(q, pinned.span(), (u % 2) * bytes, core::Blocking::no);
    q.finish();
    if (r > 0) seconds.push_back(timer.seconds());
  }
  return core::summarize(seconds);
}

}  // namespace

BenchReport ftle_benchmark(const core::DeviceSet& selected, const BenchOptions& options) {
  // The first selected device alone: the solver would split its seeds over all of them.
  std::optional<core::DeviceSet> own;
  if (selected.size() > 1) {
    std::cerr << "  ftle: measuring " << selected.device(0).label() << " alone\n";
    own.emplace(std::vector<core::Device>{selected.device(0)});
  }
  const core::DeviceSet& devices = own ? *own : selected;
  const core::Queue& queue = devices.compute(0);
  const core::DeviceInfo& info = devices.device(0).info;
  const bool gpu = info.kind == core::DeviceKind::gpu;
  BenchReport report{"ftle", info, reference_bandwidth(queue).copy.median, {}};
  const double bandwidth = report.reference_bandwidth_GBs;

  core::FlopOptions flop_options;
  flop_options.repeats = options.repeats;
  const double peak32 = core::measure_flops(queue, core::Precision::f32, flop_options).gflops.median;
  const double peak64 = info.fp64 ? core::measure_flops(queue, core::Precision::f64, flop_options).gflops.median : 0;
  std::cerr << "  peak multiply-add rate: " << peak32 << " GFLOP/s fp32, " << peak64 << " GFLOP/s fp64\n";

  // GPUs: 4096 x 2048 tracers (8.4 M) and 256^3 in 3D. CPU devices: ~1/250 of that, a minute in all on
  // 2 cores.
  const Sizes z = gpu ? Sizes{4096, 2048, 100, 100, 256, 20, 4096, 2048, 1000, 5, 2048, 1024, 201}
                      : Sizes{256, 128, 10, 10, 32, 4, 256, 128, 100, 3, 256, 128, 41};
  const int repeats = options.repeats;

  // 1. Analytic double gyre, RK4, FP32 and FP64.
  for (core::Precision precision : {core::Precision::f32, core::Precision::f64}) {
    const double peak = precision == core::Precision::f64 ? peak64 : peak32;
    if (peak <= 0) {
      std::cerr << "  double gyre fp64 skipped: no double precision\n";
      continue;
    }
    ftle::Config c;
    c.integrator = ftle::Integrator::rk4;
    c.precision = precision;
    c.steps = z.gyre_steps;
    c.duration = 0.01 * double(z.gyre_steps);
    const ftle::SeedGrid seeds = ftle::SeedGrid::spanning({0, 0, 0}, {2, 1, 0}, {z.gyre_x, z.gyre_y, 1}, 2);
    ftle::Solver s(devices, ftle::DoubleGyre{}, seeds, c);
    const core::Summary rate = rates(time_advance(s, c.steps, repeats), double(seeds.size()) * double(c.steps));
    const double flops = rk4_step_flops(gyre_eval_flops, 2);
    report.add(
        {std::string("gyre rk4 ") + precision_name(precision) + " " + size_name(seeds), "steps/s", rate, 0,
         rate.median * flops / (peak * 1e9),
         {{"flow", "double_gyre"}, {"integrator", "rk4"}, {"precision", precision_name(precision)},
          {"tracers", seeds.size()}, {"steps_per_run", c.steps}, {"flops_per_unit", flops},
          {"transcendentals_per_unit", 4 * gyre_eval_transcendentals}, {"peak_gflops", peak},
          {"achieved_gflops", rate.median * flops * 1e-9},
          {"efficiency_is", "FLOPs per step x rate / peak multiply-add rate of this precision"},
          {"goal_h200", precision == core::Precision::f64 ? 1e10 : 0.0}}});
  }

  // 2. Resident gridded velocity, Heun + M4', FP32: 2D steady, 2D two snapshots, 3D steady.
  struct Gridded {
    std::string label;
    ftle::VelocityGrid grid;
    long steps;
    double goal;
  };
  const auto gridded_case = [&](const Gridded& g) {
    ftle::Config c;
    c.integrator = ftle::Integrator::heun;
    c.interpolation = ftle::Interpolation::m4prime;
    c.boundary = ftle::Boundary::clamp;
    c.precision = core::Precision::f32;
    c.steps = g.steps;
    c.duration = g.grid.times.size() > 1 ? g.grid.times.back() : 0.01 * double(g.steps);
    const ftle::SeedGrid seeds = seeds_on(g.grid);
    ftle::Solver s(devices, g.grid, seeds, c);
    const core::Summary seconds = time_advance(s, c.steps, repeats);
    const core::Summary rate = rates(seconds, double(seeds.size()) * double(c.steps));
    const int dim = g.grid.dimension, snaps = int(g.grid.snapshots.size());
    const double gathered = heun_m4_gathered_bytes(dim, snaps, 4);
    const double flops = heun_step_flops(grid_eval_flops(dim, snaps), dim);
    const std::size_t field_bytes = g.grid.nodes() * std::size_t(dim) * 4 * std::size_t(snaps);
    const GriddedBound bound =
        gridded_bound(rate.median, flops, peak32, double(field_bytes), double(seeds.size()), bandwidth);
    report.add(
        {g.label + " " + size_name(seeds), "steps/s", rate, bound.unique_bytes, bound.efficiency,
         {{"integrator", "heun"}, {"interpolation", "m4prime"}, {"boundary", "clamp"}, {"precision", "fp32"},
          {"snapshots", snaps}, {"tracers", seeds.size()}, {"steps_per_run", c.steps}, {"field_bytes", field_bytes},
          {"limit", bound.limit}, {"gathered_bytes_per_unit", gathered},
          {"cache_reuse", gathered / bound.unique_bytes},
          {"tracer_bytes_per_run", seeds.size() * (2 * std::size_t(dim) * 4 + 8)},
          {"flops_per_unit", flops}, {"achieved_gflops", rate.median * flops * 1e-9},
          {"flop_efficiency", rate.median * flops / (peak32 * 1e9)}, {"goal_h200", g.goal}}});
    return seconds;
  };
  gridded_case({"grid2d m4 rk2 fp32", gyre_grid(z.gyre_x, z.gyre_y, {0.0}), z.grid2_steps, 5e10});
  gridded_case({"grid2d m4 rk2 fp32 2snap", gyre_grid(z.gyre_x, z.gyre_y, {0.0, 0.01 * double(z.grid2_steps)}),
                z.grid2_steps, 0});
  gridded_case({"grid3d m4 rk2 fp32", abc_grid(z.grid3), z.grid3_steps, 0});

  // 3. The paper's Table 1: 4096 x 2048 tracers, one per node of a resident two-snapshot double gyre
  // (t = 0 and 10), 1000 Heun steps to T = 10, M4', FP32; device seconds of the 1000-step launch.
  {
    ftle::Config c;
    c.integrator = ftle::Integrator::heun;
    c.interpolation = ftle::Interpolation::m4prime;
    c.precision = core::Precision::f32;
    c.steps = z.table_steps;
    c.duration = 10.0;
    const ftle::VelocityGrid grid = gyre_grid(z.table_x, z.table_y, {0.0, 10.0});
    const ftle::SeedGrid seeds = seeds_on(grid);
    ftle::Solver s(devices, grid, seeds, c);
    const core::Summary seconds = time_advance(s, c.steps, std::min(repeats, z.table_repeats));
    const double rate = double(seeds.size()) * double(c.steps) / seconds.median;
    const double flops = heun_step_flops(grid_eval_flops(2, 2), 2);
    const double field_bytes = double(grid.nodes()) * 2 * 4 * 2;
    const GriddedBound bound = gridded_bound(rate, flops, peak32, field_bytes, double(seeds.size()), bandwidth);
    const bool paper = seeds.counts[0] == 4096 && seeds.counts[1] == 2048 && c.steps == 1000;
    report.add(
        {"table1 " + size_name(seeds) + " x" + std::to_string(c.steps) + " rk2 m4", "s", seconds, bound.unique_bytes,
         bound.efficiency,
         {{"paper_c2070_seconds", 64}, {"paper_configuration", paper},
          {"speedup_vs_paper", paper ? 64 / seconds.median : 0.0}, {"steps_per_s", rate},
          {"integrator", "heun"}, {"interpolation", "m4prime"}, {"precision", "fp32"}, {"snapshots", 2},
          {"tracers", seeds.size()}, {"steps", c.steps},
          {"timed", "device time of the one launch that advances all steps (seeding excluded)"},
          {"limit", bound.limit}, {"gathered_bytes_per_unit", heun_m4_gathered_bytes(2, 2, 4)},
          {"flops_per_unit", flops}, {"achieved_gflops", rate * flops * 1e-9}}});
  }

  // 4. End to end: 401 x 201 seeds on [0, 2] x [0, 1], T = 15, dt = 0.01 (1500 steps), the library's
  // default integrator (rk4) and precision (fp64; fp32 where the device lacks it). Host wall clock from
  // Solver construction (program already built in this context by the first run: "warm") through the
  // ftle() read-back; the first run's time is kept as cold_s.
  {
    ftle::Config c;
    c.duration = 15.0;
    c.steps = 1500;
    if (!info.fp64) c.precision = core::Precision::f32;
    // Other devices: 101 x 51 seeds (1/16 of the work), so a 2-core run stays within seconds.
    const ftle::SeedGrid seeds =
        ftle::SeedGrid::spanning({0, 0, 0}, {2, 1, 0}, {gpu ? 401u : 101u, gpu ? 201u : 51u, 1}, 2);
    std::vector<double> seconds, device_seconds;
    double cold = 0;
    const int runs = gpu ? repeats : std::min(repeats, 3);
    for (int r = 0; r <= runs; ++r) {
      const core::WallTimer timer;
      ftle::Solver s(devices, ftle::DoubleGyre{}, seeds, c);
      const core::Event advanced = s.advance_to_end();
      const std::vector<double> field = s.ftle();
      const double t = timer.seconds();
      if (field.size() != seeds.size() || !std::isfinite(field[seeds.size() / 2]))
        throw core::Error("the end-to-end double gyre gave no finite FTLE field");
      if (r == 0) {
        cold = t;
      } else {
        seconds.push_back(t);
        device_seconds.push_back(advanced.seconds());
      }
    }
    const core::Summary wall = core::summarize(seconds);
    const core::Summary advance = core::summarize(device_seconds);
    report.add(
        {"e2e gyre " + size_name(seeds) + " T=15 " + ftle::to_string(c.integrator) + " " + precision_name(c.precision), "s", wall, 0, advance.median / wall.median,
         {{"integrator", ftle::to_string(c.integrator)}, {"precision", precision_name(c.precision)},
          {"steps", c.steps}, {"dt", c.duration / double(c.steps)}, {"tracers", seeds.size()},
          {"timed", "host wall clock: Solver construction (program cached) through ftle() read-back"},
          {"advance_device_s", advance.median}, {"cold_s", cold},
          {"efficiency_is", "device time of the advance launch / end-to-end time"}, {"goal_h200_s", 0.1}}});
  }

  // 5. Streamed snapshots: a double-gyre series of stream_snapshots snapshots every 0.05 on a grid of
  // half the seeds per axis, two Heun steps per snapshot interval, M4', FP32, once resident and once
  // streamed through a ring of 8 slots. Perfect overlap hides every upload behind the integration:
  // the streamed run then takes max(resident run, uploads alone), the limit; with no overlap it takes
  // their sum.
  {
    const double spacing = 0.05;
    std::vector<double> times(z.stream_snapshots);
    for (std::size_t u = 0; u < times.size(); ++u) times[u] = spacing * double(u);
    const ftle::VelocityGrid grid = gyre_grid(z.stream_x / 2 + 1, z.stream_y / 2 + 1, times);
    const ftle::SeedGrid seeds = ftle::SeedGrid::spanning({0, 0, 0}, {2, 1, 0}, {z.stream_x, z.stream_y, 1}, 2);
    ftle::Config c;
    c.integrator = ftle::Integrator::heun;
    c.precision = core::Precision::f32;
    c.steps = 2 * long(times.size() - 1);
    c.duration = times.back();
    const std::size_t snapshot_bytes = grid.nodes() * 2 * 4;
    ftle::Solver resident(devices, grid, seeds, c);
    const core::Summary resident_s = wall_advance(resident, repeats);
    c.velocity_budget_bytes = 8 * snapshot_bytes;
    ftle::Solver streamed(devices, grid, seeds, c);
    if (!streamed.memory().streamed) throw core::Error("the streamed FTLE case was not streamed");
    const core::Summary streamed_s = wall_advance(streamed, repeats);
    const core::Summary upload_s = upload_seconds(devices, snapshot_bytes, times.size(), repeats);
    const double limit = std::max(resident_s.median, upload_s.median);
    const double rate = double(seeds.size()) * double(c.steps) / streamed_s.median;
    report.add(
        {"streamed " + size_name(seeds) + " grid " + std::to_string(grid.dims[0]) + "x" +
             std::to_string(grid.dims[1]) + " x" + std::to_string(times.size()) + " snapshots",
         "s", streamed_s, 0, limit / streamed_s.median,
         {{"integrator", "heun"}, {"interpolation", "m4prime"}, {"precision", "fp32"},
          {"snapshots", times.size()}, {"snapshot_bytes", snapshot_bytes}, {"slots", streamed.memory().slots},
          {"tracers", seeds.size()}, {"steps", c.steps}, {"steps_per_s", rate},
          {"resident_s", resident_s.median}, {"upload_alone_s", upload_s.median},
          {"upload_GBs", double(snapshot_bytes * times.size()) / upload_s.median * 1e-9},
          {"serial_s", resident_s.median + upload_s.median}, {"uploads", streamed.uploads()},
          {"timed", "host wall clock of all steps, from the seeds to the device's finish"},
          {"efficiency_is", "max(resident run, uploads alone) / streamed run: 1 = uploads fully hidden; above 1 "
                            "where the streamed launches, 2-3 snapshots each, use caches better than the one resident launch"}}});
  }
  return report;
}

}  // namespace hetflow::app
