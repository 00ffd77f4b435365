#include "hetflow/app/chem/equilibrium_case.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include "hetflow/app/chem/chem_case_setup.hpp"
#include "hetflow/app/csv_text.hpp"
#include "hetflow/chem/equilibrium.hpp"
#include "hetflow/core/event.hpp"
#include "hetflow/core/number_text.hpp"
#include "hetflow/display/line_plot.hpp"
#include "hetflow/io/atomic_file.hpp"
#include "hetflow/io/interrupt.hpp"

namespace hetflow::app {
namespace {

std::string number(double v) { return core::number_text(v, 6); }

// Whether the case gives the mixture itself (mixture.composition) instead of fuel, oxidizer and phi.
bool gives_composition(const casefile::Case& c) { return c.is_set("mixture.composition"); }

// The mechanism and, per phi (one entry, phi NaN, for a given composition), the mixture's mole fractions.
// Problems are those of check(); run() reads a checked case.
struct Mixtures {
  std::shared_ptr<const chem::Mechanism> mechanism;
  std::vector<double> phis;
  std::vector<std::vector<double>> mole_fractions;
};

Mixtures case_mixtures(const casefile::Case& c, std::vector<std::string>& problems) {
  Mixtures out;
  if (!gives_composition(c)) {
    const auto [mechanism, fuel, oxidizer] =
        check_sweep_mixture(c, {"initial.temperature", "initial.pressure", "mixture.phi"}, problems);
    out.mechanism = mechanism;
    if (!problems.empty()) return out;
    for (const double phi : c.get<std::vector<double>>("mixture.phi")) {
      out.phis.push_back(phi);
      out.mole_fractions.push_back(mixture_mole_fractions(*mechanism, fuel, oxidizer, phi));
    }
    return out;
  }
  for (const char* key : {"mixture.fuel", "mixture.oxidizer", "mixture.phi"})
    if (c.is_set(key))
      problems.push_back(c.where(key) + ": " + key + " does not apply: mixture.composition gives the mixture itself");
  for (const char* key : {"initial.temperature", "initial.pressure"})
    if (c.get<std::vector<double>>(key).empty())
      problems.push_back(c.where(key) + ": " + key + " is empty: expected at least one value");
  out.mechanism = case_mechanism(c, problems);
  const Composition mixture = case_composition(c, "mixture.composition", out.mechanism.get(), problems);
  if (!problems.empty()) return out;
  out.phis.push_back(std::numeric_limits<double>::quiet_NaN());
  out.mole_fractions.push_back(composition_mole_fractions(*out.mechanism, mixture));
  return out;
}

// One state of the sweep, p in the case's unit, phi NaN for a given composition.
struct Point {
  double T0, p, phi;
  std::size_t mixture;
};

// (p, T0) outermost, so each curve of T against phi (or, for one composition, against T0 per p) is a
// contiguous run; `mixture` indexes Mixtures.
std::vector<Point> sweep_points(const casefile::Case& c, const Mixtures& mixtures) {
  std::vector<Point> points;
  for (const double p : c.get<std::vector<double>>("initial.pressure"))
    for (const double T0 : c.get<std::vector<double>>("initial.temperature"))
      for (std::size_t k = 0; k < mixtures.phis.size(); ++k) points.push_back({T0, p, mixtures.phis[k], k});
  return points;
}

chem::EquilibriumHold case_hold(const casefile::Case& c) {
  const std::string hold = c.get<std::string>("equilibrium.hold");
  return hold == "TP"   ? chem::EquilibriumHold::tp
         : hold == "UV" ? chem::EquilibriumHold::uv
                        : chem::EquilibriumHold::hp;
}

// What became of one state: solved, failed (with the solver's reason) or not reached before Ctrl-C.
struct Outcome {
  std::string status = "interrupted", reason;
  chem::MixtureState state;
};

std::vector<double> mole_fractions(const chem::Mechanism& m, const std::vector<double>& y) {
  const double total = chem::moles_per_kilogram(m, y);
  std::vector<double> x(y.size());
  for (std::size_t k = 0; k < y.size(); ++k) x[k] = y[k] / m.species[k].molecular_weight / total;
  return x;
}

void write_outputs(const casefile::Case& c, RunDirectory& dir, const chem::Mechanism& m,
                   const std::vector<Point>& points, const std::vector<Outcome>& outcomes) {
  const std::string unit = c.get<std::string>("initial.pressure_unit");
  std::string table = "T0_K,p0_" + unit + ",phi,T_K,p_" + unit + ",status,reason";
  for (const chem::Species& s : m.species) table += "," + csv_field("X_" + s.name);
  table += "\n";
  const double unit_pa = pressure_in_pa(c, "initial.pressure_unit", 1.0);
  for (std::size_t i = 0; i < points.size(); ++i) {
    const Outcome& o = outcomes[i];
    table += exact_number(points[i].T0) + "," + exact_number(points[i].p) + "," +
             (std::isnan(points[i].phi) ? "" : exact_number(points[i].phi)) + ",";
    // A state the run did not reach stays empty, never a number.
    const bool solved = o.status == "solved";
    table += (solved ? exact_number(o.state.temperature) : "") + "," +
             (solved ? exact_number(o.state.pressure / unit_pa) : "") + "," + o.status + "," + csv_field(o.reason);
    const std::vector<double> x = solved ? mole_fractions(m, o.state.mass_fractions) : std::vector<double>();
    for (std::size_t k = 0; k < m.species.size(); ++k) table += "," + (solved ? exact_number(x[k]) : "");
    table += "\n";
  }
  io::write_file_atomically(dir.file("equilibrium.csv"), table);
  dir.add_output("equilibrium.csv",
                 "per state: T0, p0, phi, equilibrium T and p, status and reason, every species' mole fraction");

  if (!c.get<bool>("output.png")) return;
  // T against phi per (T0, p), or for one composition against T0 per p.
  const bool by_phi = !gives_composition(c);
  display::LinePlot plot{std::string("equilibrium temperature (") + chem::hold_name(case_hold(c)) + ")",
                         {by_phi ? "phi" : "T0 (K)", false},
                         {"T (K)", false},
                         {}};
  for (std::size_t i = 0; i < points.size(); ++i) {
    const bool next = i == 0 || points[i].p != points[i - 1].p || (by_phi && points[i].T0 != points[i - 1].T0);
    if (next)
      plot.series.push_back({(by_phi ? "T0 = " + number(points[i].T0) + " K, " : std::string()) +
                                 "p = " + number(points[i].p) + " " + unit,
                             {},
                             {},
                             true});
    plot.series.back().x.push_back(by_phi ? points[i].phi : points[i].T0);
    plot.series.back().y.push_back(outcomes[i].status == "solved" ? outcomes[i].state.temperature
                                                                  : std::numeric_limits<double>::quiet_NaN());
  }
  display::write_line_plot_png(dir.file("temperature.png"), plot, 800, 560);
  dir.add_output("temperature.png", by_phi ? "equilibrium T against phi, one curve per (T0, p)"
                                           : "equilibrium T against T0, one curve per p");
}

}  // namespace

casefile::Schema EquilibriumCase::schema() const {
  casefile::Schema s(
      "equilibrium",
      "chemical equilibria of a mixture over lists of T0, p and phi, holding TP, HP or UV (docs/chem.md)");
  declare_mechanism_keys(s);
  auto& m = s.section("mixture", "the fuel / oxidizer mixture");
  declare_mixture_keys(m);
  m.key<std::vector<double>>("phi", std::vector<double>{1.0}, "equivalence ratios").above(0);
  m.key<std::string>("composition", "",
                     "instead of fuel, oxidizer and phi: the mixture itself in mole amounts, \"species:amount, ...\" "
                     "(normalised)");
  auto& i = s.section("initial", "the unburnt states; every combination of T0, p and phi is one equilibrium");
  i.key<std::vector<double>>("temperature", std::vector<double>{300.0}, "temperatures T0").above(0).unit("K");
  i.key<std::vector<double>>("pressure", std::vector<double>{1.0}, "pressures, in pressure_unit").above(0);
  i.key<std::string>("pressure_unit", "atm", "unit of pressure").one_of({"atm", "Pa"});
  s.section("equilibrium", "what the equilibrium holds besides the elements")
      .key<std::string>("hold", "HP",
                        "TP: temperature and pressure; HP: enthalpy and pressure (adiabatic flame); UV: internal "
                        "energy and volume (closed vessel)")
      .one_of({"TP", "HP", "UV"});
  return s;
}

void EquilibriumCase::check(const casefile::Case& c) const {
  std::vector<std::string> problems;
  case_mixtures(c, problems);
  throw_problems(c, std::move(problems));
}

RunOutcome EquilibriumCase::run(const casefile::Case& c, RunContext& ctx) const {
  const core::WallTimer total;
  RunDirectory& dir = ctx.directory;
  std::vector<std::string> problems;
  const Mixtures mixtures = case_mixtures(c, problems);
  const chem::Mechanism& m = *mixtures.mechanism;
  const std::vector<Point> points = sweep_points(c, mixtures);
  const chem::EquilibriumHold hold = case_hold(c);
  dir.manifest()["mechanism"] = {{"species", m.species.size()}, {"reactions", m.reactions.size()}};
  dir.write_manifest("running");

  display::Progress progress(static_cast<long>(points.size()), "equilibrium", ctx.verbosity);
  progress.count("states");
  std::vector<Outcome> outcomes(points.size());
  bool stopped = false;
  for (std::size_t i = 0; i < points.size() && !(stopped = io::interrupted()); ++i) {
    chem::MixtureState start;
    start.temperature = points[i].T0;
    start.pressure = pressure_in_pa(c, "initial.pressure_unit", points[i].p);
    start.mass_fractions = mass_fractions(m, mixtures.mole_fractions[points[i].mixture]);
    try {
      outcomes[i].state = chem::equilibrate(m, start, hold).state;
      outcomes[i].status = "solved";
    } catch (const chem::EquilibriumError& e) {
      outcomes[i].status = "failed";
      outcomes[i].reason = e.what();
    }
    progress.update(static_cast<long>(i + 1));
  }
  progress.finish();

  write_outputs(c, dir, m, points, outcomes);
  nlohmann::json states = nlohmann::json::array(), failures = nlohmann::json::array();
  std::size_t solved = 0, interrupted = 0;
  double coolest = std::numeric_limits<double>::infinity(), hottest = 0;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const Outcome& o = outcomes[i];
    nlohmann::json s = {{"T0", points[i].T0}, {"p0", points[i].p}, {"status", o.status}};
    if (!std::isnan(points[i].phi)) s["phi"] = points[i].phi;
    if (o.status == "solved") {
      s["T"] = o.state.temperature;
      s["p_Pa"] = o.state.pressure;
      ++solved;
      coolest = std::min(coolest, o.state.temperature);
      hottest = std::max(hottest, o.state.temperature);
    }
    if (!o.reason.empty()) {
      s["reason"] = o.reason;
      failures.push_back({{"state", i}, {"reason", o.reason}});
    }
    interrupted += o.status == "interrupted";
    states.push_back(s);
  }
  dir.manifest()["result"] = {{"states", states},
                              {"solved", solved},
                              {"failures", failures},
                              {"interrupted", interrupted},
                              {"hold", chem::hold_name(hold)},
                              {"p_unit", c.get<std::string>("initial.pressure_unit")}};
  dir.add_timing("total", total.seconds());
  std::string line = std::string("equilibrium (") + chem::hold_name(hold) + "): " + std::to_string(solved) + " of " +
                     std::to_string(points.size()) + " states solved";
  if (solved > 0)
    line +=
        solved == 1 ? " (T " + number(hottest) + " K)" : " (T " + number(coolest) + " to " + number(hottest) + " K)";
  line += ", " + std::to_string(failures.size()) + " failed, " + std::to_string(interrupted) + " interrupted";
  print_headline(ctx, line);
  return stopped ? RunOutcome::interrupted : RunOutcome::complete;
}

}  // namespace hetflow::app
