#include "hetflow/app/tune_command.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <ostream>

#include "hetflow/app/reactor_batch_case.hpp"
#include "hetflow/app/tunables.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/core/number_text.hpp"
#include "hetflow/karst/device_solver.hpp"
#include "hetflow/karst/workload.hpp"
#include "hetflow/lbm/geometry_generators.hpp"
#include "hetflow/nnls/svc_device.hpp"
#include "hetflow/nnls/test_problems.hpp"
#include "hetflow/nnls/tnt.hpp"
#include "hetflow/tune/probe_tunable.hpp"
#include "hetflow/tune/tuner.hpp"

namespace hetflow::app {
namespace {

constexpr long lbm_steps_per_run = 4;  // even: A-A runs whole even/odd pairs

// Storage and physics, and the device count past one: a split lattice has its own best setting.
std::string lbm_problem_class(const lbm::Config& config, std::size_t devices) {
  const char* model = config.shan_chen ? "shan-chen" : config.two_component ? "two-component" : "single-phase";
  return std::string(lbm::to_string(config.storage)) + " " + model +
         (devices > 1 ? ", " + std::to_string(devices) + " devices" : std::string());
}

// Every way of splitting a lattice over `count` devices as boxes along x, y and z ("2x1x1").
std::vector<std::string> device_grids(std::size_t count) {
  std::vector<std::string> grids;
  for (std::size_t x = 1; x <= count; ++x) {
    for (std::size_t y = 1; x * y <= count; ++y) {
      if (count % (x * y) == 0) grids.push_back(std::to_string(x) + "x" + std::to_string(y) + "x" + std::to_string(count / (x * y)));
    }
  }
  return grids;
}

lbm::Extent parse_device_grid(const std::string& text) {
  lbm::Extent grid{};
  if (std::sscanf(text.c_str(), "%dx%dx%d", &grid[0], &grid[1], &grid[2]) != 3 || grid[0] < 1 || grid[1] < 1 || grid[2] < 1)
    throw core::Error("device grid " + text + ": expected AxBxC with positive A, B and C");
  return grid;
}

// The LBM on a duct of n^3 nodes, single phase, with `storage`: work-group along x and y (at most 512
// work-items) × pattern on the devices, and on several devices also the device grid (every split of
// the lattice into boxes; the Lagrangian pattern runs on one device only). Storages tune apart: their
// kernels need different registers (on an H200 FP16 runs best with work-groups of 32, FP32 with 128).
tune::Tunable lbm_tunable(const core::DeviceSet& devices, int n, lbm::Storage storage, const tune::MeasureOptions& measure) {
  const core::DeviceInfo& info = devices.device(0).info;
  const bool several = devices.size() > 1;
  auto geometry = std::make_shared<const lbm::Geometry>(lbm::duct(n, n, n));
  const double updates = static_cast<double>(n) * n * n * lbm_steps_per_run;
  lbm::Config base;
  base.force = {0, 0, 1e-6};  // a flow, so the kernels do the arithmetic of a real run
  base.storage = storage;
  const std::size_t solver_default = 64;
  const std::size_t biggest = std::min<std::size_t>(512, info.max_work_group);
  std::vector<tune::Dimension> dimensions{tune::Dimension::ordered("work_group", tune::powers_of_two(32, biggest)),
                                          tune::Dimension::ordered("work_group_y", {"1", "2", "4"}),
                                          tune::Dimension::choice("pattern", {"aa", "ab", "lagrangian"})};
  tune::Setting defaults{{"work_group", std::to_string(std::min(solver_default, info.max_work_group))},
                         {"work_group_y", "1"},
                         {"pattern", "aa"}};
  // NVIDIA's compiler takes a register budget per work-item; at a smaller one more groups fit on a
  // multiprocessor, at too small a one registers spill (H200, 384^3 A-A: 72 gave FP16 +3.4 %, 64 -11 %).
  if (core::takes_register_budget(info)) {
    dimensions.push_back(tune::Dimension::ordered("max_registers", {"0", "64", "72", "80", "96", "128"}));
    defaults["max_registers"] = "0";
  }
  if (several) {
    dimensions.push_back(tune::Dimension::choice("device_grid", device_grids(devices.size())));
    defaults["device_grid"] = "1x1x" + std::to_string(devices.size());  // the solver's z-slabs
  }
  tune::Tunable t{"lbm",
                  {"lbm/lbm.cl"},
                  lbm_problem_class(base, devices.size()),
                  "duct " + std::to_string(n) + "^3",
                  tune::TuningSpace(std::move(dimensions),
                                    [several, biggest](const tune::Setting& s) {
                                      return std::stoul(s.at("work_group")) * std::stoul(s.at("work_group_y")) <= biggest &&
                                             (!several || s.at("pattern") != "lagrangian");
                                    }),
                  std::move(defaults),
                  {},
                  [updates](double seconds) { return updates / seconds * 1e-6; },
                  "MLUPs/s"};
  t.seconds = [&devices, geometry, base, measure](const tune::Setting& s) {
    lbm::Config c = base;
    c.work_group = std::stoul(s.at("work_group"));
    c.work_group_y = std::stoul(s.at("work_group_y"));
    c.pattern = lbm::parse_pattern(s.at("pattern"));
    if (s.contains("max_registers")) c.max_registers = static_cast<unsigned>(std::stoul(s.at("max_registers")));
    if (s.contains("device_grid")) c.device_grid = parse_device_grid(s.at("device_grid"));
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

const std::vector<std::string>& karst_files() {
  static const std::vector<std::string> files{"karst/karst.cl"};
  return files;
}
constexpr const char* karst_class = "heat fp64";

// The karst heat model's batched forward runs (the inversion's workload): work-items per set on the
// first device, timed by the wall clock of KarstDevice::run (uploads and outlet downloads included).
// N = `nodes` water nodes, M = N / 10 rock nodes, 100 steps, a batch of 500 sets on a GPU, 16 elsewhere.
tune::Tunable karst_tunable(const core::DeviceSet& devices, int nodes, const tune::MeasureOptions& measure) {
  const core::DeviceInfo& info = devices.device(0).info;
  const bool gpu = info.kind == core::DeviceKind::gpu;
  auto grid = std::make_shared<karst::Grid>();
  grid->nodes = static_cast<std::size_t>(nodes);
  grid->rock_nodes = std::max<std::size_t>(grid->nodes / 10, 3);  // the karst grid takes at least 3
  grid->times = karst::Grid::uniform_times(1e-3, 100);
  auto sets = std::make_shared<const std::vector<karst::KarstParameters>>(karst::spread_sets(gpu ? 500 : 16));
  auto velocity = std::make_shared<const karst::Series>(karst::storm(1, 1, 0.3));
  auto inlet = std::make_shared<const karst::Series>(karst::storm(1, 0.4, 0.35));
  const std::size_t limit = std::min<std::size_t>(1024, karst::KarstDevice(devices, 0, std::size_t{1} << 20).work_group());
  const double runs = static_cast<double>(sets->size());
  tune::Tunable t{"karst",
                  karst_files(),
                  karst_class,
                  "N=" + std::to_string(grid->nodes) + " M=" + std::to_string(grid->rock_nodes) + " 100 steps, " +
                      std::to_string(sets->size()) + " sets",
                  tune::TuningSpace({tune::Dimension::ordered("work_group", tune::powers_of_two(32, limit))}),
                  {{"work_group", std::to_string(std::min<std::size_t>(256, limit))}},
                  {},
                  [runs](double seconds) { return runs / seconds; },
                  "runs/s"};
  t.seconds = [&devices, grid, sets, velocity, inlet, measure](const tune::Setting& s) {
    karst::KarstDevice device(devices, 0, std::stoul(s.at("work_group")));
    return tune::measure(tune::wall_clock([&] { device.run(*inlet, *velocity, *sets, *grid); }), measure).median;
  };
  return t;
}

const std::vector<std::string>& nnls_files() {
  static const std::vector<std::string> files{"nnls/dense.cl", "nnls/tnt.cl"};
  return files;
}
const char* nnls_class(bool fp32) { return fp32 ? "fp32" : "fp64"; }

// DenseTuning from a setting of nnls_tunable's space (names as DenseTuning's fields; gemm_tile T is a
// T x T tile of 16 x 16 work-items). Keys it does not hold keep their defaults.
nnls::DenseTuning dense_tuning(const tune::Setting& s) {
  nnls::DenseTuning t;
  const auto take = [&s](const char* key, int& field) {
    const auto it = s.find(key);
    if (it == s.end()) return;
    int v = 0;
    const auto [end, ec] = std::from_chars(it->second.data(), it->second.data() + it->second.size(), v);
    if (ec != std::errc() || end != it->second.data() + it->second.size())
      throw core::Error(std::string(key) + " " + it->second + " is not a whole number");
    field = v;
  };
  take("cholesky_block", t.cholesky_block);
  take("cholesky_work_group", t.cholesky_work_group);
  take("gemv_slices", t.gemv_slices);
  int tile = t.gemm_tile_m;
  take("gemm_tile", tile);
  t.gemm_tile_m = t.gemm_tile_n = tile;
  t.gemm_block_m = t.gemm_block_n = std::max(1, tile / 16);
  return t;
}

// TNT's dense kernels, end to end: the wall clock of one TNT solve on the first device of an n x n
// SVC matrix (kappa 1e2, on the device) with 5 % of the variables active, in FP64 or FP32.
tune::Tunable nnls_tunable(const core::DeviceSet& devices, int n, bool fp32, const tune::MeasureOptions& measure) {
  const core::DeviceInfo& info = devices.device(0).info;
  const std::size_t size = static_cast<std::size_t>(n);
  const nnls::SvcSpec spec{size, size, 1e2, nnls::SvcMode::geometric, 5, {}};
  nnls::SvcGenerator generator(devices);
  auto a = std::make_shared<const core::Buffer<double>>(generator.generate(spec));
  auto b = std::make_shared<const nnls::Vector>(nnls::with_active_set(generator.matrix(spec), 0.05, 7).b);
  const std::size_t real_bytes = fp32 ? 4 : 8;
  tune::TuningSpace space(
      {tune::Dimension::ordered("cholesky_block", {"16", "32", "48", "64"}),
       tune::Dimension::ordered("cholesky_work_group", {"64", "128", "256", "512"}),
       tune::Dimension::ordered("gemv_slices", {"2", "4", "8", "16"}),
       tune::Dimension::ordered("gemm_tile", {"32", "64", "128"})},
      [info, real_bytes](const tune::Setting& s) {
        try {
          nnls::validate(dense_tuning(s), info, real_bytes);
          return true;
        } catch (const core::Error&) {
          return false;
        }
      });
  tune::Tunable t{"nnls",
                  nnls_files(),
                  nnls_class(fp32),
                  "TNT, " + std::to_string(n) + " x " + std::to_string(n) + " SVC matrix, kappa 1e2, 5 % active",
                  std::move(space),
                  {{"cholesky_block", "64"}, {"cholesky_work_group", "256"}, {"gemv_slices", "4"}, {"gemm_tile", "64"}},
                  {},
                  {},
                  ""};
  t.seconds = [&devices, a, b, size, fp32, measure](const tune::Setting& s) {
    nnls::Tnt tnt(devices, 0, dense_tuning(s));
    nnls::TntOptions options;
    options.fp32 = fp32;
    const auto view = nnls::DeviceMatrixView<double>::whole(*a, size, size);
    return tune::measure(tune::wall_clock([&] { tnt.solve(view, *b, options); }), measure).median;
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
    out << "failed: " << trial.failure << std::endl;
    return;
  }
  out << core::number_text(trial.seconds * 1e3, 4) << " ms";
  if (t.rate) out << ", " << core::number_text(t.rate(trial.seconds), 4) << " " << t.unit;
  out << std::endl;  // as it comes: a tuning run can take minutes
}

}  // namespace

CLI::App* add_tune_command(CLI::App& app, TuneRequest& r) {
  CLI::App* cmd = app.add_subcommand("tune", "tune a kernel's parameters on a device and store the best in the tuning database");
  cmd->add_option("name", r.name, "what to tune:\n  lbm: LBM work-group and pattern (for --storage)\n  karst: the karst solver's work-items per parameter set\n  nnls: TNT's dense kernels (for --storage fp64 or fp32)\n  ftle: the FTLE kernels' work-group and work-groups per compute unit (for --storage fp64 or fp32)\n  radau5: RADAU5's mapping, work-group and work-groups per compute unit for a reactor_batch case (--case)\n  probe: the bandwidth and FMA probe work-groups")
      ->required()
      ->check(CLI::IsMember({"lbm", "karst", "nnls", "ftle", "radau5", "probe"}));
  cmd->add_option("--device", r.device, "device selection; the first selected device is tuned (lbm: all of them, with their device grid)");
  cmd->add_option("--search", r.search, "exhaustive or annealing (default: exhaustive when the space fits the budget)")
      ->check(CLI::IsMember({"exhaustive", "annealing"}));
  cmd->add_option("--budget", r.budget, "settings measured at most (default: all for exhaustive, a quarter for annealing)");
  cmd->add_option("--db", r.db, "tuning database (default $HETFLOW_TUNING_DB, else $XDG_CACHE_HOME/hetflow/tuning.json)");
  cmd->add_option("--size", r.size, "lbm: lattice edge (default 192 on a GPU, 64 elsewhere); karst: water nodes (default 1000 on a GPU, 100 elsewhere); nnls: matrix order (default 2000 on a GPU, 200 elsewhere); ftle: grid nodes along x (default 2048 on a GPU, 256 elsewhere); radau5: systems (default the case's batch.count)")->check(CLI::Range(4, 10000000));
  cmd->add_option("--storage", r.storage, "lbm: population storage, fp32 (default), fp16 or fp64; nnls: TNT's precision, fp64 (default) or fp32; ftle: tracer precision, fp64 (default) or fp32")
      ->check(CLI::IsMember({"fp32", "fp16", "fp64"}));
  cmd->add_option("--case", r.case_file, "radau5: the reactor_batch case whose batch is measured")->check(CLI::ExistingFile);
  cmd->add_option("--repeats", r.repeats, "timed runs per setting after one warm-up")->check(CLI::Range(1, 1000));
  cmd->add_option("--seed", r.seed, "annealing's random seed");
  return cmd;
}

int tune_command(const TuneRequest& r, std::ostream& out) {
  const core::DeviceSet selected = core::DeviceSet::select(r.device);
  // The first selected device alone, but every selected device for the LBM, whose device grid is tuned.
  std::optional<core::DeviceSet> first_only;
  if (r.name != "lbm" || selected.size() == 1) first_only.emplace(std::vector<core::Device>{selected.device(0)});
  const core::DeviceSet& devices = first_only ? *first_only : selected;
  for (std::size_t k = 1; k < devices.size(); ++k) {
    const core::DeviceInfo& d = devices.device(k).info;
    if (d.name != devices.device(0).info.name || d.driver != devices.device(0).info.driver)
      throw core::Error("tune lbm on several devices: " + devices.device(k).label() + " differs from " +
                        devices.device(0).label() + "; a device grid is tuned on devices of one model and driver");
  }
  const core::DeviceInfo& info = devices.device(0).info;
  const tune::MeasureOptions measure{1, r.repeats};
  const bool gpu = info.kind == core::DeviceKind::gpu;
  if ((r.name == "nnls" || r.name == "ftle") && r.storage == "fp16")
    throw core::Error("tune " + r.name + ": --storage is fp64 or fp32 (" + r.name + " has no FP16 path)");
  const bool fp32 = r.storage == "fp32";
  if ((r.name == "radau5") != !r.case_file.empty())
    throw core::Error(r.name == "radau5" ? "tune radau5: give the reactor_batch case to measure with --case FILE"
                                         : "tune " + r.name + ": --case is for radau5 only");
  const auto batch_case = [&] {
    std::vector<std::string> overrides;
    if (r.size) overrides.push_back("batch.count=" + std::to_string(r.size));
    const ReactorBatchCase type;
    io::Case c = io::load_case(r.case_file, type.schema(), overrides);
    type.check(c);
    return c;
  };
  const tune::Tunable t = r.name == "lbm"     ? lbm_tunable(devices, r.size ? r.size : gpu ? 192 : 64, lbm::parse_storage(r.storage.empty() ? "fp32" : r.storage), measure)
                          : r.name == "karst" ? karst_tunable(devices, r.size ? r.size : gpu ? 1000 : 100, measure)
                          : r.name == "nnls"  ? nnls_tunable(devices, r.size ? r.size : gpu ? 2000 : 200, fp32, measure)
                          : r.name == "radau5" ? radau5_tunable(devices, batch_case(), measure)
                          : r.name == "ftle"  ? ftle_tunable(devices, r.size ? r.size : gpu ? 2048 : 256,
                                                             fp32 ? core::Precision::f32 : core::Precision::f64, measure)
                                              : tune::probe_tunable(devices.compute(0), measure);
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

tune::Key lbm_tuning_key(const core::DeviceInfo& device, const lbm::Config& config, std::size_t devices) {
  static const std::vector<std::string> files{"lbm/lbm.cl"};
  return tune::make_key("lbm", device, files, lbm_problem_class(config, devices));
}

std::optional<std::size_t> whole_number(const tune::Setting& setting, const std::string& key, std::size_t lowest,
                                        std::size_t highest) {
  const auto it = setting.find(key);
  if (it == setting.end()) return std::nullopt;
  const std::string& text = it->second;
  std::size_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < lowest || value > highest) return std::nullopt;
  return value;
}

std::optional<tune::Entry> find_tuning(const core::DeviceSet& devices, const tune::Key& key, nlohmann::json& record) {
  const core::DeviceInfo& first = devices.device(0).info;
  for (std::size_t k = 1; k < devices.size(); ++k) {
    const core::DeviceInfo& d = devices.device(k).info;
    if (d.name != first.name || d.driver != first.driver) {
      record = "none: the devices differ, and one device's setting need not suit another";
      return std::nullopt;
    }
  }
  if (tune::tuning_disabled()) {
    record = "disabled (HETFLOW_NO_TUNE)";
    return std::nullopt;
  }
  const tune::Database db(tune::default_database_path());
  std::optional<tune::Entry> entry = db.find(key);
  if (!entry) {
    record = std::string("none: nothing tuned for this device, driver, kernel and problem class (`hetflow tune ")
                 .append(key.tunable)
                 .append("`)");
    return std::nullopt;
  }
  record = {{"database", db.path().string()}, {"tuned_at", entry->tuned_at}, {"tuned_on", entry->problem}};
  return entry;
}

lbm::Config with_lbm_tuning(lbm::Config config, const io::Case& c, const core::DeviceSet& devices,
                            std::size_t processes, nlohmann::json& record) {
  const core::DeviceInfo& first = devices.device(0).info;
  // The work-group's shape is taken whole or not at all.
  const bool open_work_group = config.work_group == 0 && config.work_group_y == 0;
  // Pattern and device grid only with one process: every process must use the same ones, and the
  // entries are measured on one process's devices.
  const bool open_pattern = c.is_default("lbm.pattern") && processes == 1;
  const bool open_registers = c.is_default("lbm.max_registers");
  const bool open_grid = c.is_default("lbm.device_grid") && processes == 1;
  const std::optional<tune::Entry> entry =
      find_tuning(devices, lbm_tuning_key(first, config, processes == 1 ? devices.size() : 1), record);
  if (!entry) return config;
  try {
    const std::optional<std::size_t> wg = whole_number(entry->best, "work_group", 1, first.max_work_group);
    const std::optional<std::size_t> wg_y = entry->best.contains("work_group_y")
                                                ? whole_number(entry->best, "work_group_y", 1, first.max_work_group)
                                                : std::optional<std::size_t>(1);
    if (open_work_group && wg && wg_y && *wg * *wg_y <= first.max_work_group) {
      config.work_group = *wg;
      config.work_group_y = *wg_y;
      record["work_group"] = *wg;
      record["work_group_y"] = *wg_y;
    }
    if (open_registers && entry->best.contains("max_registers")) {
      const std::optional<std::size_t> registers = whole_number(entry->best, "max_registers", 0, 255);
      if (registers) {
        config.max_registers = static_cast<unsigned>(*registers);
        record["max_registers"] = *registers;
      }
    }
    if (open_pattern && entry->best.contains("pattern")) {
      config.pattern = lbm::parse_pattern(entry->best.at("pattern"));
      record["pattern"] = entry->best.at("pattern");
    }
    if (open_grid && entry->best.contains("device_grid")) {
      config.device_grid = parse_device_grid(entry->best.at("device_grid"));
      record["device_grid"] = entry->best.at("device_grid");
    }
  } catch (const std::exception& e) {
    // A hand-edited entry is advisory data: the run goes on with whatever was taken before.
    record["ignored"] = e.what();
  }
  return config;
}

std::size_t karst_tuned_work_group(const core::DeviceSet& devices, nlohmann::json& record) {
  const core::DeviceInfo& first = devices.device(0).info;
  const std::optional<tune::Entry> entry =
      find_tuning(devices, tune::make_key("karst", first, karst_files(), karst_class), record);
  if (!entry || !entry->best.contains("work_group")) return 0;
  const std::optional<std::size_t> wg = whole_number(entry->best, "work_group", 1, first.max_work_group);
  if (!wg) {
    record["ignored"] = "work_group " + entry->best.at("work_group") + " is not a work-group size of this device";
    return 0;
  }
  record["work_group"] = *wg;
  return *wg;
}

nnls::DenseTuning nnls_tuned_dense(const core::DeviceSet& devices, bool fp32, nlohmann::json& record) {
  const core::DeviceInfo& first = devices.device(0).info;
  const std::optional<tune::Entry> entry =
      find_tuning(devices, tune::make_key("nnls", first, nnls_files(), nnls_class(fp32)), record);
  if (!entry) return {};
  try {
    const nnls::DenseTuning t = dense_tuning(entry->best);
    nnls::validate(t, first, fp32 ? 4 : 8);
    record["setting"] = entry->best;
    return t;
  } catch (const core::Error& e) {
    record["ignored"] = e.what();  // advisory data: the defaults serve
    return {};
  }
}

}  // namespace hetflow::app
