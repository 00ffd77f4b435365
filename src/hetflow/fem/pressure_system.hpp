#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "hetflow/fem/csr_matrix.hpp"
#include "hetflow/fem/edge_data.hpp"
#include "hetflow/fem/edge_operators.hpp"

namespace hetflow::fem {

// The constants of the pressure step (docs/fem.md, Fractional step): θ scales the pressure increment in
// both the pressure equation and the end-of-step velocity, so with τ = 0 the corrected velocity does not
// depend on it (θ = 1/2 is the paper's choice, θ = 1 the classical incremental projection).
struct PressureParameters {
  double dt = 0;
  double density = 1;
  double theta = 0.5;
  // The mass correction of the paper's Kratos source: the divergence uⁿ kept from the last step, ρD(uⁿ), is
  // removed with this step's, so the approximate projection's leftover does not accumulate.
  bool mass_correction = false;
  double theta_dt() const { return theta * dt; }
};

// Host reference of the pressure step (Rossi, Mossaiby & Idelsohn 2013, eqs. 15–16 and 45–48). Imposing
// D(uⁿ⁺¹) = 0 on uⁿ⁺¹ = û − (θΔt/ρ) M⁻¹ π(δ), with δ = pⁿ⁺¹ − pⁿ and −D M⁻¹ π replaced by the stiffness
// K, and adding the split-OSS pressure term τ(∇q, ∇p − ξ), gives H pⁿ⁺¹ = θΔt K(pⁿ) − ρ D(û) + W_τ(ξ) with
//   H_IJ = (θΔt + τ_IJ) ℓ_IJ (J ≠ I),  H_II = −Σ_{J≠I} H_IJ,  τ_IJ = (τ_I + τ_J)/2,
//   W_τ(ξ)_I = Σ_J τ_IJ (g_IJ·ξ_J − d_IJ·ξ_I).
// (H φ)_I = Σ_J H_IJ (φ_J − φ_I), so H is the stiffness matrix weighted edge by edge: symmetric, positive
// semidefinite, rows summing to zero. The system is solved for the increment, H δ = f − H pⁿ, whose
// right-hand side the θΔt K(pⁿ) term cancels out of:
//   b_I = −ρ D(û)_I + Σ_J τ_IJ [g_IJ·ξ_J − d_IJ·ξ_I − ℓ_IJ (pⁿ_J − pⁿ_I)].
// Fixed-pressure nodes keep pⁿ, δ_I = 0: symmetric elimination sets their rows and columns to the
// identity and their right-hand side to 0, which keeps H symmetric and makes it positive definite once
// every connected part of the mesh has a fixed node.

// A per-node mask of a list of fixed nodes. Throws core::Error naming the list (`what`) and an index out
// of range.
std::vector<std::uint8_t> fixed_node_mask(std::size_t nodes, std::span<const std::uint32_t> fixed, const char* what);

// H on the pressure-matrix pattern of `data` (its diagonal in sorted place), fixed rows and columns
// eliminated. tau holds τ per node.
CsrMatrix pressure_matrix(const EdgeData& data, std::span<const double> tau, const PressureParameters& param,
                          std::span<const std::uint8_t> fixed);

// b = f − H pⁿ, with 0 at the fixed nodes; with param.mass_correction also −ρ D(uⁿ), uⁿ the step's start
// velocity (one per node; ignored without the correction).
std::vector<double> pressure_increment_rhs(const EdgeData& data, std::span<const double> tau,
                                           const PressureParameters& param, std::span<const Vec3> u_hat,
                                           std::span<const Vec3> xi, std::span<const double> p,
                                           std::span<const std::uint8_t> fixed, std::span<const Vec3> u_n = {});

// ξ_I = π(p)_I / M_I: the lumped projection of the pressure gradient.
std::vector<Vec3> pressure_projection(const EdgeData& data, std::span<const double> p);

// uⁿ⁺¹_I = û_I − (θΔt/ρ) π(δ)_I / M_I: the end-of-step velocity, before the velocity boundary conditions.
std::vector<Vec3> corrected_velocity(const EdgeData& data, const PressureParameters& param,
                                     std::span<const Vec3> u_hat, std::span<const double> delta);

}  // namespace hetflow::fem
