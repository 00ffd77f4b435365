#include "hetflow/app/compressible/compressible_bench.hpp"

#include <cmath>
#include <functional>
#include <iostream>
#include <memory>
#include <numeric>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "hetflow/app/bench/reference.hpp"
#include "hetflow/app/bench/timing.hpp"
#include "hetflow/core/event.hpp"
#include "hetflow/core/number_text.hpp"
#include "hetflow/core/probe.hpp"
#include "hetflow/mrag/block_flow.hpp"
#include "hetflow/mrag/local_steps.hpp"
#include "hetflow/mrag/shock_bubble.hpp"
#include "hetflow/mrag/stiffened_gas.hpp"

namespace hetflow::app {
namespace {

constexpr double pi = 3.14159265358979323846;
constexpr int block = 32;
constexpr double courant = 0.5;
constexpr int warmup_steps = 2;
// The adaptive cases: the tests' thresholds, an adaptation every 8 steps, 24 timed periods. The ghost
// recipes a run meets are built on first use, mostly in the first adaptations, so the second half of the
// periods is reported apart too: the cost of adapting in a long run.
constexpr double adapt_refine = 1e-3, adapt_compress = 1e-4;
constexpr int adapt_every = 8, adaptive_periods = 24;
// The local-step cases: the levels stepped locally, and the periods of adapt_every global steps whose
// simulated time each depth covers.
constexpr int local_depths[] = {1, 2, 3};
constexpr int local_periods = 12;
constexpr int equations = mrag::fields;
constexpr int stages = 3;

// ---- Work per cell and Runge–Kutta stage, counted from src/hetflow/mrag/mrag_rhs.cl ---------------------
// FLOPs as the source is written: every +, -, *, /, sqrt of real_t is 1; fmin, fmax and index arithmetic 0.
// weno5: IS0 12, IS1 9, IS2 12, the candidates 5 + 4 + 4, the squared denominators 6, the weights 6, the sum
// and its division 9.
constexpr double weno5_flops = 67;
// hlle: Roe weights 3, energies 16, ũ and ṽ 8, H̃ 8, Γ̃ 4, c̃ 7, the two wave speeds 16, the states' momenta 4,
// the physical fluxes 14, the span 1, six flux components 48, u* 4. With ideal gases alone (STIFFENED 0)
// Π is 0 and neither reconstructed nor in the flux: 2 fewer in the energies, 2 in the wave speeds, 2 in the
// physical fluxes and 8 in its component.
constexpr double hlle_flux_flops(bool stiffened) { return stiffened ? 133 : 119; }
// A face: WENO5 of six primitives on each side (five with ideal gases), and the flux.
constexpr double face_flops(bool stiffened) { return (stiffened ? 12 : 10) * weno5_flops + hlle_flux_flops(stiffened); }
// A tile cell's primitives 10; a block cell's sums of its four faces 28, the closure source 4, the update 36.
constexpr double primitive_flops = 10, cell_flops = 28 + 4 + 36;

// A tile of `rows` rows reads the band of 3 around it (no corners) and computes (s + 1) rows x faces and
// s (rows + 1) y faces.
double flops_per_cell(int s, int rows, bool stiffened) {
  const double tile_cells = (s + 6.0) * rows + 6.0 * s, faces = (s + 1.0) * rows + s * (rows + 1.0);
  return (tile_cells * primitive_flops + faces * face_flops(stiffened)) / (s * rows) + cell_flops;
}

// Bytes per cell and stage if every value crosses device memory once, values of `real` bytes: the update
// reads the cell (6 values), its share of the ghost band (12/s cells, from the neighbouring blocks: the
// benchmark's grids are uniform and periodic, so no side of the band is filled), q0 in two stages of three,
// writes the cell and the boundary faces' 7 values (4 s faces a block); the ghost fill reads each ghost's two
// 4 B table starts and skips it; the CFL rate reads every cell once a step.
double bytes_per_cell(int s, std::size_t real) {
  const double r = static_cast<double>(real), cell = r * equations, ghosts = 12.0 / s;
  const double update = cell + ghosts * cell + 2.0 / 3 * cell + cell + 4.0 * s * 7 * r / (s * s);
  const double fill = ghosts * 8;
  return update + fill + cell / stages;
}

// The two problem families: air with a helium disc of radius 0.2 (ideal gases, the paper's), and air with a
// water disc (stiffened gas, γ 4.4, p∞ 6e8 Pa, in units of 1e5 Pa and 1000 kg/m³), both at rest in pressure
// with a shear wave, so that every WENO stencil sees smooth data or a contact, as in a two-phase run.
struct Family {
  const char* suffix;
  mrag::StiffenedGas disc;
  double disc_rho;
  double p;
  double speed;
};
const Family families[] = {{"", {1.648, 0}, 0.138, 1.0, 0.5}, {" stiffened", {4.4, 6000}, 1000, 1.0, 0.5}};

mrag::FaceState initial_state(const Family& family, double x, double y) {
  const mrag::StiffenedGas air{1.4, 0};
  const bool inside = (x - 0.5) * (x - 0.5) + (y - 0.5) * (y - 0.5) < 0.04;
  const mrag::StiffenedGas& gas = inside ? family.disc : air;
  return {inside ? family.disc_rho : 1.0,
          family.speed + 0.1 * std::sin(2 * pi * y),
          0.1 * std::sin(2 * pi * x),
          family.p,
          gas.big_gamma(),
          gas.big_pi()};
}

class CompressibleBench {
 public:
  CompressibleBench(const core::DeviceSet& devices, const BenchOptions& options)
      : devices_(devices),
        queue_(devices.compute(0)),
        options_(options),
        report_{"compressible", devices.device(0).info, reference_bandwidth(queue_).copy.median, {}} {
    core::FlopOptions flop_options;
    flop_options.repeats = options.repeats;
    peak64_ = core::measure_flops(queue_, core::Precision::f64, flop_options).gflops.median;
    peak32_ = core::measure_flops(queue_, core::Precision::f32, flop_options).gflops.median;
    std::cerr << "  peak multiply-add rate: " << core::number_text(peak64_, 4) << " GFLOP/s fp64, "
              << core::number_text(peak32_, 4) << " fp32\n";
  }

