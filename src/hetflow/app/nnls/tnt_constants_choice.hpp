#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "hetflow/core/device.hpp"
#include "hetflow/tune/database.hpp"

namespace hetflow::app {

// TNT's rc and ec for a run, and where each came from: "command line", "tuned class NAME" or "default".
struct TntConstantsChoice {
  double reduction = 0, expansion = 0;
  std::string reduction_source, expansion_source;
  // report.json's "constants": both values and sources, and for a class its database entry (database,
  // device it was tuned for or "any", objective, cost, when and on what problems).
  nlohmann::json record;
};

// rc and ec for a TNT run on `device`: each from the command line when given (`reduction`,
// `expansion`), else from the tuning database's entry for `problem_class` when one is named (`hetflow
// tune nnls-constants --class NAME`: the entry timed on this device first, else the one counted for any
// device), else nnls::TntOptions' defaults. core::Error naming the class and the database when the class
// has no entry there (saying for which devices or kernel sources it was tuned, or which classes there
// are), when a given value lies outside rc's (0, 1) or ec's [1, inf), and when a stored one does (naming
// the database, class, key and value). A named class is always looked up, so that a misspelt name is an
// error even when both constants are given.
TntConstantsChoice choose_tnt_constants(const core::DeviceInfo& device, const std::string& problem_class,
                                        std::optional<double> reduction, std::optional<double> expansion,
                                        const tune::Database& db);

// "rc 0.35 (tuned class svc-small), ec 1.2 (default)", for the terminal.
std::string describe(const TntConstantsChoice& choice);

// Why `value` cannot be TNT's reduction constant ("TNT's reduction constant must lie in (0, 1)"), or ""
// when it can; the command line and choose_tnt_constants share the rule and its words.
std::string reduction_error(double value);
// As reduction_error for the expansion constant, finite and >= 1.
std::string expansion_error(double value);
// As reduction_error for TntOptions::early_reach, finite and >= 1.
std::string early_reach_error(double value);

}  // namespace hetflow::app
