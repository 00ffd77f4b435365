#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "hetflow/core/error.hpp"
#include "hetflow/fem/boundary_conditions.hpp"
#include "hetflow/fem/device_edge_data.hpp"
#include "hetflow/fem/edge_data.hpp"
#include "hetflow/fem/edge_operators.hpp"
#include "hetflow/fem/momentum.hpp"
#include "hetflow/fem/momentum_step.hpp"
#include "hetflow/fem/velocity_constraints.hpp"
#include "small_meshes.hpp"
#include "test_devices.hpp"

namespace hetflow::fem {
namespace {

// The device sums each term of a row in the host's order; only fused multiply-adds, cbrt and sqrt may
// differ in the last place, so results agree to this fraction of the field's largest value.
constexpr double kRelative = 1e-13;

double max_abs(const std::vector<double>& v) {
  double m = 0;
  for (double x : v) m = std::max(m, std::abs(x));
  return m;
}

std::vector<double> packed(const std::vector<Vec3>& values) {
  std::vector<double> out;
  for (const Vec3& v : values) out.insert(out.end(), v.begin(), v.end());
  return out;
}

class FemMomentum : public ::testing::Test {
 protected:
  FemMomentum() : cube_(cube_mesh(5, 0.15)), data_(build_edge_data(cube_.mesh)), devices_(test::test_device()) {
    parameters_.viscosity = 0.05;
    parameters_.density = 1.3;
    parameters_.body_force = {0.2, -0.5, 1.0};
  }

  std::vector<Vec3> nonlinear_velocity() const {
    std::vector<Vec3> u;
    for (const Point& x : cube_.mesh.nodes)
      u.push_back({std::sin(2 * x[1]) + x[2], x[0] * x[0] - 0.5 * x[2], std::exp(x[0] - x[1])});
    return u;
  }
  std::vector<double> nonlinear_pressure() const {
    std::vector<double> p;
    for (const Point& x : cube_.mesh.nodes) p.push_back(std::cos(3 * x[0]) * x[1] + x[2] * x[2]);
    return p;
  }
  // The cube's surface nodes as Dirichlet nodes, each with its own value and no ramp.
  BoundaryConstraints surface_dirichlet() const {
    BoundaryConstraints d;
    for (std::uint32_t i = 0; i < cube_.interior.size(); ++i)
      if (!cube_.interior[i]) {
        d.dirichlet_nodes.push_back(i);
        d.dirichlet_values.push_back({0.1 * i, 1.0, -0.01 * i});
        d.dirichlet_ramp_times.push_back(0);
      }
    return d;
  }
  VelocityConstraints device_constraints(const BoundaryConstraints& c = {}) const {
    return VelocityConstraints(devices_, 0, c, data_.node_count());
  }
  core::Buffer<double> device_field(const std::vector<double>& values) const {
    core::Buffer<double> b(devices_.context(0), values.size());
    b.write(devices_.compute(0), values);
    return b;
  }
  std::vector<double> host(const core::Buffer<double>& b) const { return b.to_vector(devices_.compute(0)); }

  // The device residual with τ and Π from u and the time step dt.
  std::vector<double> device_residual(MomentumStep& step, const std::vector<Vec3>& u, const std::vector<double>& p,
                                      double dt) const {
    const core::Buffer<double> u_device = device_field(packed(u));
    const core::Buffer<double> p_device = device_field(p);
    core::Buffer<double> out(devices_.context(0), 3 * u.size());
    step.stabilisation(u_device, dt);
    step.convective_projection(u_device);
    step.residual(u_device, p_device, out);
    return host(out);
  }

