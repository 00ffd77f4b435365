#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "hetflow/core/error.hpp"
#include "hetflow/fem/spmv_tuning.hpp"
#include "sparse_problems.hpp"
#include "test_devices.hpp"

namespace hetflow::fem {
namespace {

TEST(FemSpmvTuning, EnumeratesThePapersShapes) {
  core::DeviceInfo device;
  device.max_work_group = 1024;
  const std::vector<SpmvShape> all = spmv_shapes(device);
  EXPECT_EQ(all.size(), 45u);
  EXPECT_EQ(all.front(), (SpmvShape{0, 0}));
  EXPECT_EQ(all.back(), (SpmvShape{8, 8}));
  device.max_work_group = 64;
  EXPECT_EQ(spmv_shapes(device).size(), 28u);  // wg_bits up to 6
}

TEST(FemSpmvTuning, KeepsTheFastestCandidate) {
  const core::DeviceSet devices = test::test_device();
  const core::Queue& q = devices.compute(0);
  const DeviceCsr<double> a(q, test::dirichlet_laplacian(40, 40, 1));
  const std::vector<SpmvShape> candidates{{0, 0}, {6, 3}, {8, 5}};
  const SpmvChoice choice = fastest_spmv_shape(q, a, candidates, 1, 3);
  EXPECT_NE(std::find(candidates.begin(), candidates.end(), choice.shape), candidates.end());
  EXPECT_GT(choice.seconds, 0.0);
  // Each candidate alone is its own choice.
  EXPECT_EQ(fastest_spmv_shape(q, a, {SpmvShape{5, 2}}, 0, 1).shape, (SpmvShape{5, 2}));
}

TEST(FemSpmvTuning, RejectsNoCandidates) {
  const core::DeviceSet devices = test::test_device();
  const core::Queue& q = devices.compute(0);
  const DeviceCsr<double> a(q, test::dirichlet_laplacian(4, 4, 1));
  EXPECT_THROW(fastest_spmv_shape(q, a, {}), core::Error);
}

}  // namespace
}  // namespace hetflow::fem
