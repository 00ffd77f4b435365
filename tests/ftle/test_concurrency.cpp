#include <gtest/gtest.h>

#include <chrono>
#include <thread>
#include <vector>

#include "hetflow/ftle/solver.hpp"
#include "same_field.hpp"
#include "test_devices.hpp"

namespace hetflow::ftle {
namespace {

// Two solvers of one program (same flow, integrator and precision, so on identical devices the same
// compiled kernels) with different tracers per device run at once: one split over the test devices
// (1008 tracers each on two), and while it runs one on a single device (all 1728). PoCL 3.1 aborted
// here when each launch was as wide as its tracer count (see launch_range in solver.cpp). The
// configuration (ABC, Euler, FP32) is used by no other test, so no earlier launch of these kernels
// hides the problem.
TEST(FtleConcurrency, SolversOfOneProgramWithDifferentSplitsRunAtOnce) {
  const core::DeviceSet one = test::test_device();
  const core::DeviceSet several = test::test_devices();
  const SeedGrid seeds = SeedGrid::spanning({0, 0, 0}, {1, 1, 1}, {12, 12, 12}, 3);
  Config c;
  c.duration = 2.0;
  c.steps = 6000;
  c.integrator = Integrator::euler;
  c.precision = core::Precision::f32;
  Solver split(several, AbcFlow{}, seeds, c);
  Solver whole(one, AbcFlow{}, seeds, c);
  split.advance_to_end();
  // Let the split advection start (it runs for about a second on PoCL), so that the single-device one
  // is launched while it is in flight.
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  whole.advance_to_end();
  const std::vector<double> a = split.ftle(), b = whole.ftle();
  ASSERT_EQ(a.size(), seeds.size());
  test::expect_same_field(one, several, b, a, 1e-4);  // FP32 round-off over 6000 Euler steps
}

}  // namespace
}  // namespace hetflow::ftle
