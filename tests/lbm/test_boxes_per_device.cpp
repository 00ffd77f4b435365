// Several boxes per device (Config::boxes_per_device): a lattice larger than a device's largest
// allocation is cut along z into boxes with buffers of their own, whose halos pass on the device. The
// fields must be the same bits as one box's.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "hetflow/core/error.hpp"
#include "hetflow/lbm/geometry_generators.hpp"
#include "hetflow/lbm/solver.hpp"
#include "lbm_test_cases.hpp"
#include "test_devices.hpp"

namespace hetflow::lbm {
namespace {

// Runs `c` on `devices` and `boxed` (the same config with boxes) on `boxed_devices` for 1 and then 7
// steps (both A-A parities) and expects the same fields.
void expect_same_bits(const core::DeviceSet& devices, const core::DeviceSet& boxed_devices, const Geometry& geo,
                      const Config& c, const Config& boxed, const std::string& what) {
  Solver a(devices, geo, c), b(boxed_devices, geo, boxed);
  a.initialise(1.0, {0.01, 0.02, -0.02});
  b.initialise(1.0, {0.01, 0.02, -0.02});
  for (long steps : {1L, 6L}) {
    a.advance(steps);
    b.advance(steps);
    const Fields fa = a.fields(), fb = b.fields();
    EXPECT_EQ(fa.rho, fb.rho) << what << ", step " << a.step();
    EXPECT_EQ(fa.u, fb.u) << what << ", step " << a.step();
  }
}

TEST(LbmBoxesPerDevice, ThreeBoxesOnOneDeviceGiveTheBitsOfOne) {
  const core::DeviceSet one = test::test_device();
  const Geometry geo = test::random_walls();  // 9 planes: boxes of 3
  // Every pattern and storage with BGK; the other collisions, which address memory alike, once each.
  std::vector<Config> configs;
  for (Pattern pattern : {Pattern::aa, Pattern::ab}) {
    for (Storage storage : {Storage::fp32, Storage::fp16, Storage::fp64}) {
      configs.push_back(test::skewed_flow(pattern, storage));
    }
  }
  for (Collision collision : {Collision::trt, Collision::mrt}) {
    configs.push_back(test::skewed_flow(Pattern::aa, Storage::fp32));
    configs.back().collision = collision;
  }
  for (const Config& c : configs) {
    Config boxed = c;
    boxed.boxes_per_device = 3;
    expect_same_bits(one, one, geo, c, boxed,
                     std::string(to_string(c.pattern)) + " " + to_string(c.storage) + " " + to_string(c.collision));
  }
}

// Boxes beside boxes of another device (x split) and of the same one (z), an uneven cut, and the
// pressure jump on the first and last boxes' planes.
TEST(LbmBoxesPerDevice, BoxesOfTwoDevicesGiveTheBitsOfOne) {
  const core::DeviceSet one = test::test_device();
  const core::DeviceSet several = test::test_devices();
  ASSERT_GE(several.size(), 2u) << "the test needs two devices (HETFLOW_TEST_DEVICES)";
  const core::DeviceSet two({several.device(0), several.device(1)});
  const Geometry geo = test::random_walls();
  for (Pattern pattern : {Pattern::aa, Pattern::ab}) {
    Config c = test::skewed_flow(pattern, Storage::fp32);
    c.force = {0, 0, 0};
    c.pressure_drop = 3e-4;
    c.exact_arithmetic = true;  // the second device may be of another kind
    Config boxed = c;
    boxed.device_grid = {2, 1, 1};
    boxed.boxes_per_device = 2;
    expect_same_bits(one, two, geo, c, boxed, std::string("two devices x 2 boxes ") + to_string(pattern));
  }
}

// Weighted z-slabs (Config::device_weights), as the tuner gives a fast and a slow device: uneven slabs,
// alone and cut into boxes, give the bits of one device.
TEST(LbmBoxesPerDevice, WeightedSlabsGiveTheBitsOfOne) {
  const core::DeviceSet one = test::test_device();
  const core::DeviceSet several = test::test_devices();
  ASSERT_GE(several.size(), 2u) << "the test needs two devices (HETFLOW_TEST_DEVICES)";
  const core::DeviceSet two({several.device(0), several.device(1)});
  const Geometry geo = test::random_walls();  // 9 planes
  for (std::size_t boxes : {1u, 2u}) {
    Config c = test::skewed_flow(Pattern::aa, Storage::fp32);
    c.exact_arithmetic = true;  // the second device may be of another kind
    Config weighted = c;
    weighted.device_weights = {1.0, 3.0};
    weighted.boxes_per_device = boxes;
    {
      const Solver s(two, geo, weighted);
      // 9 x 1/4 = 2.25 and 9 x 3/4 = 6.75 planes: the larger remainder takes the ninth.
      EXPECT_EQ(s.grid().extent(0)[2] + (boxes == 2 ? s.grid().extent(1)[2] : 0), 2);
      EXPECT_EQ(s.grid().origin(boxes)[2], 2);
    }
    expect_same_bits(one, two, geo, c, weighted, "weights 1:3, " + std::to_string(boxes) + " box(es) per device");
  }
}

// The mixture field's halos pass between boxes too.
TEST(LbmBoxesPerDevice, TwoComponentsInBoxesGiveTheBitsOfOne) {
  const core::DeviceSet one = test::test_device();
  const Geometry geo = duct(12, 10, 9);
  Config c;
  c.tau = 0.9;
  c.two_component = TwoComponent{1.2, 0.7, {1.2, 0.6}};
  Config boxed = c;
  boxed.boxes_per_device = 2;
  std::vector<double> rho_a(geo.size()), rho_b(geo.size());
  for (std::size_t i = 0; i < geo.size(); ++i) {
    const bool lower = i / 120 < 4;  // a flat interface across the boxes' cut
    rho_a[i] = lower ? 2.2 : 0.03;
    rho_b[i] = lower ? 0.03 : 2.2;
  }
  Solver a(one, geo, c), b(one, geo, boxed);
  a.initialise(rho_a, rho_b, {0.01, 0.0, -0.02});
  b.initialise(rho_a, rho_b, {0.01, 0.0, -0.02});
  a.advance(9);
  b.advance(9);
  const Fields fa = a.fields(), fb = b.fields();
  EXPECT_EQ(fa.rho_a, fb.rho_a);
  EXPECT_EQ(fa.rho_b, fb.rho_b);
  EXPECT_EQ(fa.u, fb.u);
}

// Left at 0, the solver takes the fewest boxes whose buffers fit the device's largest allocation:
// a device that allocates 5 planes of 37 x 11 nodes x 19 FP32 populations at once takes 3 boxes of 9
// planes (3 own and 2 halos each; 2 boxes would need 7).
TEST(LbmBoxesPerDevice, ChosenFromTheLargestAllocation) {
  core::Device small = test::test_device().device(0);
  small.info.max_alloc = 5 * 37 * 11 * 19 * 4;
  const core::DeviceSet limited({small});
  const Geometry geo = test::random_walls();
  const Config c = test::skewed_flow(Pattern::aa, Storage::fp32);
  Solver boxed(limited, geo, c);
  EXPECT_EQ(boxed.boxes_per_device(), 3u);
  EXPECT_EQ(boxed.parts(), 3u);
  EXPECT_EQ(Solver(test::test_device(), geo, c).boxes_per_device(), 1u);
  expect_same_bits(test::test_device(), limited, geo, c, c, "automatic boxes");
  // Too many boxes for the device is refused with the setting to change.
  Config forced = c;
  forced.boxes_per_device = 1;
  try {
    Solver refused(limited, geo, forced);
    ADD_FAILURE() << "a box larger than the allocation limit accepted";
  } catch (const core::Error& e) {
    EXPECT_NE(std::string(e.what()).find("a box of 1 per device needs 1 MiB in one buffer"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("lbm.boxes_per_device, 0 chooses"), std::string::npos) << e.what();
  }
}

TEST(LbmBoxesPerDevice, LagrangianPatternRefusesBoxes) {
  Config c = test::skewed_flow(Pattern::lagrangian, Storage::fp32);
  c.boxes_per_device = 2;
  try {
    Solver s(test::test_device(), test::random_walls(), c);
    ADD_FAILURE() << "lagrangian boxes accepted";
  } catch (const core::Error& e) {
    EXPECT_NE(std::string(e.what()).find("the lagrangian pattern runs in one box"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace hetflow::lbm
