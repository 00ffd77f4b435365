#include "hetflow/app/chem/reactor_batch_case.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <random>

#include "hetflow/app/chem/chem_case_setup.hpp"
#include "hetflow/app/chem/radau5_tunable.hpp"
#include "hetflow/app/csv_text.hpp"
#include "hetflow/chem/reactor_source.hpp"
#include "hetflow/core/build_notice.hpp"
#include "hetflow/core/event.hpp"
#include "hetflow/core/number_text.hpp"
#include "hetflow/io/atomic_file.hpp"
#include "hetflow/io/csv.hpp"
#include "hetflow/io/interrupt.hpp"

namespace hetflow::app {
namespace {

namespace fs = std::filesystem;

// The initial states (mass fractions then T, pressures in Pa): from batch.file, or sampled.
void initial_states(const casefile::Case& c, const chem::Mechanism& m, const Composition& fuel,
                    const Composition& oxidizer, std::vector<double>& y0, std::vector<double>& pressures) {
  const std::size_t n = m.species.size() + 1;
  if (!c.get<std::string>("batch.file").empty()) {
    const io::CsvTable table = io::read_csv(c.get<std::string>("batch.file"));
    const std::size_t T = table.column("T"), p = table.column("p");
    for (const auto& row : table.rows) {
      std::vector<double> x(m.species.size(), 0.0);
      for (std::size_t j = 0; j < table.columns.size(); ++j) {
        const int k = m.species_index(table.columns[j]);
        if (k >= 0) x[static_cast<std::size_t>(k)] = row[j];
      }
      double sum = 0;
      for (const double v : x) sum += v;
      for (double& v : x) v /= sum;
      const std::vector<double> y = mass_fractions(m, x);
      y0.insert(y0.end(), y.begin(), y.end());
      y0.push_back(row[T]);
      pressures.push_back(pressure_in_pa(c, "batch.pressure_unit", row[p]));
    }
    return;
  }
  std::mt19937_64 random(static_cast<std::uint64_t>(c.get<long>("batch.seed")));
  const auto uniform = [&](const char* key) {
    const auto r = c.get<std::vector<double>>(key);
    return std::uniform_real_distribution<double>(r[0], std::nextafter(r[1], r[1] + 1))(random);
  };
  const auto count = static_cast<std::size_t>(c.get<long>("batch.count"));
  y0.reserve(count * n);
  for (std::size_t i = 0; i < count; ++i) {
    const double T = uniform("batch.temperature"), p = uniform("batch.pressure"), phi = uniform("batch.phi");
    const std::vector<double> y = mass_fractions(m, mixture_mole_fractions(m, fuel, oxidizer, phi));
    y0.insert(y0.end(), y.begin(), y.end());
    y0.push_back(T);
    pressures.push_back(pressure_in_pa(c, "batch.pressure_unit", p));
  }
}

// The line a run ends with: how many systems came through, how fast, and their final temperatures.
std::string batch_headline(std::size_t systems, std::size_t integrated, std::size_t failed, std::size_t n, double dt,
                           double seconds, double coolest, double hottest) {
  char line[512];
  std::snprintf(line, sizeof line,
                "reactor_batch: %zu of %zu systems of %zu equations integrated over dt = %s s in "
                "%.3f s (%.1f systems/s), %zu failed, %zu interrupted",
                integrated, systems, n, core::number_text(dt, 6).c_str(), seconds,
                static_cast<double>(integrated) / seconds, failed, systems - integrated);
  std::string text = line;
  if (integrated > failed) {
    std::snprintf(line, sizeof line, "; final T %.1f to %.1f K", coolest, hottest);
    text += line;
  }
  return text;
}

}  // namespace

std::size_t progress_chunk_systems(const core::DeviceSet& devices, const ode::System& system, std::size_t systems) {
  std::size_t least = 16;
  for (std::size_t k = 0; k < devices.size(); ++k) {
    const core::DeviceInfo& d = devices.device(k).info;
    if (d.kind == core::DeviceKind::gpu)
      least = 1000000;
    else if (!system.group_only)
      least = std::max<std::size_t>(least, 64 * d.compute_units);
  }
  return std::max(least, (systems + 31) / 32);
}

ReactorBatch reactor_batch(const casefile::Case& c) {
  std::vector<std::string> problems;
  const auto [mechanism, fuel, oxidizer] = case_mixture(c, problems);
  const chem::ReactorKind reactor = case_reactor(c, "batch.reactor");
  ReactorBatch r{
      mechanism, {}, {}, chem::reactor_system(*mechanism, case_jacobian(c), reactor), case_solver_options(c)};
  initial_states(c, *mechanism, fuel, oxidizer, r.batch.y0, r.pressures);
  const std::size_t n = mechanism->species.size() + 1;
  for (std::size_t i = 0; i < r.pressures.size(); ++i)
    r.batch.params.push_back(
        reactor_parameter(*mechanism, reactor, std::span<const double>(r.batch.y0).subspan(i * n, n), r.pressures[i]));
  r.batch.t_end = {c.get<double>("batch.dt")};
  // No sort_key: on GPUs Radau5 runs the states in order of initial rate (ode::Order), which ran
  // GRI-Mech 3.0 faster than order of temperature (docs/chem.md).
  return r;
}

casefile::Schema ReactorBatchCase::schema() const {
  casefile::Schema s("reactor_batch",
                     "a batch of adiabatic reactors (constant pressure or volume) integrated over dt (docs/chem.md)");
  declare_mechanism_keys(s);
  declare_mixture_keys(s.section("mixture", "the fuel / oxidizer of sampled states"));
  auto& b = s.section("batch", "the reactor states and the interval");
  b.key<long>("count", 1000, "sampled states").at_least(1);
  b.key<long>("seed", 1, "random seed of the sampling").at_least(0);
  b.key<std::vector<double>>("temperature", std::vector<double>{1000.0, 1500.0}, "T range [min, max]")
      .length(2)
      .above(0)
      .unit("K");
  b.key<std::vector<double>>("pressure", std::vector<double>{1.0, 1.0}, "p range [min, max], in pressure_unit")
      .length(2)
      .above(0);
  b.key<std::vector<double>>("phi", std::vector<double>{0.5, 2.0}, "phi range [min, max]").length(2).above(0);
  b.key<std::string>("pressure_unit", "atm", "unit of pressure").one_of({"atm", "Pa"});
  b.key<std::string>("file", "", "a CSV of states instead: columns T, p and species mole fractions (normalised)")
      .path();
  b.key<double>("dt", 1e-4, "integration interval").above(0).unit("s");
  declare_reactor_key(b);
  declare_solver_keys(s);
  declare_sample_keys(s.section("output"), "linear");
  return s;
}

void ReactorBatchCase::check(const casefile::Case& c) const {
  std::vector<std::string> problems;
  const auto [mechanism, fuel, oxidizer] = case_mixture(c, problems);
  for (const char* key : {"batch.temperature", "batch.pressure", "batch.phi"}) {
    const auto r = c.get<std::vector<double>>(key);
    if (r[0] > r[1])
      problems.push_back(c.where(key) + ": " + key + " = [" + exact_number(r[0]) + ", " + exact_number(r[1]) +
                         "]: expected [min, max] with min <= max");
  }
  if (!c.get<std::string>("batch.file").empty() && !fs::is_regular_file(c.get<std::string>("batch.file")))
    problems.push_back(c.missing_file("batch.file"));
  check_sample_keys(c, "batch.dt", problems);
  throw_problems(c, std::move(problems));
}

RunOutcome ReactorBatchCase::run(const casefile::Case& c, RunContext& ctx) const {
  const core::WallTimer total;
  RunDirectory& dir = ctx.directory;
  ReactorBatch r = reactor_batch(c);
  // Trajectories, where asked for, from the dense output of the same launch: the final states keep their bits.
  r.batch.samples = sample_times(c, c.get<double>("batch.dt"));
  const chem::Mechanism* mechanism = r.mechanism.get();
  const ode::Batch& batch = r.batch;
  const std::size_t n = mechanism->species.size() + 1, systems = batch.params.size();
  // Names every build of the run, also any that integrate() makes on first use.
  const core::BuildLabel label(radau5_build_label(c, *mechanism));
  const core::WallTimer build_timer;
  ode::Options options = with_radau5_tuning(r.options, r.system, systems, ctx.devices, dir.manifest()["tuning"]);
  options.chunk_systems = progress_chunk_systems(ctx.devices, r.system, systems);
  const ode::Radau5 solver(ctx.devices, r.system, options);
  solver.prepare(systems);
  dir.add_timing("build", build_timer.seconds());
  dir.manifest()["reactor"] = reactor_name(case_reactor(c, "batch.reactor"));
  dir.write_manifest("running");

  display::Progress progress(static_cast<std::int64_t>(systems), "reactor_batch", ctx.verbosity);
  progress.count("systems");
  const core::WallTimer timer;
  const ode::Result result = solver.integrate(batch, [&](std::size_t done, std::size_t) {
    progress.update(static_cast<std::int64_t>(done));
    return !io::interrupted();
  });
  const double seconds = timer.seconds();
  const std::size_t integrated = result.started();
  progress.update(static_cast<std::int64_t>(integrated));
  progress.finish();

  // A table of a million systems takes seconds to format and write: it gets a progress line of its own.
  display::Progress writing(static_cast<std::int64_t>(systems), "final_states.csv", ctx.verbosity);
  writing.count("rows");
  std::string table = "T0_K,p_Pa,T_K";
  for (const auto& s : mechanism->species) table += "," + csv_field("Y_" + s.name);
  table += ",steps,status,reason\n";
  nlohmann::json failures = nlohmann::json::array();
  long steps = 0;
  double coolest = std::numeric_limits<double>::infinity(), hottest = -coolest;
  for (std::size_t i = 0; i < systems; ++i) {
    const ode::Statistics& st = result.statistics[i];
    const bool run = st.status != ode::Status::not_run;
    steps += st.nstep;
    table += exact_number(batch.y0[(i + 1) * n - 1]) + "," + exact_number(r.pressures[i]);
    // A failed system's state is the last accepted step's, not the state at dt, and an interrupted run
    // never reached the systems it did not start: both left empty.
    for (std::size_t k = 0; k < n; ++k)
      table += "," + (st.ok() ? exact_number(result.y[i * n + (k + n - 1) % n]) : std::string());
    const std::string reason = st.ok() ? ""
                               : run   ? ode::describe(st, result.nmax)
                                       : "the run was interrupted before this system was integrated";
    table += "," + std::to_string(st.nstep) + "," +
             (st.ok() ? "ok"
              : run   ? "failed"
                      : "interrupted") +
             "," + csv_field(reason) + "\n";
    if (run && !st.ok()) failures.push_back({{"system", i}, {"reason", reason}});
    if (st.ok()) {
      coolest = std::min(coolest, result.y[(i + 1) * n - 1]);
      hottest = std::max(hottest, result.y[(i + 1) * n - 1]);
    }
    if (i % 4096 == 4095) writing.update(static_cast<std::int64_t>(i + 1));
  }
  io::write_file_atomically(dir.file("final_states.csv"), table);
  writing.update(static_cast<std::int64_t>(systems));
  writing.finish();
  dir.add_output(
      "final_states.csv",
      "per system: initial T and p, T and mass fractions at dt, steps, status (ok, failed, interrupted), reason");
  if (!batch.samples.empty()) {
    std::vector<std::size_t> species(mechanism->species.size());
    for (std::size_t k = 0; k < species.size(); ++k) species[k] = k;
    io::write_file_atomically(dir.file("trajectories.csv"),
                              trajectory_table(*mechanism, result, batch.samples, species));
    dir.add_output("trajectories.csv",
                   "per system (column system: row of final_states.csv) and sample time: T and "
                   "mass fractions from RADAU5's dense output, empty past a failure");
  }
  dir.manifest()["result"] = {{"systems", systems},
                              {"integrated", integrated},
                              {"interrupted", systems - integrated},
                              {"equations", n},
                              {"failures", failures},
                              {"failed", failures.size()},
                              {"steps", steps},
                              {"integration_seconds", seconds},
                              {"systems_per_second", static_cast<double>(integrated) / seconds}};
  if (integrated > failures.size()) dir.manifest()["result"]["final_T_range"] = {coolest, hottest};
  dir.add_timing("integration", seconds);
  dir.add_timing("total", total.seconds());
  print_headline(ctx, batch_headline(systems, integrated, failures.size(), n, c.get<double>("batch.dt"), seconds,
                                     coolest, hottest));
  return integrated < systems ? RunOutcome::interrupted : RunOutcome::complete;
}

}  // namespace hetflow::app
