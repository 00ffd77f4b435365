#pragma once
#include "hetflow/app/bench/registry.hpp"

namespace hetflow::app {

// The wavelet-block compressible solver (docs/mrag.md, Performance) on uniform periodic grids of 32² blocks,
// two problem families (an air-helium disc, ideal gases; an air-water disc, stiffened gas, suffix
// " stiffened"): per grid "N^2 step" gives cell-updates per second per Runge–Kutta stage of whole steps (the
// CFL rate and its read-back included) against the FP64 peak multiply-add rate measured in the same run,
// with the grind time in ns per cell, equation and right-hand side and the fraction of the copy bandwidth
// its bytes model moves; "N^2 update" and "N^2 ghosts" give the fused flux-and-update kernel and the ghost
// fill alone by device events; suffix " fp32" the same in FP32. "shock-bubble level L" runs the
// Haas–Sturtevant case adapting up to level L: rate over the active cells against the uniform grid's,
// the adaptations' share of the time (over all periods and over the second half), the compression.
// "shock-bubble level L local steps depth D" runs that case over the same simulated time with the finest
// D levels stepped locally: the global steps' wall time over the local steps'.
BenchReport compressible_benchmark(const core::DeviceSet& devices, const BenchOptions& options);

}  // namespace hetflow::app
