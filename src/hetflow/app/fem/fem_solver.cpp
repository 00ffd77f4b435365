#include "hetflow/app/fem/fem_solver.hpp"

#include <memory>

#include "hetflow/app/fem/fem_bench.hpp"
#include "hetflow/app/fem/fem_case.hpp"
#include "hetflow/app/fem/fem_tunable.hpp"

namespace hetflow::app {

Solver fem_solver() {
  return {.name = "fem",
          .case_types = {std::make_shared<IncompressibleCase>()},
          .benchmarks = {{"fem", "edge-based FEM cavity: kernel GB/s and step time per mesh, the paper's run to t = 1",
                          fem_benchmark}},
          .tunables = {{.name = "fem",
                        .help = "the edge-based solver's pressure SpMV shape (for --storage fp64 or fp32)",
                        // A CPU's default mesh gives a matrix larger than its caches: on one that fits them, shapes
                        // that scatter a slice's rows over the cores win the tuning and lose on real meshes.
                        .size_help = "cubes per side of the unit-cube box mesh (default 60 on a GPU, 40 elsewhere)",
                        .storage_help = "precision of the matrix values and vectors, fp64 (default) or fp32",
                        .make = [](const TuneRequest& r, const core::DeviceSet& devices,
                                   const tune::MeasureOptions& measure) {
                          return fem_tunable(devices, size_or_default(r, devices, 60, 40), r.storage == "fp32",
                                             measure);
                        }}}};
}

}  // namespace hetflow::app
