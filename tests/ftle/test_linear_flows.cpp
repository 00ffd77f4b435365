#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <vector>

#include "hetflow/ftle/solver.hpp"
#include "centred_seeds.hpp"
#include "linear_flow_reference.hpp"
#include "test_devices.hpp"

namespace hetflow::ftle {
namespace {

using reference::discrete_flow_map;
using reference::largest_singular_value;
using reference::Matrix;

struct Case {
  Integrator integrator;
  double duration;
};

class LinearSaddle : public ::testing::TestWithParam<Case> {};

// u = (x, -y): the flow map is linear, so central differences are exact and the FTLE is the
// integrator's discrete stretching, N ln P(dt) / |T| forward (N ln P(-dt) ... backward, where the
// contracting axis stretches), at every seed, to round-off. RK4 also matches lambda = 1 within its
// truncation error (dt^4 / 120 ~ 1e-10 here).
TEST_P(LinearSaddle, FtleIsTheDiscreteStretchingRateEverywhere) {
  const core::DeviceSet ds = test::test_device();
  const LinearFlow flow = LinearFlow::saddle({1.0, -1.0});
  Config c;
  c.integrator = GetParam().integrator;
  c.duration = GetParam().duration;
  c.steps = 100;
  c.precision = core::Precision::f64;
  Solver s(ds, flow, centred_seeds(2, 21), c);
  s.advance_to_end();
  const std::vector<double> field = s.ftle();
  const Matrix f = discrete_flow_map(flow, c.integrator, s.dt(), c.steps);
  const double expected = std::log(largest_singular_value(f, 2)) / std::abs(c.duration);
  double worst = 0;
  for (double v : field) worst = std::max(worst, std::abs(v - expected));
  RecordProperty("max_error", std::to_string(worst));
  EXPECT_LT(worst, 1e-12) << "expected " << expected;
  if (c.integrator == Integrator::rk4) {
    EXPECT_NEAR(expected, 1.0, 1e-6);
  }
}

INSTANTIATE_TEST_SUITE_P(Integrators, LinearSaddle,
                         ::testing::Values(Case{Integrator::euler, 1.0}, Case{Integrator::heun, 1.0},
                                           Case{Integrator::rk4, 1.0}, Case{Integrator::euler, -1.0},
                                           Case{Integrator::heun, -1.0}, Case{Integrator::rk4, -1.0}),
                         [](const auto& param_info) {
                           return std::string(to_string(param_info.param.integrator)) +
                                  (param_info.param.duration > 0 ? "_forward" : "_backward");
                         });

// Solid-body rotation does not stretch: RK4's amplification per step is 1 - dt^6/144 + ..., so the
// FTLE is below 1e-9 (Heun's value, 1.25e-7 at dt = 2 pi / 628, is dt^3 / 8 per unit time).
TEST(FtleLinear, RotationHasZeroFtle) {
  const core::DeviceSet ds = test::test_device();
  Config c;
  c.duration = 2 * M_PI;
  c.steps = 628;
  for (Integrator integrator : {Integrator::heun, Integrator::rk4}) {
    c.integrator = integrator;
    Solver s(ds, LinearFlow::rotation(1.0), centred_seeds(2, 17), c);
    s.advance_to_end();
    const std::vector<double> field = s.ftle();
    const double bound = integrator == Integrator::rk4 ? 1e-9 : 1.3e-7;
    for (double v : field) ASSERT_LT(std::abs(v), bound) << to_string(integrator);
    if (integrator == Integrator::heun) {
      // ln sqrt(1 + dt^4 / 4) per step: 1.252e-7
      const double dt = s.dt();
      EXPECT_NEAR(field[field.size() / 2], 628 * 0.5 * std::log1p(dt * dt * dt * dt / 4) / c.duration, 1e-12);
    }
  }
}

// 3D saddle u = (x, -0.4 y, -0.6 z) and a non-normal linear flow whose F^T F is full: the 3D path's
// Jacobi eigenvalue against power iteration, forward and backward, every integrator.
TEST(FtleLinear, ThreeDimensionalFlowsAreExact) {
  const core::DeviceSet ds = test::test_device();
  LinearFlow shear;
  shear.dimension = 3;
  shear.gradient = {0.3, 1.0, -0.2, 0.0, -0.5, 0.4, 0.7, 0.0, 0.2};
  for (const LinearFlow& flow : {LinearFlow::saddle({1.0, -0.4, -0.6}), shear}) {
    for (Integrator integrator : {Integrator::euler, Integrator::heun, Integrator::rk4}) {
      for (double duration : {2.0, -2.0}) {
        Config c;
        c.integrator = integrator;
        c.duration = duration;
        c.steps = 40;
        Solver s(ds, flow, centred_seeds(3, 7), c);
        s.advance_to_end();
        const std::vector<double> field = s.ftle();
        const double expected =
            std::log(largest_singular_value(discrete_flow_map(flow, integrator, s.dt(), c.steps), 3)) / 2.0;
        for (double v : field) ASSERT_NEAR(v, expected, 1e-12) << to_string(integrator) << " T = " << duration;
      }
    }
  }
}

}  // namespace
}  // namespace hetflow::ftle
