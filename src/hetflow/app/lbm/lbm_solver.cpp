#include "hetflow/app/lbm/lbm_solver.hpp"

#include "hetflow/app/lbm/lbm_bench.hpp"
#include "hetflow/app/lbm/lbm_case.hpp"
#include "hetflow/app/lbm/lbm_tunable.hpp"

namespace hetflow::app {

Solver lbm_solver() {
  return {.name = "lbm",
          .case_types = {std::make_shared<LbmCase>()},
          .benchmarks = {{"lbm", "D3Q19 lattice-Boltzmann MLUPs/s per memory pattern and storage precision, and with TRT and MRT", lbm_benchmark},
                         {"lbm-scaling", "lattice-Boltzmann weak scaling over the selected devices (slabs, halo relay)",
                          lbm_scaling_benchmark}},
          .tunables = {{.name = "lbm",
                        .help = "LBM work-group and pattern (for --storage)",
                        .size_help = "lattice edge (default 192 on a GPU, 64 elsewhere)",
                        .storage_help = "population storage, fp32 (default), fp16 or fp64",
                        .fp16 = true,
                        .every_device_help = "all of them, with their device grid",
                        .make = [](const TuneRequest& r, const core::DeviceSet& devices,
                                   const tune::MeasureOptions& measure) {
                          return lbm_tunable(devices, size_or_default(r, devices, 192, 64),
                                             lbm::parse_storage(r.storage.empty() ? "fp32" : r.storage), measure);
                        }},
                       {.name = lbm_devices_name,
                        .help = "which devices the LBM runs on: how many GPUs, how many CPUs and their share of the "
                                "lattice (for --storage; `device.select: tuned` takes it)",
                        .size_help = "lattice edge (default 192 on a GPU, 64 elsewhere)",
                        .storage_help = "population storage, fp32 (default), fp16 or fp64",
                        .fp16 = true,
                        .every_device_help = "chooses among all of them; auto selects every device",
                        .chooses_devices = true,
                        .make = [](const TuneRequest& r, const core::DeviceSet& devices,
                                   const tune::MeasureOptions& measure) {
                          return lbm_devices_tunable(devices, size_or_default(r, devices, 192, 64),
                                                     lbm::parse_storage(r.storage.empty() ? "fp32" : r.storage),
                                                     measure);
                        }}}};
}

}  // namespace hetflow::app
