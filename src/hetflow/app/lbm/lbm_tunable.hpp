#pragma once
#include <cstddef>

#include <nlohmann/json.hpp>

#include "hetflow/app/device_choice.hpp"
#include "hetflow/core/device_set.hpp"
#include "hetflow/casefile/case.hpp"
#include "hetflow/lbm/solver.hpp"
#include "hetflow/tune/measurement.hpp"
#include "hetflow/tune/tuner.hpp"

namespace hetflow::app {

// The LBM on a duct of n^3 nodes, single phase, with `storage`: work-group along x and y (at most 512
// work-items) x pattern on the devices, and on several devices also the device grid (every split of
// the lattice into boxes; the Lagrangian pattern runs on one device only). Storages tune apart: their
// kernels need different registers, and so different work-groups.
tune::Tunable lbm_tunable(const core::DeviceSet& devices, int n, lbm::Storage storage, const tune::MeasureOptions& measure);

// The name of the LBM's device choice: `hetflow tune lbm-devices`, `device.select: tuned`.
inline constexpr const char* lbm_devices_name = "lbm-devices";

// The LBM on a duct of n^3 nodes with `storage` over every choice of the candidates' devices (how many
// GPUs, how many CPUs, the CPUs' share of the z-planes; see device_choice.hpp), timed by the wall clock.
tune::Tunable lbm_devices_tunable(const core::DeviceSet& candidates, int n, lbm::Storage storage,
                                  const tune::MeasureOptions& measure);

// Where lbm_devices_tunable stores its choice for `config`'s storage and physics model.
ChoiceKey lbm_devices_key(const lbm::Config& config);

// `config` with its work-group, pattern and device grid taken from the tuning database where the case
// leaves them open (lbm.work_group 0; lbm.pattern and lbm.device_grid not given, and one process only,
// since every process must use the same ones), all devices share one name and driver, and
// HETFLOW_NO_TUNE is unset; on several devices from the entry tuned on as many. What was taken, or
// why nothing, goes into `record` (the manifest's "tuning").
lbm::Config with_lbm_tuning(lbm::Config config, const casefile::Case& c, const core::DeviceSet& devices,
                            std::size_t processes, nlohmann::json& record);

}  // namespace hetflow::app
