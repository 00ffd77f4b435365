#pragma once
#include "hetflow/app/bench/registry.hpp"

namespace hetflow::app {

// ODE systems per second of ode::Radau5 on the constant-pressure reactor (chem::reactor_system) of
// GRI-Mech 3.0 and H2/O2, at 1 atm, each system integrating its own state over Δt = 1e-6 s and 1e-4 s
// (the protocol of Sewerin & Rigopoulos 2015), against the batch size: 1e2, 1e3, 4096, 1e4,
// 1e5, 1e6 systems, stopping before a size whose single run would pass 10 s on CPU devices (30 s on
// GPUs), predicted from the last size. The rate is host wall clock of integrate(): packing, transfers
// and the kernel, as the paper timed. Efficiency = rate / the highest rate of the same mechanism and Δt
// (the plateau); the FP64 multiply-add peak (core::measure_flops) is context. The rates of Sewerin & Rigopoulos
// 2015, Table 5, stand beside GRI 3.0 at 1e-6 s. Mechanisms are read from $HETFLOW_MECHANISMS when set, else from the
// source tree's data/mechanisms.
BenchReport chem_benchmark(const core::DeviceSet& devices, const BenchOptions& options);

}  // namespace hetflow::app
