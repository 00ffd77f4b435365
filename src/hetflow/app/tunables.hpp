#pragma once
#include <optional>

#include <nlohmann/json.hpp>

#include "hetflow/core/device_set.hpp"
#include "hetflow/ftle/solver.hpp"
#include "hetflow/io/case_file.hpp"
#include "hetflow/ode/radau5.hpp"
#include "hetflow/tune/database.hpp"
#include "hetflow/tune/measurement.hpp"
#include "hetflow/tune/tuner.hpp"

namespace hetflow::app {

// The database's entry for `key` when every device shares one name and driver and tuning is enabled;
// else nothing. `record` (the manifest's "tuning") says what was found, or why nothing.
std::optional<tune::Entry> find_tuning(const core::DeviceSet& devices, const tune::Key& key, nlohmann::json& record);

// The whole number an entry's setting holds under `key`, or nothing when it lacks the key or the value is
// not one in [lowest, highest]: entries are advisory data, perhaps edited by hand.
std::optional<std::size_t> whole_number(const tune::Setting& setting, const std::string& key, std::size_t lowest,
                                        std::size_t highest);

// The FTLE kernels' launch shape (ftle::Config::work_group, groups_per_unit) on the first device: Heun
// steps with M4' interpolation on a steady gridded 2D flow, one tracer per node (`nodes` x nodes / 2,
// 50 steps), in `precision`; timed by device events, in tracer steps per second.
tune::Tunable ftle_tunable(const core::DeviceSet& devices, int nodes, core::Precision precision,
                           const tune::MeasureOptions& measure);

// `config` with its launch shape taken from the tuning database (`hetflow tune ftle`) where the case
// leaves it open (both 0), for a gridded 2D flow (the class tuned) of the config's precision, when every
// device shares one name and driver and HETFLOW_NO_TUNE is unset. What was taken, or why nothing, goes
// into `record` (the manifest's "tuning").
ftle::Config with_ftle_tuning(ftle::Config config, bool gridded_2d, const core::DeviceSet& devices,
                              nlohmann::json& record);

// RADAU5's mapping, launch shape and panel width (ode::Options::mapping, work_group, groups_per_unit,
// lu_panel, and on NVIDIA GPUs max_registers) on the first device for the batch of a reactor_batch
// case `c` (its mechanism, states, count and dt): the wall clock of integrate(), as the chemistry
// benchmark times it, in systems per second. Mapping 2 and the phased mapping are offered on GPUs only
// (radau5.cpp says why).
// Each system and batch-size decade is its own problem class.
tune::Tunable radau5_tunable(const core::DeviceSet& devices, const io::Case& c, const tune::MeasureOptions& measure);

// `options` with the mapping, launch shape, panel width and register budget taken from the tuning
// database (`hetflow tune radau5`) for `system` at a batch of `systems` (same decade; reactor_batch and
// ignition runs), where the options leave them open (automatic, 0, lu_panel -1), under find_tuning's
// conditions. What was taken, or why nothing, goes into `record`.
ode::Options with_radau5_tuning(ode::Options options, const ode::System& system, std::size_t systems,
                                const core::DeviceSet& devices, nlohmann::json& record);

}  // namespace hetflow::app
