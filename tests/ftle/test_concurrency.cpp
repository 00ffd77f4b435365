#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <utility>
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
// here when each launch was as wide as its tracer count (core/kernel.hpp, strided_range, says why). The
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

// The launch shape (Config::work_group, groups_per_unit; what `hetflow tune ftle` picks) changes which
// work-item advects which tracer, never the numbers; a work-group the device cannot take is refused
// before anything runs.
TEST(FtleConcurrency, TheLaunchShapeLeavesTheFieldUnchanged) {
  const core::DeviceSet one = test::test_device();
  const SeedGrid seeds = SeedGrid::spanning({0, 0, 0}, {2, 1, 0}, {41, 21, 1}, 2);
  Config c;
  c.duration = 5.0;
  c.steps = 50;
  Solver standard(one, DoubleGyre{}, seeds, c);
  standard.advance_to_end();
  const std::vector<double> expected = standard.ftle();
  for (const auto& [work_group, groups] : {std::pair<std::size_t, std::size_t>{32, 1}, {128, 3}}) {
    Config shaped = c;
    shaped.work_group = work_group;
    shaped.groups_per_unit = groups;
    Solver s(one, DoubleGyre{}, seeds, shaped);
    s.advance_to_end();
    EXPECT_EQ(s.ftle(), expected) << "work-group " << work_group << ", " << groups << " per unit";
  }
  Config too_wide = c;
  too_wide.work_group = one.device(0).info.max_work_group * 2;
  try {
    Solver s(one, DoubleGyre{}, seeds, too_wide);
    ADD_FAILURE() << "a work-group above the device's limit was taken";
  } catch (const core::Error& e) {
    EXPECT_NE(std::string(e.what()).find("takes at most " + std::to_string(one.device(0).info.max_work_group)),
              std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace hetflow::ftle
