#include "hetflow/app/compressible/compressible_solver.hpp"

#include <memory>

#include "hetflow/app/compressible/compressible_bench.hpp"
#include "hetflow/app/compressible/compressible_case.hpp"

namespace hetflow::app {

Solver compressible_solver() {
  return {.name = "mrag",
          .case_types = {std::make_shared<CompressibleCase>()},
          .benchmarks = {{"compressible",
                          "wavelet-block compressible flow: cell-updates/s per RK stage on uniform grids, fp64",
                          compressible_benchmark}}};
}

}  // namespace hetflow::app
