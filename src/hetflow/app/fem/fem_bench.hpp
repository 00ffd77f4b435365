#pragma once
#include "hetflow/app/bench/registry.hpp"

namespace hetflow::app {

// The edge-based FEM solver on the paper's lid-driven cavity (docs/fem.md, Performance), on box meshes of the
// unit cube with 14³, 28³ and 56³ cells (the paper's levels 0-2) and, on GPUs, 160³ (4.17M nodes). Per mesh
// "N^3 <kernel>" cases give the GB/s of the pressure SpMV (the paper's vector CSR with its shape [8,5], and
// the solver's sliced matrix with the tuned shape, if any), the convective projection, the momentum
// residual, the pressure assembly and the diagnostics against fem_bench_model's bytes, by device events;
// "N^3 step jacobi" and "N^3 step amg" give the median step of the cavity at Courant 0.9 with either
// pressure preconditioner against the step's bytes-moved limit. On GPUs "56^3 cavity to t=1" runs the
// paper's whole cavity run from rest.
BenchReport fem_benchmark(const core::DeviceSet& devices, const BenchOptions& options);

}  // namespace hetflow::app
