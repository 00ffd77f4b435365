#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "hetflow/ftle/solver.hpp"
#include "same_field.hpp"
#include "test_devices.hpp"

namespace hetflow::ftle {
namespace {

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "no error";
}

VelocityGrid uniform_flow(double u, double v) {
  return sample_on_grid(2, {11, 11, 1}, {0, 0, 0}, {0.1, 0.1, 1}, {0.0, 1.0},
                        [&](const std::array<double, 3>&, double) -> std::array<double, 3> { return {u, v, 0}; });
}

// A tracer whose position overflows stops and is reported with its seed: RK4 at rate * dt = 1000 far
// beyond its stability limit multiplies positions by ~4e10 per step, past 1e308 within 40 steps.
TEST(FtleFailures, NonFiniteTracersAreReportedWithTheirSeed) {
  const core::DeviceSet ds = test::test_device();
  Config c;
  c.duration = 4.0;
  c.steps = 40;
  Solver s(ds, LinearFlow::saddle({1e4, -1e4}), SeedGrid::spanning({-1, -1, 0}, {1, 1, 0}, {5, 5, 1}, 2), c);
  s.advance_to_end();
  try {
    s.ftle();
    FAIL() << "no error";
  } catch (const TracerError& e) {
    // Seed 0 at (-1, -1) is the first, in seed order, to blow up.
    EXPECT_EQ(e.seed(), 0u);
    EXPECT_NE(std::string(e.what()).find("seed 0 (grid index (0, 0), started at (-1, -1))"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("not finite"), std::string::npos) << e.what();
  }
}

TEST(FtleFailures, BadConfigurationsAreRejectedBeforeAnyWork) {
  const core::DeviceSet ds = test::test_device();
  const SeedGrid seeds = SeedGrid::spanning({0.2, 0.2, 0}, {0.8, 0.8, 0}, {4, 4, 1}, 2);
  Config c;
  c.duration = 0.0;
  EXPECT_NE(message_of([&] { Solver(ds, DoubleGyre{}, seeds, c); }).find("T = 0: expected a finite, non-zero time"),
            std::string::npos);
  c.duration = 0.5;
  SeedGrid flat = seeds;
  flat.counts[1] = 1;
  EXPECT_NE(message_of([&] { Solver(ds, DoubleGyre{}, flat, c); }).find("1 seed(s) along axis 1"), std::string::npos);
  SeedGrid outside = seeds;
  outside.origin[0] = -0.5;
  EXPECT_NE(message_of([&] { Solver(ds, uniform_flow(1, 0), outside, c); }).find("outside the velocity data's [0, 1]"),
            std::string::npos);
  c.boundary = Boundary::periodic;  // periodic data have no outside
  EXPECT_NO_THROW(Solver(ds, uniform_flow(1, 0), outside, c));
  c.t0 = 0.8;  // [0.8, 1.3] leaves the snapshots' [0, 1]
  EXPECT_NE(message_of([&] { Solver(ds, uniform_flow(1, 0), seeds, c); }).find("leaves the velocity snapshots' [0, 1]"),
            std::string::npos);
  c.t0 = 0;
  VelocityGrid bad = uniform_flow(1, 0);
  std::vector<double> infinite(bad.snapshots[1].begin(), bad.snapshots[1].end());
  infinite[7] = INFINITY;
  bad.hold({{bad.snapshots[0].begin(), bad.snapshots[0].end()}, infinite});
  EXPECT_NE(message_of([&] { Solver(ds, bad, seeds, c); }).find("snapshot 1 (t = 1), node (3, 0): velocity component v"),
            std::string::npos);
  EXPECT_NE(message_of([&] { Solver(ds, AbcFlow{}, seeds, c); }).find("2D seeds in a 3D flow"), std::string::npos);
  Solver s(ds, DoubleGyre{}, seeds, c);
  EXPECT_NE(message_of([&] { s.ftle(); }).find("no FTLE before the first step"), std::string::npos);
  EXPECT_NE(message_of([&] { s.advance(101); }).find("cannot advance 101 steps"), std::string::npos);
}

// Uniform flow u = (1, 0) for T = 1 through a box [0, 1]^2: with `stop` the tracers that would leave halt
// at the last position inside (x + n dt <= 1), with `clamp` they pile up on the wall x = 1, with
// `periodic` they move on unhindered and the flow map is a pure translation (FTLE 0).
TEST(FtleBoundaries, WallsStopClampOrWrapTracers) {
  const core::DeviceSet ds = test::test_device();
  const SeedGrid seeds = SeedGrid::spanning({0.0, 0.0, 0}, {1.0, 1.0, 0}, {11, 3, 1}, 2);
  Config c;
  c.duration = 0.5;
  c.steps = 5;
  c.integrator = Integrator::heun;
  const VelocityGrid flow = uniform_flow(1, 0);
  for (Boundary b : {Boundary::stop, Boundary::clamp, Boundary::periodic}) {
    c.boundary = b;
    Solver s(ds, flow, seeds, c);
    s.advance_to_end();
    const std::vector<double> map = s.flow_map();
    for (std::size_t i = 0; i < 11; ++i) {
      const double x0 = 0.1 * static_cast<double>(i);
      const double x = map[2 * i];
      // Stop: tracers move in steps of 0.1 until the next one would cross x = 1.
      const double expected = b == Boundary::periodic ? x0 + 0.5
                              : b == Boundary::clamp  ? std::min(x0 + 0.5, 1.0)
                                                      : x0 + 0.1 * std::min(5.0, std::floor((1.0 - x0) / 0.1 + 1e-9));
      EXPECT_NEAR(x, expected, 1e-12) << to_string(b) << " x0 = " << x0;
    }
    if (b == Boundary::stop) {
      EXPECT_EQ(s.stopped_tracers(), 3u * 5u);  // x0 = 0.6 .. 1.0 in each of the 3 rows
    }
    if (b == Boundary::periodic) {
      for (double v : s.ftle()) EXPECT_NEAR(v, 0.0, 1e-12);
    }
  }
}

// Steady ABC flow (A, B, C) = (sqrt 3, sqrt 2, 1), T = 10: chaotic in most of the box, with an FTLE
// around 0.1-0.3 in the chaotic sea (Haller 2001's figures). The field must be finite, positive on
// average, the same through periodic gridded data (32^3 nodes, M4') and on 2 devices as on 1.
TEST(FtleAbc, ThreeDimensionalFieldIsPositiveAndReproducible) {
  const core::DeviceSet one = test::test_device();
  const core::DeviceSet two = test::test_devices();
  const double L = 2 * M_PI;
  SeedGrid seeds = SeedGrid::spanning({0, 0, 0}, {L, L, L}, {12, 12, 12}, 3);
  Config c;
  c.duration = 10.0;
  c.steps = 100;
  Solver analytic(one, AbcFlow{}, seeds, c);
  analytic.advance_to_end();
  const std::vector<double> field = analytic.ftle();
  double mean = 0;
  for (double v : field) {
    ASSERT_TRUE(std::isfinite(v));
    mean += v / static_cast<double>(field.size());
  }
  std::printf("ABC T = 10, 12^3 seeds: mean FTLE %.4f\n", mean);
  RecordProperty("mean", std::to_string(mean));
  EXPECT_GT(mean, 0.05);
  EXPECT_LT(mean, 1.0);

  const std::size_t n = 32;
  const AbcFlow abc;
  const VelocityGrid grid = sample_on_grid(3, {n, n, n}, {0, 0, 0}, {L / n, L / n, L / n}, {0.0},
                                           [&](const std::array<double, 3>& x, double) -> std::array<double, 3> {
                                             return {abc.a * std::sin(x[2]) + abc.c * std::cos(x[1]),
                                                     abc.b * std::sin(x[0]) + abc.a * std::cos(x[2]),
                                                     abc.c * std::sin(x[1]) + abc.b * std::cos(x[0])};
                                           });
  c.boundary = Boundary::periodic;
  c.duration = 4.0;  // shorter: before chaos amplifies the interpolation error beyond comparison
  c.steps = 40;
  Solver exact(one, AbcFlow{}, seeds, c);
  exact.advance_to_end();
  Solver gridded(one, grid, seeds, c);
  gridded.advance_to_end();
  Solver split(two, grid, seeds, c);
  split.advance_to_end();
  const std::vector<double> a = exact.ftle(), g = gridded.ftle();
  double diff = 0, norm = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    diff += std::abs(g[i] - a[i]);
    norm += std::abs(a[i]);
  }
  std::printf("ABC T = 4: gridded (32^3, M4', periodic) vs analytic relative L1 %.2e\n", diff / norm);
  RecordProperty("gridded_relative_l1", std::to_string(diff / norm));
  EXPECT_LT(diff / norm, 2e-4);  // measured 2.6e-5: M4' error ~h^3 at h = 2 pi / 32
  test::expect_same_field(one, two, g, split.ftle(), 1e-9);  // FP64, T = 4
}

}  // namespace
}  // namespace hetflow::ftle
