#pragma once
#include "bench/registry.hpp"

namespace hetflow::bench {

// MLUPs/s of the D3Q19 solver in a duct (walls and flags on) for every memory pattern and storage
// precision, at two lattice sizes (256^3 and 384^3 on GPUs, 128^3 and 256^3 on CPUs); efficiency is
// MLUPs/s x bytes per update / copy bandwidth measured in the same run. A work-group sweep on the
// smaller lattice picks the size used for all cases.
Report lbm(const core::DeviceSet& devices, const Options& options);

}  // namespace hetflow::bench
