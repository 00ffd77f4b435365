#include "hetflow/app/ftle/ftle_solver.hpp"

#include "hetflow/app/ftle/ftle_bench.hpp"
#include "hetflow/app/ftle/ftle_case.hpp"
#include "hetflow/app/ftle/ftle_tunable.hpp"

namespace hetflow::app {

Solver ftle_solver() {
  return {.name = "ftle",
          .case_types = {std::make_shared<FtleCase>()},
          .benchmarks = {{"ftle",
                          "FTLE particle-steps/s: analytic double gyre RK4, gridded 2D/3D RK2 M4', paper Table 1, end "
                          "to end, streamed snapshots",
                          ftle_benchmark}},
          .tunables = {{.name = "ftle",
                        .help = "the FTLE kernels' work-group and work-groups per compute unit (for --storage fp64 "
                                "or fp32)",
                        .size_help = "grid nodes along x (default 2048 on a GPU, 256 elsewhere)",
                        .storage_help = "tracer precision, fp64 (default) or fp32",
                        .make = [](const TuneRequest& r, const core::DeviceSet& devices,
                                   const tune::MeasureOptions& measure) {
                          return ftle_tunable(devices, size_or_default(r, devices, 2048, 256),
                                              r.storage == "fp32" ? core::Precision::f32 : core::Precision::f64,
                                              measure);
                        }},
                       {.name = ftle_devices_name,
                        .help = "which devices the FTLE runs on: how many GPUs, how many CPUs and their share of the "
                                "seeds (for --storage; `device.select: tuned` takes it)",
                        .size_help = "grid nodes along x (default 2048 on a GPU, 256 elsewhere)",
                        .storage_help = "tracer precision, fp64 (default) or fp32",
                        .every_device_help = "chooses among all of them; auto selects every device",
                        .chooses_devices = true,
                        .make = [](const TuneRequest& r, const core::DeviceSet& devices,
                                   const tune::MeasureOptions& measure) {
                          return ftle_devices_tunable(devices, size_or_default(r, devices, 2048, 256),
                                                      r.storage == "fp32" ? core::Precision::f32 : core::Precision::f64,
                                                      measure);
                        }}}};
}

}  // namespace hetflow::app
