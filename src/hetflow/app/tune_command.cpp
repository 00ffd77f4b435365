#include "hetflow/app/tune_command.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <memory>
#include <ostream>

#include "hetflow/core/error.hpp"
#include "hetflow/core/number_text.hpp"
#include "hetflow/lbm/geometry_generators.hpp"
#include "hetflow/tune/probe_tunable.hpp"
#include "hetflow/tune/tuner.hpp"

namespace hetflow::app {
namespace {

constexpr long lbm_steps_per_run = 4;  // even: A-A runs whole even/odd pairs

std::string lbm_problem_class(const lbm::Config& config) {
  const char* model = config.shan_chen ? "shan-chen" : config.two_component ? "two-component" : "single-phase";
  return std::string(lbm::to_string(config.storage)) + " " + model;
}

// The LBM on a duct of n^3 nodes, single phase, with `storage`: work-group along x × pattern on the first
// device. Storages tune apart: their kernels need different registers (on an H200 FP16 runs best with
// work-groups of 32, FP32 with 128).
tune::Tunable lbm_tunable(const core::DeviceSet& devices, int n, lbm::Storage storage, const tune::MeasureOptions& measure) {
  const core::DeviceInfo& info = devices.device(0).info;
  auto geometry = std::make_shared<const lbm::Geometry>(lbm::duct(n, n, n));
  const double updates = static_cast<double>(n) * n * n * lbm_steps_per_run;
  lbm::Config base;
  base.force = {0, 0, 1e-6};  // a flow, so the kernels do the arithmetic of a real run
  base.storage = storage;
  const std::size_t solver_default = 64;
  tune::Tunable t{"lbm",
                  {"lbm/lbm.cl"},
                  lbm_problem_class(base),
                  "duct " + std::to_string(n) + "^3",
                  tune::TuningSpace({tune::Dimension::ordered("work_group", tune::powers_of_two(32, std::min<std::size_t>(512, info.max_work_group))),
                                     tune::Dimension::choice("pattern", {"aa", "ab", "lagrangian"})}),
                  {{"work_group", std::to_string(std::min(solver_default, info.max_work_group))}, {"pattern", "aa"}},
                  {},
                  [updates](double seconds) { return updates / seconds * 1e-6; },
                  "MLUPs/s"};
  t.seconds = [&devices, geometry, base, measure](const tune::Setting& s) {
    lbm::Config c = base;
    c.work_group = std::stoul(s.at("work_group"));
    c.pattern = lbm::parse_pattern(s.at("pattern"));
    lbm::Solver solver(devices, *geometry, c);
    solver.initialise();
    return tune::measure(tune::event_span([&] {
                           const core::Event first = solver.advance(1);
                           return std::make_pair(first, solver.advance(lbm_steps_per_run - 1));
                         }),
                         measure)
        .median;
  };
  return t;
}

std::string fixed(double v, int digits) {
  char text[32];
  std::snprintf(text, sizeof text, "%.*f", digits, v);
  return text;
}

void print_trial(std::ostream& out, const tune::Tunable& t, const tune::Trial& trial) {
  out << "  " << tune::describe(trial.setting) << ": ";
  if (!trial.failure.empty()) {
    out << "failed: " << trial.failure << "\n";
    return;
  }
  out << core::number_text(trial.seconds * 1e3, 4) << " ms";
  if (t.rate) out << ", " << core::number_text(t.rate(trial.seconds), 4) << " " << t.unit;
  out << "\n";
}

}  // namespace

CLI::App* add_tune_command(CLI::App& app, TuneRequest& r) {
  CLI::App* cmd = app.add_subcommand("tune", "tune a kernel's parameters on a device and store the best in the tuning database");
  cmd->add_option("name", r.name, "what to tune:\n  lbm: LBM work-group and pattern (for --storage)\n  probe: the bandwidth and FMA probe work-groups")
      ->required()
      ->check(CLI::IsMember({"lbm", "probe"}));
  cmd->add_option("--device", r.device, "device selection; the first selected device is tuned");
  cmd->add_option("--search", r.search, "exhaustive or annealing (default: exhaustive when the space fits the budget)")
      ->check(CLI::IsMember({"exhaustive", "annealing"}));
  cmd->add_option("--budget", r.budget, "settings measured at most (default: all for exhaustive, a quarter for annealing)");
  cmd->add_option("--db", r.db, "tuning database (default $HETFLOW_TUNING_DB, else $XDG_CACHE_HOME/hetflow/tuning.json)");
  cmd->add_option("--size", r.size, "lbm: lattice edge (default 192 on a GPU, 64 elsewhere)")->check(CLI::Range(4, 4096));
  cmd->add_option("--storage", r.storage, "lbm: population storage, fp32 (default), fp16 or fp64")
      ->check(CLI::IsMember({"fp32", "fp16", "fp64"}));
  cmd->add_option("--repeats", r.repeats, "timed runs per setting after one warm-up")->check(CLI::Range(1, 1000));
  cmd->add_option("--seed", r.seed, "annealing's random seed");
  return cmd;
}

int tune_command(const TuneRequest& r, std::ostream& out) {
  const core::DeviceSet selected = core::DeviceSet::select(r.device);
  const core::DeviceSet devices({selected.device(0)});
  const core::DeviceInfo& info = devices.device(0).info;
  const tune::MeasureOptions measure{1, r.repeats};
  const int n = r.size ? r.size : info.kind == core::DeviceKind::gpu ? 192 : 64;
  const tune::Tunable t = r.name == "lbm" ? lbm_tunable(devices, n, lbm::parse_storage(r.storage), measure) : tune::probe_tunable(devices.compute(0), measure);
  const tune::Database db(r.db.empty() ? tune::default_database_path() : std::filesystem::path(r.db));
  if (db.path().empty()) throw core::Error("no tuning database path: give --db, or set HETFLOW_TUNING_DB or HOME");

  tune::TunerOptions options;
  if (!r.search.empty()) options.search = tune::parse_search(r.search);
  options.budget = r.budget;
  options.seed = r.seed;
  out << "tuning " << t.name << " (" << t.problem << ") on " << devices.device(0).label() << "\n";
  const tune::TuneResult result = tune::tune(t.space, t.seconds, t.defaults, options);
  for (const tune::Trial& trial : result.trials) print_trial(out, t, trial);

  out << "best: " << tune::describe(result.best) << ", " << core::number_text(result.best_seconds * 1e3, 4) << " ms";
  if (t.rate) out << ", " << core::number_text(t.rate(result.best_seconds), 4) << " " << t.unit;
  out << "\n"
      << tune::to_string(result.search) << " search: " << result.trials.size() << " of " << result.space_size
      << " settings evaluated\n"
      << "best/mean " << fixed(result.best_over_mean(), 2) << "x, best/worst " << fixed(result.best_over_worst(), 2)
      << "x (speedup of the best over the mean and the worst evaluated)\n";
  db.store(tune::make_key(t.name, info, t.kernel_files, t.problem_class), tune::entry_of(t, result));
  out << "wrote " << db.path().string() << "\n";
  return 0;
}

tune::Key lbm_tuning_key(const core::DeviceInfo& device, const lbm::Config& config) {
  static const std::vector<std::string> files{"lbm/lbm.cl"};
  return tune::make_key("lbm", device, files, lbm_problem_class(config));
}

lbm::Config with_lbm_tuning(lbm::Config config, const io::Case& c, const core::DeviceSet& devices,
                            std::size_t processes, nlohmann::json& record) {
  const core::DeviceInfo& first = devices.device(0).info;
  for (std::size_t k = 1; k < devices.size(); ++k) {
    const core::DeviceInfo& d = devices.device(k).info;
    if (d.name != first.name || d.driver != first.driver) {
      record = "none: the devices differ, and one device's setting need not suit another";
      return config;
    }
  }
  if (tune::tuning_disabled()) {
    record = "disabled (HETFLOW_NO_TUNE)";
    return config;
  }
  const bool open_work_group = config.work_group == 0;
  const bool open_pattern = c.is_default("lbm.pattern") && processes == 1;
  const tune::Database db(tune::default_database_path());
  const std::optional<tune::Entry> entry = db.find(lbm_tuning_key(first, config));
  if (!entry) {
    record = "none: nothing tuned for this device, driver, kernel and problem class (`hetflow tune lbm`)";
    return config;
  }
  record = {{"database", db.path().string()}, {"tuned_at", entry->tuned_at}, {"tuned_on", entry->problem}};
  try {
    if (open_work_group && entry->best.contains("work_group")) {
      const std::size_t wg = std::stoul(entry->best.at("work_group"));
      if (wg <= first.max_work_group) {
        config.work_group = wg;
        record["work_group"] = wg;
      }
    }
    if (open_pattern && entry->best.contains("pattern")) {
      config.pattern = lbm::parse_pattern(entry->best.at("pattern"));
      record["pattern"] = entry->best.at("pattern");
    }
  } catch (const std::exception& e) {
    // A hand-edited entry is advisory data: the run goes on with whatever was taken before.
    record["ignored"] = e.what();
  }
  return config;
}

}  // namespace hetflow::app
