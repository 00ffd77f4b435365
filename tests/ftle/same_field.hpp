#pragma once
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "hetflow/core/device_set.hpp"
#include "test_devices.hpp"

namespace hetflow::test {

// A field computed on `several` devices against the one of `one`: bit for bit when every device is of
// `one`'s platform; within `relative` otherwise (test_devices.hpp, one_platform), since the flow's
// stretching amplifies the platforms' last-bit differences.
inline void expect_same_field(const core::DeviceSet& one, const core::DeviceSet& several, const std::vector<double>& a,
                              const std::vector<double>& b, double relative) {
  if (one_platform(one, several)) {
    EXPECT_EQ(a, b);
    return;
  }
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) ASSERT_NEAR(a[i], b[i], relative * std::abs(a[i]) + 1e-12) << "seed " << i;
}

}  // namespace hetflow::test
