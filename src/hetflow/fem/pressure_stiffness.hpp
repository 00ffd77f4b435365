#pragma once
#include <cstdint>
#include <memory>
#include <span>

#include "hetflow/fem/amg_hierarchy.hpp"
#include "hetflow/fem/cg.hpp"
#include "hetflow/fem/csr_matrix.hpp"
#include "hetflow/fem/edge_data.hpp"

namespace hetflow::fem {

// The stiffness K on the pressure pattern: K_IJ = ℓ_IJ = tr Λ_IJ (J ≠ I), K_II = −Σ_{J≠I} K_IJ, the
// fixed rows and columns eliminated as in the pressure matrix (fem/pressure_system.hpp): H with τ = 0
// and θΔt = 1.
CsrMatrix pressure_stiffness(const EdgeData& data, std::span<const std::uint8_t> fixed);

// The AMG hierarchy of the pressure solve, or none unless options.preconditioner is amg: built once
// from K. Every step's H_IJ = (θΔt + τ_IJ) ℓ_IJ lies between θΔt K and (θΔt + max τ) K in the energy
// norm (away from the fixed rows, which stay the identity), so K's hierarchy preconditions every H
// within that factor and no step sets one up. Throws core::Error for a fixed node out of range.
std::unique_ptr<AmgHierarchy> pressure_hierarchy(const EdgeData& data, std::span<const std::uint32_t> fixed_pressure,
                                                 const CgOptions& options);

}  // namespace hetflow::fem
