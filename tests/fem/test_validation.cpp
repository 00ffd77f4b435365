#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "hetflow/fem/boundary_conditions.hpp"
#include "hetflow/fem/box_mesh.hpp"
#include "hetflow/fem/edge_data.hpp"
#include "hetflow/fem/flow_solver.hpp"
#include "hetflow/fem/pressure_system.hpp"
#include "test_devices.hpp"

namespace hetflow::fem {
namespace {

PatchCondition condition(const std::string& patch, BoundaryKind kind) {
  PatchCondition c;
  c.patch = patch;
  c.kind = kind;
  return c;
}

// Steps to time `end`, the last step cut to end on it; the Dirichlet values follow `boundary(t)` when given.
template <class Boundary>
void run_to(FlowSolver& solver, double end, double courant, const Boundary& boundary) {
  while (solver.time() < end) {
    const double dt = std::min(solver.stable_dt(courant), end - solver.time());
    boundary(solver.time() + dt);
    solver.advance(dt);
  }
}

// Plane Poiseuille flow in a channel 2 long and H = 1 high, one cell thick between slip planes: a
// parabolic inflow of peak U = 1, an outlet at p = 0, no-slip walls, ν = 0.1 (Re = UH/ν = 10). From rest
// the flow develops to u = 4U y(H − y)/H² with dp/dx = −8ρνU/H²; the issue asks for 1 %.
TEST(FemValidation, PlanePoiseuilleFlowMatchesTheExactProfileAndPressureGradient) {
  const Mesh mesh = box_mesh(16, 8, 1, {0, 0, 0}, {2, 1, 0.125});
  const EdgeData data = build_edge_data(mesh);
  PatchCondition inlet = condition("x_min", BoundaryKind::velocity);
  inlet.value = {1, 0, 0};
  inlet.profile = VelocityProfile::parabolic;
  inlet.profile_axes = {1};
  const std::vector<PatchCondition> conditions{inlet,
                                               condition("x_max", BoundaryKind::outlet),
                                               condition("y_min", BoundaryKind::no_slip),
                                               condition("y_max", BoundaryKind::no_slip),
                                               condition("z_min", BoundaryKind::slip),
                                               condition("z_max", BoundaryKind::slip)};
  FlowParameters parameters;
  parameters.momentum.viscosity = 0.1;
  parameters.cg.tolerance = 1e-12;
  parameters.cg.preconditioner = Preconditioner::amg;
  const core::DeviceSet devices = test::test_device();
  FlowSolver solver(devices, 0, mesh, data, parameters, build_boundary_constraints(mesh, conditions, "channel"));
  // The slowest mode decays as exp(−π² ν t / H²): by t = 15 to about 4e-7 of the start.
  run_to(solver, 15, 0.9, [](double) {});
  const std::vector<Vec3> u = solver.velocity();
  const std::vector<double> p = solver.pressure();
  double u_error = 0, gradient = 0;
  int counted = 0;
  for (std::size_t i = 0; i < mesh.nodes.size(); ++i) {
    const Point& x = mesh.nodes[i];
    if (x[0] < 0.75 || x[0] > 1.5) continue;  // away from the inlet and the outlet
    u_error = std::max({u_error, std::abs(u[i][0] - 4 * x[1] * (1 - x[1])), std::abs(u[i][1]), std::abs(u[i][2])});
    // dp/dx from the node one cell downstream on the same line.
    for (std::size_t j = 0; j < mesh.nodes.size(); ++j)
      if (std::abs(mesh.nodes[j][0] - x[0] - 0.125) < 1e-12 && mesh.nodes[j][1] == x[1] && mesh.nodes[j][2] == x[2]) {
        gradient += (p[j] - p[i]) / 0.125;
        ++counted;
      }
  }
  gradient /= counted;
  const double exact = -8 * 0.1 * 1.0;
  RecordProperty("max_velocity_error", std::to_string(u_error));
  RecordProperty("pressure_gradient_relative_error", std::to_string(std::abs(gradient / exact - 1)));
  EXPECT_LT(u_error, 0.01);
  EXPECT_NEAR(gradient, exact, 0.01 * std::abs(exact));
}

// The exact unsteady 3D solution of Ethier & Steinman (1994), a = π/4, d = π/2, on [−1, 1]³.
struct EthierSteinman {
  double nu;
  static constexpr double a = std::numbers::pi / 4, d = std::numbers::pi / 2;

