#pragma once
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "hetflow/app/tune_request.hpp"
#include "hetflow/core/device_set.hpp"
#include "hetflow/tune/database.hpp"
#include "hetflow/tune/tuner.hpp"

namespace hetflow::app {

struct TuneTarget;

// Every tunable of solvers(), in its order.
std::vector<const TuneTarget*> tune_targets();

// One tuning as `hetflow tune` and hetflow.tune run it: the request checked (core::Error for a request
// the tunable cannot take, before anything is measured), its devices selected and its tunable made;
// search() measures the settings, store() writes the best into the tuning database. The tunable measures
// on the devices held here, so a TuningRun stays where it was built.
class TuningRun {
 public:
  explicit TuningRun(const TuneRequest& request);
  TuningRun(const TuningRun&) = delete;
  TuningRun& operator=(const TuningRun&) = delete;

  const tune::Tunable& tunable() const { return *tunable_; }
  // "NVIDIA H200 (gpu:0)", and " and N more" for a tuning over several devices.
  std::string devices_text() const;
  // The most settings search() measures.
  std::size_t planned_trials() const { return tune::plan_search(tunable_->space, options_).budget; }
  // Measures the settings, calling `observe` with each as it is measured (it may throw to stop).
  tune::TuneResult search(const tune::TrialObserver& observe) const;
  // Writes the result's best into the database; returns its path.
  std::filesystem::path store(const tune::TuneResult& result) const;

 private:
  const core::DeviceSet& devices() const { return first_only_ ? *first_only_ : selected_; }

  const TuneRequest request_;
  const tune::MeasureOptions measure_;
  const TuneTarget* target_;
  core::DeviceSet selected_;
  std::optional<core::DeviceSet> first_only_;  // the first selected device, where it alone is tuned
  tune::TunerOptions options_;
  std::optional<tune::Database> db_;
  std::optional<tune::Tunable> tunable_;
};

}  // namespace hetflow::app
