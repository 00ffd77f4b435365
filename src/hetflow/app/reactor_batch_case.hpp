#pragma once
#include "hetflow/app/case_type.hpp"

namespace hetflow::app {

// `type: reactor_batch`: many constant-pressure reactor states integrated over one interval dt in a
// single ode::Radau5 batch, as a partially-stirred-reactor step does: states sampled uniformly from
// T, p and phi ranges with a seed, or read from a CSV. Writes final_states.csv (status per system, the
// integrator's reason for a failed one) and a summary (systems/s, failures) in the manifest.
class ReactorBatchCase : public CaseType {
 public:
  io::Schema schema() const override;
  void check(const io::Case& c) const override;
  RunOutcome run(const io::Case& c, RunContext& context) const override;
};

}  // namespace hetflow::app
