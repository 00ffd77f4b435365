#include "hetflow/fem/patch_force.hpp"

#include <string>
#include <vector>

#include "hetflow/core/error.hpp"

namespace hetflow::fem {

std::vector<Vec3> wall_reactions(const EdgeData& data, const MomentumParameters& parameters, std::span<const Vec3> u,
                                 std::span<const double> p, double dt) {
  const std::vector<double> tau = stabilisation_tau(data, u, dt, parameters.viscosity, parameters.stabilisation);
  return weak_momentum_residual(data, parameters, u, p, convective_projection(data, u), tau);
}

// Testing the momentum equation ρ(∂u/∂t + (u·∇)u) = ∇·σ + ρf, σ = −p I + ρν ∇u, with N_I and
// integrating ∇·σ by parts gives at every node
//   M_I du_I/dt = R_I + (1/ρ) ∮ N_I σn dA,
// where R_I is the weak residual (weak_momentum_residual: the pressure enters as + (1/ρ) P(p)_I =
// (1/ρ) ∫ ∇N_I p, the viscous term as − ν K(u)_I = − ν ∫ ∇N_I·∇u). At a node whose velocity is held, the
// boundary integral is the reaction of the wall on the fluid, (1/ρ) ∮ N_I σn = M_I du_I/dt − R_I. The
// fluid pushes the wall with the opposite force, and since the wall's N_I sum to 1 on it,
//   F = −Σ_I ∮ N_I σn dA = ρ Σ_I (R_I − M_I du_I/dt),
// with du_I/dt = 0 for a steady wall. The strong gradient π(p)_I = ∫ N_I ∇p would lack the boundary
// integral ∮ N_I p n, so its residual is no traction.
Vec3 patch_force(const EdgeData& data, const MomentumParameters& parameters, std::span<const Vec3> u,
                 std::span<const double> p, double dt, std::span<const std::uint32_t> nodes) {
  check_size(data, u.size(), "u");
  for (std::uint32_t node : nodes)
    if (node >= data.node_count())
      throw core::Error("the force's node " + std::to_string(node) + " is not below the " +
                        std::to_string(data.node_count()) + " nodes");
  const std::vector<Vec3> r = wall_reactions(data, parameters, u, p, dt);
  Vec3 force{0, 0, 0};
  for (std::uint32_t node : nodes)
    for (std::size_t c = 0; c < 3; ++c) force[c] += parameters.density * r[node][c];
  return force;
}

}  // namespace hetflow::fem
