#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <string>
#include <vector>

#include "hetflow/core/error.hpp"
#include "hetflow/fem/box_mesh.hpp"
#include "hetflow/fem/device_edge_data.hpp"
#include "hetflow/fem/edge_data.hpp"
#include "hetflow/fem/flow_solver.hpp"
#include "hetflow/fem/step_diagnostics.hpp"
#include "small_meshes.hpp"
#include "test_devices.hpp"

namespace hetflow::fem {
namespace {

// The cube's surface nodes, each fixed to `value`, and the pressure fixed to 0 at `pressure_node`.
BoundaryConstraints surface(const CubeMesh& cube, const Vec3& value, std::uint32_t pressure_node = 0) {
  BoundaryConstraints c;
  for (std::uint32_t i = 0; i < cube.interior.size(); ++i)
    if (!cube.interior[i]) {
      c.dirichlet_nodes.push_back(i);
      c.dirichlet_values.push_back(value);
      c.dirichlet_ramp_times.push_back(0);
    }
  c.pressure_nodes = {pressure_node};
  c.pressure_values = {0.0};
  return c;
}

class FemFlowSolver : public ::testing::Test {
 protected:
  FemFlowSolver() : cube_(cube_mesh(5, 0.15)), data_(build_edge_data(cube_.mesh)), devices_(test::test_device()) {}

  // The cube's faces at rest but the top one (z = 1), which moves at (1, 0, 0).
  BoundaryConstraints moving_lid() const {
    BoundaryConstraints lid = surface(cube_, {0, 0, 0});
    for (std::size_t k = 0; k < lid.dirichlet_nodes.size(); ++k)
      if (cube_.mesh.nodes[lid.dirichlet_nodes[k]][2] > 1 - 1e-12) lid.dirichlet_values[k] = {1, 0, 0};
    return lid;
  }
  // The state after 20 steps of 0.01 of the moving-lid flow from rest with ν = 0.01 and the CG to 1e-13,
  // the other parameters as given.
  FlowState lid_flow(FlowParameters parameters) const {
    parameters.momentum.viscosity = 0.01;
    parameters.cg.tolerance = 1e-13;
    FlowSolver solver(devices_, 0, cube_.mesh, data_, parameters, moving_lid());
    for (int k = 0; k < 20; ++k) solver.advance(0.01);
    return solver.state();
  }