  BenchReport run() {
    const bool gpu = report_.device.kind == core::DeviceKind::gpu;
    for (int n : gpu ? std::vector<int>{1024, 2048, 4096, 8192} : std::vector<int>{256, 512}) {
      const std::string size = std::to_string(n) + "^2";
      const double needed = 4.0 * n * n * 8 * equations;
      if (needed > 0.8 * static_cast<double>(report_.device.global_mem)) {
        std::cerr << "  " << size << ": skipped, " << core::number_text(needed / 1e9, 3) << " GB of state\n";
        continue;
      }
      uniform_cases(n);
      if (devices_.size() > 1) split_case(n);
    }
    // On GPUs level 8 has 4.0e8 finest cells, 1.5 times a 16,384² grid.
    for (int level : gpu ? std::vector<int>{3, 5, 8} : std::vector<int>{1, 2}) {
      adaptive_case(level, false, Adapting::with_next_step);
      adaptive_case(level, false, Adapting::between_steps);
      if (devices_.size() > 1) adaptive_case(level, true, Adapting::with_next_step);
    }
    for (int level : gpu ? std::vector<int>{5, 8} : std::vector<int>{2}) local_steps_case(level);
    return std::move(report_);
  }

 private:
  void uniform_cases(int n) {
    for (const core::Precision precision : {core::Precision::f64, core::Precision::f32})
      for (const Family& family : families) {
        if (precision == core::Precision::f32)
          family_cases<float>(n, family);
        else
          family_cases<double>(n, family);
      }
  }

  // The flow of `tree` on the first device, or with `split` over every device in equal shares (docs/mrag.md,
  // Several devices).
  std::unique_ptr<mrag::BlockFlow> make_flow(bool split, const mrag::BlockTree& tree, const mrag::Sides& sides,
                                             double root_size, core::Precision precision = core::Precision::f64) {
    if (!split)
      return std::make_unique<mrag::BlockFlow>(queue_, tree, block, sides, root_size, mrag::TimeScheme::ssp_rk3,
                                               precision);
    const std::vector<double> equal(devices_.size(), 1.0);
    return std::make_unique<mrag::BlockFlow>(devices_, tree, block, sides, root_size, mrag::TimeScheme::ssp_rk3,
                                             precision, mrag::SpatialScheme{}, equal);
  }

