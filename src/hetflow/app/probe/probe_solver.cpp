#include "hetflow/app/probe/probe_solver.hpp"

#include "hetflow/app/probe/probe_bench.hpp"
#include "hetflow/tune/probe_tunable.hpp"

namespace hetflow::app {

Solver probe_solver() {
  return {.name = "probe",
          .benchmarks = {{"probe", "device-memory copy and triad bandwidth (the reference of every benchmark)",
                          probe_benchmark}},
          .tunables = {{.name = "probe",
                        .help = "the bandwidth and FMA probe work-groups",
                        .make = [](const TuneRequest&, const core::DeviceSet& devices,
                                   const tune::MeasureOptions& measure) {
                          return tune::probe_tunable(devices.compute(0), measure);
                        }}}};
}

}  // namespace hetflow::app
