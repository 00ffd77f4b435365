#pragma once
#include <cstddef>

#include <nlohmann/json.hpp>

#include "hetflow/core/device_set.hpp"
#include "hetflow/tune/measurement.hpp"
#include "hetflow/tune/tuner.hpp"

namespace hetflow::app {

// The karst heat model's batched forward runs (the inversion's workload): work-items per set on the
// first device, timed by the wall clock of KarstDevice::run (uploads and outlet downloads included).
// N = `nodes` water nodes, M = N / 10 rock nodes, 100 steps, a batch of 500 sets on a GPU, 16 elsewhere.
tune::Tunable karst_tunable(const core::DeviceSet& devices, int nodes, const tune::MeasureOptions& measure);

// The karst solver's work-items per set from the tuning database (`hetflow tune karst`), under
// find_tuning's conditions; 0 (the solver's default) when nothing applies. What was taken, or why
// nothing, goes into `record` (the manifest's "tuning").
std::size_t karst_tuned_work_group(const core::DeviceSet& devices, nlohmann::json& record);

}  // namespace hetflow::app
