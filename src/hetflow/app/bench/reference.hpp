#pragma once
#include "hetflow/core/probe.hpp"

namespace hetflow::app {

// The device-memory bandwidth every benchmark's efficiency refers to, measured in the same run, with the
// work-groups `hetflow tune probe` stored for the device (tuning database, unless HETFLOW_NO_TUNE).
core::Bandwidth reference_bandwidth(const core::Queue& queue, core::ProbeOptions options = {});

}  // namespace hetflow::app
