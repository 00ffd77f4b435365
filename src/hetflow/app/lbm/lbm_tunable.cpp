#include "hetflow/app/lbm/lbm_tunable.hpp"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "hetflow/app/device_choice.hpp"
#include "hetflow/app/tuning_lookup.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/lbm/geometry_generators.hpp"

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

// The database key the LBM uses on `device` for `config`'s storage and physics model on `devices` devices.
tune::Key lbm_tuning_key(const core::DeviceInfo& device, const lbm::Config& config, std::size_t devices) {
  static const std::vector<std::string> files{"lbm/lbm.cl"};
  return tune::make_key("lbm", device, files, lbm_problem_class(config, devices));
}

// The measured duct's flow: a force, so the kernels do the arithmetic of a real run.
lbm::Config duct_config(lbm::Storage storage) {
  lbm::Config c;
  c.force = {0, 0, 1e-6};
  c.storage = storage;
  return c;
}

// The median time of lbm_steps_per_run steps of `config` on `devices`: by the wall clock where devices
// of different kinds are compared (their events share no clock), else by the last device's events.
double run_seconds(const core::DeviceSet& devices, const lbm::Geometry& geometry, const lbm::Config& config,
                   const tune::MeasureOptions& measure, bool wall_clock = false) {
  lbm::Solver solver(devices, geometry, config);
  solver.initialise();
  const tune::TimedRun run = wall_clock ? tune::wall_clock([&] {
    solver.advance(lbm_steps_per_run);
    devices.finish();
  })
                                        : tune::event_span([&] {
                                            const core::Event first = solver.advance(1);
                                            return std::make_pair(first, solver.advance(lbm_steps_per_run - 1));
                                          });
  return tune::measure(run, measure).median;
}

}  // namespace

tune::Tunable lbm_tunable(const core::DeviceSet& devices, int n, lbm::Storage storage, const tune::MeasureOptions& measure) {
  const core::DeviceInfo& info = devices.device(0).info;
  const bool several = devices.size() > 1;
  auto geometry = std::make_shared<const lbm::Geometry>(lbm::duct(n, n, n));
  const double updates = static_cast<double>(n) * n * n * lbm_steps_per_run;
  const lbm::Config base = duct_config(storage);
  const std::size_t solver_default = 64;
  const std::size_t biggest = std::min<std::size_t>(512, info.max_work_group);
  std::vector<tune::Dimension> dimensions{tune::Dimension::ordered("work_group", tune::powers_of_two(32, biggest)),
                                          tune::Dimension::ordered("work_group_y", {"1", "2", "4"}),
                                          tune::Dimension::choice("pattern", {"aa", "ab", "lagrangian"})};
  tune::Setting defaults{{"work_group", std::to_string(std::min(solver_default, info.max_work_group))},
                         {"work_group_y", "1"},
                         {"pattern", "aa"}};
  // NVIDIA's compiler takes a register budget per work-item; at a smaller one more groups fit on a
  // multiprocessor, at too small a one registers spill.
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
    return run_seconds(devices, *geometry, c, measure);
  };
  return t;
}

tune::Tunable lbm_devices_tunable(const core::DeviceSet& candidates, int n, lbm::Storage storage,
                                  const tune::MeasureOptions& measure) {
  auto geometry = std::make_shared<const lbm::Geometry>(lbm::duct(n, n, n));
  const double updates = static_cast<double>(n) * n * n * lbm_steps_per_run;
  const lbm::Config base = duct_config(storage);
  ChoiceKey key = lbm_devices_key(base);
  return device_choice_tunable({std::move(key.tunable),
                                std::move(key.kernel_files),
                                std::move(key.problem_class),
                                "duct " + std::to_string(n) + "^3",
                                [updates](double seconds) { return updates / seconds * 1e-6; },
                                "MLUPs/s",
                                [geometry, base, measure](const core::DeviceSet& devices, std::span<const double> weights) {
                                  lbm::Config c = base;
                                  c.device_weights.assign(weights.begin(), weights.end());
                                  return run_seconds(devices, *geometry, c, measure, true);
                                }},
                               candidates);
}

ChoiceKey lbm_devices_key(const lbm::Config& config) {
  return {lbm_devices_name, {"lbm/lbm.cl"}, lbm_problem_class(config, 1)};
}

lbm::Config with_lbm_tuning(lbm::Config config, const casefile::Case& c, const core::DeviceSet& devices,
                            std::size_t processes, nlohmann::json& record) {
  const core::DeviceInfo& first = devices.device(0).info;
  // The work-group's shape is taken whole or not at all.
  const bool open_work_group = config.work_group == 0 && config.work_group_y == 0;
  // Pattern and device grid only with one process: every process must use the same ones, and the
  // entries are measured on one process's devices. A key written with its default value, as the
  // template prints it, leaves the choice open as leaving it out does.
  const bool open_pattern = !c.is_set("lbm.pattern") && processes == 1;
  const bool open_registers = !c.is_set("lbm.max_registers");
  const bool open_grid = !c.is_set("lbm.device_grid") && processes == 1;
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

}  // namespace hetflow::app
