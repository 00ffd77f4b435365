#include "hetflow/app/chem/ignition_case.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "hetflow/app/chem/chem_case_setup.hpp"
#include "hetflow/app/chem/ignition_keys.hpp"
#include "hetflow/app/chem/ignition_search.hpp"
#include "hetflow/app/chem/radau5_tunable.hpp"
#include "hetflow/app/csv_text.hpp"
#include "hetflow/chem/reactor_source.hpp"
#include "hetflow/core/build_notice.hpp"
#include "hetflow/core/event.hpp"
#include "hetflow/core/number_text.hpp"
#include "hetflow/io/atomic_file.hpp"
#include "hetflow/io/interrupt.hpp"
#include "hetflow/display/line_plot.hpp"

namespace hetflow::app {
namespace {

std::string number(double v) { return core::number_text(v, 6); }

// One system of the sweep.
struct Point {
  double T0, p, phi;  // p in the case's unit
};

std::vector<Point> sweep_points(const casefile::Case& c) {
  std::vector<Point> points;
  // (p, phi) outermost, so each curve of the delay plot is a contiguous run of T0.
  for (const double p : c.get<std::vector<double>>("initial.pressure"))
    for (const double phi : c.get<std::vector<double>>("mixture.phi"))
      for (const double T0 : c.get<std::vector<double>>("initial.temperature")) points.push_back({T0, p, phi});
  return points;
}

void write_outputs(const casefile::Case& c, RunDirectory& dir, const std::vector<Point>& points, const IgnitionSweep& sweep) {
  const std::string unit = c.get<std::string>("initial.pressure_unit");
  std::string table = "T0_K,p_" + unit + ",phi,delay_s,final_T_K,status,reason\n";
  for (std::size_t i = 0; i < points.size(); ++i) {
    const IgnitionRun& r = sweep.runs[i];
    // A value the run did not reach stays empty, never a number.
    table += exact_number(points[i].T0) + "," + exact_number(points[i].p) + "," + exact_number(points[i].phi) + "," +
             (std::isfinite(r.delay) ? exact_number(r.delay) : "") + "," +
             (std::isfinite(r.final_temperature) ? exact_number(r.final_temperature) : "") + "," + r.status + "," +
             csv_field(r.reason) + "\n";
  }
  io::write_file_atomically(dir.file("ignition.csv"), table);
  dir.add_output("ignition.csv", "per system: T0, p, phi, ignition delay, T at end_time, status and reason");

  std::string series = "t_s";
  for (std::size_t i = 0; i < points.size(); ++i) series += ",T_" + std::to_string(i);
  series += "\n";
  for (std::size_t k = 0; k < sweep.times.size(); ++k) {
    series += exact_number(sweep.times[k]);
    for (const auto& r : sweep.runs)
      series += "," + (std::isfinite(r.temperature[k]) ? exact_number(r.temperature[k]) : std::string());
    series += "\n";
  }
  io::write_file_atomically(dir.file("temperature.csv"), series);
  dir.add_output("temperature.csv", "T(t) of every system (column T_i: row i of ignition.csv) on the sample grid");

  if (!c.get<bool>("output.png")) return;
  display::LinePlot delays{"ignition delay", {"1000 / T0 (1/K)", false}, {"delay (s)", true}, {}};
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (i == 0 || points[i].p != points[i - 1].p || points[i].phi != points[i - 1].phi)
      delays.series.push_back({"p = " + number(points[i].p) + " " + unit + ", phi = " + number(points[i].phi), {}, {}, true});
    delays.series.back().x.push_back(1000.0 / points[i].T0);
    delays.series.back().y.push_back(sweep.runs[i].delay);
  }
  display::write_line_plot_png(dir.file("ignition_delay.png"), delays, 800, 560);
  dir.add_output("ignition_delay.png", "ignition delay (log) against 1000 / T0, one curve per (p, phi)");

