#pragma once
#include "hetflow/app/bench/registry.hpp"

namespace hetflow::app {

// Particle-steps per second of the FTLE solver on the first selected device:
//   - the analytic double gyre, RK4, FP32 and FP64: efficiency = FLOPs per step x rate / the peak
//     multiply-add rate of the same precision, measured in the same run (core::measure_flops);
//   - resident gridded velocity, Heun (RK2) with M4': 2D steady, 2D two snapshots and 3D steady, FP32:
//     efficiency = gathered bytes per step x rate / copy bandwidth measured in the same run;
//   - the Table 1 configuration of Conti, Rossinelli & Koumoutsakos 2012 (4096 x 2048 tracers, 1000 RK2
//     steps, M4', FP32) in seconds, beside the time that paper reports;
//   - a 401 x 201 double gyre to T = 15 with dt = 0.01 end to end, warm, in seconds.
// GPUs run 4096 x 2048 tracers (256^3 in 3D); other devices run smaller grids, named in each case.
BenchReport ftle_benchmark(const core::DeviceSet& devices, const BenchOptions& options);

}  // namespace hetflow::app
