#pragma once
#include <memory>

#include "hetflow/app/case_type.hpp"
#include "hetflow/chem/mechanism.hpp"
#include "hetflow/ode/radau5.hpp"

namespace hetflow::app {

// What a reactor_batch case integrates: the batch (mass fractions and T per system, pressures as
// parameters, t_end = dt), the reactor system and the solver options; `hetflow tune radau5` measures it.
struct ReactorBatch {
  std::shared_ptr<const chem::Mechanism> mechanism;
  std::vector<double> pressures;  // each system's initial pressure [Pa]; batch.params its reactor parameter
  ode::Batch batch;
  ode::System system;
  ode::Options options;
};
ReactorBatch reactor_batch(const casefile::Case& c);

// Chunks of a 32nd of the batch, so that the progress bar moves and Ctrl-C stops the run within about a
// 32nd of its time, but for a generated reactor no smaller than 64 systems per compute unit of a CPU:
// each launch costs PoCL milliseconds, and a chunk of a few systems per core leaves cores idle at its
// end. A group_only reactor (hundreds of species) keeps chunks of at least 16, whose systems take long
// enough alone. On GPUs no smaller than 1e6 systems, which their throughput needs (it nears its plateau
// from 1e5 systems, docs/chem.md, Performance), so a GPU takes any smaller batch whole, and integrates it
// in seconds.
std::size_t progress_chunk_systems(const core::DeviceSet& devices, const ode::System& system, std::size_t systems);

// `type: reactor_batch`: many adiabatic reactor states (constant pressure or volume) integrated over one interval dt in a
// single ode::Radau5 batch, as a partially-stirred-reactor step does: states sampled uniformly from
// T, p and phi ranges with a seed, or read from a CSV. Writes final_states.csv (status per system, the
// integrator's reason for a failed one) and a summary (systems/s, failures) in the manifest.
class ReactorBatchCase : public CaseType {
 public:
  casefile::Schema schema() const override;
  void check(const casefile::Case& c) const override;
  RunOutcome run(const casefile::Case& c, RunContext& context) const override;
};

}  // namespace hetflow::app