  CubeMesh cube_;
  EdgeData data_;
  core::DeviceSet devices_;
};

TEST_F(FemFlowSolver, DeviceDiagnosticsEqualTheHostReference) {
  std::vector<Vec3> u;
  std::vector<double> p;
  for (const Point& x : cube_.mesh.nodes) {
    u.push_back({std::sin(2 * x[1]) + x[2], x[0] * x[0] - 0.5 * x[2], std::exp(x[0] - x[1])});
    p.push_back(std::cos(3 * x[0]) * x[1]);
  }
  const double nu = 0.03;
  const FlowDiagnostics host = flow_diagnostics(data_, u, p, nu);
  DeviceEdgeData device_data(devices_, 0, data_);
  StepDiagnostics diagnostics(devices_, 0, device_data, nu);
  core::Buffer<double> u_device(devices_.context(0), 3 * u.size()), p_device(devices_.context(0), p.size());
  std::vector<double> flat;
  for (const Vec3& v : u) flat.insert(flat.end(), v.begin(), v.end());
  u_device.write(devices_.compute(0), flat);
  p_device.write(devices_.compute(0), p);
  const FlowDiagnostics device = diagnostics.measure(u_device, p_device);
  // Sums in another order: agreement to a few units in the last place.
  EXPECT_NEAR(device.kinetic_energy, host.kinetic_energy, 1e-13 * host.kinetic_energy);
  EXPECT_NEAR(device.divergence, host.divergence, 1e-12 * host.divergence);
  EXPECT_NEAR(device.stability_rate, host.stability_rate, 1e-13 * host.stability_rate);
  EXPECT_NEAR(device.max_speed, host.max_speed, 1e-15 * host.max_speed);
  EXPECT_EQ(device.bad_nodes, 0u);
  EXPECT_EQ(device.first_bad, u.size());

  u[17][1] = std::nan("");
  p[40] = INFINITY;
  for (std::size_t k = 0; k < 3; ++k) flat[3 * 17 + k] = u[17][k];
  u_device.write(devices_.compute(0), flat);
  p_device.write(devices_.compute(0), p);
  const FlowDiagnostics bad = diagnostics.measure(u_device, p_device);
  const FlowDiagnostics host_bad = flow_diagnostics(data_, u, p, nu);
  // Node 17's neighbours see its NaN in their divergence too.
  EXPECT_EQ(bad.bad_nodes, host_bad.bad_nodes);
  EXPECT_GT(bad.bad_nodes, 2u);
  EXPECT_EQ(bad.first_bad, host_bad.first_bad);
}

// A uniform flow through the cube with the same velocity fixed on its surface solves the equations
// exactly: every residual is a sum of differences, so u stays uniform and p zero to rounding.
TEST_F(FemFlowSolver, UniformFlowStaysUniform) {
  FlowParameters parameters;
  parameters.momentum.viscosity = 0.01;
  parameters.cg.tolerance = 1e-12;
  const Vec3 u0{0.7, -0.2, 0.4};
  FlowSolver solver(devices_, 0, cube_.mesh, data_, parameters, surface(cube_, u0));
  FlowState s = solver.rest_state();
  s.velocity.assign(s.velocity.size(), u0);
  solver.set_state(s);
  for (int k = 0; k < 5; ++k) solver.advance(solver.stable_dt(0.9));
  double du = 0, dp = 0;
  for (const Vec3& u : solver.velocity())
    for (std::size_t c = 0; c < 3; ++c) du = std::max(du, std::abs(u[c] - u0[c]));
  for (double p : solver.pressure()) dp = std::max(dp, std::abs(p));
  EXPECT_LT(du, 1e-13);
  EXPECT_LT(dp, 1e-13);
  EXPECT_EQ(solver.step(), 5);
}

// Fluid in a closed box under gravity settles to the hydrostatic pressure p = ρ g (z_top − z), the top
// corner fixed at 0, and to rest. P1 represents the linear pressure exactly, and with a uniform τ
// (c_ν = c_u = 0) the stabilisation term vanishes for it, so the hydrostatic state is an exact fixed point
// of the step: the error decays geometrically (about 1e-10 after 200 steps at Courant number 0.9).
// With the default τ, smaller at the walls, the fixed point differs by the O(h) stabilisation term.
TEST_F(FemFlowSolver, ClosedBoxUnderGravitySettlesToHydrostatic) {
  FlowParameters parameters;
  parameters.momentum.viscosity = 0.1;
  parameters.momentum.density = 1.3;
  parameters.momentum.body_force = {0, 0, -9.81};
  parameters.momentum.stabilisation = {1, 0, 0};
  parameters.cg.tolerance = 1e-12;
  std::uint32_t top = 0;
  for (std::uint32_t i = 0; i < cube_.mesh.nodes.size(); ++i)
    if (cube_.mesh.nodes[i][2] > 1 - 1e-12) top = i;
  FlowSolver solver(devices_, 0, cube_.mesh, data_, parameters, surface(cube_, {0, 0, 0}, top));
  for (int k = 0; k < 200; ++k) solver.advance(solver.stable_dt(0.9));
  const std::vector<double> p = solver.pressure();
  double error = 0;
  for (std::size_t i = 0; i < p.size(); ++i)
    error = std::max(error, std::abs(p[i] - 1.3 * 9.81 * (1 - cube_.mesh.nodes[i][2])));
  EXPECT_LT(error, 1e-9);
  EXPECT_LT(solver.diagnostics().max_speed, 1e-9);
}

TEST_F(FemFlowSolver, ANonFiniteStateIsRefusedNamingTheNode) {
  FlowSolver solver(devices_, 0, cube_.mesh, data_, FlowParameters{}, surface(cube_, {0, 0, 0}));
  FlowState s = solver.rest_state();
  const std::uint32_t node = 62;  // an interior node: the surface values are overwritten
  ASSERT_TRUE(cube_.interior[node]);
  s.pressure[node] = std::nan("");
  try {
    solver.set_state(s);
    FAIL() << "a NaN pressure was taken";
  } catch (const FlowError& e) {
    EXPECT_NE(std::string(e.what()).find("not finite, first at node " + std::to_string(node) + " ("), std::string::npos)
        << e.what();
  }
}

TEST_F(FemFlowSolver, AStepBeyondTheCourantLimitStopsTheRunNamingTheNode) {
  FlowParameters parameters;
  parameters.momentum.viscosity = 0.001;
  FlowSolver solver(devices_, 0, cube_.mesh, data_, parameters, moving_lid());
  const double dt = 2.5 * solver.stable_dt(1.0);
  try {
    solver.advance(dt);
    FAIL() << "a step at Courant number 2.5 was taken";
  } catch (const FlowError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind("step 1 (from t = 0): the Courant number", 0), 0u) << what;
    EXPECT_NE(what.find("largest at node "), std::string::npos) << what;
  }
}

// FP32 edge records with FP64 arithmetic: the records are rounded once, to about 6e-8 relative, and the
// lid-driven flow after 20 steps differs from the FP64 run by that order (measured 1.6e-8, max |u| = 1).
TEST_F(FemFlowSolver, Fp32EdgeRecordsChangeTheFlowByTheirRounding) {
  std::vector<std::vector<Vec3>> results;
  for (core::Precision precision : {core::Precision::f64, core::Precision::f32}) {
    FlowParameters parameters;
    parameters.edge_precision = precision;
    results.push_back(lid_flow(parameters).velocity);
  }
  double difference = 0;
  for (std::size_t i = 0; i < results[0].size(); ++i)
    for (std::size_t c = 0; c < 3; ++c) difference = std::max(difference, std::abs(results[0][i][c] - results[1][i][c]));
  EXPECT_GT(difference, 1e-12);  // the records were rounded
  EXPECT_LT(difference, 1e-6);
}

// FP32 CG vectors (and matrix) solve each pressure increment to the tolerance FP32 reaches; the flow then
// differs from an FP64 solve to the same tolerance by about that tolerance, and a split run refuses them.
TEST_F(FemFlowSolver, Fp32CgVectorsSolveToTheirTolerance) {
  const BoundaryConstraints lid = moving_lid();
  std::vector<std::vector<Vec3>> results;
  for (Preconditioner preconditioner : {Preconditioner::jacobi, Preconditioner::amg}) {
    for (core::Precision precision : {core::Precision::f64, core::Precision::f32}) {
      FlowParameters parameters;
      parameters.momentum.viscosity = 0.01;
      parameters.cg.tolerance = 1e-6;
      parameters.cg.preconditioner = preconditioner;
      parameters.cg_precision = precision;
      FlowSolver solver(devices_, 0, cube_.mesh, data_, parameters, lid);
      for (int k = 0; k < 20; ++k) EXPECT_TRUE(solver.advance(0.01).cg.converged());
      results.push_back(solver.velocity());
    }
  }
  for (std::size_t r = 0; r < results.size(); r += 2) {
    double difference = 0;
    for (std::size_t i = 0; i < results[r].size(); ++i)
      for (std::size_t c = 0; c < 3; ++c)
        difference = std::max(difference, std::abs(results[r][i][c] - results[r + 1][i][c]));
    std::cout << "fp32 against fp64 CG at tolerance 1e-6: max |du| " << difference << "\n";
    EXPECT_GT(difference, 1e-12);  // the solves rounded to FP32
    EXPECT_LT(difference, 1e-5);
  }
}

// New Dirichlet values of a closed box (inflow through x_min, outflow through x_max, slip elsewhere) are
// balanced before they are held: 1 in and 1.05 out leaves no net outflow after a step; 1 in and nothing
// out is refused.
TEST(FemFlowSolverValues, NewValuesOfAClosedDomainAreBalancedOrRefused) {
  const Mesh mesh = box_mesh(3, 3, 3, {0, 0, 0}, {1, 1, 1});
  const EdgeData data = build_edge_data(mesh);
  std::vector<PatchCondition> conditions;
  for (const std::string& side : mesh.patches) {
    PatchCondition c;
    c.patch = side;
    c.kind = side[0] == 'x' ? BoundaryKind::velocity : BoundaryKind::slip;
    c.value = {1, 0, 0};
    conditions.push_back(c);
  }
  const BoundaryConstraints constraints = build_boundary_constraints(mesh, conditions, "box");
  FlowParameters parameters;
  parameters.momentum.viscosity = 0.1;
  const core::DeviceSet devices = test::test_device();
  FlowSolver solver(devices, 0, mesh, data, parameters, constraints);
  const auto values = [&](double out) {
    std::vector<Vec3> v;
    for (std::uint32_t i : constraints.dirichlet_nodes) v.push_back({mesh.nodes[i][0] == 0 ? 1.0 : out, 0, 0});
    return v;
  };
  solver.set_dirichlet_values(values(1.05));
  solver.advance(1e-3);
  const std::vector<Vec3> u = solver.velocity();
  double net = 0;
  for (std::size_t k = 0; k < constraints.dirichlet_nodes.size(); ++k)
    for (std::size_t d = 0; d < 3; ++d)
      net += u[constraints.dirichlet_nodes[k]][d] * constraints.dirichlet_flux_areas[k][d];
  EXPECT_NEAR(net, 0, 1e-15);
  try {
    solver.set_dirichlet_values(values(0));
    FAIL() << "no error";
  } catch (const core::Error& e) {
    EXPECT_STREQ(e.what(),
                 "the Dirichlet values let in or out 100 % of the flow through them net, in a domain without an "
                 "outlet");
  }
  // Split over several devices, the whole set is balanced before each part takes its nodes' values: the
  // held velocities are the one device's, bit for bit.
  const core::DeviceSet several = test::test_devices();
  if (several.size() < 2) GTEST_SKIP() << "needs two devices (HETFLOW_TEST_DEVICES)";
  FlowSolver split(several, mesh, data, parameters, constraints, core::Distribution::uniform);
  split.set_dirichlet_values(values(1.05));
  split.advance(1e-3);
  const std::vector<Vec3> u_split = split.velocity();
  for (std::uint32_t i : constraints.dirichlet_nodes) EXPECT_EQ(u_split[i], u[i]) << "node " << i;
}

}  // namespace
}  // namespace hetflow::fem
