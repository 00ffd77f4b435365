#pragma once
#include <array>
#include <span>
#include <vector>

#include "hetflow/fem/edge_data.hpp"

namespace hetflow::fem {

using Vec3 = std::array<double, 3>;

// Host reference forms of the edge-based operators (docs/fem.md, Edge operators): each node loops over
// its own row and works with differences φ_J − φ_I, so a constant field gives exactly zero. The device
// kernels are tested against these. Every field has one value per node; a size mismatch throws
// core::Error.

// Throws core::Error naming the field unless it has one value per node (`size` values).
void check_size(const EdgeData& data, std::size_t size, const char* field);

// π(p)_I = Σ_J d_IJ (p_J − p_I) = ∫ N_I ∇p_h: the strong gradient.
std::vector<Vec3> strong_gradient(const EdgeData& data, std::span<const double> p);

// P(p)_I = Σ_J (g_IJ p_J − d_IJ p_I) = ∫ ∇N_I p_h: the weak gradient, without a boundary integral.
std::vector<Vec3> weak_gradient(const EdgeData& data, std::span<const double> p);

// D(v)_I = Σ_J d_IJ · (v_J − v_I) = ∫ N_I ∇·v_h: the strong divergence.
std::vector<double> strong_divergence(const EdgeData& data, std::span<const Vec3> v);

// W(ξ)_I = Σ_J (g_IJ · ξ_J − d_IJ · ξ_I) = ∫ ∇N_I · ξ_h: the weak divergence.
std::vector<double> weak_divergence(const EdgeData& data, std::span<const Vec3> xi);

// K(φ)_I = Σ_J ℓ_IJ (φ_J − φ_I) with ℓ_IJ = tr Λ_IJ = ∫ ∇N_I · ∇N_J: the stiffness operator.
std::vector<double> stiffness(const EdgeData& data, std::span<const double> phi);

// A_I = Σ_J (a_I · d_IJ)(u_J − u_I): convection of u by the velocity a frozen at its nodal value.
std::vector<Vec3> convection(const EdgeData& data, std::span<const Vec3> a, std::span<const Vec3> u);

// S^low_I = Σ_J (a_Iᵀ Λ_IJ a_I)(u_J − u_I): the streamline-diffusion part of the OSS stabilisation.
std::vector<Vec3> oss_low(const EdgeData& data, std::span<const Vec3> a, std::span<const Vec3> u);

// S^high_I = −Σ_J (a_I · d_IJ)(Π_J − Π_I): the projection part of the OSS stabilisation, with Π the nodal
// projection of the convective term.
std::vector<Vec3> oss_high(const EdgeData& data, std::span<const Vec3> a, std::span<const Vec3> projection);

}  // namespace hetflow::fem
