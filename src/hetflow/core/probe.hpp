#pragma once
#include <cstddef>

#include "hetflow/core/build_options.hpp"
#include "hetflow/core/context.hpp"
#include "hetflow/core/statistics.hpp"

namespace hetflow::core {

struct ProbeOptions {
  std::size_t bytes_per_array = 0;  // 0: default_probe_bytes() of the device
  int warmup = 2;
  int repeats = 15;
  // Work-group sizes (`hetflow tune probe` finds the best); 0: 256 where the kernel allows it, else 64.
  std::size_t copy_work_group = 0;
  std::size_t triad_work_group = 0;
};

// Device-memory bandwidth in GB/s (1e9 bytes/s), counting bytes read plus bytes written:
// copy moves 2 arrays per element, triad 3.
struct Bandwidth {
  std::size_t bytes_per_array = 0;
  std::size_t copy_work_group = 0;  // as launched
  std::size_t triad_work_group = 0;
  Summary copy;
  Summary triad;
};

// Arrays several times larger than any cache of the device, within its allocation limit.
std::size_t default_probe_bytes(const DeviceInfo& device);

Bandwidth measure_bandwidth(const Queue& queue, const ProbeOptions& options = {});

// Peak multiply-add rate: every work-item runs probe_fma_chains independent chains a = a * s + c
// (`mad`, which a device may fuse; 4 vectors of 8 lanes) for `iterations` loop trips of two updates per
// chain.
constexpr int probe_fma_chains = 32;

struct FlopOptions {
  std::size_t work_items = 0;  // 0: 8192 per compute unit on a GPU, 1024 on other devices
  unsigned iterations = 0;     // 0: 2048 on a GPU, 1024 on other devices
  std::size_t work_group = 0;  // 0: 64
  int warmup = 2;
  int repeats = 15;
};

// Floating-point operations per second in GFLOP/s (1e9/s), a multiply-add counting 2.
struct FlopRate {
  Precision precision = Precision::f32;
  std::size_t work_items = 0;
  unsigned iterations = 0;
  Summary gflops;
};

// Throws core::Error for f64 on a device without double precision.
FlopRate measure_flops(const Queue& queue, Precision precision, const FlopOptions& options = {});

}  // namespace hetflow::core
