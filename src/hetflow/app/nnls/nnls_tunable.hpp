#pragma once
#include <cstddef>

#include <nlohmann/json.hpp>

#include "hetflow/core/device_set.hpp"
#include "hetflow/nnls/device_dense.hpp"
#include "hetflow/tune/measurement.hpp"
#include "hetflow/tune/tuner.hpp"

namespace hetflow::app {

// TNT's dense kernels, end to end: the wall clock of one TNT solve on the first device of an n x n
// SVC matrix (kappa 1e2, on the device) with 5 % of the variables active, in FP64 or FP32.
tune::Tunable nnls_tunable(const core::DeviceSet& devices, int n, bool fp32, const tune::MeasureOptions& measure);

// TNT's dense-kernel sizes for `devices` in FP32 or FP64 from the tuning database (`hetflow tune nnls`),
// under find_tuning's conditions; the defaults when nothing applies or the entry does not fit the device.
// What was taken, or why nothing, goes into `record`.
nnls::DenseTuning nnls_tuned_dense(const core::DeviceSet& devices, bool fp32, nlohmann::json& record);

}  // namespace hetflow::app
