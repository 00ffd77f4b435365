#pragma once
#include "bench/registry.hpp"

namespace hetflow::bench {

// Copy and triad bandwidth of the first device at the probe's default size and at a few smaller
// sizes (where caches start to matter); efficiency is relative to the large-array copy.
Report core_probe(const core::DeviceSet& devices, const Options& options);

}  // namespace hetflow::bench
