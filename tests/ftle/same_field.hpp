#pragma once
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "hetflow/core/device_set.hpp"

namespace hetflow::test {

// A field computed on `several` devices against the one of `one`: bit for bit when every device is of
// `one`'s platform; within `relative` otherwise, since devices of different platforms (the GPU
// machine's NVIDIA GPU beside a PoCL CPU) evaluate sin and cos, and fuse multiply-adds, differently
// in the last bit, and the flow's stretching amplifies that round-off.
inline void expect_same_field(const core::DeviceSet& one, const core::DeviceSet& several, const std::vector<double>& a,
                              const std::vector<double>& b, double relative) {
  bool one_platform = true;
  for (std::size_t k = 0; k < several.size(); ++k) {
    one_platform = one_platform && several.device(k).info.platform == one.device(0).info.platform;
  }
  if (one_platform) {
    EXPECT_EQ(a, b);
    return;
  }
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) ASSERT_NEAR(a[i], b[i], relative * std::abs(a[i]) + 1e-12) << "seed " << i;
}

}  // namespace hetflow::test
