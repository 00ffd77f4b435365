#pragma once
#include <cstddef>

#include "hetflow/core/context.hpp"
#include "hetflow/core/probe.hpp"
#include "hetflow/tune/database.hpp"
#include "hetflow/tune/tuner.hpp"

namespace hetflow::tune {

// The core probe kernels (core/probe.cl): the work-group sizes of probe_copy, probe_triad and
// probe_fma (f32), every power of two from 32 up to what each kernel allows on the device. The cost of
// a setting is the sum of the three kernels' median times; each kernel's time depends only on its own
// work-group, so each (kernel, size) pair is measured once and reused by every setting holding it.
// `bytes_per_array` 0: a quarter of core::default_probe_bytes(), still far beyond any cache.
// `queue` must outlive the tunable.
Tunable probe_tunable(const core::Queue& queue, const MeasureOptions& measure = {}, std::size_t bytes_per_array = 0);

// Where `hetflow tune probe` stores the probe's work-groups for `device`.
Key probe_key(const core::DeviceInfo& device);

// `options` and `flops` with the copy, triad and FMA work-groups stored for `device` in `db`, unless tuning
// is disabled (HETFLOW_NO_TUNE) or nothing is stored; otherwise left as they are.
void apply_probe_tuning(const core::DeviceInfo& device, const Database& db, core::ProbeOptions& options,
                        core::FlopOptions* flops = nullptr);

}  // namespace hetflow::tune
