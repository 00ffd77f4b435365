#include "hetflow/fem/momentum.hpp"

#include <cmath>
#include <string>

#include "hetflow/core/error.hpp"
#include "hetflow/core/number_text.hpp"

namespace hetflow::fem {
namespace {

double norm(const Vec3& v) { return std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }

// ν K(U)_I per component: the viscous term B_I of the paper's eq. 36 with a constant ν.
std::vector<Vec3> viscous(const EdgeData& data, double viscosity, std::span<const Vec3> u) {
  std::vector<Vec3> out(u.size());
  std::vector<double> component(u.size());
  for (std::size_t c = 0; c < 3; ++c) {
    for (std::size_t i = 0; i < u.size(); ++i) component[i] = u[i][c];
    const std::vector<double> k = stiffness(data, component);
    for (std::size_t i = 0; i < u.size(); ++i) out[i][c] = viscosity * k[i];
  }
  return out;
}

// to = from + s M⁻¹ r, node by node.
void add_scaled(const EdgeData& data, std::span<const Vec3> from, double s, std::span<const Vec3> r,
                std::vector<Vec3>& to) {
  for (std::size_t i = 0; i < to.size(); ++i)
    for (std::size_t c = 0; c < 3; ++c) to[i][c] = from[i][c] + s * data.inv_lumped_mass[i] * r[i][c];
}

}  // namespace

std::vector<double> stabilisation_tau(const EdgeData& data, std::span<const Vec3> u, double dt, double viscosity,
                                      const StabilisationConstants& constants) {
  check_size(data, u.size(), "u");
  check_time_step(dt);
  std::vector<double> tau(u.size());
  for (std::size_t i = 0; i < u.size(); ++i) {
    const double h = std::cbrt(data.lumped_mass[i]);
    tau[i] = 1.0 / (constants.time / dt + constants.viscous * viscosity / (h * h) +
                    constants.convective * norm(u[i]) / h);
  }
  return tau;
}

std::vector<Vec3> convective_projection(const EdgeData& data, std::span<const Vec3> u) {
  std::vector<Vec3> out = convection(data, u, u);
  for (std::size_t i = 0; i < out.size(); ++i)
    for (double& c : out[i]) c *= data.inv_lumped_mass[i];
  return out;
}

namespace {

// M_I f − A_I − ν K(U)_I + (1/ρ) G_I − τ_I (S^low_I − S^high_I) with the pressure term G given: the paper's
// eq. 44, where the convective term A (eq. 38–39), the viscous term ν K (eq. 36) and the OSS term
// τ (a·∇v, a·∇u − Π) (eq. 42–43) enter with a minus sign.
std::vector<Vec3> residual_with_pressure_term(const EdgeData& data, const MomentumParameters& parameters,
                                              std::span<const Vec3> velocity, const std::vector<Vec3>& pressure_term,
                                              std::span<const Vec3> projection, std::span<const double> tau) {
  check_size(data, tau.size(), "tau");
  const std::vector<Vec3> a = convection(data, velocity, velocity);
  const std::vector<Vec3> b = viscous(data, parameters.viscosity, velocity);
  const std::vector<Vec3> low = oss_low(data, velocity, velocity);
  const std::vector<Vec3> high = oss_high(data, velocity, projection);
  std::vector<Vec3> f(velocity.size());
  for (std::size_t i = 0; i < f.size(); ++i)
    for (std::size_t c = 0; c < 3; ++c)
      f[i][c] = data.lumped_mass[i] * parameters.body_force[c] - a[i][c] - b[i][c] +
                pressure_term[i][c] / parameters.density - tau[i] * (low[i][c] - high[i][c]);
  return f;
}

}  // namespace

// The strong gradient π of eq. 29 stands in for eq. 44's weak gradient: they differ by boundary terms
// only, and the pressure is fixed where those matter. G = −π(p).
std::vector<Vec3> momentum_residual(const EdgeData& data, const MomentumParameters& parameters,
                                    std::span<const Vec3> velocity, std::span<const double> pressure,
                                    std::span<const Vec3> projection, std::span<const double> tau) {
  std::vector<Vec3> g = strong_gradient(data, pressure);
  for (Vec3& v : g)
    for (double& c : v) c = -c;
  return residual_with_pressure_term(data, parameters, velocity, g, projection, tau);
}

// Eq. 44 as it stands, G = P(p) = ∫ ∇N_I p_h.
std::vector<Vec3> weak_momentum_residual(const EdgeData& data, const MomentumParameters& parameters,
                                         std::span<const Vec3> velocity, std::span<const double> pressure,
                                         std::span<const Vec3> projection, std::span<const double> tau) {
  return residual_with_pressure_term(data, parameters, velocity, weak_gradient(data, pressure), projection, tau);
}

void check_momentum_parameters(const MomentumParameters& parameters) {
  const auto require = [](bool ok, const char* name, double value) {
    if (!ok || !std::isfinite(value))
      throw core::Error(std::string("the momentum parameter ") + name + " = " + core::shortest_text(value) +
                        " is out of range");
  };
  require(parameters.viscosity >= 0, "viscosity", parameters.viscosity);
  require(parameters.density > 0, "density", parameters.density);
  for (double f : parameters.body_force) require(true, "body_force", f);
  const StabilisationConstants& c = parameters.stabilisation;
  require(c.time >= 0, "stabilisation time constant", c.time);
  require(c.viscous >= 0, "stabilisation viscous constant", c.viscous);
  require(c.convective >= 0, "stabilisation convective constant", c.convective);
}

void check_time_step(double dt) {
  if (!(dt > 0) || !std::isfinite(dt))
    throw core::Error("the time step " + core::shortest_text(dt) + " is not positive");
}

std::vector<Vec3> momentum_rk4(const EdgeData& data, const MomentumParameters& parameters,
                               const BoundaryConstraints& constraints, std::span<const Vec3> u_n,
                               std::span<const double> pressure, double time, double dt) {
  const std::vector<double> tau = stabilisation_tau(data, u_n, dt, parameters.viscosity, parameters.stabilisation);
  const std::vector<Vec3> projection = convective_projection(data, u_n);
  std::vector<Vec3> w(u_n.begin(), u_n.end());
  std::vector<Vec3> u(u_n.begin(), u_n.end());
  for (std::size_t s = 0; s < 4; ++s) {
    const std::vector<Vec3> r = momentum_residual(data, parameters, u, pressure, projection, tau);
    add_scaled(data, w, rk4_weight[s] * dt, r, w);
    if (s < 3) {
      add_scaled(data, u_n, rk4_stage[s] * dt, r, u);
      apply_constraints(constraints, time + rk4_stage[s] * dt, u);
    }
  }
  apply_constraints(constraints, time + dt, w);
  return w;
}

}  // namespace hetflow::fem
