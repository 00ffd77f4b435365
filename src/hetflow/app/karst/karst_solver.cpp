#include "hetflow/app/karst/karst_solver.hpp"

#include "hetflow/app/karst/karst_bench.hpp"
#include "hetflow/app/karst/karst_case.hpp"
#include "hetflow/app/karst/karst_tunable.hpp"

namespace hetflow::app {

Solver karst_solver() {
  return {.name = "karst",
          .case_types = {std::make_shared<KarstCase>(), std::make_shared<KarstInversionCase>()},
          .benchmarks = {{"karst",
                          "karst-conduit forward runs/s (N=M*10=1000, 1000 steps; N=M=1000, 10000 steps) batched "
                          "over 1..10000 parameter sets",
                          karst_benchmark}},
          .tunables = {{.name = "karst",
                        .help = "the karst solver's work-items per parameter set",
                        .size_help = "water nodes (default 1000 on a GPU, 100 elsewhere)",
                        .make = [](const TuneRequest& r, const core::DeviceSet& devices,
                                   const tune::MeasureOptions& measure) {
                          return karst_tunable(devices, size_or_default(r, devices, 1000, 100), measure);
                        }}}};
}

}  // namespace hetflow::app
