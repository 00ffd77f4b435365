#include "hetflow/app/karst/karst_bench.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "hetflow/app/bench/reference.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/core/event.hpp"
#include "hetflow/karst/device_solver.hpp"
#include "hetflow/karst/workload.hpp"

namespace hetflow::app {
namespace {

struct Size {
  std::size_t nodes, rock_nodes, steps;
};

}  // namespace

BenchReport karst_benchmark(const core::DeviceSet& devices, const BenchOptions& options) {
  const core::Queue& queue = devices.compute(0);
  const core::DeviceInfo& info = devices.device(0).info;
  if (!info.fp64) throw core::Error("the karst benchmark needs FP64, which " + info.name + " lacks");
  BenchReport report{"karst", info, reference_bandwidth(queue).copy.median, {}};
  const bool gpu = info.kind == core::DeviceKind::gpu;
  // A batch runs only when its one run is predicted within run_cap; its timed repeats fill about
  // case_budget, at least one. On 2 PoCL cores this keeps the benchmark near a minute.
  const double run_cap = gpu ? 30.0 : 10.0, case_budget = gpu ? 5.0 : 2.0;
  const std::vector<Size> sizes = {{1000, 100, 1000}, {1000, 1000, 10000}};
  const std::vector<std::size_t> batches = {1, 10, 100, 500, 1000, 10000};
  const karst::Series velocity = karst::storm(1, 1, 0.3), inlet = karst::storm(1, 0.4, 0.35);

  karst::KarstDevice device(devices);
  double updates_per_second = 0;  // water-node x rock-node x step updates, of the last batch measured
  for (const Size& size : sizes) {
    karst::Grid grid;
    grid.nodes = size.nodes;
    grid.rock_nodes = size.rock_nodes;
    grid.rock_extent = 10;
    grid.times = karst::Grid::uniform_times(1.0 / static_cast<double>(size.steps), size.steps);
    const double updates_per_run = double(size.nodes) * double(size.rock_nodes) * double(size.steps);
    const double bytes_per_run = 16.0 * double(size.nodes) * double(size.rock_nodes) * double(size.steps);
    const std::size_t first_case = report.cases.size();
    std::string stopped;
    for (const std::size_t count : batches) {
      char name[96];
      std::snprintf(name, sizeof name, "N=%zu M=%zu steps=%zu sets=%zu", size.nodes, size.rock_nodes, size.steps, count);
      const double state_bytes = 8.0 * double(count) * double(size.nodes) * double(size.rock_nodes);
      if (state_bytes > double(info.max_alloc)) {
        stopped = "the rock state of " + std::to_string(count) + " sets passes the device's allocation limit";
      } else if (updates_per_second > 0 && double(count) * updates_per_run / updates_per_second > run_cap) {
        stopped = std::to_string(count) + " sets would pass " + std::to_string(int(run_cap)) + " s in one run";
      }
      if (!stopped.empty()) break;
      const std::vector<karst::KarstParameters> sets = karst::spread_sets(count);
      const core::WallTimer warm_timer;
      const std::vector<karst::Series> warm = device.run(inlet, velocity, sets, grid);
      const double warm_seconds = warm_timer.seconds();
      for (std::size_t p = 0; p < count; ++p)
        if (!std::isfinite(warm[p].value.back()))
          throw core::Error(std::string("karst benchmark ") + name + ": set " + std::to_string(p) + " gave a non-finite outlet");
      // A run as long as the budget is its own sample (the kernel is built, buffers are per run anyway).
      const bool warm_counts = warm_seconds >= case_budget;
      const int repeats = warm_counts ? 0 : std::clamp(int(case_budget / warm_seconds), 1, options.repeats);
      std::vector<double> rate;
      if (warm_counts) rate.push_back(double(count) / warm_seconds);
      for (int r = 0; r < repeats; ++r) {
        const core::WallTimer timer;
        device.run(inlet, velocity, sets, grid);
        rate.push_back(double(count) / timer.seconds());
      }
      const core::Summary stats = core::summarize(rate);
      updates_per_second = stats.median * updates_per_run;
      const double efficiency = stats.median * bytes_per_run / (report.reference_bandwidth_GBs * 1e9);
      nlohmann::json params = {{"nodes", size.nodes},
                               {"rock_nodes", size.rock_nodes},
                               {"steps", size.steps},
                               {"sets", count},
                               {"seconds_per_batch", double(count) / stats.median},
                               {"work_group", device.work_group()},
                               {"timed", "host wall clock of KarstDevice::run: uploads, kernel, outlet download"},
                               {"efficiency_is", "16 M N bytes per step (rock state read and written once) x runs/s / copy bandwidth"}};
      if (size.rock_nodes == 100 && count == 500) params["goal"] = "500 runs in < 1 s on an H200";
      report.add({name, "runs/s", stats, bytes_per_run, efficiency, std::move(params)});
      std::cerr << "  " << name << ": " << stats.median << " runs/s (" << double(count) / stats.median << " s per batch)\n";
    }
    if (!stopped.empty()) {
      std::cerr << "  N=" << size.nodes << " M=" << size.rock_nodes << ": stopped: " << stopped << "\n";
      for (std::size_t c = first_case; c < report.cases.size(); ++c) report.cases[c].params["series_stopped"] = stopped;
    }
  }
  return report;
}

}  // namespace hetflow::app
