#include "hetflow/app/chem/chem_solver.hpp"

#include <string>
#include <vector>

#include "hetflow/app/chem/chem_bench.hpp"
#include "hetflow/app/chem/equilibrium_case.hpp"
#include "hetflow/app/chem/flamelet_case.hpp"
#include "hetflow/app/chem/ignition_case.hpp"
#include "hetflow/app/chem/radau5_tunable.hpp"
#include "hetflow/app/chem/reactor_batch_case.hpp"
#include "hetflow/core/error.hpp"

namespace hetflow::app {
namespace {

// RADAU5 tuned on the batch of the reactor_batch case `--case` names, with --size as its batch.count.
tune::Tunable radau5_tunable_for(const TuneRequest& r, const core::DeviceSet& devices,
                                 const tune::MeasureOptions& measure) {
  if (r.case_file.empty()) throw core::Error("tune radau5: give the reactor_batch case to measure with --case FILE");
  std::vector<std::string> overrides;
  if (r.size) overrides.push_back("batch.count=" + std::to_string(r.size));
  const ReactorBatchCase type;
  casefile::Case c = casefile::load_case(r.case_file, type.schema(), overrides);
  type.check(c);
  return radau5_tunable(devices, c, measure);
}

}  // namespace

Solver chem_solver() {
  return {.name = "chem",
          .case_types = {std::make_shared<IgnitionCase>(), std::make_shared<ReactorBatchCase>(),
                         std::make_shared<EquilibriumCase>(), std::make_shared<FlameletCase>()},
          .benchmarks = {{"chem",
                          "RADAU5 chemistry ODE systems/s: H2/O2, GRI-Mech 3.0, n-dodecane (100 species) and n-hexane "
                          "(1268), dt 1e-6 and 1e-4 s, the paper's tolerances and tight ones, against batch size, paper "
                          "Table 5",
                          chem_benchmark}},
          .tunables = {{.name = "radau5",
                        .help = "RADAU5's mapping, work-group and work-groups per compute unit for a reactor_batch "
                                "case (--case)",
                        .size_help = "systems (default the case's batch.count)",
                        .case_help = "the reactor_batch case whose batch is measured",
                        .make = radau5_tunable_for}}};
}

}  // namespace hetflow::app
