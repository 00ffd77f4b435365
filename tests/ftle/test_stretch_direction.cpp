#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "hetflow/ftle/solver.hpp"
#include "centred_seeds.hpp"
#include "test_devices.hpp"

namespace hetflow::ftle {
namespace {

// Every seed's direction equals `expected` (dimension() components) within `tolerance`.
void expect_everywhere(const std::vector<double>& v, const std::vector<double>& expected, double tolerance,
                       const std::string& what) {
  const std::size_t dim = expected.size();
  ASSERT_EQ(v.size() % dim, 0u);
  double worst = 0;
  for (std::size_t i = 0; i < v.size(); ++i) worst = std::max(worst, std::abs(v[i] - expected[i % dim]));
  EXPECT_LT(worst, tolerance) << what;
}

Solver run(const core::DeviceSet& ds, const LinearFlow& flow, int dim, double duration, Integrator integrator) {
  Config c;
  c.duration = duration;
  c.steps = 50;
  c.integrator = integrator;
  Solver s(ds, flow, centred_seeds(dim, dim == 2 ? 15 : 7), c);
  s.advance_to_end();
  return s;
}

// u = (x, -y): forward, x stretches; backward, y. The FTLE from the direction kernel is ftle()'s.
TEST(StretchDirection, LinearSaddleForwardAndBackward) {
  for (const bool several : {false, true}) {
    const core::DeviceSet ds = several ? test::test_devices() : test::test_device();
    for (Integrator integrator : {Integrator::euler, Integrator::heun, Integrator::rk4}) {
      Solver f = run(ds, LinearFlow::saddle({1.0, -1.0}), 2, 2.0, integrator);
      const std::vector<double> forward = f.stretch_direction();
      ASSERT_EQ(forward.size(), 2 * f.seeds().size());
      expect_everywhere(forward, {1.0, 0.0}, 1e-12, "forward " + std::string(to_string(integrator)));
      Solver b = run(ds, LinearFlow::saddle({1.0, -1.0}), 2, -2.0, integrator);
      expect_everywhere(b.stretch_direction(), {0.0, 1.0}, 1e-12, "backward " + std::string(to_string(integrator)));
      // Exact zeros and signs, so fields are reproducible.
      for (double x : b.stretch_direction()) ASSERT_FALSE(std::signbit(x));
    }
  }
}

// u = (0.2 x, -0.5 y, 0.3 z): forward z stretches most, backward y.
TEST(StretchDirection, ThreeDimensionalDiagonalStretching) {
  const core::DeviceSet ds = test::test_devices();
  const LinearFlow flow = LinearFlow::saddle({0.2, -0.5, 0.3});
  expect_everywhere(run(ds, flow, 3, 2.0, Integrator::rk4).stretch_direction(), {0.0, 0.0, 1.0}, 1e-12, "forward");
  expect_everywhere(run(ds, flow, 3, -2.0, Integrator::rk4).stretch_direction(), {0.0, 1.0, 0.0}, 1e-12, "backward");
}

// u = (s y, 0): F = [[1, k], [0, 1]], k = s T, exactly for every integrator (G is nilpotent). F^T F =
// [[1, k], [k, 1 + k^2]] has top eigenvalue lambda = 1 + k^2 / 2 + |k| sqrt(1 + k^2 / 4), eigenvector
// (k, lambda - 1), signed so that the first component is positive.
TEST(StretchDirection, ShearMatchesTheAnalyticEigenvector) {
  const core::DeviceSet ds = test::test_device();
  const double shear = 0.7;
  LinearFlow flow;
  flow.dimension = 2;
  flow.gradient = {0.0, shear, 0.0, 0.0};
  for (double duration : {1.5, -1.5, 4.0}) {
    const double k = shear * duration;
    const double lambda = 1 + k * k / 2 + std::abs(k) * std::sqrt(1 + k * k / 4);
    double x = k, y = lambda - 1;
    const double norm = std::hypot(x, y);
    x /= norm;
    y /= norm;
    if (x < 0) x = -x, y = -y;
    for (Integrator integrator : {Integrator::euler, Integrator::rk4}) {
      Solver s = run(ds, flow, 2, duration, integrator);
      expect_everywhere(s.stretch_direction(), {x, y}, 1e-10, "T = " + std::to_string(duration));
      // The FTLE the direction kernel writes is ftle()'s, bit for bit.
      const std::vector<double> field = s.ftle();
      EXPECT_NEAR(field[field.size() / 2], std::log(lambda) / 2 / std::abs(duration), 1e-12);
    }
  }
}

// A 3D shear u = (s z, 0, 0): F^T F's top eigenvector lies in the x-z plane, (k, 0, lambda - 1).
TEST(StretchDirection, ThreeDimensionalShear) {
  const core::DeviceSet ds = test::test_device();
  LinearFlow flow;
  flow.dimension = 3;
  flow.gradient = {0, 0, 0.5, 0, 0, 0, 0, 0, 0};
  const double k = 0.5 * 2.0;
  const double lambda = 1 + k * k / 2 + k * std::sqrt(1 + k * k / 4);
  const double norm = std::hypot(k, lambda - 1);
  expect_everywhere(run(ds, flow, 3, 2.0, Integrator::rk4).stretch_direction(), {k / norm, 0.0, (lambda - 1) / norm},
                    1e-10, "3D shear");
}

TEST(StretchDirection, NeedsAStep) {
  const core::DeviceSet ds = test::test_device();
  Config c;
  Solver s(ds, LinearFlow::saddle({1.0, -1.0}), centred_seeds(2, 5), c);
  EXPECT_THROW(s.stretch_direction(), core::Error);
}

}  // namespace
}  // namespace hetflow::ftle
