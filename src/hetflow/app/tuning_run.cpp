#include "hetflow/app/tuning_run.hpp"

#include <string>
#include <vector>

#include "hetflow/app/device_choice.hpp"
#include "hetflow/app/nnls/tnt_constants_tunable.hpp"
#include "hetflow/app/solvers.hpp"
#include "hetflow/core/error.hpp"

namespace hetflow::app {
namespace {

const TuneTarget& find_target(const std::string& name) {
  std::string known;
  for (const TuneTarget* t : tune_targets()) {
    if (t->name == name) return *t;
    known += (known.empty() ? "" : ", ") + t->name;
  }
  throw core::Error("no tunable named '" + name + "': expected one of " + known);
}

// The request's nnls-constants options, named, for the refusal on another tunable.
std::vector<std::string> class_options(const TuneRequest& r) {
  std::vector<std::string> given;
  if (!r.problem_class.empty()) given.push_back("--class");
  if (!r.kappas.empty()) given.push_back("--kappa");
  if (!r.active.empty()) given.push_back("--active");
  if (!r.problems.empty()) given.push_back("--problem");
  if (!r.objective.empty()) given.push_back("--objective");
  return given;
}

}  // namespace

std::vector<const TuneTarget*> tune_targets() {
  std::vector<const TuneTarget*> targets;
  for (const Solver& s : solvers()) {
    for (const TuneTarget& t : s.tunables) targets.push_back(&t);
  }
  return targets;
}

TuningRun::TuningRun(const TuneRequest& request)
    : request_(request),
      measure_{1, request.repeats},
      target_(&find_target(request.name)),
      selected_(
          core::DeviceSet::select(target_->chooses_devices && request.device == "auto" ? "all" : request.device)) {
  const TuneRequest& r = request_;
  const TuneTarget& target = *target_;
  // The first selected device alone, unless the target tunes how work is split over every selected one.
  if (!target.chooses_devices && (target.every_device_help.empty() || selected_.size() == 1))
    first_only_.emplace(std::vector<core::Device>{selected_.device(0)});
  const core::DeviceSet& devices = this->devices();
  for (std::size_t k = 1; k < devices.size() && !target.chooses_devices; ++k) {
    const core::DeviceInfo& d = devices.device(k).info;
    if (d.name != devices.device(0).info.name || d.driver != devices.device(0).info.driver)
      throw core::Error("tune " + r.name + " on several devices: " + devices.device(k).label() + " differs from " +
                        devices.device(0).label() + "; a device grid is tuned on devices of one model and driver");
  }
  if (!target.storage_help.empty() && !target.fp16 && r.storage == "fp16")
    throw core::Error("tune " + r.name + ": --storage is fp64 or fp32 (" + r.name + " has no FP16 path)");
  if (target.case_help.empty() && !r.case_file.empty()) {
    std::string takers;
    for (const TuneTarget* t : tune_targets()) {
      if (!t->case_help.empty()) takers += (takers.empty() ? "" : ", ") + t->name;
    }
    throw core::Error("tune " + r.name + ": --case is for " + takers + " only");
  }
  if (const std::vector<std::string> given = class_options(r); !given.empty() && r.name != tnt_constants_name) {
    std::string names;
    for (const std::string& g : given) names += (names.empty() ? "" : ", ") + g;
    throw core::Error("tune " + r.name + ": " + names + " " + (given.size() == 1 ? "is" : "are") + " for " +
                      tnt_constants_name + " only");
  }
  if (!r.search.empty()) options_.search = tune::parse_search(r.search);
  options_.budget = r.budget;
  options_.seed = r.seed;
  // The database's path is known before minutes of measuring, not after.
  db_.emplace(r.db.empty() ? tune::default_database_path() : std::filesystem::path(r.db));
  if (db_->path().empty()) throw core::Error("no tuning database path: give --db, or set HETFLOW_TUNING_DB or HOME");
  tunable_.emplace(target.make(r, devices, measure_));
}

std::string TuningRun::devices_text() const {
  std::string text = devices().device(0).label();
  if (devices().size() > 1) text += " and " + std::to_string(devices().size() - 1) + " more";
  return text;
}

tune::TuneResult TuningRun::search(const tune::TrialObserver& observe) const {
  return tune::tune(tunable_->space, tunable_->seconds, tunable_->defaults, options_, observe);
}

std::filesystem::path TuningRun::store(const tune::TuneResult& result) const {
  const tune::Tunable& t = *tunable_;
  std::vector<core::Device> candidates;
  for (std::size_t k = 0; k < devices().size(); ++k) candidates.push_back(devices().device(k));
  tune::Key key = target_->chooses_devices
                      ? device_choice_key({t.name, t.kernel_files, t.problem_class}, candidates)
                      : tune::make_key(t.name, devices().device(0).info, t.kernel_files, t.problem_class);
  if (t.device_independent) key = tune::for_any_device(std::move(key));
  db_->store(key, tune::entry_of(t, result));
  return db_->path();
}

}  // namespace hetflow::app
