#pragma once
#include <cstddef>

namespace hetflow::app {

// The bytes the fem kernels move, FP64, for a mesh of n nodes and E directed edges (docs/fem.md,
// Performance). Every edge loop reads the 8-byte slots of its edge's record that it uses (the records are
// sliced slot by slot, so the others stay in memory) and the edge's 4-byte column index once; node vectors
// (velocities 24 B, scalars 8 B) are counted once per node, whether a node reads them for itself or gathers
// them from its neighbours: the limit a perfect cache reaches, so the figures are lower bounds and measured
// GB/s against them never flatter a kernel. The slices' padding, their offsets (one per 32 nodes) and the
// overwrites of fixed velocities, which touch boundary nodes only, are left out.
struct FemBytes {
  // `cg_value` is the bytes of one value of the pressure CG's matrix and vectors: 8 (FP64) or 4 (FP32,
  // solver.cg_precision), which the SpMV, the assembly's outputs, the CG and the correction's δ take.
  FemBytes(std::size_t nodes, std::size_t edges, double cg_value = 8);

  double spmv;                   // y = A x: 12 B per stored entry (E + n of them), x, y
  double convective_projection;  // reads u, 1/M; writes Π
  double momentum_residual;      // reads U, Π, p, M, τ; writes R
  double pressure_assembly;      // reads fixed flags, τ, û, ξ, p; writes H (E + n values), 1/H_ii, b
  double diagnostics;            // reads u, p, M, h_min
  // One whole step with no CG iteration: τ, Π, the copy û = uⁿ, four residuals and RK stages, the assembly,
  // the CG's start, the correction, ξ and the diagnostics.
  double step_fixed;
  // One Jacobi-CG iteration (single-reduction form): the product w = A u with its sums, and the update of
  // p, s, x, r and u = r / H_ii.
  double cg_iteration;

  // step_fixed + iterations × cg_iteration.
  double step(double cg_iterations) const { return step_fixed + cg_iterations * cg_iteration; }
};

}  // namespace hetflow::app