  CubeMesh cube_;
  EdgeData data_;
  core::DeviceSet devices_;
  DeviceEdgeData edges_{devices_, 0, data_};
  MomentumParameters parameters_;
};

void expect_close(const std::vector<double>& got, const std::vector<double>& expected, const char* what) {
  ASSERT_EQ(got.size(), expected.size());
  const double tolerance = kRelative * max_abs(expected);
  for (std::size_t k = 0; k < got.size(); ++k) EXPECT_NEAR(got[k], expected[k], tolerance) << what << " entry " << k;
}

TEST_F(FemMomentum, DeviceResidualEqualsTheHostResidual) {
  const std::vector<Vec3> u = nonlinear_velocity();
  const std::vector<double> p = nonlinear_pressure();
  const double dt = 0.01;
  const std::vector<double> tau = stabilisation_tau(data_, u, dt, parameters_.viscosity, parameters_.stabilisation);
  const std::vector<Vec3> projection = convective_projection(data_, u);
  const std::vector<Vec3> expected = momentum_residual(data_, parameters_, u, p, projection, tau);
  VelocityConstraints none = device_constraints();
  MomentumStep step(devices_, 0, edges_, parameters_, none);
  const std::vector<double> got = device_residual(step, u, p, dt);
  expect_close(host(step.tau()), tau, "tau");
  expect_close(host(step.projection()), packed(projection), "projection");
  expect_close(got, packed(expected), "residual");
}

TEST_F(FemMomentum, ConstantFieldsWithoutForceGiveZeroResidual) {
  parameters_.body_force = {0, 0, 0};
  const std::vector<Vec3> u(data_.node_count(), Vec3{0.3, -0.2, 0.7});
  const std::vector<double> p(data_.node_count(), 2.5);
  VelocityConstraints none = device_constraints();
  MomentumStep step(devices_, 0, edges_, parameters_, none);
  for (double f : device_residual(step, u, p, 0.01)) EXPECT_EQ(f, 0.0);
  const std::vector<double> tau = stabilisation_tau(data_, u, 0.01, parameters_.viscosity, parameters_.stabilisation);
  for (const Vec3& f : momentum_residual(data_, parameters_, u, p, convective_projection(data_, u), tau))
    for (double c : f) EXPECT_EQ(c, 0.0);
}


TEST_F(FemMomentum, StabilisationFollowsItsFormulaWithTheGivenConstants) {
  const std::vector<Vec3> u(data_.node_count(), Vec3{0.3, 0.0, 0.4});
  const StabilisationConstants c{2.0, 4.0, 0.5};
  const std::vector<double> tau = stabilisation_tau(data_, u, 0.1, 0.2, c);
  const double h = std::cbrt(data_.lumped_mass[0]);
  EXPECT_DOUBLE_EQ(tau[0], 1.0 / (2.0 / 0.1 + 4.0 * 0.2 / (h * h) + 0.5 * 0.5 / h));
}

// A rigid translation has no convection, viscous or OSS term; with a linear pressure π(p)_I = M_I ∇p
// exactly, so F_I = M_I (f − ∇p/ρ) at every node.
TEST_F(FemMomentum, TranslationLeavesForceAndPressureGradient) {
  const std::vector<Vec3> u(data_.node_count(), Vec3{1.5, -0.7, 0.4});
  const Vec3 grad{2.0, -1.0, 0.5};
  std::vector<double> p;
  for (const Point& x : cube_.mesh.nodes) p.push_back(1 + grad[0] * x[0] + grad[1] * x[1] + grad[2] * x[2]);
  VelocityConstraints none = device_constraints();
  MomentumStep step(devices_, 0, edges_, parameters_, none);
  const std::vector<double> got = device_residual(step, u, p, 0.01);
  for (double t : host(step.tau())) ASSERT_GT(t, 0.0);
  for (std::size_t i = 0; i < data_.node_count(); ++i)
    for (std::size_t c = 0; c < 3; ++c) {
      const double expected = data_.lumped_mass[i] * (parameters_.body_force[c] - grad[c] / parameters_.density);
      EXPECT_NEAR(got[3 * i + c], expected, 1e-14) << "node " << i << " component " << c;
    }
}

TEST_F(FemMomentum, Rk4StepOfAViscousFieldEqualsTheHostStep) {
  // A smooth field that vanishes on the surface, held there at zero; ν > 0, no pressure, no force (the
  // field's convection of itself and its OSS terms take part).
  parameters_.body_force = {0, 0, 0};
  parameters_.viscosity = 0.1;
  std::vector<Vec3> u;
  for (const Point& x : cube_.mesh.nodes) {
    const double s = std::sin(std::numbers::pi * x[0]) * std::sin(std::numbers::pi * x[1]) *
                     std::sin(std::numbers::pi * x[2]);
    u.push_back({s, 0.5 * s, -0.3 * s});
  }
  BoundaryConstraints wall = surface_dirichlet();
  std::fill(wall.dirichlet_values.begin(), wall.dirichlet_values.end(), Vec3{0, 0, 0});
  const std::vector<double> p(data_.node_count(), 0.0);
  const double dt = 0.02;  // below the Fourier limit h²/(6ν) ≈ 0.067 of the jittered cells
  const std::vector<Vec3> expected = momentum_rk4(data_, parameters_, wall, u, p, 0.0, dt);
  VelocityConstraints held = device_constraints(wall);
  MomentumStep step(devices_, 0, edges_, parameters_, held);
  const core::Buffer<double> u_device = device_field(packed(u));
  core::Buffer<double> u_hat(devices_.context(0), u_device.size());
  step.advance(u_device, device_field(p), 0.0, dt, u_hat);
  expect_close(host(u_hat), packed(expected), "u_hat");
  // Diffusion lowers the kinetic energy.
  double before = 0, after = 0;
  for (std::size_t i = 0; i < u.size(); ++i)
    for (std::size_t c = 0; c < 3; ++c) {
      before += data_.lumped_mass[i] * u[i][c] * u[i][c];
      after += data_.lumped_mass[i] * expected[i][c] * expected[i][c];
    }
  EXPECT_LT(after, 0.99 * before);
}

// With u = 0, p = 0 and a uniform force every stage's velocity is uniform and its residual M f, so the
// RK4 weights add up to û = Δt f at every node.
TEST_F(FemMomentum, UniformForceAcceleratesEveryNodeByDtTimesForce) {
  parameters_.viscosity = 0.0;
  const std::vector<Vec3> u(data_.node_count(), Vec3{0, 0, 0});
  const std::vector<double> p(data_.node_count(), 0.0);
  const double dt = 0.125;
  VelocityConstraints none = device_constraints();
  MomentumStep step(devices_, 0, edges_, parameters_, none);
  const core::Buffer<double> u_device = device_field(packed(u));
  core::Buffer<double> u_hat(devices_.context(0), u_device.size());
  step.advance(u_device, device_field(p), 0.0, dt, u_hat);
  const std::vector<double> got = host(u_hat);
  const std::vector<Vec3> host_step = momentum_rk4(data_, parameters_, {}, u, p, 0.0, dt);
  for (std::size_t i = 0; i < u.size(); ++i)
    for (std::size_t c = 0; c < 3; ++c) {
      EXPECT_NEAR(got[3 * i + c], dt * parameters_.body_force[c], 1e-15) << "node " << i;
      EXPECT_NEAR(host_step[i][c], dt * parameters_.body_force[c], 1e-15) << "node " << i;
    }
}

TEST_F(FemMomentum, DirichletNodesHoldTheirValuesThroughAStep) {
  const BoundaryConstraints wall = surface_dirichlet();
  const std::vector<Vec3> u = nonlinear_velocity();
  const std::vector<double> p = nonlinear_pressure();
  const double dt = 0.01;
  VelocityConstraints held = device_constraints(wall);
  MomentumStep step(devices_, 0, edges_, parameters_, held);
  const core::Buffer<double> u_device = device_field(packed(u));
  core::Buffer<double> u_hat(devices_.context(0), u_device.size());
  step.advance(u_device, device_field(p), 0.0, dt, u_hat);
  const std::vector<double> got = host(u_hat);
  const std::vector<Vec3> expected = momentum_rk4(data_, parameters_, wall, u, p, 0.0, dt);
  for (std::size_t k = 0; k < wall.dirichlet_nodes.size(); ++k)
    for (std::size_t c = 0; c < 3; ++c) {
      const std::uint32_t node = wall.dirichlet_nodes[k];
      EXPECT_EQ(got[3 * node + c], wall.dirichlet_values[k][c]) << "node " << node;
      EXPECT_EQ(expected[node][c], wall.dirichlet_values[k][c]) << "node " << node;
    }
  expect_close(got, packed(expected), "u_hat");
}

// The RK4 weights and stage coefficients, checked apart from the device: a tiny smooth field makes the
// step linear diffusion (convection and OSS terms are quadratic and cubic in the amplitude, 1e-9 and
// smaller relative), so halving Δt divides the error at a fixed time by 2⁴ = 16; a second-order
// scheme gives 4. Measured: 17.9.
TEST_F(FemMomentum, Rk4IsFourthOrderForLinearDiffusion) {
  parameters_.body_force = {0, 0, 0};
  parameters_.viscosity = 0.02;
  const double amplitude = 1e-9;
  std::vector<Vec3> u0;
  for (const Point& x : cube_.mesh.nodes) {
    const double s = amplitude * std::sin(std::numbers::pi * x[0]) * std::sin(std::numbers::pi * x[1]) *
                     std::sin(std::numbers::pi * x[2]);
    u0.push_back({s, 0.5 * s, -0.3 * s});
  }
  const std::vector<double> p(data_.node_count(), 0.0);
  const double end_time = 0.2;
  const auto integrate = [&](int steps) {
    std::vector<Vec3> u = u0;
    for (int k = 0; k < steps; ++k)
      u = momentum_rk4(data_, parameters_, {}, u, p, k * end_time / steps, end_time / steps);
    return u;
  };
  const std::vector<Vec3> reference = integrate(32);
  const auto error = [&](int steps) {
    const std::vector<Vec3> u = integrate(steps);
    double e = 0;
    for (std::size_t i = 0; i < u.size(); ++i)
      for (std::size_t c = 0; c < 3; ++c) e = std::max(e, std::abs(u[i][c] - reference[i][c]));
    return e / amplitude;
  };
  EXPECT_GT(error(4) / error(8), 12.0);
}

TEST_F(FemMomentum, ConstraintsSetOnlyTheListedNodes) {
  const BoundaryConstraints wall = surface_dirichlet();
  VelocityConstraints held = device_constraints(wall);
  const std::vector<double> before = packed(nonlinear_velocity());
  const core::Buffer<double> field = device_field(before);
  held.apply(field, 0.0);
  std::vector<Vec3> expected = nonlinear_velocity();
  apply_constraints(wall, 0.0, expected);
  EXPECT_EQ(host(field), packed(expected));
  EXPECT_NE(packed(expected), before);
}

TEST_F(FemMomentum, RejectsADirichletNodeOutOfRange) {
  BoundaryConstraints bad;
  bad.dirichlet_nodes = {3, 216};
  bad.dirichlet_values = {Vec3{0, 0, 0}, Vec3{1, 0, 0}};
  bad.dirichlet_ramp_times = {0, 0};
  try {
    VelocityConstraints constraints = device_constraints(bad);
    FAIL() << "no error";
  } catch (const core::Error& e) {
    EXPECT_EQ(std::string(e.what()), "the velocity Dirichlet node 216 is not below the 216 nodes");
  }
}

TEST_F(FemMomentum, RejectsANonPositiveDensity) {
  parameters_.density = 0.0;
  try {
    VelocityConstraints none = device_constraints();
    MomentumStep step(devices_, 0, edges_, parameters_, none);
    FAIL() << "no error";
  } catch (const core::Error& e) {
    EXPECT_EQ(std::string(e.what()), "the momentum parameter density = 0 is out of range");
  }
}

TEST_F(FemMomentum, RejectsANegativeTimeStep) {
  VelocityConstraints none = device_constraints();
  MomentumStep step(devices_, 0, edges_, parameters_, none);
  const core::Buffer<double> u = device_field(std::vector<double>(3 * data_.node_count(), 0.0));
  try {
    step.stabilisation(u, -0.5);
    FAIL() << "no error";
  } catch (const core::Error& e) {
    EXPECT_EQ(std::string(e.what()), "the time step -0.5 is not positive");
  }
}

TEST_F(FemMomentum, RejectsAVelocityOfTheWrongSize) {
  VelocityConstraints none = device_constraints();
  MomentumStep step(devices_, 0, edges_, parameters_, none);
  const core::Buffer<double> u = device_field(std::vector<double>(data_.node_count(), 0.0));
  try {
    step.convective_projection(u);
    FAIL() << "no error";
  } catch (const core::Error& e) {
    EXPECT_EQ(std::string(e.what()), "the device field u holds 216 values; the momentum kernels need 648");
  }
}

}  // namespace
}  // namespace hetflow::fem
