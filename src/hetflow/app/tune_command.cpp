#include "hetflow/app/tune_command.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "hetflow/app/device_choice.hpp"
#include "hetflow/app/nnls/tnt_constants_tunable.hpp"
#include "hetflow/app/option_checks.hpp"
#include "hetflow/app/solvers.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/core/number_text.hpp"
#include "hetflow/tune/database.hpp"

namespace hetflow::app {
namespace {

std::vector<const TuneTarget*> tune_targets() {
  std::vector<const TuneTarget*> targets;
  for (const Solver& s : solvers()) {
    for (const TuneTarget& t : s.tunables) targets.push_back(&t);
  }
  return targets;
}

const TuneTarget& find_target(const std::string& name) {
  for (const TuneTarget* t : tune_targets()) {
    if (t->name == name) return *t;
  }
  throw core::Error("no tunable named '" + name + "'");  // the command line offers only the known ones
}

// What one of `field`'s texts says per tunable ("lbm: ...; karst: ..."), for those that have one.
std::string per_target(std::string TuneTarget::*field, const char* separator) {
  std::string text;
  for (const TuneTarget* t : tune_targets()) {
    if ((t->*field).empty()) continue;
    text += (text.empty() ? "" : separator) + t->name + ": " + t->*field;
  }
  return text;
}

std::string fixed(double v, int digits) {
  char text[32];
  std::snprintf(text, sizeof text, "%.*f", digits, v);
  return text;
}

// A trial's cost as the tunable measures it: milliseconds, or its count of work.
std::string cost_text(const tune::Tunable& t, double cost) {
  if (!t.cost_unit.empty()) return core::number_text(cost, 4) + " " + t.cost_unit;
  std::string text = core::number_text(cost * 1e3, 4) + " ms";
  if (t.rate) text += ", " + core::number_text(t.rate(cost), 4) + " " + t.unit;
  return text;
}

void print_trial(std::ostream& out, const tune::Tunable& t, const tune::Trial& trial) {
  out << "  " << tune::describe(trial.setting) << ": ";
  if (!trial.failure.empty()) {
    out << "failed: " << trial.failure << std::endl;
    return;
  }
  out << cost_text(t, trial.seconds) << std::endl;  // as it comes: a tuning run can take minutes
}

// The request's nnls-constants options, named, for the refusal on another tunable.
std::vector<std::string> class_options(const TuneRequest& r) {
  std::vector<std::string> given;
  if (!r.problem_class.empty()) given.push_back("--class");
  if (!r.kappas.empty()) given.push_back("--kappa");
  if (!r.active.empty()) given.push_back("--active");
  if (!r.problems.empty()) given.push_back("--problem");
  if (!r.objective.empty()) given.push_back("--objective");
  return given;
}

}  // namespace

CLI::App* add_tune_command(CLI::App& app, TuneRequest& r) {
  CLI::App* cmd = app.add_subcommand("tune", "tune a kernel's parameters on a device and store the best in the tuning database");
  std::string what = "what to tune:";
  std::vector<std::string> names;
  for (const TuneTarget* t : tune_targets()) {
    what += "\n  " + t->name + ": " + t->help;
    names.push_back(t->name);
  }
  cmd->add_option("name", r.name, what)->required()->check(CLI::IsMember(names));
  std::string device_help = "device selection; the first selected device is tuned";
  if (const std::string every = per_target(&TuneTarget::every_device_help, "; "); !every.empty())
    device_help += " (" + every + ")";
  cmd->add_option("--device", r.device, device_help)->check(not_empty());
  cmd->add_option("--search", r.search, "exhaustive or annealing (default: exhaustive when the space fits the budget)")
      ->check(CLI::IsMember({"exhaustive", "annealing"}));
  cmd->add_option("--budget", r.budget, "settings measured at most (default: all for exhaustive, a quarter for annealing)");
  cmd->add_option("--db", r.db, "tuning database (default $HETFLOW_TUNING_DB, else $XDG_CACHE_HOME/hetflow/tuning.json)");
  cmd->add_option("--size", r.size, per_target(&TuneTarget::size_help, "; "))->check(CLI::Range(4, 10000000));
  cmd->add_option("--storage", r.storage, per_target(&TuneTarget::storage_help, "; "))
      ->check(CLI::IsMember({"fp32", "fp16", "fp64"}));
  cmd->add_option("--case", r.case_file, per_target(&TuneTarget::case_help, "; "))->check(CLI::ExistingFile);
  cmd->add_option("--repeats", r.repeats, "timed runs per setting after one warm-up")->check(CLI::Range(1, 1000));
  cmd->add_option("--seed", r.seed, "annealing's random seed");
  // The problem class of nnls-constants (tune_command refuses these options for the other tunables).
  const auto only = [](const char* text) { return std::string(tnt_constants_name) + ": " + text; };
  cmd->add_option("--class", r.problem_class, only("the problem class whose constants are tuned and stored (required)"))
      ->check(not_empty());
  cmd->add_option("--kappa", r.kappas,
                  only("condition numbers of the class's SVC matrices, comma-separated (default 1e2)"))
      ->delimiter(',');
  cmd->add_option("--active", r.active, only("fractions of the variables active in the solutions (default 0.1)"))
      ->delimiter(',');
  cmd->add_option("--problem", r.problems, only("A b: a matrix and right-hand sides instead of SVC ones (repeatable)"))
      ->type_size(2)
      ->allow_extra_args(false);
  cmd->add_option("--objective", r.objective,
                  only("time (TNT's wall clock, default) or work (factorisations + 0.1 PCGNR iterations)"))
      ->check(CLI::IsMember({"time", "work"}));
  return cmd;
}

int tune_command(const TuneRequest& r, std::ostream& out) {
  const TuneTarget& target = find_target(r.name);
  const core::DeviceSet selected =
      core::DeviceSet::select(target.chooses_devices && r.device == "auto" ? "all" : r.device);
  // The first selected device alone, unless the target tunes how work is split over every selected one.
  std::optional<core::DeviceSet> first_only;
  if (!target.chooses_devices && (target.every_device_help.empty() || selected.size() == 1))
    first_only.emplace(std::vector<core::Device>{selected.device(0)});
  const core::DeviceSet& devices = first_only ? *first_only : selected;
  for (std::size_t k = 1; k < devices.size() && !target.chooses_devices; ++k) {
    const core::DeviceInfo& d = devices.device(k).info;
    if (d.name != devices.device(0).info.name || d.driver != devices.device(0).info.driver)
      throw core::Error("tune " + r.name + " on several devices: " + devices.device(k).label() + " differs from " +
                        devices.device(0).label() + "; a device grid is tuned on devices of one model and driver");
  }
  const core::DeviceInfo& info = devices.device(0).info;
  const tune::MeasureOptions measure{1, r.repeats};
  if (!target.storage_help.empty() && !target.fp16 && r.storage == "fp16")
    throw core::Error("tune " + r.name + ": --storage is fp64 or fp32 (" + r.name + " has no FP16 path)");
  if (target.case_help.empty() && !r.case_file.empty()) {
    std::string takers;
    for (const TuneTarget* t : tune_targets()) {
      if (!t->case_help.empty()) takers += (takers.empty() ? "" : ", ") + t->name;
    }
    throw core::Error("tune " + r.name + ": --case is for " + takers + " only");
  }
  if (const std::vector<std::string> given = class_options(r); !given.empty() && r.name != tnt_constants_name) {
    std::string names;
    for (const std::string& g : given) names += (names.empty() ? "" : ", ") + g;
    throw core::Error("tune " + r.name + ": " + names + " " + (given.size() == 1 ? "is" : "are") + " for " +
                      tnt_constants_name + " only");
  }
  const tune::Tunable t = target.make(r, devices, measure);
  const tune::Database db(r.db.empty() ? tune::default_database_path() : std::filesystem::path(r.db));
  if (db.path().empty()) throw core::Error("no tuning database path: give --db, or set HETFLOW_TUNING_DB or HOME");

  tune::TunerOptions options;
  if (!r.search.empty()) options.search = tune::parse_search(r.search);
  options.budget = r.budget;
  options.seed = r.seed;
  out << "tuning " << t.name << " (" << t.problem << ") on " << devices.device(0).label();
  if (devices.size() > 1) out << " and " << devices.size() - 1 << " more";
  out << "\n";
  const tune::TuneResult result =
      tune::tune(t.space, t.seconds, t.defaults, options, [&](const tune::Trial& trial) { print_trial(out, t, trial); });

  for (const tune::Trial& trial : result.trials) {
    if (trial.setting == t.defaults && trial.failure.empty())
      out << "defaults: " << tune::describe(t.defaults) << ", " << cost_text(t, trial.seconds) << "\n";
  }
  out << "best: " << tune::describe(result.best) << ", " << cost_text(t, result.best_seconds) << "\n"
      << tune::to_string(result.search) << " search: " << result.trials.size() << " of " << result.space_size
      << " settings evaluated\n"
      << "best/mean " << fixed(result.best_over_mean(), 2) << "x, best/worst " << fixed(result.best_over_worst(), 2)
      << "x (speedup of the best over the mean and the worst evaluated)\n";
  std::vector<core::Device> candidates;
  for (std::size_t k = 0; k < devices.size(); ++k) candidates.push_back(devices.device(k));
  tune::Key key = target.chooses_devices ? device_choice_key({t.name, t.kernel_files, t.problem_class}, candidates)
                                         : tune::make_key(t.name, info, t.kernel_files, t.problem_class);
  if (t.device_independent) key = tune::for_any_device(std::move(key));
  db.store(key, tune::entry_of(t, result));
  out << "wrote " << db.path().string() << "\n";
  return 0;
}

}  // namespace hetflow::app
