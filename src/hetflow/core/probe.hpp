#pragma once
#include <cstddef>

#include "hetflow/core/context.hpp"
#include "hetflow/core/statistics.hpp"

namespace hetflow::core {

struct ProbeOptions {
  std::size_t bytes_per_array = 0;  // 0: default_probe_bytes() of the device
  int warmup = 2;
  int repeats = 15;
};

// Device-memory bandwidth in GB/s (1e9 bytes/s), counting bytes read plus bytes written:
// copy moves 2 arrays per element, triad 3.
struct Bandwidth {
  std::size_t bytes_per_array = 0;
  Summary copy;
  Summary triad;
};

// Arrays several times larger than any cache of the device, within its allocation limit.
std::size_t default_probe_bytes(const DeviceInfo& device);

Bandwidth measure_bandwidth(const Queue& queue, const ProbeOptions& options = {});

}  // namespace hetflow::core