  Vec3 velocity(const Point& p, double t) const {
    const double x = p[0], y = p[1], z = p[2], e = -a * std::exp(-nu * d * d * t);
    return {e * (std::exp(a * x) * std::sin(a * y + d * z) + std::exp(a * z) * std::cos(a * x + d * y)),
            e * (std::exp(a * y) * std::sin(a * z + d * x) + std::exp(a * x) * std::cos(a * y + d * z)),
            e * (std::exp(a * z) * std::sin(a * x + d * y) + std::exp(a * y) * std::cos(a * z + d * x))};
  }
  double pressure(const Point& p, double t) const {
    const double x = p[0], y = p[1], z = p[2];
    return -a * a / 2 * std::exp(-2 * nu * d * d * t) *
           (std::exp(2 * a * x) + std::exp(2 * a * y) + std::exp(2 * a * z) +
            2 * std::sin(a * x + d * y) * std::cos(a * z + d * x) * std::exp(a * (y + z)) +
            2 * std::sin(a * y + d * z) * std::cos(a * x + d * y) * std::exp(a * (z + x)) +
            2 * std::sin(a * z + d * x) * std::cos(a * y + d * z) * std::exp(a * (x + y)));
  }
};

// The relative L2 velocity error at t = 0.1 of the run from the exact state at t = 0, with the exact
// velocity on the whole boundary at every step.
double ethier_steinman_error(std::uint32_t cells, const core::DeviceSet& devices) {
  const EthierSteinman exact{1.0};
  const Mesh mesh = box_mesh(cells, cells, cells, {-1, -1, -1}, {1, 1, 1});
  const EdgeData data = build_edge_data(mesh);
  std::vector<PatchCondition> conditions;
  for (const std::string& side : mesh.patches) conditions.push_back(condition(side, BoundaryKind::velocity));
  const BoundaryConstraints constraints = build_boundary_constraints(mesh, conditions, "cube");
  FlowParameters parameters;
  parameters.momentum.viscosity = exact.nu;
  parameters.cg.tolerance = 1e-12;
  parameters.cg.preconditioner = Preconditioner::amg;
  FlowSolver solver(devices, 0, mesh, data, parameters, constraints);
  const auto boundary_at = [&](double t) {
    std::vector<Vec3> values;
    for (std::uint32_t node : constraints.dirichlet_nodes) values.push_back(exact.velocity(mesh.nodes[node], t));
    return values;
  };
  FlowState start = solver.rest_state();
  const double p0 = exact.pressure(mesh.nodes[constraints.pressure_nodes.front()], 0);
  for (std::size_t i = 0; i < mesh.nodes.size(); ++i) {
    start.velocity[i] = exact.velocity(mesh.nodes[i], 0);
    start.pressure[i] = exact.pressure(mesh.nodes[i], 0) - p0;
  }
  start.projection = pressure_projection(data, start.pressure);
  solver.set_dirichlet_values(boundary_at(0));
  solver.set_state(start);
  const double end = 0.1;
  run_to(solver, end, 0.9, [&](double t) { solver.set_dirichlet_values(boundary_at(t)); });
  const std::vector<Vec3> u = solver.velocity();
  double error = 0, norm = 0;
  for (std::size_t i = 0; i < u.size(); ++i) {
    const Vec3 e = exact.velocity(mesh.nodes[i], end);
    for (std::size_t c = 0; c < 3; ++c) {
      error += data.lumped_mass[i] * (u[i][c] - e[c]) * (u[i][c] - e[c]);
      norm += data.lumped_mass[i] * e[c] * e[c];
    }
  }
  return std::sqrt(error / norm);
}

// The L2 velocity error converges at second order: measured 0.0509, 0.00974 and 0.00219 (orders 2.39 and
// 2.15), and 0.000940 at 24³ (order 2.09 from 16³). The exact values leak O(h²) net flow through the closed
// cube, which the constraints balance (balance_closed_flux); unbalanced, the leak becomes a point source at
// the pressure's reference node and the orders fall to 1.95 and 1.59. The thresholds leave 0.1 below the
// measured orders for other devices' rounding.
TEST(FemValidation, EthierSteinmanVelocityConvergesOverThreeLevels) {
  const core::DeviceSet devices = test::test_device();
  std::vector<double> errors;
  for (std::uint32_t cells : {4u, 8u, 16u}) errors.push_back(ethier_steinman_error(cells, devices));
  for (std::size_t k = 0; k < errors.size(); ++k)
    RecordProperty("l2_error_level_" + std::to_string(k), std::to_string(errors[k]));
  const double order_coarse = std::log2(errors[0] / errors[1]), order_fine = std::log2(errors[1] / errors[2]);
  RecordProperty("order_coarse", std::to_string(order_coarse));
  RecordProperty("order_fine", std::to_string(order_fine));
  EXPECT_GT(order_coarse, 2.29) << errors[0] << " " << errors[1] << " " << errors[2];
  EXPECT_GT(order_fine, 2.05) << errors[0] << " " << errors[1] << " " << errors[2];
  EXPECT_LT(errors[2], 0.0023);
}

}  // namespace
}  // namespace hetflow::fem
