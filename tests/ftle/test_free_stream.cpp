// Config::free_stream: a uniform velocity added to gridded velocity (docs/ftle.md, "Gridded velocity
// files"). Uniform data plus U move every tracer by (u + U) T, which every integrator and both
// interpolations reproduce to round-off.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "error_of.hpp"
#include "hetflow/ftle/solver.hpp"
#include "test_devices.hpp"

namespace hetflow::ftle {
namespace {

using test::error_of;

// (0.3, -0.2) on [0, 4] x [0, 2] (h = 0.25) plus U = (0.5, 0.25), T = 1: seeds on [1, 2] x [0.5, 1] end
// at seed + (0.8, 0.05), to 1e-12, for Euler and RK4, M4' and linear weights; velocity_at gives the sum.
TEST(FtleFreeStream, UniformDataPlusTheFreeStreamMovesTracersByTheSum) {
  const core::DeviceSet ds = test::test_device();
  const VelocityGrid grid =
      sample_on_grid(2, {17, 9, 1}, {0, 0, 0}, {0.25, 0.25, 1}, {0.0}, [](const std::array<double, 3>&, double) {
        return std::array<double, 3>{0.3, -0.2, 0.0};
      });
  const SeedGrid seeds = SeedGrid::spanning({1, 0.5, 0}, {2, 1, 0}, {5, 3, 1}, 2);
  for (const Integrator integrator : {Integrator::euler, Integrator::rk4}) {
    for (const Interpolation interpolation : {Interpolation::m4prime, Interpolation::linear}) {
      Config c;
      c.duration = 1.0;
      c.steps = 10;
      c.integrator = integrator;
      c.interpolation = interpolation;
      c.free_stream = {0.5, 0.25, 0.0};
      Solver s(ds, grid, seeds, c);
      s.advance_to_end();
      const std::vector<double> map = s.flow_map();
      for (std::size_t i = 0; i < seeds.size(); ++i) {
        const double x0 = seeds.position(0, i % 5), y0 = seeds.position(1, i / 5);
        ASSERT_NEAR(map[2 * i], x0 + 0.8, 1e-12) << to_string(integrator) << " seed " << i;
        ASSERT_NEAR(map[2 * i + 1], y0 + 0.05, 1e-12) << to_string(integrator) << " seed " << i;
      }
      const std::vector<double> u = s.velocity_at(std::vector<double>{1.3, 0.7}, 0.0);
      EXPECT_NEAR(u[0], 0.8, 1e-15);
      EXPECT_NEAR(u[1], 0.05, 1e-15);
    }
  }
}

// 3D, two snapshots (t = 0: a, t = 1: b, linear between) plus U = (0.1, -0.3, 0.2), T = 1 in 8 RK4 steps:
// the displacement (a + b) / 2 + U is exact for RK4 (the velocity is linear in t), to 1e-12.
TEST(FtleFreeStream, UnsteadyThreeDimensionalDataPlusTheFreeStream) {
  const core::DeviceSet ds = test::test_device();
  const std::array<double, 3> a{0.2, 0.1, -0.1}, b{-0.1, 0.3, 0.05};
  const VelocityGrid grid = sample_on_grid(3, {9, 9, 9}, {0, 0, 0}, {0.5, 0.5, 0.5}, {0.0, 1.0},
                                           [&](const std::array<double, 3>&, double t) { return t == 0.0 ? a : b; });
  const SeedGrid seeds = SeedGrid::spanning({1.5, 1.5, 1.5}, {2.5, 2.5, 2.5}, {3, 3, 3}, 3);
  Config c;
  c.duration = 1.0;
  c.steps = 8;
  c.free_stream = {0.1, -0.3, 0.2};
  Solver s(ds, grid, seeds, c);
  s.advance_to_end();
  const std::vector<double> map = s.flow_map();
  for (std::size_t i = 0; i < seeds.size(); ++i) {
    const std::size_t idx[3] = {i % 3, i / 3 % 3, i / 9};
    for (int d = 0; d < 3; ++d) {
      const auto k = static_cast<std::size_t>(d);
      const double expected = seeds.position(d, idx[k]) + (a[k] + b[k]) / 2 + c.free_stream[k];
      ASSERT_NEAR(map[3 * i + k], expected, 1e-12) << "seed " << i << " axis " << d;
    }
  }
}

// The free stream of an analytic flow, a z component in 2D and a non-finite component are refused, each
// naming the free stream.
TEST(FtleFreeStream, MisplacedFreeStreamsAreErrors) {
  const core::DeviceSet ds = test::test_device();
  const SeedGrid seeds = SeedGrid::spanning({0.5, 0.25, 0}, {1, 0.5, 0}, {3, 3, 1}, 2);
  Config c;
  c.free_stream = {1.0, 0.0, 0.0};
  EXPECT_NE(error_of([&] { Solver(ds, DoubleGyre{}, seeds, c); }).find("applies to gridded velocity only"),
            std::string::npos);
  const VelocityGrid grid =
      sample_on_grid(2, {5, 3, 1}, {0, 0, 0}, {0.5, 0.5, 1}, {0.0}, [](const std::array<double, 3>&, double) {
        return std::array<double, 3>{0.0, 0.0, 0.0};
      });
  c.free_stream = {1.0, 0.0, 2.0};
  EXPECT_NE(error_of([&] { Solver(ds, grid, seeds, c); }).find("free-stream velocity (1, 0, 2) in a 2D flow"),
            std::string::npos);
  c.free_stream = {std::numeric_limits<double>::quiet_NaN(), 0.0, 0.0};
  EXPECT_NE(error_of([&] { Solver(ds, grid, seeds, c); }).find("expected finite components"), std::string::npos);
}

}  // namespace
}  // namespace hetflow::ftle
