// Tracers meeting the faces of gridded velocity's box (docs/ftle.md, "Boundary modes"): freeze stops them
// at their exit point and keeps the exit time, every mode with walls counts the tracers that met them,
// one and two devices alike; and the seed grid's edge mask.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "error_of.hpp"
#include "hetflow/ftle/solver.hpp"
#include "test_devices.hpp"

namespace hetflow::ftle {
namespace {

using test::error_of;

// A steady uniform velocity u on [0, 1]^2, h = 0.1.
VelocityGrid uniform(double u, double v) {
  return sample_on_grid(2, {11, 11, 1}, {0, 0, 0}, {0.1, 0.1, 1}, {0.0}, [&](const std::array<double, 3>&, double) {
    return std::array<double, 3>{u, v, 0};
  });
}

// Whether two arrays hold the same bits (NaN included).
bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

// Uniform u = (1, 0.5) on [0, 1]^2, 11 x 11 seeds on the whole box, T = 0.75 in 10 RK4 steps, freeze: a
// tracer reaches the faces at t = min((1 - x0) / 1, (1 - y0) / 0.5); those with t < T (none has t = T)
// stop at x0 + u t with exit time t, both to 1e-12 (a uniform flow's steps and chords are exact, so only
// rounding is left), the others end at x0 + u T with exit time NaN. stopped_tracers and boundary_hits
// equal the direct count, and two devices give the same bits.
TEST(FtleBoundaryExits, FreezeStopsTracersAtTheirExitAtTheCrossingTime) {
  const core::DeviceSet one = test::test_device();
  const core::DeviceSet two = test::test_devices();
  const SeedGrid seeds = SeedGrid::spanning({0, 0, 0}, {1, 1, 0}, {11, 11, 1}, 2);
  Config c;
  c.duration = 0.75;
  c.steps = 10;
  c.boundary = Boundary::freeze;
  Solver s(one, uniform(1, 0.5), seeds, c);
  s.advance_to_end();
  const std::vector<double> map = s.flow_map(), exits = s.exit_times();
  std::size_t left = 0;
  for (std::size_t i = 0; i < seeds.size(); ++i) {
    const double x0 = seeds.position(0, i % 11), y0 = seeds.position(1, i / 11);
    const double t = std::min(1 - x0, (1 - y0) / 0.5);
    ASSERT_GT(std::abs(t - c.duration), 1e-3);
    if (t < c.duration) {
      ++left;
      EXPECT_NEAR(exits[i], t, 1e-12) << "seed " << i;
      EXPECT_NEAR(map[2 * i], x0 + t, 1e-12) << "seed " << i;
      EXPECT_NEAR(map[2 * i + 1], y0 + 0.5 * t, 1e-12) << "seed " << i;
      EXPECT_TRUE(map[2 * i] == 1.0 || map[2 * i + 1] == 1.0) << "seed " << i << ": on a face exactly";
    } else {
      EXPECT_TRUE(std::isnan(exits[i])) << "seed " << i;
      EXPECT_NEAR(map[2 * i], x0 + c.duration, 1e-12) << "seed " << i;
      EXPECT_NEAR(map[2 * i + 1], y0 + 0.5 * c.duration, 1e-12) << "seed " << i;
    }
  }
  EXPECT_EQ(left, 100u);  // all but x0 <= 0.2 with y0 <= 0.6
  EXPECT_EQ(s.stopped_tracers(), left);
  EXPECT_EQ(s.boundary_hits(), left);

  Solver split(two, uniform(1, 0.5), seeds, c);
  split.advance_to_end();
  EXPECT_TRUE(same_bits(split.exit_times(), exits) || !test::one_platform(one, two));
  EXPECT_EQ(split.boundary_hits(), left);
  EXPECT_EQ(split.stopped_tracers(), left);

  // FP32: the same exits to 1e-6 (single-precision positions and step shares).
  c.precision = core::Precision::f32;
  Solver single(one, uniform(1, 0.5), seeds, c);
  single.advance_to_end();
  const std::vector<double> exits32 = single.exit_times();
  for (std::size_t i = 0; i < seeds.size(); ++i) {
    if (std::isnan(exits[i])) {
      EXPECT_TRUE(std::isnan(exits32[i])) << "seed " << i;
    } else {
      EXPECT_NEAR(exits32[i], exits[i], 1e-6) << "seed " << i;
    }
  }
}

// u = (x, 0) on [0.25, 2] x [0, 1], seeds x0 in [0.5, 1.5], T = 2, RK4, freeze: the exact exit time at
// x = 2 is ln(2 / x0) (linear weights: the field is exact up to the face). The exit lies on the chord of
// the last step, which strays from the path by at most dt^2 / 8 |x''| and so misses the crossing time by
// about dt^2 / 8 |x''| / |x'| = dt^2 / 8 here; the stages beyond the face see the face's velocity, also a
// second-order error. The largest error is below dt^2 / 8 at dt = 0.05 and 0.025, and halving dt divides
// it by 3 to 5.
TEST(FtleBoundaryExits, FreezeExitTimeIsSecondOrderInTheStep) {
  const core::DeviceSet ds = test::test_device();
  const VelocityGrid grid =
      sample_on_grid(2, {15, 5, 1}, {0.25, 0, 0}, {0.125, 0.25, 1}, {0.0}, [](const std::array<double, 3>& x, double) {
        return std::array<double, 3>{x[0], 0, 0};
      });
  const SeedGrid seeds = SeedGrid::spanning({0.5, 0.25, 0}, {1.5, 0.75, 0}, {21, 3, 1}, 2);
  Config c;
  c.duration = 2.0;
  c.boundary = Boundary::freeze;
  c.interpolation = Interpolation::linear;  // exact for the linear field up to the faces
  std::vector<double> worst;
  for (const long steps : {40L, 80L}) {
    c.steps = steps;
    Solver s(ds, grid, seeds, c);
    s.advance_to_end();
    const std::vector<double> exits = s.exit_times();
    double e = 0;
    for (std::size_t i = 0; i < seeds.size(); ++i)
      e = std::max(e, std::abs(exits[i] - std::log(2 / seeds.position(0, i % 21))));
    const double dt = c.duration / static_cast<double>(steps);
    std::printf("freeze, u = x: dt = %g, largest exit-time error %.3e (dt^2 / 8 = %.3e)\n", dt, e, dt * dt / 8);
    EXPECT_LT(e, dt * dt / 8);
    worst.push_back(e);
  }
  EXPECT_GT(worst[0] / worst[1], 3.0);
  EXPECT_LT(worst[0] / worst[1], 5.0);
}

// Uniform u = (1, 0) on [0, 1]^2, 11 x 6 seeds on the box, T = 0.55 in 5 RK4 steps (a stage never passes
// its step's end): the tracers with x0 + T > 1 (x0 >= 0.5, 6 of each row: 36) meet the face x = 1 and no
// other does, whatever the mode that watches walls; periodic data have none. Two devices (rows split
// between them, in FP32) count the same.
TEST(FtleBoundaryExits, BoundaryHitsAreTheTracersThatReachAFace) {
  const core::DeviceSet one = test::test_device();
  const core::DeviceSet two = test::test_devices();
  const SeedGrid seeds = SeedGrid::spanning({0, 0, 0}, {1, 1, 0}, {11, 6, 1}, 2);
  std::size_t direct = 0;
  for (std::size_t i = 0; i < seeds.size(); ++i) direct += seeds.position(0, i % 11) + 0.55 > 1.0;
  ASSERT_EQ(direct, 36u);
  Config c;
  c.duration = 0.55;
  c.steps = 5;
  for (const Boundary b : {Boundary::clamp, Boundary::stop, Boundary::freeze, Boundary::extrapolate,
                           Boundary::free_stream, Boundary::periodic}) {
    c.boundary = b;
    for (const core::DeviceSet* ds : {&one, &two}) {
      c.precision = ds == &two ? core::Precision::f32 : core::Precision::f64;
      Solver s(*ds, uniform(1, 0), seeds, c);
      EXPECT_EQ(s.boundary_hits(), 0u) << to_string(b) << ": before any step";
      s.advance_to_end();
      EXPECT_EQ(s.boundary_hits(), b == Boundary::periodic ? 0u : direct) << to_string(b) << ", " << ds->size();
      const bool halts = b == Boundary::stop || b == Boundary::freeze;
      EXPECT_EQ(s.stopped_tracers(), halts ? direct : 0u) << to_string(b);
    }
  }
}

// Exit times need freeze with gridded velocity: another mode, or freeze with an analytic flow (which has
// no walls), is refused naming what the solver has.
TEST(FtleBoundaryExits, ExitTimesAreRefusedWithoutFreeze) {
  const core::DeviceSet ds = test::test_device();
  const SeedGrid seeds = SeedGrid::spanning({0.2, 0.2, 0}, {0.8, 0.8, 0}, {3, 3, 1}, 2);
  Config c;
  c.boundary = Boundary::stop;
  EXPECT_EQ(error_of([&] { Solver(ds, uniform(1, 0), seeds, c).exit_times(); }),
            "no exit times: they are kept under boundary freeze with gridded velocity, and this solver has boundary "
            "stop");
  c.boundary = Boundary::freeze;
  EXPECT_EQ(error_of([&] { Solver(ds, DoubleGyre{}, seeds, c).exit_times(); }),
            "no exit times: they are kept under boundary freeze with gridded velocity, and this solver has an "
            "analytic flow");
  EXPECT_EQ(parse_boundary("freeze"), Boundary::freeze);
  EXPECT_EQ(error_of([] { parse_boundary("wrap"); }),
            "unknown boundary mode 'wrap': expected clamp, stop, periodic, extrapolate, free_stream or freeze");
}

// The edge mask flags exactly the seeds with an index 0 or n - 1: 7 x 5 has 35 - 5 x 3 = 20, 5 x 4 x 3 has
// 60 - 3 x 2 x 1 = 54; seed (3, 2) of the 2D grid and (2, 1, 1) of the 3D grid are inside, (6, 2) and
// (2, 1, 2) are not.
TEST(FtleBoundaryExits, EdgeMaskFlagsTheSeedGridsFaces) {
  const SeedGrid flat = SeedGrid::spanning({0, 0, 0}, {1, 1, 0}, {7, 5, 1}, 2);
  const std::vector<std::uint8_t> m2 = edge_mask(flat);
  EXPECT_EQ(std::count(m2.begin(), m2.end(), 1), 20);
  EXPECT_EQ(m2[2 * 7 + 3], 0);
  EXPECT_EQ(m2[2 * 7 + 6], 1);
  const SeedGrid cube = SeedGrid::spanning({0, 0, 0}, {1, 1, 1}, {5, 4, 3}, 3);
  const std::vector<std::uint8_t> m3 = edge_mask(cube);
  EXPECT_EQ(std::count(m3.begin(), m3.end(), 1), 54);
  EXPECT_EQ(m3[(1 * 4 + 1) * 5 + 2], 0);
  EXPECT_EQ(m3[(2 * 4 + 1) * 5 + 2], 1);
}

}  // namespace
}  // namespace hetflow::ftle
