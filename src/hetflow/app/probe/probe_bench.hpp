#pragma once
#include "hetflow/app/bench/registry.hpp"

namespace hetflow::app {

// Copy and triad bandwidth of the first device at the probe's default size and at a few smaller
// sizes (where caches start to matter); efficiency is relative to the large-array copy.
BenchReport probe_benchmark(const core::DeviceSet& devices, const BenchOptions& options);

}  // namespace hetflow::app
