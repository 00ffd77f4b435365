#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "hetflow/casefile/case.hpp"
#include "hetflow/karst/inversion.hpp"
#include "hetflow/optim/evaluation_log.hpp"

namespace hetflow::app {

// What the `karst_inversion` case and hetflow.karst_inversion share: the `inversion:` section, the method's
// options from it, and the summary a run reports (the case's inversion.json).

void declare_inversion_keys(casefile::Schema& schema);

// The bounds' and the start's problems (a start outside the box, a box outside the model's domain),
// named by key, into `problems`.
void check_inversion_keys(const casefile::Case& c, std::vector<std::string>& problems);

karst::ParameterBox inversion_box(const casefile::Case& c);

// The method, start, noise and budget from `inversion:`; `log` (not owned, may be null) records every
// candidate.
karst::InversionOptions inversion_options(const casefile::Case& c, optim::EvaluationLog* log);

// The recovered parameters with their standard deviations, the RMS misfit and how the method ended.
nlohmann::json inversion_summary(const casefile::Case& c, const karst::InversionResult& r, double seconds);

}  // namespace hetflow::app
