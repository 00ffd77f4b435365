// The advice a memory error of the LBM ends with: the largest lattice of the same proportions that fits,
// the one-array pattern and FP16 storage where they are not in use, and how many devices the lattice
// needs. Per node: 19 populations of 4 bytes (FP32) in one array (aa) or two (ab), 2 bytes in FP16, and
// 5 bytes of flags and wall bits.
#include <gtest/gtest.h>

#include "hetflow/core/error.hpp"
#include "hetflow/lbm/memory_plan.hpp"

namespace hetflow::lbm {
namespace {

constexpr std::size_t mib = std::size_t{1} << 20;

TEST(LbmMemoryPlan, DefaultSettingsSuggestASmallerLatticeFp16AndMoreDevices) {
  // 512^3 x 81 B = 10368 MiB against 1 GiB: 236^3 x 81 B = 1015 MiB fits, 237^3 does not.
  const Config config;  // aa, fp32: no pattern to suggest
  EXPECT_EQ(largest_fitting({512, 512, 512}, config, 1024.0 * mib), (std::array<std::size_t, 3>{236, 236, 236}));
  EXPECT_EQ(memory_advice({512, 512, 512}, config, 1024 * mib, 1),
            "what fits: a lattice of 236x236x236 (the same proportions) as configured; lbm.storage: fp16, which "
            "needs 5504 MiB per device, still too much alone; or 11 devices of this size (device.select, "
            "lbm.device_grid), 943 MiB each");
}

TEST(LbmMemoryPlan, TwoArraysAndTwoDevices) {
  // 400 x 200 x 100 x 157 B (ab, fp32) = 1198 MiB over two devices of 512 MiB; aa or fp16 (81 B) need
  // 309 MiB each, and three devices 400 MiB each.
  Config config;
  config.pattern = Pattern::ab;
  EXPECT_EQ(memory_advice({400, 200, 100}, config, 512 * mib, 2),
            "what fits: a lattice of 379x189x94 (the same proportions) as configured; lbm.pattern: aa (one copy "
            "of the populations), which needs 309 MiB per device and fits; lbm.storage: fp16, which needs 309 MiB "
            "per device and fits; or 3 devices of this size (device.select, lbm.device_grid), 400 MiB each");
  // FP16 already: nothing to say about storage.
  config.storage = Storage::fp16;
  EXPECT_EQ(memory_advice({400, 200, 100}, config, 128 * mib, 1).find("lbm.storage"), std::string::npos);
}

TEST(LbmMemoryPlan, BoxesPerDeviceKeepEveryBufferUnderTheLargestAllocation) {
  // A 1228^3 FP32 A-A lattice (an H200's memory) against a 35 GiB allocation limit: a z-plane of 1228^2
  // nodes x 76 B is 114,606,784 B, so a box holds at most 327 planes, 2 of them halos. Three boxes of
  // 410 own planes do not fit, four of 307 do.
  const std::uint64_t limit = std::uint64_t{35} << 30;
  EXPECT_EQ(boxes_per_device({1228, 1228, 1228}, Config{}, 1, limit), 4u);
  // Two devices, each holding half: two boxes of 307 planes each.
  EXPECT_EQ(boxes_per_device({1228, 1228, 1228}, Config{}, 2, limit), 2u);
  // A lattice that fits keeps one box.
  EXPECT_EQ(boxes_per_device({64, 64, 64}, Config{}, 1, limit), 1u);
  // Two components: the mixture field (20 B per node) stays under the populations (2 x 76 B in two
  // buffers of 76 B): the same split.
  Config two;
  two.two_component = TwoComponent{};
  EXPECT_EQ(boxes_per_device({1228, 1228, 1228}, two, 1, limit), 4u);
  // Not even three planes per box fit.
  try {
    boxes_per_device({1228, 1228, 1228}, Config{}, 1, 2 * 114606784ull);
    ADD_FAILURE() << "an allocation of two planes accepted";
  } catch (const core::Error& e) {
    EXPECT_NE(std::string(e.what()).find("even a z-plane of the lattice per box needs more than the 219 MiB"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace hetflow::lbm
