#include "hetflow/app/chem/chem_bench.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "hetflow/app/bench/reference.hpp"
#include "hetflow/chem/partly_burnt.hpp"
#include "hetflow/chem/reactor_source.hpp"
#include "hetflow/chem/yaml_mechanism.hpp"
#include "hetflow/core/buffer.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/core/event.hpp"
#include "hetflow/core/probe.hpp"
#include "hetflow/core/program.hpp"

namespace hetflow::app {
namespace {

namespace fs = std::filesystem;

// $HETFLOW_MECHANISMS, or data/mechanisms of the source tree this file was compiled from (CMake
// passes absolute source paths), so a build tree runs the benchmark without setup.
fs::path mechanism_dir() {
  if (const char* dir = std::getenv("HETFLOW_MECHANISMS"); dir && *dir) return dir;
  fs::path root = __FILE__;
  for (int up = 0; up < 5; ++up) root = root.parent_path();  // past src/hetflow/app/chem/chem_bench.cpp
  return root / "data" / "mechanisms";
}

// System i of `count`: chem::partly_burnt_states (Sewerin & Rigopoulos 2015), all at 1 atm.
ode::Batch states(const chem::FuelAirPoints& f, std::size_t count, double dt) {
  ode::Batch b;
  b.y0 = chem::partly_burnt_states(f, count);
  b.params.assign(count, chem::one_atm);
  b.t_end = {dt};
  // No sort_key, as the reactor_batch case: integrate() (timed) runs them in the solver's order
  // (ode::Order: of initial rate on GPUs).
  return b;
}

// The paper's tolerances (Sewerin & Rigopoulos 2015): species atol 1e-8, rtol 1e-5; temperature atol and
// rtol 1e-5. The first step is the chemistry cases' default, 1e-10 s: from RADAU5's own 1e-6 s (the whole
// interval at dt = 1e-6 s) RADAU5 accepts a first step far off the solution for some n-dodecane states
// (T < 0) and then creeps on in tiny steps until it gives up.
ode::Options paper_options(std::size_t n) {
  ode::Options o;
  o.h0 = 1e-10;
  o.rtol.assign(n, 1e-5);
  o.atol.assign(n, 1e-8);
  o.atol.back() = 1e-5;
  return o;
}

// rtol 1e-8, atol 1e-14 for every component: near the accuracy of the validation runs, where the nearly
// unburnt n-dodecane states, whose radicals the paper's species atol leaves free to go negative, fail far
// less often (docs/chem.md, Limitations).
ode::Options tight_options(std::size_t) {
  ode::Options o;
  o.h0 = 1e-10;
  o.rtol = {1e-8};
  o.atol = {1e-14};
  return o;
}

// A tolerance set of the benchmark: its word in the case names ("" for the paper's) and its options.
struct Tolerances {
  const char* word;
  ode::Options (*options)(std::size_t n);
  const char* what;
};
constexpr Tolerances tolerance_sets[] = {
    {"", paper_options, "paper: species rtol 1e-5, atol 1e-8; temperature rtol and atol 1e-5"},
    {"tight", tight_options, "tight: rtol 1e-8, atol 1e-14 for every component"}};

const char* mapping_name(ode::Mapping m) {
  return m == ode::Mapping::work_group ? "work_group (mapping 2)"
         : m == ode::Mapping::phased   ? "phased (mapping 1's steps, decompositions by work-group)"
                                       : "work_item (mapping 1)";
}

struct Mechanism {
  std::string label, file, phase, fuel;
  bool paper;  // GRI 3.0: the paper's Table 5 has it
};

// Per-system means of the counters, and the spread of steps (the stiffness inhomogeneity of
// Sewerin & Rigopoulos 2015). The
// evaluations, decompositions and solves give the work a run does, to set beside the rates of rhs() and
// jac() alone (the `rhs` and `jac` cases).
nlohmann::json counters(const ode::Result& r) {
  double steps = 0, accepted = 0, rejected = 0, jacobians = 0, evaluations = 0, decompositions = 0, solves = 0;
  long least = r.statistics.front().nstep, most = least;
  for (const ode::Statistics& s : r.statistics) {
    steps += double(s.nstep);
    accepted += double(s.naccpt);
    rejected += double(s.nrejct);
    jacobians += double(s.njac);
    evaluations += double(s.nfcn);
    decompositions += double(s.ndec);
    solves += double(s.nsol);
    least = std::min(least, s.nstep);
    most = std::max(most, s.nstep);
  }
  const double count = double(r.statistics.size());
  return {{"mean_steps", steps / count},
          {"mean_accepted", accepted / count},
          {"mean_rejected", rejected / count},
          {"mean_jacobians", jacobians / count},
          {"mean_rhs_evaluations", evaluations / count},
          {"mean_decompositions", decompositions / count},
          {"mean_solves", solves / count},
          {"min_steps", least},
          {"max_steps", most},
          {"failures", r.failures()}};
}

// Radau5 splits a batch over every device of its set; the benchmark rates the first device alone.
std::optional<core::DeviceSet> first_alone(const core::DeviceSet& selected) {
  if (selected.size() == 1) return std::nullopt;
  std::cerr << "  chem: measuring " << selected.device(0).label() << " alone\n";
  return core::DeviceSet(std::vector<core::Device>{selected.device(0)});
}

// ---- The mechanism's own functions alone --------------------------------------------------------------

// rhs() and jac() at one state per work-item, `repeats` times each, declared as RADAU5's kernels declare
// them (radau5.cl: out of line on GPUs). The temperature moves by a part in 1e12 per repeat, so no
// evaluation repeats the last one.
constexpr const char* function_prototypes = R"(
#if FUNCTIONS_OUTLINED
#define USER_FUNCTION __attribute__((noinline))
#else
#define USER_FUNCTION
#endif
USER_FUNCTION void rhs(double t, const double* y, double* f, __global const double* p);
USER_FUNCTION void jac(double t, const double* y, double* dfdy, __global const double* p);
)";
constexpr const char* function_kernels = R"(
#define N (CHEM_K + 1)
// function(0, y, out, p) `repeats` times at the work-item's state; entry `pick` of each result is summed.
#define REPEATED(function, values, pick)                                                              \
  __kernel void function##_repeated(__global const double* y, __global const double* p, __global double* out, \
                                    int repeats) {                                                    \
    const size_t s = get_global_id(0);                                                                \
    double ys[N], v[values];                                                                          \
    for (int k = 0; k < N; ++k) ys[k] = y[s * N + k];                                                 \
    const double t0 = ys[CHEM_K];                                                                     \
    double sum = 0.0;                                                                                 \
    for (int r = 0; r < repeats; ++r) {                                                               \
      ys[CHEM_K] = t0 * (1.0 + 1e-12 * r);                                                            \
      function(0.0, ys, v, p + s);                                                                    \
      sum += v[pick];                                                                                 \
    }                                                                                                 \
    out[s] = sum;                                                                                     \
  }
