#include "hetflow/app/chem/flamelet_case.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "hetflow/app/chem/chem_case_setup.hpp"
#include "hetflow/app/chem/flamelet_outputs.hpp"
#include "hetflow/app/csv_text.hpp"
#include "hetflow/chem/equilibrium.hpp"
#include "hetflow/chem/flamelet_grid.hpp"
#include "hetflow/chem/flamelet_profiles.hpp"
#include "hetflow/chem/flamelet_run.hpp"
#include "hetflow/core/build_notice.hpp"
#include "hetflow/core/event.hpp"
#include "hetflow/core/number_text.hpp"
#include "hetflow/io/interrupt.hpp"

namespace hetflow::app {
namespace {

std::string number(double v) { return core::number_text(v, 6); }

// The streams and sweep of a case, as check() and run() read them.
struct FlameletSetup {
  std::shared_ptr<const chem::Mechanism> mechanism;
  chem::FlameletStream oxidizer, fuel;
  double z_st = 0.0;
  std::vector<double> chi_st;  // the sweep, in the order it runs
};

std::vector<double> sweep_rates(const casefile::Case& c) {
  if (!c.is_set("flamelet.chi_st_range")) return c.get<std::vector<double>>("flamelet.chi_st");
  const std::vector<double> r = c.get<std::vector<double>>("flamelet.chi_st_range");
  const auto count = static_cast<std::size_t>(r[2]);
  std::vector<double> rates(count);
  for (std::size_t i = 0; i < count; ++i)
    rates[i] = r[0] * std::pow(r[1] / r[0], static_cast<double>(i) / static_cast<double>(count - 1));
  rates.back() = r[1];
  return rates;
}

// Problems go to `problems` at the lines of their keys; the setup is complete only when there are none.
FlameletSetup flamelet_setup(const casefile::Case& c, std::vector<std::string>& problems) {
  FlameletSetup s;
  const auto [mechanism, fuel, oxidizer] = case_mixture(c, problems);
  s.mechanism = mechanism;
  if (c.is_set("flamelet.chi_st") && c.is_set("flamelet.chi_st_range"))
    problems.push_back(c.where("flamelet.chi_st_range") +
                       ": flamelet.chi_st_range does not apply: flamelet.chi_st gives the rates already");
  if (c.get<std::vector<double>>("flamelet.chi_st").empty())
    problems.push_back(c.where("flamelet.chi_st") + ": flamelet.chi_st is empty: expected at least one value");
  if (c.is_set("flamelet.chi_st_range")) {
    const std::vector<double> r = c.get<std::vector<double>>("flamelet.chi_st_range");
    std::string text = "[";
    for (std::size_t i = 0; i < r.size(); ++i) text += (i ? ", " : "") + number(r[i]);
    text += "]";
    if (r.size() != 3 || !(r[0] > 0) || !(r[1] > 0) || !(r[2] >= 2) || r[2] != std::floor(r[2]) || r[2] > 10000)
      problems.push_back(c.where("flamelet.chi_st_range") + ": flamelet.chi_st_range = " + text +
                         ": expected [first, last, count] with first, last > 0 and a whole count in [2, 10000]");
  }
  if (!problems.empty()) return s;
  s.oxidizer = {c.get<double>("mixture.oxidizer_temperature"),
                mass_fractions(*mechanism, composition_mole_fractions(*mechanism, oxidizer))};
  s.fuel = {c.get<double>("mixture.fuel_temperature"),
            mass_fractions(*mechanism, composition_mole_fractions(*mechanism, fuel))};
  try {
    s.z_st = chem::stoichiometric_mixture_fraction(*mechanism, s.oxidizer.mass_fractions, s.fuel.mass_fractions);
  } catch (const std::exception& e) {
    problems.push_back(c.where("mixture.oxidizer") + ": mixture: " + e.what());
  }
  s.chi_st = sweep_rates(c);
  return s;
}

chem::FlameletRunSettings run_settings(const casefile::Case& c) {
  chem::FlameletRunSettings s;
  s.dt = c.get<double>("time.dt");
  s.end_time = c.get<double>("time.end");
  s.steady_rate = c.get<double>("time.steady_rate");
  s.max_steps = c.get<long>("time.max_steps");
  s.extinction_rise = c.get<double>("extinction.rise");
  return s;
}

// The line a run ends with: one rate's result, or the sweep's counts and its extinction.
std::string flamelet_headline(const std::vector<FlameletPoint>& points, std::optional<std::size_t> extinct_at) {
  const auto count = [&](const char* status) {
    return std::count_if(points.begin(), points.end(), [&](const FlameletPoint& p) { return p.status == status; });
  };
  if (points.size() == 1) {
    const FlameletPoint& p = points[0];
    std::string line = "flamelet: chi_st = " + number(p.chi_st) + " 1/s " + p.status + " after " +
                       std::to_string(p.steps) + " steps (t = " + number(p.time) + " s)";
    if (!p.state.empty()) line += ", T_max " + number(p.t_max) + " K (" + number(p.rise) + " K above the mixing line)";
    if (!p.reason.empty()) line += ": " + p.reason;
    return line;
  }
  std::string line = "flamelet: " + std::to_string(points.size()) + " rates chi_st " + number(points.front().chi_st) +
                     " to " + number(points.back().chi_st) + " 1/s: " + std::to_string(count("steady")) + " steady, " +
                     std::to_string(count("extinct")) + " extinct, " + std::to_string(count("failed")) + " failed, " +
                     std::to_string(count("interrupted") + count("not_run")) + " interrupted or not run";
  if (extinct_at) {
    line += "; extinction between chi_st = ";
    line += *extinct_at > 0 ? number(points[*extinct_at - 1].chi_st) + " and " : "? and ";
    line += number(points[*extinct_at].chi_st) + " 1/s";
  } else {
    line += "; no extinction";
  }
  return line;
}

}  // namespace

casefile::Schema FlameletCase::schema() const {
  casefile::Schema s("flamelet",
                     "the unsteady laminar flamelet of two streams in mixture fraction, split into diffusion and "
                     "RADAU5 chemistry, to steady state over chi_st: the S-curve (docs/chem.md)");
  declare_mechanism_keys(s);
  auto& m = s.section("mixture", "the boundary streams: oxidizer at z = 0, fuel at z = 1");
  declare_mixture_keys(m);
  m.key<double>("fuel_temperature", 300.0, "the fuel stream's temperature").above(0).unit("K");
  m.key<double>("oxidizer_temperature", 300.0, "the oxidizer stream's temperature").above(0).unit("K");
  m.key<double>("pressure", 1.0, "the pressure, in pressure_unit").above(0);
  m.key<std::string>("pressure_unit", "atm", "unit of pressure").one_of({"atm", "Pa"});
  auto& g = s.section("grid", "the mixture-fraction grid");
  g.key<long>("points", 32, "interior nodes (the reactors); the streams add one node at each end").range(3, 100000);
  g.key<double>("clustering", 0.0, "0: uniform; beta > 0 draws the nodes toward z_st (Roberts' stretching)")
      .range(0.0, 30.0);
  auto& f = s.section("flamelet", "the dissipation rates and the method");
  f.key<std::vector<double>>("chi_st", std::vector<double>{10.0},
                             "stoichiometric scalar dissipation rates, each run to steady state from the last")
      .above(0)
      .unit("1/s");
  f.key<std::vector<double>>("chi_st_range", std::vector<double>{},
                             "instead of chi_st: [first, last, count], count rates in geometric progression");
  f.key<std::string>("start", "equilibrium",
                     "equilibrium: HP equilibrium of the local mixture (burning); mixing: the unburnt mixing line")
      .one_of({"equilibrium", "mixing"});
  f.key<std::string>("splitting", "strang", "strang: D(dt/2) C(dt) D(dt/2), second order; lie: C(dt) D(dt)")
      .one_of({"strang", "lie"});
  auto& t = s.section("time", "the split steps");
  t.key<double>("dt", 1e-5, "split step").above(0).unit("s");
  t.key<double>("end", 0.0, "> 0: run each chi_st for this long; 0: until steady").at_least(0).unit("s");
  t.key<double>("steady_rate", 1e-2,
                "steady once the largest |dY| and |dT| / T_max of a step, per second, fall below this")
      .above(0)
      .unit("1/s");
  t.key<long>("max_steps", 100000, "most split steps per chi_st; a run not steady by then is not_steady").at_least(1);
  s.section("extinction", "when a flamelet counts as extinguished")
      .key<double>("rise", 50.0, "extinct once max(T - T_mixing_line) falls below this")
      .above(0)
      .unit("K");
  declare_solver_keys(s);
  return s;
}

void FlameletCase::check(const casefile::Case& c) const {
  std::vector<std::string> problems;
  flamelet_setup(c, problems);
  throw_problems(c, std::move(problems));
}

RunOutcome FlameletCase::run(const casefile::Case& c, RunContext& ctx) const {
  const core::WallTimer total;
  RunDirectory& dir = ctx.directory;
  std::vector<std::string> problems;
  const FlameletSetup setup = flamelet_setup(c, problems);
  const chem::Mechanism& m = *setup.mechanism;
  const std::size_t n = m.species.size() + 1;
  const double pressure = pressure_in_pa(c, "mixture.pressure_unit", c.get<double>("mixture.pressure"));
  FlameletGridData grid;
  grid.z_st = setup.z_st;
  grid.z = chem::flamelet_grid(static_cast<std::size_t>(c.get<long>("grid.points")), setup.z_st,
                               c.get<double>("grid.clustering"));
  grid.mixing = chem::mixing_line(m, setup.oxidizer, setup.fuel, grid.z);

  chem::FlameletConfig config;
  config.z = grid.z;
  config.chi = chem::dissipation_rates(grid.z, setup.chi_st.front(), setup.z_st);
  config.pressure = pressure;
  config.splitting = c.get<std::string>("flamelet.splitting") == "lie" ? chem::Splitting::lie : chem::Splitting::strang;
  config.options = case_solver_options(c);
  config.jacobian = case_jacobian(c);
  const core::WallTimer build_timer;
  std::optional<chem::Flamelet> flamelet;
  {
    const core::BuildLabel label(radau5_build_label(c, m));
    flamelet.emplace(ctx.devices, m, config);
  }
  dir.add_timing("build", build_timer.seconds());
  const bool burnt = c.get<std::string>("flamelet.start") == "equilibrium";
  flamelet->set_state(burnt ? chem::equilibrium_profile(m, setup.oxidizer, setup.fuel, grid.z, pressure) : grid.mixing);
  dir.manifest()["mechanism"] = {{"species", m.species.size()}, {"reactions", m.reactions.size()}};
  dir.write_manifest("running");

  const chem::FlameletRunSettings settings = run_settings(c);
  std::vector<FlameletPoint> points(setup.chi_st.size());
  bool stopped = false, failed = false;
  const core::WallTimer integration;
  for (std::size_t i = 0; i < points.size(); ++i) {
    FlameletPoint& p = points[i];
    p.chi_st = setup.chi_st[i];
    p.chi = chem::dissipation_rates(grid.z, p.chi_st, setup.z_st);
    if (stopped || failed) {
      p.reason = stopped ? "the run was interrupted before this rate" : "an earlier rate failed";
      continue;
    }
    flamelet->set_dissipation_rates(p.chi);
    const double start = flamelet->time();
    const long first_step = flamelet->steps();
    const auto expected = settings.end_time > 0.0
                              ? static_cast<std::int64_t>(std::ceil(settings.end_time / settings.dt - 1e-9))
                              : std::int64_t{0};
    display::Progress progress(expected, "flamelet chi_st = " + number(p.chi_st) + " 1/s", ctx.verbosity);
    try {
      const chem::FlameletRun run =
          chem::run_flamelet(*flamelet, settings, grid.mixing, [&](const chem::Flamelet& f, const chem::FlameletStep&) {
            progress.update(f.steps() - first_step);
            return !io::interrupted();
          });
      p.status = run.outcome == chem::FlameletOutcome::stopped ? "interrupted" : chem::outcome_name(run.outcome);
      p.steps = run.steps;
      p.rate = run.rate;
      p.rise = run.rise;
      p.reactor_steps = run.reactor_steps;
      p.most_reactor_steps = run.most_reactor_steps;
      stopped = run.outcome == chem::FlameletOutcome::stopped;
    } catch (const chem::FlameletError& e) {
      p.status = "failed";
      p.reason = e.what();
      failed = true;
    }
    progress.finish();
    p.time = flamelet->time() - start;
    if (!failed) {
      p.state = flamelet->state();
      for (std::size_t j = 0; j < grid.z.size(); ++j) p.t_max = std::max(p.t_max, p.state[j * n + n - 1]);
    }
    // A failed rate leaves the flamelet as it was before its failing step; the sweep stops there.
  }
  const double integration_seconds = integration.seconds();

  const core::WallTimer output_timer;
  write_flamelet_outputs(dir, m, grid, points, c.get<bool>("output.png"));
  std::optional<std::size_t> extinct_at;
  nlohmann::json rates = nlohmann::json::array(), failures = nlohmann::json::array();
  for (std::size_t i = 0; i < points.size(); ++i) {
    const FlameletPoint& p = points[i];
    if (!extinct_at && p.status == "extinct") extinct_at = i;
    nlohmann::json r = {{"chi_st", p.chi_st},
                        {"status", p.status},
                        {"steps", p.steps},
                        {"time", p.time},
                        {"reactor_steps", p.reactor_steps},
                        {"most_reactor_steps", p.most_reactor_steps}};
    if (!p.state.empty()) {
      r["T_max"] = p.t_max;
      r["rise"] = p.rise;
      r["rate"] = p.rate;
    }
    if (!p.reason.empty()) r["reason"] = p.reason;
    if (p.status == "failed") failures.push_back({{"chi_st", p.chi_st}, {"reason", p.reason}});
    rates.push_back(r);
  }
  nlohmann::json extinction = {{"detected", extinct_at.has_value()}, {"rise_K", settings.extinction_rise}};
  if (extinct_at) {
    extinction["first_extinct_chi_st"] = points[*extinct_at].chi_st;
    if (*extinct_at > 0) extinction["last_burning_chi_st"] = points[*extinct_at - 1].chi_st;
  }
  dir.manifest()["result"] = {{"z_st", setup.z_st},
                              {"points", grid.z.size() - 2},
                              {"splitting", chem::splitting_name(config.splitting)},
                              {"rates", rates},
                              {"failures", failures},
                              {"extinction", extinction},
                              {"steps", flamelet->steps()}};
  dir.add_timing("integration", integration_seconds);
  dir.add_timing("output", output_timer.seconds());
  dir.add_timing("total", total.seconds());
  print_headline(ctx, flamelet_headline(points, extinct_at));
  return stopped ? RunOutcome::interrupted : RunOutcome::complete;
}

}  // namespace hetflow::app