  const auto shown = std::min(points.size(), static_cast<std::size_t>(c.get<long>("output.plot_series")));
  display::LinePlot temperatures{"temperature", {"t (s)", true}, {"T (K)", false}, {}};
  for (std::size_t i = 0; i < shown; ++i) {
    display::PlotSeries s{"T0 = " + number(points[i].T0) + " K, p = " + number(points[i].p) + ", phi = " + number(points[i].phi),
                     {sweep.times.begin() + 1, sweep.times.end()},
                     {sweep.runs[i].temperature.begin() + 1, sweep.runs[i].temperature.end()}, false};
    temperatures.series.push_back(std::move(s));
  }
  display::write_line_plot_png(dir.file("temperature.png"), temperatures, 800, 560);
  dir.add_output("temperature.png", "T(t) of the first " + std::to_string(shown) + " systems (log time)");
}

// trajectories.csv (output.samples): every system integrated once more over [0, end_time] in one launch,
// its T and main species written at the sample times from RADAU5's dense output. Returns whether it ran:
// a run stopped by Ctrl-C writes none.
bool write_trajectories(const casefile::Case& c, RunDirectory& dir, const ode::Radau5& solver,
                        const chem::Mechanism& m, const std::vector<std::size_t>& species,
                        const std::vector<std::vector<double>>& y0, const std::vector<double>& params) {
  ode::Batch batch;
  for (const std::vector<double>& y : y0) batch.y0.insert(batch.y0.end(), y.begin(), y.end());
  batch.params = params;
  batch.t_end = {c.get<double>("ignition.end_time")};
  batch.samples = sample_times(c, batch.t_end[0]);
  if (batch.samples.empty() || io::interrupted()) return false;
  const ode::Result r = solver.integrate(batch);
  io::write_file_atomically(dir.file("trajectories.csv"), trajectory_table(m, r, batch.samples, species));
  dir.add_output("trajectories.csv", "per system (column system: row of ignition.csv) and sample time: T and the "
                                     "mass fractions of the main species from RADAU5's dense output");
  return true;
}

// The line a run ends with: how many systems ignited, the range of their delays, and the rest.
std::string ignition_headline(std::size_t systems, std::size_t ignited, std::size_t failed, std::size_t interrupted,
                              double shortest, double longest, long launches, double seconds) {
  std::string text = "ignition: " + std::to_string(ignited) + " of " + std::to_string(systems) + " systems ignited";
  if (ignited == 1) text += " (delay " + number(shortest) + " s)";
  if (ignited > 1) text += " (delays " + number(shortest) + " to " + number(longest) + " s)";
  char rest[128];
  std::snprintf(rest, sizeof rest, ", %zu failed, %zu interrupted; %ld launches in %.2f s", failed, interrupted,
                launches, seconds);
  return text + rest;
}

}  // namespace

casefile::Schema IgnitionCase::schema() const {
  casefile::Schema s("ignition", "ignition delays of adiabatic reactors (constant pressure or volume) over lists of T0, p and phi (docs/chem.md)");
  declare_mechanism_keys(s);
  auto& m = s.section("mixture", "the fuel / oxidizer mixture");
  declare_mixture_keys(m);
  m.key<std::vector<double>>("phi", std::vector<double>{1.0}, "equivalence ratios").above(0);
  auto& i = s.section("initial", "initial states; every combination of T0, p and phi is one system");
  i.key<std::vector<double>>("temperature", "initial temperatures T0").above(0).unit("K");
  i.key<std::vector<double>>("pressure", std::vector<double>{1.0}, "pressures, in pressure_unit").above(0);
  i.key<std::string>("pressure_unit", "atm", "unit of pressure").one_of({"atm", "Pa"});
  declare_ignition_keys(s.section("ignition", "how the ignition is found"));
  declare_solver_keys(s);
  auto& o = s.section("output");
  o.key<long>("plot_series", 12, "T(t) curves in temperature.png (the first systems)").at_least(1);
  declare_sample_keys(o, "log");
  return s;
}

void IgnitionCase::check(const casefile::Case& c) const {
  std::vector<std::string> problems;
  check_sweep_mixture(c, {"initial.temperature", "initial.pressure", "mixture.phi"}, problems);
  check_ignition_keys(c, problems);
  check_sample_keys(c, "ignition.end_time", problems);
  throw_problems(c, std::move(problems));
}

