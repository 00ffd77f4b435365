#pragma once
#include "hetflow/app/case_type.hpp"

namespace hetflow::app {

// `type: selftest` (the built-in default case before the FTLE solver): a device self-test that builds a
// kernel, runs explicit diffusion on a 3-D grid split over the selected devices (halo exchange every step),
// compares the result with a double-precision host reference, checks that the total is conserved,
// and writes every kind of output a solver writes.
class SelftestCase : public CaseType {
 public:
  casefile::Schema schema() const override;
  RunOutcome run(const casefile::Case& c, RunContext& context) const override;
};

}  // namespace hetflow::app
