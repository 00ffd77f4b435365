#include "hetflow/app/tune_command.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <ostream>
#include <string>
#include <vector>

#include "hetflow/app/nnls/tnt_constants_tunable.hpp"
#include "hetflow/app/option_checks.hpp"
#include "hetflow/app/solvers.hpp"
#include "hetflow/app/tuning_run.hpp"
#include "hetflow/core/number_text.hpp"

namespace hetflow::app {
namespace {

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
  const TuningRun run(r);
  const tune::Tunable& t = run.tunable();
  out << "tuning " << t.name << " (" << t.problem << ") on " << run.devices_text() << "\n";
  const tune::TuneResult result = run.search([&](const tune::Trial& trial) { print_trial(out, t, trial); });
  for (const tune::Trial& trial : result.trials) {
    if (trial.setting == t.defaults && trial.failure.empty())
      out << "defaults: " << tune::describe(t.defaults) << ", " << cost_text(t, trial.seconds) << "\n";
  }
  out << "best: " << tune::describe(result.best) << ", " << cost_text(t, result.best_seconds) << "\n"
      << tune::to_string(result.search) << " search: " << result.trials.size() << " of " << result.space_size
      << " settings evaluated\n"
      << "best/mean " << fixed(result.best_over_mean(), 2) << "x, best/worst " << fixed(result.best_over_worst(), 2)
      << "x (speedup of the best over the mean and the worst evaluated)\n";
  out << "wrote " << run.store(result).string() << "\n";
  return 0;
}

}  // namespace hetflow::app
