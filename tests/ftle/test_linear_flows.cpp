#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <vector>

#include "hetflow/ftle/solver.hpp"
#include "centred_seeds.hpp"
#include "test_devices.hpp"

namespace hetflow::ftle {
namespace {

using Matrix = std::array<std::array<double, 3>, 3>;

Matrix multiply(const Matrix& a, const Matrix& b, int n) {
  Matrix c{};
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k) c[i][j] += a[i][k] * b[k][j];
  return c;
}

// The discrete flow map of u = G x after `steps` steps of dt: the integrator's stability polynomial
// P(dt G) = I + dt G (+ (dt G)^2 / 2 (+ (dt G)^3 / 6 + (dt G)^4 / 24)), raised to the number of steps.
Matrix discrete_flow_map(const LinearFlow& flow, Integrator integrator, double dt, long steps) {
  const int n = flow.dimension;
  Matrix a{}, term{}, p{};
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) a[i][j] = dt * flow.gradient[static_cast<std::size_t>(i * n + j)];
  for (int i = 0; i < n; ++i) term[i][i] = p[i][i] = 1.0;
  for (int k = 1; k <= order(integrator); ++k) {
    term = multiply(term, a, n);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) p[i][j] += term[i][j] / std::tgamma(k + 1.0);
  }
  Matrix m{};
  for (int i = 0; i < n; ++i) m[i][i] = 1.0;
  for (long s = 0; s < steps; ++s) m = multiply(p, m, n);
  return m;
}

// Largest singular value by power iteration on F^T F in long double: a method independent of the
// kernel's closed form (2D) and Jacobi rotations (3D).
double largest_singular_value(const Matrix& f, int n) {
  std::array<long double, 3> v{1.0L, 0.7L, 0.3L};
  long double lambda = 0;
  for (int it = 0; it < 2000; ++it) {
    std::array<long double, 3> fv{}, w{};
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) fv[i] += f[i][j] * v[j];
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) w[i] += f[j][i] * fv[j];
    long double norm = 0;
    for (int i = 0; i < n; ++i) norm += w[i] * w[i];
    norm = std::sqrt(norm);
    for (int i = 0; i < n; ++i) v[i] = w[i] / norm;
    lambda = norm;
  }
  return static_cast<double>(std::sqrt(lambda));
}

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
