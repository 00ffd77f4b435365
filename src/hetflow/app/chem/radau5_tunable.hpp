#pragma once
#include <nlohmann/json.hpp>

#include "hetflow/core/device_set.hpp"
#include "hetflow/casefile/case.hpp"
#include "hetflow/ode/radau5.hpp"
#include "hetflow/tune/measurement.hpp"
#include "hetflow/tune/tuner.hpp"

namespace hetflow::app {

// RADAU5's mapping, launch shape and panel width (ode::Options::mapping, work_group, groups_per_unit,
// lu_panel, and on NVIDIA GPUs max_registers) on the first device for the batch of a reactor_batch
// case `c` (its mechanism, states, count and dt): the wall clock of integrate(), as the chemistry
// benchmark times it, in systems per second. Mapping 2 and the phased mapping are offered on GPUs only
// (ode/radau5_launch.cpp says why).
// Each system and batch-size decade is its own problem class.
tune::Tunable radau5_tunable(const core::DeviceSet& devices, const casefile::Case& c, const tune::MeasureOptions& measure);

// `options` with the mapping, launch shape, panel width and register budget taken from the tuning
// database (`hetflow tune radau5`) for `system` at a batch of `systems` (same decade; reactor_batch and
// ignition runs), where the options leave them open (automatic, 0, lu_panel -1), under find_tuning's
// conditions. What was taken, or why nothing, goes into `record`.
ode::Options with_radau5_tuning(ode::Options options, const ode::System& system, std::size_t systems,
                                const core::DeviceSet& devices, nlohmann::json& record);

}  // namespace hetflow::app
