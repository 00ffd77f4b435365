#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "hetflow/core/buffer.hpp"
#include "hetflow/core/device_set.hpp"
#include "hetflow/core/kernel.hpp"
#include "hetflow/fem/device_cg.hpp"
#include "hetflow/fem/device_edge_data.hpp"
#include "hetflow/fem/edge_data.hpp"
#include "hetflow/fem/edge_operators.hpp"
#include "hetflow/fem/node_halo.hpp"
#include "hetflow/fem/node_launch.hpp"
#include "hetflow/fem/pressure_system.hpp"

namespace hetflow::fem {

// Steps 2 and 3 of the fractional step on one device, in FP64 but for the CG's optional FP32 (docs/fem.md,
// Fractional step): assembles the pressure matrix and the increment's right-hand side in place on the
// fixed pattern (fem_pressure.cl, host reference fem/pressure_system.hpp), solves H δ = b with the CG from δ = 0
// (Jacobi, or with options.preconditioner = amg the V-cycle of the stiffness K's hierarchy, built by the
// constructor), then p ← p + δ, u = û − (θΔt/ρ) M⁻¹ π(δ) and ξ = π(p)/M. The caller applies the velocity
// boundary conditions to u.
// Node fields are device buffers of n doubles, 3-vectors n packed x, y, z triples.
class PressureStep {
 public:
  // `data` gives the matrix pattern and, for AMG, the stiffness; `edges`, its copy on the device, is read
  // by the kernels and must outlive the step. Throws core::Error for a fixed node out of range. With
  // `halo` (outliving the step) `data` is a part's local problem: the CG runs split over the parts, its
  // AMG being that of the whole mesh, `whole_amg` (pressure_hierarchy of the whole edge data), and run()
  // exchanges δ, u and ξ after writing them (collectively). `precision` is that of the CG's matrix and
  // vectors (docs/fem.md, Precision): FP32 moves fewer bytes per iteration, on one device; the assembly,
  // the correction and the fields stay FP64.
  PressureStep(const core::DeviceSet& devices, std::size_t device, const EdgeData& data, const DeviceEdgeData& edges,
               std::span<const std::uint32_t> fixed_pressure, const CgOptions& options,
               const SpmvShape& shape = SpmvShape{}, NodeHalo* halo = nullptr, const AmgHierarchy* whole_amg = nullptr,
               core::Precision precision = core::Precision::f64);

  // tau: τ per node; u_hat: the fractional velocity; u_n: the step's start velocity (read for the mass
  // correction only); p: pⁿ in, pⁿ⁺¹ out; xi: ξ of the last step in, of this one out; u: uⁿ⁺¹ out. Returns
  // the CG's result; the caller decides what a failed solve means.
  CgResult run(const PressureParameters& param, const core::Buffer<double>& tau, const core::Buffer<double>& u_hat,
               const core::Buffer<double>& u_n, core::Buffer<double>& p, core::Buffer<double>& xi,
               core::Buffer<double>& u);

  // The first part of run: H into the CG's matrix, 1/H_ii into its preconditioner, b into rhs().
  void assemble(const PressureParameters& param, const core::Buffer<double>& tau, const core::Buffer<double>& u_hat,
                const core::Buffer<double>& u_n, const core::Buffer<double>& xi, const core::Buffer<double>& p);

  // Of an FP64 solve: the matrix, b, and δ of the last run.
  const DeviceCsr<double>& matrix() const { return fp64().cg.matrix(); }
  const core::Buffer<double>& rhs() const { return fp64().rhs; }
  const core::Buffer<double>& increment() const { return fp64().delta; }

 private:
  // The CG with its right-hand side and increment, in one precision; its matrix is sliced as the edges
  // are, which the assembly relies on.
  template <class Real>
  struct Solve {
    Solve(const core::Queue& queue, const CsrMatrix& pattern, const SpmvShape& shape, const CgOptions& options,
          const AmgHierarchy* amg, NodeHalo* halo)
        : cg(queue, pattern, shape, options, amg, halo, edge_slice_bits),
          rhs(queue.context(), pattern.n),
          delta(queue.context(), pattern.n) {}
    DeviceCg<Real> cg;
    core::Buffer<Real> rhs, delta;
  };
  const Solve<double>& fp64() const;
  // Calls work(solve) with the solve of the chosen precision.
  template <class Work>
  auto with_solve(Work&& work) {
    return solve64_ ? work(*solve64_) : work(*solve32_);
  }

  NodeLaunch launch_;
  NodeHalo* halo_;
  core::Buffer<cl_uchar> fixed_;
  std::unique_ptr<Solve<double>> solve64_;
  std::unique_ptr<Solve<float>> solve32_;
  core::Kernel assemble_, correct_, projection_;
};

}  // namespace hetflow::fem
