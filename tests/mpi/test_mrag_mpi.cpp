#include <gtest/gtest.h>

#include <cstddef>
#include <vector>

#include "../mrag/shock_and_disc.hpp"
#include "test_devices.hpp"
#include "world.hpp"

namespace hetflow::mrag {
namespace {

// The adapting shock–disc run of shock_and_disc.hpp split over the ranks (one device each, equal shares),
// against the same run on rank 0's device alone: the same leaves and bit for bit the same cells.
TEST(MragMpi, AnAdaptingRunSplitOverProcessesEqualsOneDevice) {
  mpi::Communicator& world = test::world();
  const core::DeviceSet device = test::test_device();
  BlockFlow split = test::shock_and_disc_flow(device, core::Precision::f64, {1}, &world);
  test::run_shock_and_disc(split);
  const std::vector<double> b = split.conserved();
  if (world.rank() != 0) return;
  BlockFlow whole = test::shock_and_disc_flow(device, core::Precision::f64);
  test::run_shock_and_disc(whole);
  ASSERT_EQ(split.tree().leaves(), whole.tree().leaves());
  const std::vector<double> a = whole.conserved();
  ASSERT_EQ(a.size(), b.size());
  std::size_t differing = 0;
  for (std::size_t k = 0; k < a.size(); ++k) differing += a[k] != b[k];
  EXPECT_EQ(differing, 0u) << "of " << a.size() << " values";
}

}  // namespace
}  // namespace hetflow::mrag
