#pragma once
#include "hetflow/app/bench/registry.hpp"

namespace hetflow::app {

// MLUPs/s of the D3Q19 solver in a duct (walls and flags on) for every memory pattern and storage
// precision, at two lattice sizes (256^3 and 384^3 on GPUs, 128^3 and 256^3 on CPUs); efficiency is
// MLUPs/s x bytes per update / copy bandwidth measured in the same run. A work-group sweep on the
// smaller lattice picks the size used for all cases.
BenchReport lbm_benchmark(const core::DeviceSet& devices, const BenchOptions& options);

// Weak scaling over the selected devices: 384^3 nodes per GPU (128^3 per CPU device), slabs along z,
// FP32 A-A, on the first 1, 2, ... devices; MLUPs/s by host wall clock over whole steps (halo relay
// included), parallel efficiency = MLUPs(n) / (n MLUPs(1)) in each case's params.
BenchReport lbm_scaling_benchmark(const core::DeviceSet& devices, const BenchOptions& options);

}  // namespace hetflow::app
