#include "hetflow/app/nnls/nnls_solver.hpp"

#include <iostream>
#include <memory>

#include "hetflow/app/nnls/nnls_bench.hpp"
#include "hetflow/app/nnls/nnls_command.hpp"
#include "hetflow/app/nnls/nnls_tunable.hpp"

namespace hetflow::app {

Solver nnls_solver() {
  return {.name = "nnls",
          .benchmarks = {{"nnls",
                          "TNT non-negative least squares against n (5 % and 50 % active), FNNLS and Lawson-Hanson, "
                          "SVC generation, A^T A GFLOP/s",
                          nnls_benchmark}},
          .tunables = {{.name = "nnls",
                        .help = "TNT's dense kernels (for --storage fp64 or fp32)",
                        .size_help = "matrix order (default 2000 on a GPU, 200 elsewhere)",
                        .storage_help = "TNT's precision, fp64 (default) or fp32",
                        .make = [](const TuneRequest& r, const core::DeviceSet& devices,
                                   const tune::MeasureOptions& measure) {
                          return nnls_tunable(devices, size_or_default(r, devices, 2000, 200), r.storage == "fp32",
                                              measure);
                        }}},
          .commands = {[](CLI::App& app) {
            auto request = std::make_shared<NnlsRequest>();
            const CLI::App* command = add_nnls_command(app, *request);
            return Command{command, [request] { return nnls_command(*request, std::cout); }};
          }}};
}

}  // namespace hetflow::app
