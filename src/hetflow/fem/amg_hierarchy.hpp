#pragma once
#include <cstddef>
#include <span>
#include <vector>

#include "hetflow/fem/amg_sparse.hpp"
#include "hetflow/fem/csr_matrix.hpp"

namespace hetflow::fem {

// How the smoothed-aggregation hierarchy is built (docs/fem.md, "Pressure solver").
struct AmgOptions {
  double strength = 0.08;         // θ of the finest level's strong connections, halved on each coarser one
  std::size_t coarse_size = 400;  // coarsening stops at this many unknowns or fewer: the dense level
  int max_levels = 12;
  int power_iterations = 20;  // for the estimate of ρ(D⁻¹A) per level
};

// One level l of the hierarchy. A_l is the level's matrix, A_{l+1} = R_l A_l P_l with R_l = P_lᵀ;
// P_l = (I − ω_l D_l⁻¹ A_l) P̂_l is the tentative prolongation smoothed by one damped-Jacobi step,
// ω_l = 4 / (3 ρ_l), ρ_l the estimate of ρ(D_l⁻¹ A_l). The V-cycle's damped Jacobi uses the same
// weight: smoother = ω_l / diag(A_l). The coarsest level has no P and R.
struct AmgLevel {
  SparseRows a, p, r;
  std::vector<double> smoother;
  std::vector<std::int32_t> aggregate;  // of each node, into the columns of P̂_l (no_aggregate: none)
  double spectral_radius = 0;           // ρ_l
};

// Smoothed-aggregation algebraic multigrid for a symmetric positive definite matrix, the constant
// vector as the near-null space (Vaněk, Mandel & Brezina 1996), built on the host once. apply() is one
// V(1,1)-cycle from zero with damped-Jacobi smoothing and an exact solve on the coarsest level, the
// symmetric positive definite preconditioner B of the CG; the device runs the same cycle
// (fem/device_amg.hpp).
class AmgHierarchy {
 public:
  // Throws core::Error for options out of range, a diagonal entry that is not positive, a coarsest
  // matrix that is not positive definite (a singular A: a part of the mesh without a fixed pressure) or
  // a coarsening that stalls above 8 × coarse_size unknowns.
  explicit AmgHierarchy(const CsrMatrix& a, const AmgOptions& options = AmgOptions{});

  const std::vector<AmgLevel>& levels() const { return levels_; }
  // A⁻¹ of the coarsest level, n_c × n_c and symmetric (so row- and column-major alike).
  const std::vector<double>& coarse_inverse() const { return coarse_inverse_; }
  // Σ_l nnz(A_l) / nnz(A_0).
  double operator_complexity() const;

  // z = B b: one V-cycle from zero, in the order of operations of the device cycle.
  std::vector<double> apply(std::span<const double> b) const;

 private:
  std::vector<double> cycle(std::size_t level, std::span<const double> b) const;

  std::vector<AmgLevel> levels_;
  std::vector<double> coarse_inverse_;
};

}  // namespace hetflow::fem