RunOutcome IgnitionCase::run(const casefile::Case& c, RunContext& ctx) const {
  const core::WallTimer total;
  RunDirectory& dir = ctx.directory;
  std::vector<std::string> problems;
  const auto [mechanism, fuel, oxidizer] = case_mixture(c, problems);
  const std::vector<Point> points = sweep_points(c);
  std::vector<std::vector<double>> y0;
  std::vector<double> pressures;
  for (const Point& pt : points) {
    y0.push_back(mass_fractions(*mechanism, mixture_mole_fractions(*mechanism, fuel, oxidizer, pt.phi)));
    y0.back().push_back(pt.T0);
    pressures.push_back(pressure_in_pa(c, "initial.pressure_unit", pt.p));
  }
  const chem::ReactorKind reactor = case_reactor(c, "ignition.reactor");
  // Each system's parameter: its pressure, or at constant volume its initial density.
  std::vector<double> params;
  for (std::size_t i = 0; i < y0.size(); ++i) params.push_back(reactor_parameter(*mechanism, reactor, y0[i], pressures[i]));
  const IgnitionSettings settings = ignition_settings(c);
  // Names every build of the run, also those integrate() makes on first use (another batch size's mapping).
  const core::BuildLabel label(radau5_build_label(c, *mechanism));
  const core::WallTimer build_timer;
  const ode::System system = chem::reactor_system(*mechanism, case_jacobian(c), reactor);
  const ode::Radau5 solver(ctx.devices, system,
                           with_radau5_tuning(case_solver_options(c), system, points.size(), ctx.devices,
                                              dir.manifest()["tuning"]));
  solver.prepare(points.size());
  dir.add_timing("build", build_timer.seconds());
  dir.manifest()["mechanism"] = {{"species", mechanism->species.size()}, {"reactions", mechanism->reactions.size()}};
  dir.manifest()["reactor"] = reactor_name(reactor);
  dir.write_manifest("running");

  display::Progress progress(0, "ignition", ctx.verbosity);
  progress.count("launches");
  progress.note(std::to_string(points.size()) + " systems of " + std::to_string(mechanism->species.size() + 1) +
                " equations");
  const core::WallTimer timer;
  const IgnitionSweep sweep = find_ignition(solver, *mechanism, reactor, y0, params, settings, [&](long done, long) {
    progress.update(done);
    return !io::interrupted();
  });
  const double integration = timer.seconds();
  progress.finish();

  const core::WallTimer trajectory_timer;
  if (write_trajectories(c, dir, solver, *mechanism, main_species(*mechanism, fuel, oxidizer), y0, params))
    dir.add_timing("trajectories", trajectory_timer.seconds());
  const core::WallTimer output_timer;
  write_outputs(c, dir, points, sweep);
  nlohmann::json systems = nlohmann::json::array(), failures = nlohmann::json::array();
  std::size_t ignited = 0, interrupted = 0;
  double shortest = std::numeric_limits<double>::infinity(), longest = 0;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const IgnitionRun& r = sweep.runs[i];
    nlohmann::json s = {{"T0", points[i].T0}, {"p", points[i].p}, {"phi", points[i].phi}, {"status", r.status}};
    if (std::isfinite(r.delay)) s["delay"] = r.delay;
    if (std::isfinite(r.final_temperature)) s["final_T"] = r.final_temperature;
    if (!r.reason.empty()) s["reason"] = r.reason;
    if (r.status == "failed") failures.push_back({{"system", i}, {"reason", r.reason}});
    ignited += r.status == "ignited";
    interrupted += r.status == "interrupted";
    if (r.status == "ignited") {
      shortest = std::min(shortest, r.delay);
      longest = std::max(longest, r.delay);
    }
    systems.push_back(s);
  }
  dir.manifest()["result"] = {{"systems", systems},
                              {"ignited", ignited},
                              {"interrupted", interrupted},
                              {"failures", failures},
                              {"criterion", c.get<std::string>("ignition.criterion")},
                              {"samples", sweep.times.size()},
                              {"launches", sweep.launches},
                              {"p_unit", c.get<std::string>("initial.pressure_unit")}};
  dir.add_timing("integration", integration);
  dir.add_timing("output", output_timer.seconds());
  dir.add_timing("total", total.seconds());
  print_headline(ctx, ignition_headline(points.size(), ignited, failures.size(), interrupted, shortest, longest,
                                        sweep.launches, integration));
  return sweep.stopped ? RunOutcome::interrupted : RunOutcome::complete;
}

}  // namespace hetflow::app