REPEATED(rhs, N, r % N)
REPEATED(jac, N * N, (r * 97) % (N * N))
)";

// Evaluations per second of rhs() or jac() (`function`) over the batch's states, timed on the host
// around the launch and its finish. A diagnostic beside the systems/s cases: RADAU5 evaluates rhs()
// about ten times and jac() once or twice per system at these steps (the cases' counters).
BenchCase function_rate(const core::DeviceSet& devices, const chem::Mechanism& m, const std::string& mechanism,
                        const ode::Batch& batch, const std::string& function, const std::string& name, int repeats,
                        const BenchOptions& options) {
  const core::Context& ctx = devices.context(0);
  const core::Queue& q = devices.compute(0);
  const bool gpu = devices.device(0).info.kind == core::DeviceKind::gpu;
  const std::string source = std::string(function_prototypes) + chem::reactor_system(m).source + function_kernels;
  const core::Program program = core::build_program(ctx, "chem bench functions", source,
                                                    std::string("-DFUNCTIONS_OUTLINED=") + (gpu ? "1" : "0"));
  core::Kernel kernel = program.kernel(function + "_repeated");
  const std::size_t count = batch.params.size();
  core::Buffer<double> y(ctx, batch.y0.size()), p(ctx, count), out(ctx, count);
  y.write(q, batch.y0);
  p.write(q, batch.params);
  kernel.args(y, p, out, static_cast<cl_int>(repeats));
  // PoCL, left to choose the groups, crashed (a segmentation fault, 2 cores) in GRI-Mech 3.0's jac(),
  // whose private matrix takes 23 KB a work-item; in ode/radau5_launch.cpp's CPU groups of 4 it runs.
  const core::NDRange local = gpu ? core::NDRange{} : core::NDRange(4);
  kernel.launch(q, count, local);
  q.finish();
  std::vector<double> rate;
  for (int r = 0; r < std::max(options.repeats, 1); ++r) {
    const core::WallTimer timer;
    kernel.launch(q, count, local);
    q.finish();
    rate.push_back(double(count) * repeats / timer.seconds());
  }
  nlohmann::json params = {{"mechanism", mechanism},
                           {"function", function},
                           {"states", count},
                           {"evaluations_per_state", repeats},
                           {"limit", "none established: a diagnostic of the share of the mechanism's functions"},
                           {"timed", "host wall clock of one launch and its finish"}};
  return {name, "evaluations/s", core::summarize(rate), 0, 0, std::move(params)};
}

}  // namespace

