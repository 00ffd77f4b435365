#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "hetflow/fem/edge_data.hpp"
#include "hetflow/fem/momentum.hpp"

namespace hetflow::fem {

// The weak residual R of u and p at every node, with τ and Π from u and the time step dt as the momentum
// step takes them: at a node whose velocity is held, ρ R_I is the fluid's force on the wall there.
std::vector<Vec3> wall_reactions(const EdgeData& data, const MomentumParameters& parameters, std::span<const Vec3> u,
                                 std::span<const double> p, double dt);

// The force the fluid exerts on a wall, from the reactions at the wall's constrained nodes `nodes` (its
// patch's nodes, patch_nodes) in the weak form (docs/fem.md, Forces):
//   F = ρ Σ_{I ∈ nodes} [M_I f − A_I − ν K(u)_I + (1/ρ) P(p)_I − τ_I (S^low_I − S^high_I)],
// the weak residual of u and p with τ and Π from u and the time step dt, as the momentum step takes them.
// The wall's own acceleration, ρ M_I du_I/dt, is not subtracted: the wall is at rest or moves steadily.
// Throws core::Error for fields of the wrong size, a node out of range or a time step check_time_step
// rejects.
Vec3 patch_force(const EdgeData& data, const MomentumParameters& parameters, std::span<const Vec3> u,
                 std::span<const double> p, double dt, std::span<const std::uint32_t> nodes);

}  // namespace hetflow::fem