  // The FP64 air-helium step of an n² grid split over every device, against the first device alone, whose
  // rate the uniform cases just measured (the goal: two H200s at least 1.8 times one).
  void split_case(int n) {
    const std::string size = std::to_string(n) + "^2",
                      name = size + " step on " + std::to_string(devices_.size()) + " devices";
    if (!options_.wants(name)) return;
    const int roots = n / block;
    auto flow = with_progress(name + " set-up", [&] {
      auto f = make_flow(true, mrag::BlockTree(roots, roots, 0),
                         mrag::sides(mrag::Edge::periodic, mrag::Edge::periodic), 1.0 / roots);
      f->set([&](double x, double y) { return initial_state(families[0], x, y); });
      return f;
    });
    const double cells = static_cast<double>(n) * n;
    const double one = uniform_rate_;
    step_case(name, *flow, cells, 0, 0,
              {{"cells", cells},
               {"block", block},
               {"devices", devices_.size()},
               {"one_device_rate", one},
               {"efficiency_is", "rate / (devices x the first device's rate alone)"}});
    BenchCase& result = report_.cases.back();
    const double rate = result.stats.median;
    result.efficiency = one > 0 ? rate / (one * static_cast<double>(devices_.size())) : 0;
    result.params["speed_up"] = one > 0 ? rate / one : 0;
    result.params["goal_h200"] = "two H200s >= 1.8x one";
    std::cerr << "  " << name << ": " << core::number_text(one > 0 ? rate / one : 0, 3) << "x one device\n";
  }

  // One grid and problem family in the precision of Real: "step", "update" and, for the ideal gases,
  // "ghosts" cases.
  template <class Real>
  void family_cases(int n, const Family& family) {
    constexpr bool fp32 = std::is_same_v<Real, float>;
    const std::string size = std::to_string(n) + "^2", suffix = family.suffix + std::string(fp32 ? " fp32" : "");
    const bool stiffened = family.disc.p_inf > 0;
    if (!options_.wants(size + " step" + suffix) && !options_.wants(size + " update" + suffix) &&
        !(options_.wants(size + " ghosts" + suffix) && !stiffened))
      return;
    const int roots = n / block;
    const double cells = static_cast<double>(n) * n;
    auto flow = with_progress(size + suffix + " set-up", [&] {
      auto f =
          make_flow(false, mrag::BlockTree(roots, roots, 0), mrag::sides(mrag::Edge::periodic, mrag::Edge::periodic),
                    1.0 / roots, mrag::precision_of<Real>);
      f->set([&](double x, double y) { return initial_state(family, x, y); });
      return f;
    });
    mrag::BlockRhs<Real> rhs(queue_, flow->tree(), block, flow->sides(), flow->root_size(), stiffened);
    const double flops = flops_per_cell(block, rhs.tile_rows(), stiffened);
    const double bytes = bytes_per_cell(block, sizeof(Real)), peak = fp32 ? peak32_ : peak64_;
    const nlohmann::json params = {
        {"cells", cells},
        {"block", block},
        {"tile_rows", rhs.tile_rows()},
        {"blocks", flow->tree().leaves().size()},
        {"closure", stiffened ? "air and water (stiffened gas)" : "air and helium (ideal)"},
        {"flops_per_cell_stage", flops},
        {"bytes_per_cell_stage", bytes},
        {"peak_gflops", peak},
        {"precision", fp32 ? "fp32 (WENO smoothness indicators and weights in fp64)" : "fp64"},
        {"efficiency_is",
         std::string("FLOPs per cell-stage x rate / ") + (fp32 ? "fp32" : "fp64") + " peak multiply-add rate"}};
    step_case(size + " step" + suffix, *flow, cells, flops / peak, bytes, params);
    if (!fp32 && !stiffened && options_.wants(size + " step" + suffix))
      uniform_rate_ = report_.cases.back().stats.median;
    core::Buffer<Real> q(queue_.context(), rhs.values()), out(queue_.context(), rhs.values());
    const std::vector<double> state = flow->conserved();
    q.write(queue_, std::span<const Real>(std::vector<Real>(state.begin(), state.end())));
    kernel_case(size + " update" + suffix, cells, flops / peak, params, [&] { rhs(queue_, q, out); });
    if (!stiffened) kernel_case(size + " ghosts" + suffix, cells, 0, params, [&] { rhs.ghosts().fill(queue_, q); });
  }

