#include "hetflow/app/nnls/nnls_solver.hpp"

#include <iostream>
#include <memory>

#include "hetflow/app/nnls/nnls_bench.hpp"
#include "hetflow/app/nnls/nnls_command.hpp"
#include "hetflow/app/nnls/nnls_tunable.hpp"
#include "hetflow/app/nnls/tnt_constants_tunable.hpp"
#include "hetflow/core/error.hpp"

namespace hetflow::app {
namespace {

// The class `hetflow tune nnls-constants` was asked to tune: SVC problems from --size, --kappa and
// --active, or the --problem files, never both (a class mixing them would be two classes).
TntClass tnt_class_of(const TuneRequest& r, const core::DeviceSet& devices) {
  if (r.problem_class.empty())
    throw core::Error(std::string("tune ") + tnt_constants_name +
                      ": --class NAME is required, the name `hetflow nnls --class NAME` finds the constants by");
  TntClass c;
  c.name = r.problem_class;
  c.files = r.problems;
  if (!c.files.empty() && (r.size > 0 || !r.kappas.empty() || !r.active.empty()))
    throw core::Error(std::string("tune ") + tnt_constants_name +
                      ": --problem gives the class's problems; --size, --kappa and --active describe SVC ones instead");
  c.n = static_cast<std::size_t>(size_or_default(r, devices, 1000, 200));
  if (!r.kappas.empty()) c.kappas = r.kappas;
  if (!r.active.empty()) c.active = r.active;
  validate(c);
  return c;
}

}  // namespace

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
                        }},
                       {.name = tnt_constants_name,
                        .help = "TNT's reduction and expansion constants rc and ec for a problem class (--class NAME), "
                                "which `hetflow nnls --class NAME` takes",
                        .size_help = "order n of the class's SVC matrices (default 1000 on a GPU, 200 elsewhere)",
                        .make = [](const TuneRequest& r, const core::DeviceSet& devices,
                                   const tune::MeasureOptions& measure) {
                          const TntObjective o = parse_tnt_objective(r.objective.empty() ? "time" : r.objective);
                          return tnt_constants_tunable(devices, tnt_class_of(r, devices), o, measure);
                        }}},
          .commands = {[](CLI::App& app) {
            auto request = std::make_shared<NnlsRequest>();
            const CLI::App* command = add_nnls_command(app, *request);
            return Command{command, [request] { return nnls_command(*request, std::cout); }};
          }}};
}

}  // namespace hetflow::app
