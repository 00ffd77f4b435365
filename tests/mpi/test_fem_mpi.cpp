#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "hetflow/core/partition.hpp"
#include "hetflow/fem/flow_solver.hpp"
#include "../fem/lid_cavity.hpp"
#include "test_devices.hpp"
#include "world.hpp"

namespace hetflow::fem {
namespace {

// The lid-driven cavity of `cells`³ cells in RCM order, split over the ranks (one device each), against the
// same run on rank 0's device alone: the same CG iterations and fields equal to rounding (a few units in
// the last place of a velocity of order 1).
void expect_equal_to_one_device(Preconditioner preconditioner, std::uint32_t cells = 8) {
  mpi::Communicator& world = test::world();
  const LidCavity cavity(Ordering::rcm, cells);
  FlowParameters parameters;
  parameters.momentum.viscosity = 0.01;
  parameters.cg.preconditioner = preconditioner;
  parameters.cg.tolerance = 1e-10;
  const core::DeviceSet device = test::test_device();
  FlowSolver split(device, cavity.mesh, cavity.data, parameters, cavity.constraints, core::Distribution::uniform,
                   &world);
  EXPECT_EQ(split.parts(), world.size());
  std::vector<int> iterations;
  for (int step = 0; step < 4; ++step) iterations.push_back(split.advance(0.02).cg.iterations);
  const FlowState s = split.state();
  if (world.rank() != 0) return;
  FlowSolver whole(device, 0, cavity.mesh, cavity.data, parameters, cavity.constraints);
  for (int step = 0; step < 4; ++step) EXPECT_EQ(whole.advance(0.02).cg.iterations, iterations[step]) << step;
  const FlowState w = whole.state();
  double du = 0, dp = 0;
  for (std::size_t i = 0; i < w.velocity.size(); ++i) {
    for (std::size_t k = 0; k < 3; ++k) du = std::max(du, std::abs(w.velocity[i][k] - s.velocity[i][k]));
    dp = std::max(dp, std::abs(w.pressure[i] - s.pressure[i]));
  }
  EXPECT_LT(du, 1e-13);
  EXPECT_LT(dp, 1e-12);
}

TEST(FemMpi, JacobiRunEqualsOneDevice) { expect_equal_to_one_device(Preconditioner::jacobi); }

TEST(FemMpi, AmgRunEqualsOneDevice) { expect_equal_to_one_device(Preconditioner::amg); }

// The 14³ cavity's hierarchy has three levels (FemFlowParts.AmgRunsEqualOneDevice checks it), so the
// ranks split its first coarse level too.
TEST(FemMpi, AmgRunSplittingTheFirstCoarseLevelEqualsOneDevice) {
  expect_equal_to_one_device(Preconditioner::amg, 14);
}

}  // namespace
}  // namespace hetflow::fem
