#include "hetflow/app/ftle/ftle_tunable.hpp"

#include <cmath>
#include <functional>
#include <memory>
#include <numbers>
#include <optional>
#include <string>

#include "hetflow/app/device_choice.hpp"
#include "hetflow/app/tuning_lookup.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/ftle/velocity_grid.hpp"

namespace hetflow::app {
namespace {

constexpr long ftle_steps = 50;

const std::vector<std::string>& ftle_files() {
  static const std::vector<std::string> files{"ftle/ftle.cl"};
  return files;
}

std::string ftle_class(core::Precision precision) {
  return std::string("gridded 2d ") + (precision == core::Precision::f64 ? "fp64" : "fp32");
}

// The measured workload: Heun with M4' over ftle_steps steps of a steady cellular flow, one tracer per node.
struct CellularFlow {
  std::shared_ptr<const ftle::VelocityGrid> grid;
  ftle::SeedGrid seeds;
  ftle::Config config;
  std::string problem;
  std::function<double(double)> rate() const {
    const double tracer_steps = static_cast<double>(seeds.size()) * ftle_steps;
    return [tracer_steps](double seconds) { return tracer_steps / seconds; };
  }
};

CellularFlow cellular_flow(int nodes, core::Precision precision) {
  const std::size_t nx = static_cast<std::size_t>(nodes), ny = std::max<std::size_t>(nx / 2, 2);
  // Steady cellular flow psi = cos(pi x) cos(pi y) on [0, 2] x [0, 1]: every tracer keeps moving.
  constexpr double pi = std::numbers::pi;
  auto grid = std::make_shared<const ftle::VelocityGrid>(ftle::sample_on_grid(
      2, {nx, ny, 1}, {0, 0, 0}, {2.0 / static_cast<double>(nx - 1), 1.0 / static_cast<double>(ny - 1), 1}, {0.0},
      [](const std::array<double, 3>& x, double) -> std::array<double, 3> {
        return {pi * std::cos(pi * x[0]) * std::sin(pi * x[1]), -pi * std::sin(pi * x[0]) * std::cos(pi * x[1]), 0};
      }));
  const ftle::SeedGrid seeds{2, grid->dims, grid->origin, grid->spacing};
  ftle::Config config;
  config.integrator = ftle::Integrator::heun;
  config.interpolation = ftle::Interpolation::m4prime;
  config.precision = precision;
  config.steps = ftle_steps;
  config.duration = 0.01 * ftle_steps;
  return {grid, seeds, config,
          "Heun + M4', steady gridded 2D flow, " + std::to_string(nx) + " x " + std::to_string(ny) + " tracers, " +
              std::to_string(ftle_steps) + " steps"};
}

// The median time of the flow's steps with `config` on `devices`: by the wall clock where devices of
// different kinds are compared (their events share no clock), else by the last device's events.
double run_seconds(const core::DeviceSet& devices, const CellularFlow& flow, const ftle::Config& config,
                   const tune::MeasureOptions& measure, bool wall_clock = false) {
  ftle::Solver solver(devices, *flow.grid, flow.seeds, config);
  const tune::TimedRun run = wall_clock ? tune::wall_clock([&] {
    solver.initialise();
    solver.advance(ftle_steps);
    solver.finish();
  })
                                        : tune::event_span([&] {
                                            solver.initialise();
                                            const core::Event first = solver.advance(1);
                                            return std::make_pair(first, solver.advance(ftle_steps - 1));
                                          });
  return tune::measure(run, measure).median;
}

}  // namespace

tune::Tunable ftle_tunable(const core::DeviceSet& devices, int nodes, core::Precision precision,
                           const tune::MeasureOptions& measure) {
  const core::DeviceInfo& info = devices.device(0).info;
  const CellularFlow flow = cellular_flow(nodes, precision);
  tune::Tunable t{"ftle",
                  ftle_files(),
                  ftle_class(precision),
                  flow.problem,
                  tune::TuningSpace({tune::Dimension::ordered("work_group", tune::powers_of_two(32, std::min<std::size_t>(512, info.max_work_group))),
                                     tune::Dimension::ordered("groups_per_unit", tune::powers_of_two(1, 64))}),
                  {{"work_group", "64"}, {"groups_per_unit", "32"}},
                  {},
                  flow.rate(),
                  "steps/s"};
  t.seconds = [&devices, flow, measure](const tune::Setting& s) {
    ftle::Config c = flow.config;
    c.work_group = std::stoul(s.at("work_group"));
    c.groups_per_unit = std::stoul(s.at("groups_per_unit"));
    return run_seconds(devices, flow, c, measure);
  };
  return t;
}

tune::Tunable ftle_devices_tunable(const core::DeviceSet& candidates, int nodes, core::Precision precision,
                                   const tune::MeasureOptions& measure) {
  const CellularFlow flow = cellular_flow(nodes, precision);
  ChoiceKey key = ftle_devices_key(precision);
  return device_choice_tunable({std::move(key.tunable), std::move(key.kernel_files), std::move(key.problem_class),
                                flow.problem, flow.rate(),
                                "steps/s",
                                [flow, measure](const core::DeviceSet& devices, std::span<const double> weights) {
                                  ftle::Config c = flow.config;
                                  c.device_weights.assign(weights.begin(), weights.end());
                                  return run_seconds(devices, flow, c, measure, true);
                                }},
                               candidates);
}

ChoiceKey ftle_devices_key(core::Precision precision) {
  return {ftle_devices_name, ftle_files(), ftle_class(precision)};
}

ftle::Config with_ftle_tuning(ftle::Config config, bool gridded_2d, const core::DeviceSet& devices,
                              nlohmann::json& record) {
  if (config.work_group != 0 || config.groups_per_unit != 0) {
    record = "none: the case sets ftle.work_group or ftle.groups_per_unit";
    return config;
  }
  if (!gridded_2d) {
    record = "none: tuned for gridded 2D flows only (`hetflow tune ftle`)";
    return config;
  }
  const core::DeviceInfo& first = devices.device(0).info;
  const std::optional<tune::Entry> entry =
      find_tuning(devices, tune::make_key("ftle", first, ftle_files(), ftle_class(config.precision)), record);
  if (!entry) return config;
  const std::optional<std::size_t> wg = whole_number(entry->best, "work_group", 1, first.max_work_group),
                                   groups = whole_number(entry->best, "groups_per_unit", 1, 4096);
  if (!wg || !groups) {
    record["ignored"] = "the entry's work_group or groups_per_unit does not fit this device";  // advisory data
    return config;
  }
  config.work_group = *wg;
  config.groups_per_unit = *groups;
  record["work_group"] = *wg;
  record["groups_per_unit"] = *groups;
  return config;
}

}  // namespace hetflow::app