BenchReport chem_benchmark(const core::DeviceSet& selected, const BenchOptions& options) {
  const std::optional<core::DeviceSet> own = first_alone(selected);
  const core::DeviceSet& devices = own ? *own : selected;
  const core::Queue& queue = devices.compute(0);
  const core::DeviceInfo& info = devices.device(0).info;
  if (!info.fp64) throw core::Error("the chem benchmark needs FP64, which " + info.name + " lacks");
  const bool gpu = info.kind == core::DeviceKind::gpu;
  BenchReport report{"chem", info, reference_bandwidth(queue).copy.median, {}};

  core::FlopOptions flop_options;
  flop_options.repeats = options.repeats;
  const double peak64 = core::measure_flops(queue, core::Precision::f64, flop_options).gflops.median;
  std::cerr << "  peak multiply-add rate: " << peak64 << " GFLOP/s fp64\n";

  // A size runs only when its one run is predicted (linearly from the last size) within run_cap; the
  // timed repeats of a size fill about case_budget, at least one. The caps bound the whole benchmark to
  // a few minutes.
  const double run_cap = gpu ? 30.0 : 10.0, case_budget = gpu ? 8.0 : 2.0;
  // 2e4 and 5e4 show where the phased mapping, a work-item per system, nears its plateau on a GPU
  // that holds a few hundred thousand resident work-items; mapping 2 reaches its own by 4,096.
  const std::vector<std::size_t> sizes = {100, 1000, 4096, 10000, 20000, 50000, 100000, 1000000};
  // From 10 to 1268 species, for the rate's fall with n (data/mechanisms/README.md).
  const std::vector<Mechanism> mechanisms = {
      {"gri30", "gri30.yaml", "", "CH4", true},
      {"h2o2", "h2o2.yaml", "", "H2", false},
      {"dodecane_reitz", "nDodecane_Reitz.yaml", "nDodecane_IG", "c12h26", false},
      {"hexane_nuig", "n-hexane-NUIG-2015.yaml", "", "NC6H14", false}};
  const fs::path dir = mechanism_dir();

  auto case_name = [](const Mechanism& mech, const Tolerances& tol, double dt, std::size_t size) {
    char name[80];
    std::snprintf(name, sizeof name, "%s%s%s dt=%g n=%zu", mech.label.c_str(), *tol.word ? " " : "", tol.word, dt,
                  size);
    return std::string(name);
  };
  for (const Mechanism& mech : mechanisms) {
    // A mechanism none of whose cases is wanted is not even read.
    const std::string rhs_name = mech.label + " rhs n=100000", jac_name = mech.label + " jac n=100000";
    bool wanted = options.wants(rhs_name) || options.wants(jac_name);
    for (const Tolerances& tol : tolerance_sets)
      for (const double dt : {1e-6, 1e-4})
        for (const std::size_t size : sizes) wanted = wanted || options.wants(case_name(mech, tol, dt, size));
    if (!wanted) continue;
    const chem::Mechanism m = chem::read_yaml_mechanism(dir / mech.file, mech.phase);
    const std::size_t n = m.species.size() + 1;
    // The defaults: the analytic Jacobian, and the mapping that suits each batch size (built on first use).
    const ode::System system = chem::reactor_system(m);
    std::cerr << "  " << mech.label << ": " << m.species.size() << " species, " << m.reactions.size() << " reactions\n";
    const chem::FuelAirPoints f = chem::fuel_air_points(m, mech.fuel);
    for (const auto& [function, name, repeats] : {std::tuple{"rhs", rhs_name, 10}, std::tuple{"jac", jac_name, 2}})
      // A group_only reactor has no generated rhs() or jac() to time alone.
      if (options.wants(name) && !system.group_only) {
        report.add(
            function_rate(devices, m, mech.label, states(f, 100000, 1e-6), function, name, repeats, options));
        std::cerr << "  " << name << ": " << report.cases.back().stats.median << " evaluations/s\n";
      }

    for (const Tolerances& tol : tolerance_sets) {
      // Built only when one of its cases is wanted: a mechanism's kernels take minutes to build on NVIDIA.
      std::optional<ode::Radau5> built;
      const auto solver = [&]() -> const ode::Radau5& {
        if (!built) built.emplace(devices, system, tol.options(n));
        return *built;
      };
      // The mappings this solver has run: PoCL compiles a kernel for its work-group size at its first
      // launch (seconds for GRI-Mech 3.0), so a mapping's first run is never a sample.
      std::set<ode::Mapping> launched;
      for (const double dt : {1e-6, 1e-4}) {
        const std::size_t first_case = report.cases.size();
        double last_seconds = 0;
        std::size_t last_size = 0;
        for (const std::size_t size : sizes) {
          const std::string name = case_name(mech, tol, dt, size);
          if (!options.wants(name)) continue;
          if (last_size != 0 && last_seconds * double(size) / double(last_size) > run_cap) {
            std::cerr << "  " << mech.label << (*tol.word ? " " : "") << tol.word << " dt=" << dt << ": stopping before " << size
                      << " systems (one run would pass " << run_cap << " s)\n";
            break;
          }
          // A mechanism's kernels can take minutes to build and a large mechanism's batch tens of seconds to
          // run: each case says when it starts.
          std::cerr << "  " << name << ": integrating " << size << " systems\n";
          const ode::Batch batch = states(f, size, dt);
          // Builds the mapping this size takes before any timing: the first size past the switch would
          // otherwise time the other mapping's build (minutes for GRI-Mech 3.0 on NVIDIA) as its run.
          solver().prepare(size);
          const core::WallTimer warm_timer;
          const ode::Result warm = solver().integrate(batch);
          const double warm_seconds = warm_timer.seconds();
          // A size where some systems fail has no rate to give: it is recorded as failed, with its counters
          // and the solver's report, and the larger sizes of this dt (the same states and more) are skipped,
          // so that the cases measured so far and the other mechanisms are kept.
          if (warm.failures() != 0) {
            std::cerr << "  " << name << ": " << warm.failures() << " of " << size << " systems failed; skipping the "
                      << "larger sizes at this dt\n"
                      << warm.report();
            nlohmann::json params = counters(warm);
            params.update({{"mechanism", mech.label},
                           {"dt_s", dt},
                           {"systems", size},
                           {"tolerances", tol.what},
                           {"failed", warm.report()}});
            report.add({name, "systems/s", core::Summary{}, 0, 0, std::move(params)});
            break;
          }
          // A run as long as the budget is its own sample, unless it was its mapping's first on a CPU, where
          // PoCL compiled a kernel at its launch: prepare() built the GPU's kernels, and every integrate()
          // allocates its buffers afresh, so a later run costs what the others do. A large mechanism's batch can
          // take minutes on a GPU, which a second run would double.
          const bool first_of_mapping = launched.insert(solver().mapping(size)).second;
          const bool warm_counts = (gpu || !first_of_mapping) && warm_seconds >= case_budget;
          const int repeats = warm_counts ? 0 : std::clamp(int(case_budget / warm_seconds), 1, options.repeats);
          std::vector<double> rate;
          if (warm_counts) rate.push_back(double(size) / warm_seconds);
          for (int r = 0; r < repeats; ++r) {
            const core::WallTimer timer;
            solver().integrate(batch);
            rate.push_back(double(size) / timer.seconds());
          }
          const core::Summary stats = core::summarize(rate);
          last_seconds = double(size) / stats.median;
          last_size = size;

          nlohmann::json params = counters(warm);
          params.update({{"mechanism", mech.label},
                         {"species", m.species.size()},
                         {"reactions", m.reactions.size()},
                         {"dt_s", dt},
                         {"systems", size},
                         {"mapping", mapping_name(solver().mapping(size))},
                         {"max_registers", solver().launch_shape(size).max_registers},
                         {"jacobian", solver().analytic_jacobian() ? "analytic" : "finite_difference"},
                         {"pressure_Pa", chem::one_atm},
                         {"tolerances", tol.what},
                         {"seconds_per_run", last_seconds},
                         {"peak_fp64_gflops", peak64},
                         {"timed", "host wall clock of Radau5::integrate: packing, transfers and kernel"},
                         {"states",
                          "flamelet point i mod 12 (phi 0.5..2) mixed (1-c) unburnt 300 K + c burnt, "
                          "c = frac((i+1) 0.618...)"},
                         {"efficiency_is", "systems/s / the highest systems/s of this mechanism, tolerance set and dt"}});
          if (mech.paper && dt == 1e-6 && !*tol.word)
            params["paper_table5_systems_per_s"] = {{"Quadro 6000", 2344},
                                                    {"Quadro 600", 113},
                                                    {"Xeon E5-2687W, 16 MPI ranks", 4334},
                                                    {"Core i5-520M, 4 MPI ranks", 743}};
          report.add({name, "systems/s", stats, 0, 0, std::move(params)});
          std::cerr << "  " << name << ": " << stats.median << " systems/s\n";
        }
        double plateau = 0;
        for (std::size_t c = first_case; c < report.cases.size(); ++c)
          plateau = std::max(plateau, report.cases[c].stats.median);
        if (plateau > 0)
          for (std::size_t c = first_case; c < report.cases.size(); ++c)
            report.cases[c].efficiency = report.cases[c].stats.median / plateau;
      }
    }
  }
  return report;
}

}  // namespace hetflow::app
