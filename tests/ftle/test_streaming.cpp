#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <vector>

#include "hetflow/ftle/solver.hpp"
#include "test_devices.hpp"

namespace hetflow::ftle {
namespace {

constexpr double pi = std::numbers::pi;

// The double gyre sampled every 0.5 time units on t in [0, 6] (13 snapshots), h = 0.05.
VelocityGrid gyre_series() {
  const DoubleGyre g;
  std::vector<double> times;
  for (int i = 0; i <= 12; ++i) times.push_back(0.5 * i);
  return sample_on_grid(2, {41, 21, 1}, {0, 0, 0}, {0.05, 0.05, 1}, times,
                        [&](const std::array<double, 3>& x, double t) -> std::array<double, 3> {
                          const double a = g.epsilon * std::sin(g.omega * t), b = 1 - 2 * a;
                          const double f = (a * x[0] + b) * x[0], dfdx = 2 * a * x[0] + b;
                          return {-pi * g.a * std::sin(pi * f) * std::cos(pi * x[1]),
                                  pi * g.a * std::cos(pi * f) * std::sin(pi * x[1]) * dfdx, 0};
                        });
}

// A smooth unsteady 3D flow on [0, 1]^3 (h = 1/9) every 0.25 time units on t in [0, 3] (13 snapshots).
VelocityGrid swirl_series() {
  std::vector<double> times;
  for (int i = 0; i <= 12; ++i) times.push_back(0.25 * i);
  const double h = 1.0 / 9;
  return sample_on_grid(3, {10, 10, 10}, {0, 0, 0}, {h, h, h}, times,
                        [](const std::array<double, 3>& x, double t) -> std::array<double, 3> {
                          return {0.3 * std::sin(2 * pi * x[1] + t), 0.3 * std::sin(2 * pi * x[2] + 0.5 * t),
                                  0.3 * std::sin(2 * pi * x[0] + 0.3 * t)};
                        });
}

SeedGrid gyre_seeds() { return SeedGrid::spanning({0.05, 0.05, 0}, {1.9, 0.9, 0}, {40, 20, 1}, 2); }
SeedGrid swirl_seeds() { return SeedGrid::spanning({0.1, 0.1, 0.1}, {0.8, 0.8, 0.8}, {8, 8, 8}, 3); }

// A run over a budget of `slots` snapshots against the resident run of the same configuration: the
// memory each mode reports (before building and after), slot reuse, and the flow map and field bit
// for bit. The streamed run advances in chunks that cut across snapshot intervals.
void expect_streaming_matches(const core::DeviceSet& devices, const VelocityGrid& grid, const SeedGrid& seeds,
                              const Config& config, std::size_t slots = 3) {
  Config streamed = config;
  const std::size_t snapshot = grid.nodes() * static_cast<std::size_t>(grid.dimension) *
                               (config.precision == core::Precision::f64 ? 8 : 4);
  streamed.velocity_budget_bytes = slots * snapshot;

  const MemoryPlan resident_plan = Solver::memory_plan(devices, grid, seeds, config);
  const MemoryPlan streamed_plan = Solver::memory_plan(devices, grid, seeds, streamed);
  ASSERT_FALSE(resident_plan.streamed);
  EXPECT_EQ(resident_plan.slots, grid.snapshots.size());
  ASSERT_TRUE(streamed_plan.streamed);
  EXPECT_EQ(streamed_plan.snapshot_bytes, snapshot);
  EXPECT_EQ(streamed_plan.pinned_bytes, grid.snapshots.size() * snapshot);
  EXPECT_GE(streamed_plan.slots, std::max<std::size_t>(slots, 3));
  EXPECT_EQ(resident_plan.device_bytes - streamed_plan.device_bytes,
            devices.size() * (grid.snapshots.size() - streamed_plan.slots) * snapshot);

  Solver a(devices, grid, seeds, config);
  EXPECT_EQ(a.device_bytes(), resident_plan.device_bytes);
  EXPECT_EQ(a.uploads(), 0u);
  a.advance_to_end();

  Solver b(devices, grid, seeds, streamed);
  EXPECT_EQ(b.device_bytes(), streamed_plan.device_bytes);
  EXPECT_EQ(b.memory().slots, streamed_plan.slots);
  while (b.step() < config.steps) b.advance(std::min(7L, config.steps - b.step()));
  // At least three slots were refilled with a later snapshot.
  EXPECT_GE(b.uploads(), b.memory().slots + 3);

  EXPECT_EQ(a.flow_map(), b.flow_map());
  EXPECT_EQ(a.ftle(), b.ftle());

  // Again from the seeds: the ring holds the end of the series and refills from the start.
  const std::size_t before = b.uploads();
  b.initialise();
  b.advance_to_end();
  EXPECT_GT(b.uploads(), before);
  EXPECT_EQ(a.ftle(), b.ftle());
}

Config gyre_config(bool forward) {
  Config c;
  c.t0 = forward ? 0.4 : 5.8;
  c.duration = forward ? 5.3 : -5.3;
  c.steps = 41;  // dt = 0.129...: steps straddle the snapshot times
  return c;
}

Config swirl_config(bool forward) {
  Config c;
  c.t0 = forward ? 0.2 : 2.9;
  c.duration = forward ? 2.6 : -2.6;
  c.steps = 23;
  return c;
}

TEST(FtleStreaming, GyreForwardAndBackwardOnOneDeviceEqualTheResidentField) {
  const core::DeviceSet one = test::test_device();
  for (bool forward : {true, false}) {
    SCOPED_TRACE(forward ? "forward" : "backward");
    expect_streaming_matches(one, gyre_series(), gyre_seeds(), gyre_config(forward));
  }
}

TEST(FtleStreaming, GyreForwardAndBackwardOnTwoDevicesEqualTheResidentField) {
  const core::DeviceSet several = test::test_devices();
  ASSERT_GE(several.size(), 2u);
  for (bool forward : {true, false}) {
    SCOPED_TRACE(forward ? "forward" : "backward");
    expect_streaming_matches(several, gyre_series(), gyre_seeds(), gyre_config(forward));
  }
}

TEST(FtleStreaming, ThreeDimensionalForwardAndBackwardOnOneAndTwoDevicesEqualTheResidentField) {
  const core::DeviceSet one = test::test_device();
  const core::DeviceSet several = test::test_devices();
  for (const core::DeviceSet* devices : {&one, &several}) {
    for (bool forward : {true, false}) {
      SCOPED_TRACE(std::to_string(devices->size()) + " device(s), " + (forward ? "forward" : "backward"));
      expect_streaming_matches(*devices, swirl_series(), swirl_seeds(), swirl_config(forward));
    }
  }
}

// FP32, Heun, linear interpolation and steps that end exactly on snapshot times (dt = 0.25, snapshots
// every 0.5); and a larger ring.
TEST(FtleStreaming, Fp32StepsEndingOnSnapshotTimesAndLargerRings) {
  const core::DeviceSet one = test::test_device();
  Config c;
  c.t0 = 0.5;
  c.duration = 5.0;
  c.steps = 20;
  c.integrator = Integrator::heun;
  c.interpolation = Interpolation::linear;
  c.precision = core::Precision::f32;
  expect_streaming_matches(one, gyre_series(), gyre_seeds(), c);
  c.t0 = 5.5;
  c.duration = -5.0;
  expect_streaming_matches(one, gyre_series(), gyre_seeds(), c, 6);
  c.precision = core::Precision::f64;
  c.integrator = Integrator::euler;
  expect_streaming_matches(one, gyre_series(), gyre_seeds(), c, 5);
}

// The adaptive integrators carry each tracer's substep size on the device between launches, so a series
// streamed in launches per snapshot interval gives the resident run's bits too.
TEST(FtleStreaming, AdaptiveIntegratorsStreamAsTheyRunResident) {
  const core::DeviceSet one = test::test_device();
  for (const Integrator integrator : {Integrator::dopri5, Integrator::dop853}) {
    for (bool forward : {true, false}) {
      SCOPED_TRACE(std::string(to_string(integrator)) + (forward ? " forward" : " backward"));
      Config c = gyre_config(forward);
      c.integrator = integrator;
      c.rtol = 1e-7;
      c.atol = 1e-9;
      expect_streaming_matches(one, gyre_series(), gyre_seeds(), c);
    }
  }
}

TEST(FtleStreaming, VelocityAtEqualsTheResidentSolvers) {
  const core::DeviceSet one = test::test_device();
  const VelocityGrid grid = gyre_series();
  Config c = gyre_config(true);
  Solver resident(one, grid, gyre_seeds(), c);
  c.velocity_budget_bytes = 1;  // the smallest ring
  Solver streamed(one, grid, gyre_seeds(), c);
  ASSERT_TRUE(streamed.memory().streamed);
  const std::vector<double> points{0.3, 0.2, 1.7, 0.8, 1.0, 0.5};
  for (double t : {0.0, 0.5, 1.37, 3.0, 5.99, 6.0}) {
    EXPECT_EQ(resident.velocity_at(points, t), streamed.velocity_at(points, t)) << "t = " << t;
  }
}

// The default budget (half the device memory) keeps a small series resident; a steady flow and
// analytic flows are never streamed.
TEST(FtleStreaming, DefaultBudgetKeepsSmallSeriesResident) {
  const core::DeviceSet one = test::test_device();
  const MemoryPlan plan = Solver::memory_plan(one, gyre_series(), gyre_seeds(), gyre_config(true));
  EXPECT_FALSE(plan.streamed);
  EXPECT_EQ(plan.slots, 13u);
  EXPECT_EQ(plan.pinned_bytes, 0u);

  VelocityGrid steady = gyre_series();
  steady.times.resize(1);
  steady.snapshots.resize(1);
  Config c = gyre_config(true);
  c.velocity_budget_bytes = 1;
  EXPECT_FALSE(Solver::memory_plan(one, steady, gyre_seeds(), c).streamed);

  const MemoryPlan analytic = Solver::memory_plan(one, DoubleGyre{}, gyre_seeds(), c);
  EXPECT_FALSE(analytic.streamed);
  Solver s(one, DoubleGyre{}, gyre_seeds(), c);
  EXPECT_EQ(s.device_bytes(), analytic.device_bytes);
}

}  // namespace
}  // namespace hetflow::ftle