  // The Haas–Sturtevant shock–bubble (mrag::ShockBubble) on blocks of 32² cells up to `level`, adapted every
  // adapt_every steps: after the initial state's adaptation passes and one adaptation period untimed,
  // adaptive_periods periods of steps and adaptations timed apart. Reports cell-updates per second per stage
  // over the active cells, against the uniform air-helium grid's rate measured last (the goal: a
  // time per active cell at most 1.4x the uniform grid's), the adaptations' share of the time over all
  // periods and over the second half (goal: with the ghosts, at most 25 %), and the compression: active
  // cells over the finest level's. With `split` over every device, against the same case on the first
  // device alone. The adaptations are carried out by the step after them, as a run does
  // (BlockFlow::adapt_with_next_step), that step's time beyond the period's other steps' mean counted as the
  // adaptation's; or between the steps, for comparison.
  enum class Adapting { with_next_step, between_steps };
  void adaptive_case(int level, bool split, Adapting how) {
    const bool apart = how == Adapting::between_steps;
    const std::string name = "shock-bubble level " + std::to_string(level) +
                             (split ? " on " + std::to_string(devices_.size()) + " devices" : "") +
                             (apart ? " adapted between steps" : "");
    if (!options_.wants(name)) return;
    using mrag::ShockBubble;
    const auto flow = with_progress(name + " set-up", [&] { return shock_bubble(level, split); });
    const double finest =
        static_cast<double>(ShockBubble::roots_x) * ShockBubble::roots_y * block * block * std::pow(4.0, level);
    double step_s = 0, adapt_s = 0, cell_stages = 0, active = 0, late_step_s = 0, late_adapt_s = 0;
    int timed = 0;
    for (int period = 0; period <= adaptive_periods; ++period) {
      const bool late = period > adaptive_periods / 2;
      const core::WallTimer adapting;
      if (apart)
        flow->adapt(adapt_refine, adapt_compress);
      else
        flow->adapt_with_next_step(adapt_refine, adapt_compress);
      devices_.finish();
      double adapt_period_s = adapting.seconds();
      std::vector<double> steps(adapt_every);
      for (double& seconds : steps) {
        const core::WallTimer stepping;
        flow->step(flow->stable_dt(courant));
        devices_.finish();
        seconds = stepping.seconds();
      }
      if (!apart) {
        const double others = (std::accumulate(steps.begin(), steps.end(), 0.0) - steps[0]) / (adapt_every - 1);
        adapt_period_s += steps[0] - others;
        steps[0] = others;
      }
      if (period > 0) adapt_s += adapt_period_s;
      if (late) late_adapt_s += adapt_period_s;
      for (const double seconds : steps) {
        if (period == 0) continue;
        step_s += seconds;
        if (late) late_step_s += seconds;
        const double cells = static_cast<double>(flow->tree().leaves().size()) * block * block;
        cell_stages += cells * stages;
        active += cells;
        ++timed;
      }
      std::cerr << "  " << name << ": period " << period << " of " << adaptive_periods << ", "
                << flow->tree().leaves().size() << " leaves\n";
    }
    const double rate = cell_stages / step_s * 1e-9, ratio = uniform_rate_ > 0 ? rate / uniform_rate_ : 0;
    // The ghost fill's share of a stage on the last grid, by device events.
    mrag::BlockRhs<double> rhs(queue_, flow->tree(), block, flow->sides(), flow->root_size(), false);
    core::Buffer<double> q(queue_.context(), rhs.values()), out(queue_.context(), rhs.values());
    q.write(queue_, std::span<const double>(flow->conserved()));
    const double stage_s = core::summarize(seconds_of([&] { rhs(queue_, q, out); })).median;
    const double fill_s = core::summarize(seconds_of([&] { rhs.ghosts().fill(queue_, q); })).median;
    const double adapt_share = adapt_s / (adapt_s + step_s), ghost_share = fill_s / stage_s;
    const double late_share = late_adapt_s / (late_adapt_s + late_step_s);
    nlohmann::json params = {{"level", level},
                             {"adapted", apart ? "between steps" : "with the next step"},
                             {"block", block},
                             {"finest_cells", finest},
                             {"mean_active_cells", active / timed},
                             {"compression", active / timed / finest},
                             {"timed_steps", timed},
                             {"adapt_every", adapt_every},
                             {"step_s", step_s},
                             {"adapt_s", adapt_s},
                             {"adapt_share", adapt_share},
                             {"stage_update_ms", stage_s * 1e3},
                             {"ghost_fill_ms", fill_s * 1e3},
                             {"ghost_share_of_stage", ghost_share},
                             {"adapt_and_ghost_share", adapt_share + (1 - adapt_share) * ghost_share},
                             {"second_half_adapt_ms", late_adapt_s / (adaptive_periods - adaptive_periods / 2) * 1e3},
                             {"second_half_adapt_share", late_share},
                             {"second_half_adapt_and_ghost_share", late_share + (1 - late_share) * ghost_share},
                             {"uniform_rate", uniform_rate_},
                             {"efficiency_is",
                              "rate over active cells / the uniform air-helium grid's rate "
                              "(goal >= 1/1.4; 0 when no uniform step case ran)"},
                             {"goal_h200", "time per active cell <= 1.4x uniform; adaptation share <= 25 %"}};
    std::cerr << "  " << name << ": " << core::number_text(rate, 4) << " Gcell/s per stage over active cells, "
              << "adaptation " << core::number_text(100 * adapt_share, 3) << " % of the time ("
              << core::number_text(100 * late_share, 3) << " % in the second half), ghosts "
              << core::number_text(100 * ghost_share, 3) << " % of a stage, "
              << "compression " << core::number_text(active / timed / finest, 3) << "\n";
    if (split) {
      params["devices"] = devices_.size();
      params["one_device_rate"] = adaptive_rate_;
      params["speed_up"] = adaptive_rate_ > 0 ? rate / adaptive_rate_ : 0;
    } else if (!apart) {
      adaptive_rate_ = rate;
    }
    report_.add({name, "Gcell/s", {rate, rate, rate, 1}, 0, ratio, params});
  }

