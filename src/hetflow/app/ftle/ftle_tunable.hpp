#pragma once
#include <nlohmann/json.hpp>

#include "hetflow/app/device_choice.hpp"
#include "hetflow/core/device_set.hpp"
#include "hetflow/ftle/solver.hpp"
#include "hetflow/tune/measurement.hpp"
#include "hetflow/tune/tuner.hpp"

namespace hetflow::app {

// The FTLE kernels' launch shape (ftle::Config::work_group, groups_per_unit) on the first device: Heun
// steps with M4' interpolation on a steady gridded 2D flow, one tracer per node (`nodes` x nodes / 2,
// 50 steps), in `precision`; timed by device events, in tracer steps per second.
tune::Tunable ftle_tunable(const core::DeviceSet& devices, int nodes, core::Precision precision,
                           const tune::MeasureOptions& measure);

// The name of the FTLE's device choice: `hetflow tune ftle-devices`, `device.select: tuned`.
inline constexpr const char* ftle_devices_name = "ftle-devices";

// The same workload over every choice of the candidates' devices (how many GPUs, how many CPUs, the
// CPUs' share of the seed planes; see device_choice.hpp), timed by the wall clock.
tune::Tunable ftle_devices_tunable(const core::DeviceSet& candidates, int nodes, core::Precision precision,
                                   const tune::MeasureOptions& measure);

// Where ftle_devices_tunable stores its choice for `precision`.
ChoiceKey ftle_devices_key(core::Precision precision);

// `config` with its launch shape taken from the tuning database (`hetflow tune ftle`) where the case
// leaves it open (both 0), for a gridded 2D flow (the class tuned) of the config's precision, when every
// device shares one name and driver and HETFLOW_NO_TUNE is unset. What was taken, or why nothing, goes
// into `record` (the manifest's "tuning").
ftle::Config with_ftle_tuning(ftle::Config config, bool gridded_2d, const core::DeviceSet& devices,
                              nlohmann::json& record);

}  // namespace hetflow::app
