#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "hetflow/fem/boundary_conditions.hpp"
#include "hetflow/fem/edge_data.hpp"
#include "hetflow/fem/edge_operators.hpp"

namespace hetflow::fem {

// The constants of the nodal stabilisation τ_I = 1 / (c_t/Δt + c_ν ν/h_I² + c_u ‖u_I‖/h_I), h_I = M_I^{1/3}
// (docs/fem.md, Stabilisation). The defaults are the paper's (Rossi, Mossaiby & Idelsohn 2013, text of
// eq. 45).
struct StabilisationConstants {
  double time = 1.0;        // c_t
  double viscous = 1.0;     // c_ν
  double convective = 1.0;  // c_u
};

// The physical data of the momentum equation.
struct MomentumParameters {
  double viscosity = 0.0;     // ν, kinematic
  double density = 1.0;       // ρ
  Vec3 body_force{0, 0, 0};   // f, per unit mass
  StabilisationConstants stabilisation;
};

// The classical RK4 scheme: stage s adds rk4_weight[s] Δt M⁻¹ R to W and, for s < 3, sets the next
// stage's velocity U = uⁿ + rk4_stage[s] Δt M⁻¹ R.
inline constexpr std::array<double, 4> rk4_weight{1.0 / 6, 1.0 / 3, 1.0 / 3, 1.0 / 6};
inline constexpr std::array<double, 3> rk4_stage{0.5, 0.5, 1.0};

// Host reference forms of the explicit momentum part of the fractional step (docs/fem.md, Momentum).
// The device kernels (MomentumStep) are tested against them. Fields have one value per node; a size
// mismatch throws core::Error.

// τ_I from the velocity u (the start-of-step velocity uⁿ); checks dt as check_time_step does.
std::vector<double> stabilisation_tau(const EdgeData& data, std::span<const Vec3> u, double dt, double viscosity,
                                      const StabilisationConstants& constants);

// Π_I = A_I(u; a = u) / M_I: the lumped projection of (u·∇)u.
std::vector<Vec3> convective_projection(const EdgeData& data, std::span<const Vec3> u);

// F_I(U) = M_I f − A_I(U; a = U) − ν K(U)_I − (1/ρ) π(p)_I − τ_I (S^low_I(U) − S^high_I(Π)), with the
// advecting velocity a = U in A, S^low and S^high.
std::vector<Vec3> momentum_residual(const EdgeData& data, const MomentumParameters& parameters,
                                    std::span<const Vec3> velocity, std::span<const double> pressure,
                                    std::span<const Vec3> projection, std::span<const double> tau);

// The same residual with the weak pressure gradient of the paper's eq. 44, + (1/ρ) P(p)_I in place of
// − (1/ρ) π(p)_I: at a node of a velocity constraint it is the reaction that holds the node, (1/ρ) ∮ N_I σn
// (patch_force).
std::vector<Vec3> weak_momentum_residual(const EdgeData& data, const MomentumParameters& parameters,
                                         std::span<const Vec3> velocity, std::span<const double> pressure,
                                         std::span<const Vec3> projection, std::span<const double> tau);

// Throws core::Error naming the value unless ν ≥ 0, ρ > 0, the stabilisation constants are ≥ 0 and all
// are finite.
void check_momentum_parameters(const MomentumParameters& parameters);

// Throws core::Error unless the time step is positive and finite.
void check_time_step(double dt);

// One classical RK4 step of M du/dt = F(u) from uⁿ at time t to t + Δt with the pressure p fixed and τ, Π
// computed once from uⁿ; the velocity constraints are applied to each of the first three stage
// velocities at its time t + rk4_stage[s] Δt and to the returned fractional velocity û at t + Δt.
std::vector<Vec3> momentum_rk4(const EdgeData& data, const MomentumParameters& parameters,
                               const BoundaryConstraints& constraints, std::span<const Vec3> u_n,
                               std::span<const double> pressure, double time, double dt);

}  // namespace hetflow::fem