  // The shock–bubble up to `level`, its initial state adapted to level + 1 times; with `local_depth` > 0
  // its finest levels stepped locally.
  std::unique_ptr<mrag::BlockFlow> shock_bubble(int level, bool split, int local_depth = 0) {
    using mrag::ShockBubble;
    auto f = make_flow(split, mrag::BlockTree(ShockBubble::roots_x, ShockBubble::roots_y, level), ShockBubble::sides(),
                       ShockBubble::root_size);
    f->local_time_steps(local_depth);
    f->set(ShockBubble::initial);
    for (int pass = 0; pass <= level; ++pass) {
      f->adapt(adapt_refine, adapt_compress);
      f->set(ShockBubble::initial);
    }
    return f;
  }

  // The shock–bubble up to `level` over the simulated time that local_periods periods of global steps cover,
  // with global steps and with the finest local_depths levels stepped locally, adapted as often in
  // simulated time (every adapt_every / 2^depth steps, each a step of the coarsest levels). Reports the
  // wall time of each against the global steps' (a speed-up), and the cell-stages each updates.
  void local_steps_case(int level) {
    const std::string name = "shock-bubble level " + std::to_string(level) + " local steps";
    if (!options_.wants(name)) return;
    double span = 0, global_s = 0, global_adapt_s = 0, global_updates = 0;
    for (int depth : {0, local_depths[0], local_depths[1], local_depths[2]}) {
      const auto flow = with_progress(name + " " + std::to_string(depth) + " set-up",
                                      [&] { return shock_bubble(level, false, depth); });
      const double start = flow->time();
      double updates = 0, adapt_s = 0;
      long steps = 0, until_adapt = 0;
      const core::WallTimer timer;
      while (depth == 0 ? steps < local_periods * adapt_every : flow->time() - start < span) {
        if (until_adapt-- == 0) {
          devices_.finish();
          const core::WallTimer adapting;
          flow->adapt(adapt_refine, adapt_compress);
          devices_.finish();
          adapt_s += adapting.seconds();
          const std::vector<std::uint32_t> groups = mrag::local_step_groups(flow->tree(), depth);
          until_adapt = std::max(1, adapt_every >> *std::max_element(groups.begin(), groups.end())) - 1;
        }
        double dt = flow->stable_dt(courant);
        if (depth > 0) dt = std::min(dt, span - (flow->time() - start));
        flow->step(dt);
        updates += cell_updates(flow->tree(), depth);
        ++steps;
      }
      devices_.finish();
      const double seconds = timer.seconds();
      std::cerr << "  " << name << ", depth " << depth << ": " << steps << " steps in " << core::number_text(seconds, 3)
                << " s, " << core::number_text(adapt_s, 3) << " s of them adapting\n";
      if (depth == 0) {
        span = flow->time() - start;
        global_s = seconds;
        global_adapt_s = adapt_s;
        global_updates = updates;
        continue;
      }
      const double speed_up = global_s / seconds;
      report_.add({name + " depth " + std::to_string(depth), "x", {speed_up, speed_up, speed_up, 1}, 0, 0,
                   {{"level", level},
                    {"local_depth", depth},
                    {"simulated_time", span},
                    {"steps", steps},
                    {"wall_s", seconds},
                    {"global_wall_s", global_s},
                    {"adapt_s", adapt_s},
                    {"global_adapt_s", global_adapt_s},
                    {"cell_updates", updates},
                    {"global_cell_updates", global_updates},
                    {"updates_saved", 1 - updates / global_updates},
                    {"value_is",
                     "wall time of global steps / wall time of local steps over the same simulated time"}}});
    }
  }

