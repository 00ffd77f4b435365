#pragma once
#include "hetflow/app/case_type.hpp"

namespace hetflow::app {

// `type: karst`: forward runs of the karst-conduit model (docs/karst.md) for one or many parameter sets
// (model.pe, model.st, ... as lists, broadcast from length 1), driven by inlet and velocity series from
// CSV files, all sets in batched karst::KarstDevice runs. Writes outlet.csv (t*, one column per set) and
// outlet.png (inlet and outlets).
class KarstCase : public CaseType {
 public:
  casefile::Schema schema() const override;
  void check(const casefile::Case& c) const override;
  RunOutcome run(const casefile::Case& c, RunContext& context) const override;
};

// `type: karst_inversion`: (Pe, St, Theta) of the heat model from an observed outlet series by NLCG or
// Levenberg-Marquardt inside bounds (thesis Ch. 7). Writes fit.csv (observed, fit, residual),
// inversion_log.jsonl (every candidate, as optim::EvaluationLog writes it), fit.png (data against fit)
// and inversion.json (the recovered parameters, their standard deviations, misfit and how the run
// ended). A failed candidate is reported; inversion.on_failure says whether the run stops or skips it.
class KarstInversionCase : public CaseType {
 public:
  casefile::Schema schema() const override;
  void check(const casefile::Case& c) const override;
  RunOutcome run(const casefile::Case& c, RunContext& context) const override;
  // Under mpiexec each rank runs its share of every batch of forward runs on its own devices.
  bool runs_across_processes() const override { return true; }
};

}  // namespace hetflow::app
