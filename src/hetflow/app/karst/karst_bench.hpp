#pragma once
#include "hetflow/app/bench/registry.hpp"

namespace hetflow::app {

// Forward runs per second of karst::KarstDevice (one kernel enqueue per batch, FP64) on the first
// selected device, for two sizes: N = 1,000 water and M = 100 rock nodes over 1,000 steps, and
// N = M = 1,000 over 10,000 steps, batched over 1, 10, 100, 500, 1,000 and 10,000 parameter sets (the
// thesis's NLCG stencils and line searches; the goal for 500 runs of the first size is in that case's
// params). Storm-pulse forcing, parameter sets spread around the thesis's inversion start. The rate is the
// host wall clock of KarstDevice::run: uploads, the kernel and the outlet download. A batch is skipped
// when its rock state passes the device's allocation limit, or when its run is predicted (from the node
// updates per second of the last batch measured) to pass 10 s on CPU devices, 30 s on GPUs.
// Efficiency: the rock state is read and written once per step at least (16 M N bytes), which is
// bytes_per_unit per run; efficiency = that traffic per second / the copy bandwidth measured in the run.
BenchReport karst_benchmark(const core::DeviceSet& devices, const BenchOptions& options);

}  // namespace hetflow::app