  // Cell-updates of one step of `tree` whose finest `depth` levels step locally: a leaf of group g
  // (mrag::LocalSteps) takes 2^g steps, its stages and cells each an update.
  static double cell_updates(const mrag::BlockTree& tree, int depth) {
    double updates = 0;
    for (const std::uint32_t g : mrag::local_step_groups(tree, depth)) updates += std::ldexp(1.0, static_cast<int>(g));
    return updates * block * block * stages;
  }

  // Whole steps at Courant 0.5 as a run takes them: the CFL rate read back, then the three stages.
  // `work` is the FLOPs per cell-stage over the peak rate (GFLOP/s), so that rate x work is the efficiency.
  void step_case(const std::string& name, mrag::BlockFlow& flow, double cells, double work, double bytes,
                 nlohmann::json params) {
    if (!options_.wants(name)) return;
    std::vector<double> rates, ms;
    for (int k = 0; k < warmup_steps + options_.repeats; ++k) {
      const core::WallTimer timer;
      flow.step(flow.stable_dt(courant));
      devices_.finish();
      if (k < warmup_steps) continue;
      ms.push_back(timer.seconds() * 1e3);
      rates.push_back(cells * stages / timer.seconds() * 1e-9);
    }
    const core::Summary rate = core::summarize(rates);
    params["step_ms"] = core::summarize(ms).median;
    params["grind_ns_per_cell_equation_rhs"] = 1 / (rate.median * equations);
    params["bandwidth_efficiency"] = rate.median * bytes / report_.reference_bandwidth_GBs;
    params["goal_h200"] = ">= 5 Gcell-updates/s per stage in fp64, >= 15 in fp32";
    std::cerr << "  " << name << ": " << core::number_text(rate.median, 4) << " Gcell/s per stage, "
              << core::number_text(params["step_ms"].get<double>(), 4) << " ms a step\n";
    report_.add({name, "Gcell/s", rate, bytes, rate.median * work, params});
  }

  // Cell-updates per second of one enqueue, by device events; `work` as step_case's, 0 for a case without
  // FLOPs.
  void kernel_case(const std::string& name, double cells, double work, nlohmann::json params,
                   const std::function<void()>& enqueue) {
    if (!options_.wants(name)) return;
    const std::vector<double> seconds = seconds_of(enqueue);
    std::vector<double> rates;
    for (double s : seconds) rates.push_back(cells / s * 1e-9);
    const core::Summary rate = core::summarize(rates);
    params["median_ms"] = core::summarize(seconds).median * 1e3;
    if (work == 0) params["efficiency_is"] = "none";
    std::cerr << "  " << name << ": " << core::number_text(rate.median, 4) << " Gcell/s\n";
    report_.add({name, "Gcell/s", rate, 0, rate.median * work, params});
  }

  // The device time of `repeats` enqueues, each alone.
  std::vector<double> seconds_of(const std::function<void()>& enqueue) {
    if (stamp_.size() == 0) stamp_ = core::Buffer<double>(queue_.context(), 1);
    return launch_seconds(queue_, stamp_, options_.repeats, 1, enqueue);
  }

  const core::DeviceSet& devices_;
  const core::Queue& queue_;
  const BenchOptions& options_;
  BenchReport report_;
  double peak64_ = 0, peak32_ = 0;
  // The last uniform air-helium FP64 step rate, which the adaptive cases compare with.
  double uniform_rate_ = 0;
  // The last adaptive case's rate on the first device, which its split over every device compares with.
  double adaptive_rate_ = 0;
  core::Buffer<double> stamp_;
};

}  // namespace

BenchReport compressible_benchmark(const core::DeviceSet& selected, const BenchOptions& options) {
  return CompressibleBench(selected, options).run();
}

}  // namespace hetflow::app
