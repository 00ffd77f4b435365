#include "hetflow/app/karst/karst_case.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

#include "hetflow/app/csv_text.hpp"
#include "hetflow/app/karst/karst_batches.hpp"
#include "hetflow/app/karst/karst_case_setup.hpp"
#include "hetflow/app/karst/karst_inversion_setup.hpp"
#include "hetflow/app/karst/karst_tunable.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/core/event.hpp"
#include "hetflow/core/number_text.hpp"
#include "hetflow/io/atomic_file.hpp"
#include "hetflow/io/interrupt.hpp"
#include "hetflow/display/line_plot.hpp"
#include "hetflow/karst/device_solver.hpp"
#include "hetflow/karst/inversion.hpp"
#include "hetflow/optim/evaluation_log.hpp"

namespace hetflow::app {
namespace {

constexpr const char* group_keys[] = {"model.pe", "model.st", "model.theta", "model.da"};

// ---- karst ------------------------------------------------------------------------------------------

// The parameter sets: the longest group list gives their number, lists of one entry are broadcast.
std::vector<karst::KarstParameters> case_sets(const casefile::Case& c, std::vector<std::string>& problems) {
  std::size_t n = 1;
  for (const char* key : group_keys) n = std::max(n, c.get<std::vector<double>>(key).size());
  for (const char* key : group_keys) {
    const std::size_t size = c.get<std::vector<double>>(key).size();
    if (size != 1 && size != n)
      problems.push_back(c.where(key) + ": " + key + " has " + std::to_string(size) + " entries: expected 1 or " +
                         std::to_string(n) + " (one per parameter set)");
  }
  if (!problems.empty()) return {};
  // Each list read once: a run of many sets takes time linear in their number.
  const auto pe = c.get<std::vector<double>>("model.pe"), st = c.get<std::vector<double>>("model.st"),
             theta = c.get<std::vector<double>>("model.theta"), da = c.get<std::vector<double>>("model.da");
  const double psi = c.get<double>("model.psi");
  const auto entry = [](const std::vector<double>& v, std::size_t i) { return v.size() == 1 ? v[0] : v[i]; };
  std::vector<karst::KarstParameters> sets(n);
  for (std::size_t i = 0; i < n; ++i) sets[i] = {entry(pe, i), entry(st, i), entry(theta, i), psi, entry(da, i)};
  return sets;
}

// The grid with its step times: time.dt up to time.end, or to the end of the forcing when that is 0.
karst::Grid forward_grid(const casefile::Case& c, const KarstForcing& f) {
  karst::Grid g = case_grid(c);
  g.model = c.get<std::string>("model.kind") == "solute" ? karst::Model::solute : karst::Model::heat;
  double end = c.get<double>("time.end");
  if (end == 0) end = std::min(f.inlet.t.back(), f.velocity.t.back());
  const double dt = c.get<double>("time.dt");
  g.times = karst::Grid::uniform_times(dt, static_cast<std::size_t>(std::floor(end / dt * (1 + 1e-12))));
  return g;
}

struct ForwardSetup {
  KarstForcing forcing;
  karst::Grid grid;
  std::vector<karst::KarstParameters> sets;
};

std::optional<ForwardSetup> forward_setup(const casefile::Case& c, std::vector<std::string>& problems) {
  auto forcing = case_forcing(c, problems);
  auto sets = case_sets(c, problems);
  if (!forcing || !problems.empty()) return std::nullopt;
  ForwardSetup s{std::move(*forcing), {}, std::move(sets)};
  s.grid = forward_grid(c, s.forcing);
  try {
    if (s.grid.times.empty())
      throw core::Error("time.dt = " + core::shortest_text(c.get<double>("time.dt")) + " leaves no step before the end");
    karst::step_forcing(s.forcing.inlet, s.forcing.velocity, s.grid);
  } catch (const core::Error& e) {
    problems.push_back(c.where("time.dt") + ": " + e.what());
  }
  try {
    karst::check_parameters(s.sets, s.grid.model);
  } catch (const core::Error& e) {
    problems.push_back(c.where("model.pe") + ": " + e.what());
  }
  return s;
}

nlohmann::json set_json(const karst::KarstParameters& p, karst::Model model) {
  if (model == karst::Model::solute) return {{"Pe", p.Pe}, {"Da", p.Da}};
  return {{"Pe", p.Pe}, {"St", p.St}, {"Theta", p.Theta}, {"Psi", p.Psi}};
}

// How the sets are told apart: each set's label names the model's parameters that differ between the
// sets (all of them when there is one set), `shared` those every set has, so that the legend of the
// outlets and the lines printed name each curve by its parameters and the title by what they share.
struct SetNames {
  std::vector<std::string> labels;
  std::string shared;
};

SetNames set_names(const std::vector<karst::KarstParameters>& sets, karst::Model model) {
  struct Parameter {
    const char* name;
    double karst::KarstParameters::*value;
  };
  using P = karst::KarstParameters;
  const std::vector<Parameter> parameters =
      model == karst::Model::solute ? std::vector<Parameter>{{"Pe", &P::Pe}, {"Da", &P::Da}}
                                    : std::vector<Parameter>{{"Pe", &P::Pe}, {"St", &P::St}, {"Theta", &P::Theta}};
  SetNames names{std::vector<std::string>(sets.size()), {}};
  const auto add = [](std::string& text, const char* name, double v) {
    text += (text.empty() ? "" : ", ") + std::string(name) + " " + core::shortest_text(v);
  };
  for (const Parameter& p : parameters) {
    const bool varies = std::any_of(sets.begin(), sets.end(), [&](const P& s) { return s.*p.value != sets[0].*p.value; });
    if (varies || sets.size() == 1) {
      for (std::size_t i = 0; i < sets.size(); ++i) add(names.labels[i], p.name, sets[i].*p.value);
    } else {
      add(names.shared, p.name, sets[0].*p.value);
    }
  }
  if (model == karst::Model::heat) add(names.shared, "Psi", sets[0].Psi);
  return names;
}

// The outlet's peak: the value farthest from the initial state, and when it passes.
std::string outlet_peak(const karst::Series& outlet, double initial) {
  std::size_t k = 0;
  for (std::size_t i = 1; i < outlet.value.size(); ++i)
    if (std::abs(outlet.value[i] - initial) > std::abs(outlet.value[k] - initial)) k = i;
  return "outlet peak " + core::number_text(outlet.value[k], 6) + " at t* " + core::number_text(outlet.t[k], 6);
}

display::PlotSeries inlet_curve(const karst::Series& inlet, const std::vector<double>& times) {
  display::PlotSeries s{"inlet", times, {}, false};
  for (const double t : times) s.y.push_back(inlet.at(t));
  return s;
}

// ---- karst_inversion --------------------------------------------------------------------------------

std::optional<karst::MisfitProblem> misfit_problem(const casefile::Case& c, std::vector<std::string>& problems) {
  auto forcing = case_forcing(c, problems);
  auto observed = read_case_series(c, "observed.file", false, problems);
  if (!forcing || !observed) return std::nullopt;
  karst::MisfitProblem p{std::move(forcing->inlet), std::move(forcing->velocity), std::move(*observed), case_grid(c),
                         static_cast<std::size_t>(c.get<long>("observed.substeps")), c.get<double>("inversion.psi")};
  return p;
}

void write_fit(RunDirectory& dir, const karst::MisfitProblem& p, const karst::InversionResult& r, bool png) {
  std::string table = "t,observed,fit,residual\n";
  for (std::size_t k = 0; k < r.fit.size(); ++k)
    table += exact_number(r.fit.t[k]) + "," + exact_number(p.observed.value[k]) + "," + exact_number(r.fit.value[k]) +
             "," + exact_number(r.fit.value[k] - p.observed.value[k]) + "\n";
  io::write_file_atomically(dir.file("fit.csv"), table);
  dir.add_output("fit.csv", "observed outlet, fitted outlet and residual at the observation times");
  if (!png) return;
  display::LinePlot plot{"karst inversion: outlet data and fit", {"t*", false}, {"temperature", false}, {}};
  plot.series.push_back(inlet_curve(p.inlet, p.observed.t));
  plot.series.push_back({"observed", p.observed.t, p.observed.value, false});
  plot.series.push_back({"fit: Pe " + core::number_text(r.best.Pe, 5) + ", St " + core::number_text(r.best.St, 4) +
                             ", Theta " + core::number_text(r.best.Theta, 4),
                         r.fit.t, r.fit.value, false});
  display::write_line_plot_png(dir.file("fit.png"), plot, 900, 560);
  dir.add_output("fit.png", "inlet, observed outlet and the fitted model's outlet against t*");
}

}  // namespace

// ---- karst ------------------------------------------------------------------------------------------

casefile::Schema KarstCase::schema() const {
  casefile::Schema s("karst", "forward runs of the karst-conduit heat / solute model for parameter sets (docs/karst.md)");
  declare_forcing_keys(s);
  declare_grid_keys(s);
  auto& m = s.section("model", "the model and its parameter sets; lists of one entry apply to every set");
  m.key<std::string>("kind", "heat", "heat (water + rock) or solute (water, no rock)").one_of({"heat", "solute"});
  m.key<std::vector<double>>("pe", std::vector<double>{2000.0}, "Peclet numbers L V̄ / D_L").above(0);
  m.key<std::vector<double>>("st", std::vector<double>{10.0}, "Stanton numbers (heat)").at_least(0);
  m.key<std::vector<double>>("theta", std::vector<double>{4.5}, "rock time scales R^2 V̄ / (L alpha_r) (heat)").above(0);
  m.key<std::vector<double>>("da", std::vector<double>{0.0}, "Damkoehler numbers (solute)");
  m.key<double>("psi", 2.235, "heat capacity ratio rho_w c_pw / (rho_r c_pr) (heat)").above(0);
  auto& t = s.section("time", "the steps");
  t.key<double>("dt", 0.01, "step length dt*").above(0);
  t.key<double>("end", 0.0, "last step end t*; 0: where the shorter forcing series ends").at_least(0);
  s.section("output").key<long>("plot_series", 8, "outlet curves in outlet.png (the first sets)").at_least(1);
  return s;
}

void KarstCase::check(const casefile::Case& c) const {
  std::vector<std::string> problems;
  forward_setup(c, problems);
  throw_problems(c, std::move(problems));
}

RunOutcome KarstCase::run(const casefile::Case& c, RunContext& ctx) const {
  const core::WallTimer total;
  RunDirectory& dir = ctx.directory;
  std::vector<std::string> problems;
  const ForwardSetup s = *forward_setup(c, problems);
  const karst::Grid& g = s.grid;
  karst::KarstDevice device(ctx.devices, 0, karst_tuned_work_group(ctx.devices, dir.manifest()["tuning"]));
  dir.write_manifest("running");

  const core::WallTimer timer;
  const std::vector<karst::Series> outlets = run_karst_batches(
      device, s.forcing.inlet, s.forcing.velocity, s.sets, g, [](std::size_t, std::size_t) { return !io::interrupted(); });
  const double seconds = timer.seconds();

  std::string table = "t";
  for (std::size_t p = 0; p < outlets.size(); ++p) table.append(",outlet_").append(std::to_string(p));
  table += "\n";
  for (std::size_t k = 0; k < g.times.size(); ++k) {
    table += exact_number(g.times[k]);
    for (const karst::Series& o : outlets) table.append(",").append(exact_number(o.value[k]));
    table += "\n";
  }
  io::write_file_atomically(dir.file("outlet.csv"), table);
  dir.add_output("outlet.csv", "outlet series at the step ends t*, column outlet_i: parameter set i");
  const SetNames names = set_names(s.sets, g.model);
  const auto shown = std::min(outlets.size(), static_cast<std::size_t>(c.get<long>("output.plot_series")));
  if (c.get<bool>("output.png")) {
    const std::string title = "karst outlet" + (names.shared.empty() ? "" : ": " + names.shared);
    const char* quantity = g.model == karst::Model::solute ? "concentration" : "temperature";
    display::LinePlot plot{title, {"t*", false}, {quantity, false}, {}};
    plot.series.push_back(inlet_curve(s.forcing.inlet, g.times));
    for (std::size_t p = 0; p < shown; ++p)
      plot.series.push_back({"outlet, " + names.labels[p], g.times, outlets[p].value, false});
    display::write_line_plot_png(dir.file("outlet.png"), plot, 900, 560);
    dir.add_output("outlet.png", "inlet and the outlets of the first " + std::to_string(shown) + " sets against t*");
  }
  nlohmann::json sets = nlohmann::json::array();
  for (std::size_t p = 0; p < outlets.size(); ++p) sets.push_back(set_json(s.sets[p], g.model));
  dir.manifest()["result"] = {{"sets", sets},
                              {"runs", outlets.size()},
                              {"steps", g.times.size()},
                              {"nodes", g.nodes},
                              {"rock_nodes", g.has_rock() ? g.rock_nodes : 0},
                              {"seconds", seconds},
                              {"runs_per_second", static_cast<double>(outlets.size()) / seconds}};
  dir.add_timing("forward", seconds);
  dir.add_timing("total", total.seconds());
  if (ctx.verbosity != display::Verbosity::quiet)
    std::fprintf(stderr, "karst: %zu forward runs of %zu steps in %.3f s (%.1f runs/s)\n", outlets.size(),
                 g.times.size(), seconds, static_cast<double>(outlets.size()) / seconds);
  if (!names.shared.empty()) print_headline(ctx, "karst: every set has " + names.shared);
  for (std::size_t p = 0; p < shown; ++p)
    print_headline(ctx, "karst: " + names.labels[p] + ": " + outlet_peak(outlets[p], g.initial));
  if (outlets.size() > shown)
    print_headline(ctx, "karst: " + std::to_string(outlets.size() - shown) + " more sets in outlet.csv");
  return outlets.size() < s.sets.size() ? RunOutcome::interrupted : RunOutcome::complete;
}

// ---- karst_inversion --------------------------------------------------------------------------------

casefile::Schema KarstInversionCase::schema() const {
  casefile::Schema s("karst_inversion", "(Pe, St, Theta) of the karst heat model from an observed outlet series (docs/karst.md)");
  declare_forcing_keys(s);
  declare_grid_keys(s);
  auto& o = s.section("observed", "the outlet series to fit");
  o.key<std::string>("file", "CSV: a header, then t*, outlet value per row (t* > 0, increasing)").path();
  o.key<long>("substeps", 1, "model steps per observation interval").at_least(1);
  declare_inversion_keys(s);
  return s;
}

void KarstInversionCase::check(const casefile::Case& c) const {
  std::vector<std::string> problems;
  check_inversion_keys(c, problems);
  if (auto p = misfit_problem(c, problems)) {
    try {
      // The misfit's own checks (observations, grid, forcing covering every step) without a device.
      if (!(p->observed.t.front() > 0)) throw core::Error("observed outlet series starts at t* <= 0");
      p->grid.times = p->observed.t;
      karst::step_forcing(p->inlet, p->velocity, p->grid);
    } catch (const core::Error& e) {
      problems.push_back(c.where("observed.file") + ": " + e.what());
    }
  }
  throw_problems(c, std::move(problems));
}

RunOutcome KarstInversionCase::run(const casefile::Case& c, RunContext& ctx) const {
  const core::WallTimer total;
  RunDirectory& dir = ctx.directory;
  std::vector<std::string> problems;
  const karst::MisfitProblem problem = *misfit_problem(c, problems);
  karst::KarstDevice device(ctx.devices, 0, karst_tuned_work_group(ctx.devices, dir.manifest()["tuning"]));
  karst::KarstMisfit misfit(device, problem, inversion_box(c));
  // Rank 0 alone writes files; every rank takes the same steps, so its log is the run's.
  const bool root = ctx.ranks.root();
  std::optional<optim::EvaluationLog> log;
  if (root) log = optim::EvaluationLog::create(dir.file("inversion_log.jsonl"));
  dir.add_output("inversion_log.jsonl", "every candidate evaluated (points in unit coordinates of the bounds), as JSON lines");
  const karst::InversionOptions options = inversion_options(c, log ? &*log : nullptr);
  dir.write_manifest("running");

  const core::WallTimer timer;
  const karst::InversionResult r = karst::invert(misfit, options, ctx.ranks.link());
  const double seconds = timer.seconds();

  const nlohmann::json summary = inversion_summary(c, r, seconds);
  if (root) {
    write_fit(dir, problem, r, c.get<bool>("output.png"));
    io::write_file_atomically(dir.file("inversion.json"), summary.dump(2) + "\n");
  }
  dir.add_output("inversion.json", "recovered Pe, St, Theta with standard deviations, RMS misfit, how the run ended");
  dir.manifest()["result"] = summary;
  dir.add_timing("inversion", seconds);
  dir.add_timing("total", total.seconds());
  char headline[200];
  std::snprintf(headline, sizeof headline, "karst_inversion: Pe %.6g +- %.3g, St %.6g +- %.3g, Theta %.6g +- %.3g; RMS %.4g (noise %.4g)",
                r.best.Pe, r.sigma[0], r.best.St, r.sigma[1], r.best.Theta, r.sigma[2], r.rms, r.noise);
  print_headline(ctx, headline);
  if (ctx.verbosity != display::Verbosity::quiet) {
    std::fprintf(stderr, "karst_inversion: %zu forward runs in %.2f s, %zu failed; %s\n", r.forward_runs, seconds,
                 r.optimisation.failures.size(), r.optimisation.stop_reason.c_str());
  }
  return io::interrupted() ? RunOutcome::interrupted : RunOutcome::complete;
}

}  // namespace hetflow::app
