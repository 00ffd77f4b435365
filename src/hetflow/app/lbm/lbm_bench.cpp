#include "hetflow/app/lbm/lbm_bench.hpp"

#include <algorithm>
#include <iostream>

#include "hetflow/app/bench/reference.hpp"
#include "hetflow/lbm/geometry_generators.hpp"
#include "hetflow/lbm/memory_plan.hpp"
#include "hetflow/lbm/solver.hpp"

namespace hetflow::app {
namespace {

constexpr long steps_per_run = 10;  // even, so A-A runs whole even/odd pairs

// Median, min and max MLUPs/s over `repeats` runs of steps_per_run steps, timed by device events.
core::Summary time_solver(lbm::Solver& solver, int repeats) {
  solver.advance(2 * steps_per_run);  // warm-up: first launches, caches, clocks
  solver.finish();
  std::vector<double> rates;
  for (int r = 0; r < repeats; ++r) {
    const core::Event first = solver.advance(1);
    const core::Event last = solver.advance(steps_per_run - 1);
    const double seconds = first.seconds_until(last);
    rates.push_back(static_cast<double>(solver.nodes()) * steps_per_run / seconds * 1e-6);
  }
  return core::summarize(rates);
}

// The largest cubic FP32 A-A duct whose buffers fill device 0's memory but a reserve of 5 % (what the
// runtime keeps for itself, kernels, halo faces), in as many boxes as its allocation limit asks
// (Config::boxes_per_device), with
// the work-group shape of `shape`; its efficiency is against `bandwidth` (GB/s). A lattice the device
// then refuses is retried 1 % smaller per side.
BenchCase largest_lattice(const core::DeviceSet& devices, const lbm::Config& shape, const BenchOptions& options,
                          double bandwidth) {
  const core::DeviceSet one({devices.device(0)});
  const core::DeviceInfo& info = one.device(0).info;
  int n = static_cast<int>(lbm::largest_fitting({1, 1, 1}, shape, 0.95 * static_cast<double>(info.global_mem))[0]);
  for (int attempt = 0;; ++attempt, n = n * 99 / 100) {
    try {
      std::cerr << "  largest fp32 aa: building a " << n << "^3 lattice\n";
      lbm::Solver s(one, lbm::duct(n, n, n), shape);
      s.initialise();
      const core::Summary rate = time_solver(s, std::max(3, options.repeats / 3));
      const double bytes = static_cast<double>(s.bytes_per_update());
      return {"largest fp32 aa", "MLUPs/s", rate, bytes, rate.median * 1e6 * bytes / 1e9 / bandwidth,
              {{"lattice", n}, {"storage", "fp32"}, {"pattern", "aa"}, {"boxes_per_device", s.boxes_per_device()},
               {"device_bytes", s.device_bytes()}, {"device_memory", info.global_mem}, {"max_alloc", info.max_alloc},
               {"work_group", shape.work_group}, {"work_group_y", shape.work_group_y},
               {"max_registers", shape.max_registers}, {"steps_per_run", steps_per_run}}};
    } catch (const core::Error& e) {
      if (attempt == 4) throw;
      std::cerr << "  " << n << "^3 refused (" << e.what() << "): trying 1 % smaller\n";
    }
  }
}

}  // namespace

BenchReport lbm_scaling_benchmark(const core::DeviceSet& devices, const BenchOptions& options) {
  const core::DeviceInfo& info = devices.device(0).info;
  BenchReport report{"lbm-scaling", info, reference_bandwidth(devices.compute(0)).copy.median, {}};
  const int n = info.kind == core::DeviceKind::gpu ? 384 : 128;
  double single = 0;
  for (std::size_t count = 1; count <= devices.size(); ++count) {
    std::vector<core::Device> subset;
    for (std::size_t k = 0; k < count; ++k) subset.push_back(devices.device(k));
    const core::DeviceSet set(subset);
    lbm::Config c;
    c.force = {0, 0, 1e-6};
    lbm::Solver s(set, lbm::duct(n, n, n * static_cast<int>(count)), c);
    s.initialise();
    s.advance(2 * steps_per_run);
    s.finish();
    std::vector<double> rates;
    for (int r = 0; r < options.repeats; ++r) {
      const core::WallTimer timer;
      s.advance(steps_per_run);
      s.finish();
      rates.push_back(static_cast<double>(s.nodes()) * steps_per_run / timer.seconds() * 1e-6);
    }
    const core::Summary rate = core::summarize(rates);
    if (count == 1) single = rate.median;
    const double bytes = static_cast<double>(s.bytes_per_update());
    const double parallel = rate.median / (static_cast<double>(count) * single);
    report.add({std::to_string(count) + " device" + (count > 1 ? "s" : "") + ", " + std::to_string(n) +
                                "^2 x " + std::to_string(n * static_cast<int>(count)),
                            "MLUPs/s", rate, bytes,
                            rate.median * 1e6 * bytes / 1e9 / (static_cast<double>(count) * report.reference_bandwidth_GBs),
                            {{"devices", count}, {"lattice_per_device", n}, {"parallel_efficiency", parallel},
                             {"speedup", rate.median / single}, {"pattern", "aa"}, {"storage", "fp32"}}});
  }
  return report;
}

BenchReport lbm_benchmark(const core::DeviceSet& devices, const BenchOptions& options) {
  const core::DeviceInfo& info = devices.device(0).info;
  BenchReport report{"lbm", info, reference_bandwidth(devices.compute(0)).copy.median, {}};
  const bool gpu = info.kind == core::DeviceKind::gpu;
  const std::vector<int> sizes = gpu ? std::vector<int>{256, 384} : std::vector<int>{128, 256};

  const std::vector<lbm::Pattern> patterns = {lbm::Pattern::aa, lbm::Pattern::ab, lbm::Pattern::lagrangian};
  auto case_name = [](int n, lbm::Storage storage, lbm::Pattern pattern) {
    return std::to_string(n) + "^3 " + lbm::to_string(storage) + " " + lbm::to_string(pattern);
  };
  lbm::Config largest_shape;  // the FP32 A-A sweep's best on the largest of `sizes`, if it ran
  largest_shape.force = {0, 0, 1e-6};
  for (lbm::Storage storage : {lbm::Storage::fp32, lbm::Storage::fp16, lbm::Storage::fp64}) {
    for (int n : sizes) {
      // A lattice none of whose cases is wanted skips its sweep too.
      bool wanted = false;
      for (lbm::Pattern pattern : patterns) wanted = wanted || options.wants(case_name(n, storage, pattern));
      for (const char* collision : {" trt", " mrt"})
        wanted = wanted || options.wants(case_name(n, storage, lbm::Pattern::aa) + collision);
      if (!wanted) continue;
      lbm::Config best;
      best.force = {0, 0, 1e-6};
      best.storage = storage;
      double best_rate = 0;
      // A-A on this lattice with `c`; the best so far is kept.
      auto trial = [&](const lbm::Config& c) {
        core::Summary rate;
        try {
          lbm::Solver s(devices, lbm::duct(n, n, n), c);
          s.initialise();
          rate = time_solver(s, std::max(3, options.repeats / 3));
        } catch (const core::Error& e) {  // e.g. registers too many for this many work-items
          std::cerr << "  " << lbm::to_string(storage) << " " << c.work_group << " x " << c.work_group_y << ", registers "
                    << c.max_registers << " skipped: " << e.what() << "\n";
          return;
        }
        std::cerr << "  " << n << "^3 " << lbm::to_string(storage) << " work-group " << c.work_group << " x " << c.work_group_y
                  << ", registers " << c.max_registers << ": " << rate.median << " MLUPs/s\n";
        if (rate.median > best_rate) {
          best_rate = rate.median;
          best = c;
        }
      };
      // The sweep, per storage (each needs its own registers) and lattice: work-groups of 32 ... 512
      // along x times 1, 2 or 4 along y, at most 512 work-items; then, on NVIDIA GPUs, register budgets
      // for the best shape (0: the compiler's choice).
      for (std::size_t wg_y : {1u, 2u, 4u}) {
        for (std::size_t wg : {32u, 64u, 128u, 256u, 512u}) {
          if (wg * wg_y > std::min<std::size_t>(512, info.max_work_group)) continue;
          lbm::Config c = best;
          c.work_group = wg;
          c.work_group_y = wg_y;
          trial(c);
        }
      }
      if (core::takes_register_budget(info)) {
        const lbm::Config shape = best;
        for (unsigned registers : {64u, 72u, 80u, 96u, 128u}) {
          lbm::Config c = shape;
          c.max_registers = registers;
          trial(c);
        }
      }
      auto measure = [&](const std::string& name, const lbm::Config& c) {
        if (!options.wants(name)) return;
        try {
          lbm::Solver s(devices, lbm::duct(n, n, n), c);
          s.initialise();
          const core::Summary rate = time_solver(s, options.repeats);
          const double bytes = static_cast<double>(s.bytes_per_update());
          report.add({name, "MLUPs/s", rate, bytes, rate.median * 1e6 * bytes / 1e9 / report.reference_bandwidth_GBs,
                                  {{"lattice", n}, {"storage", lbm::to_string(storage)},
                                   {"pattern", lbm::to_string(c.pattern)}, {"collision", lbm::to_string(c.collision)},
                                   {"work_group", c.work_group}, {"work_group_y", c.work_group_y},
                                   {"max_registers", c.max_registers}, {"steps_per_run", steps_per_run},
                                   {"device_bytes", s.device_bytes()}}});
        } catch (const core::Error& e) {
          std::cerr << "  " << name << " skipped: " << e.what() << "\n";  // e.g. does not fit the device
        }
      };
      for (lbm::Pattern pattern : patterns) {
        lbm::Config c = best;
        c.pattern = pattern;
        // The register budget was chosen for the A-A kernels; the others need their own.
        if (pattern != lbm::Pattern::aa) c.max_registers = 0;
        measure(case_name(n, storage, pattern), c);
      }
      // What TRT and MRT cost: A-A in BGK's best shape, whose register budget they may need more than.
      for (const lbm::Collision collision : {lbm::Collision::trt, lbm::Collision::mrt}) {
        lbm::Config c = best;
        c.collision = collision;
        c.max_registers = 0;
        measure(case_name(n, storage, lbm::Pattern::aa) + " " + lbm::to_string(collision), c);
      }
      if (storage == lbm::Storage::fp32 && best_rate > 0) largest_shape = best;
    }
  }
  if (gpu && options.wants("largest fp32 aa"))
    report.add(largest_lattice(devices, largest_shape, options, report.reference_bandwidth_GBs));
  return report;
}

}  // namespace hetflow::app
