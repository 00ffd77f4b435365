#include "hetflow/app/nnls/tnt_constants_choice.hpp"

#include <charconv>
#include <cmath>
#include <vector>

#include "hetflow/app/nnls/tnt_class.hpp"
#include "hetflow/app/nnls/tnt_constants_tunable.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/core/number_text.hpp"
#include "hetflow/nnls/tnt.hpp"

namespace hetflow::app {
namespace {

// The constant `name` of a stored setting; core::Error naming the database, class, key and text when it
// is missing or not a number (entries are files a user may have edited).
double stored(const tune::Entry& entry, const std::string& name, const std::string& where) {
  const auto it = entry.best.find(name);
  if (it == entry.best.end()) throw core::Error(where + ": the entry has no " + name);
  const std::string& text = it->second;
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size())
    throw core::Error(where + ": " + name + " = '" + text + "' is not a number");
  return v;
}

// core::Error "WHAT = VALUE: REASON" when `error` finds a reason; `what` names where the value came from
// ("--rc", "tuning.json: class X: rc").
void check(double value, std::string (*error)(double), const std::string& what) {
  if (const std::string reason = error(value); !reason.empty())
    throw core::Error(what + " = " + core::shortest_text(value) + ": " + reason);
}

// Why the database has no entry for the class on this device: tuned elsewhere, for another kernel
// source, or not at all (then the classes it has).
std::string missing_class(const tune::Database& db, const tune::Key& here, const std::string& name) {
  const std::string tune_it = std::string("`hetflow tune ") + tnt_constants_name + " --class " + name + "`";
  std::vector<std::string> classes, elsewhere;
  for (const tune::Key& k : db.keys()) {
    if (k.tunable != tnt_constants_name) continue;
    if (k.problem_class != name) {
      classes.push_back(k.problem_class);
    } else if (k.source_hash != here.source_hash) {
      elsewhere.push_back("an older TNT kernel source");
    } else {
      elsewhere.push_back("device '" + k.device + "' (driver " + k.driver + ")");
    }
  }
  const std::string head = "--class " + name + ": no TNT constants tuned for class '" + name + "' ";
  if (!elsewhere.empty()) {
    std::string where;
    for (const std::string& w : elsewhere) where += (where.empty() ? "" : ", ") + w;
    return head + "on '" + here.device + "' (driver " + here.driver + ") in " + db.path().string() +
           ": it was tuned for " + where + "; " + tune_it + " tunes it here";
  }
  std::string known;
  for (const std::string& c : classes) known += (known.empty() ? "" : ", ") + c;
  return head + "in " + db.path().string() + " (" + (known.empty() ? "it holds none" : "its classes: " + known) +
         "); " + tune_it + " tunes them";
}

// The rule the expansion constant and the early reach share, in their words.
std::string at_least_one_error(double value, const std::string& what) {
  return value >= 1 && std::isfinite(value) ? "" : "TNT's " + what + " must be finite and >= 1";
}

}  // namespace

std::string reduction_error(double value) {
  return value > 0 && value < 1 ? "" : "TNT's reduction constant must lie in (0, 1)";
}

std::string expansion_error(double value) { return at_least_one_error(value, "expansion constant"); }

std::string early_reach_error(double value) { return at_least_one_error(value, "early reach"); }

TntConstantsChoice choose_tnt_constants(const core::DeviceInfo& device, const std::string& problem_class,
                                        std::optional<double> reduction, std::optional<double> expansion,
                                        const tune::Database& db) {
  const nnls::TntOptions defaults;
  TntConstantsChoice c{defaults.reduction, defaults.expansion, "default", "default", nlohmann::json::object()};
  if (!problem_class.empty()) {
    check_class_name(problem_class);
    if (db.path().empty())
      throw core::Error("--class " + problem_class +
                        ": no tuning database path: set HETFLOW_TUNING_DB, XDG_CACHE_HOME or HOME");
    // Timed on this device first: a time is what a user waits for, and it was measured here.
    const tune::Key here = tnt_constants_key(device, problem_class, TntObjective::time);
    std::optional<tune::Entry> entry = db.find(here);
    const bool any_device = !entry;
    if (!entry) entry = db.find(tnt_constants_key(device, problem_class, TntObjective::work));
    if (!entry) throw core::Error(missing_class(db, here, problem_class));
    const std::string where = db.path().string() + ": class " + problem_class;
    c.reduction = stored(*entry, "rc", where);
    c.expansion = stored(*entry, "ec", where);
    check(c.reduction, reduction_error, where + ": rc");
    check(c.expansion, expansion_error, where + ": ec");
    c.reduction_source = c.expansion_source = "tuned class " + problem_class;
    c.record["class"] = {{"name", problem_class},
                         {"database", db.path().string()},
                         {"tuned_for", any_device ? std::string("any device") : device.name},
                         {"objective", entry->cost_unit.empty() ? "time" : entry->cost_unit},
                         {"cost", entry->best_seconds},
                         {"cost_unit", entry->cost_unit.empty() ? "s" : entry->cost_unit},
                         {"search", entry->search},
                         {"evaluations", entry->evaluations},
                         {"tuned_on", entry->problem},
                         {"tuned_at", entry->tuned_at}};
  }
  if (reduction) {
    check(*reduction, reduction_error, "--rc");
    c.reduction = *reduction;
    c.reduction_source = "command line";
  }
  if (expansion) {
    check(*expansion, expansion_error, "--ec");
    c.expansion = *expansion;
    c.expansion_source = "command line";
  }
  c.record.update(
      {{"rc", c.reduction}, {"ec", c.expansion}, {"rc_source", c.reduction_source}, {"ec_source", c.expansion_source}});
  return c;
}

std::string describe(const TntConstantsChoice& choice) {
  return "rc " + core::shortest_text(choice.reduction) + " (" + choice.reduction_source + "), ec " +
         core::shortest_text(choice.expansion) + " (" + choice.expansion_source + ")";
}

}  // namespace hetflow::app
