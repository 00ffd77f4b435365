#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "hetflow/core/partition.hpp"
#include "hetflow/core/thread_link.hpp"
#include "hetflow/fem/amg_hierarchy.hpp"
#include "hetflow/fem/flow_solver.hpp"
#include "hetflow/fem/node_halo.hpp"
#include "hetflow/fem/node_partition.hpp"
#include "hetflow/fem/pressure_stiffness.hpp"
#include "hetflow/fem/pressure_system.hpp"
#include "lid_cavity.hpp"
#include "test_devices.hpp"

namespace hetflow::fem {
namespace {

using Cavity = LidCavity;

FlowParameters cavity_parameters(Preconditioner preconditioner) {
  FlowParameters p;
  p.momentum.viscosity = 0.01;
  p.cg.preconditioner = preconditioner;
  p.cg.tolerance = 1e-10;
  return p;
}

double max_difference(const std::vector<Vec3>& a, const std::vector<Vec3>& b) {
  double d = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t k = 0; k < 3; ++k) d = std::max(d, std::abs(a[i][k] - b[i][k]));
  return d;
}

double max_difference(const std::vector<double>& a, const std::vector<double>& b) {
  double d = 0;
  for (std::size_t i = 0; i < a.size(); ++i) d = std::max(d, std::abs(a[i] - b[i]));
  return d;
}

class FemFlowParts : public ::testing::Test {
 protected:
  FemFlowParts() : one_(test::test_device()), several_(test::test_devices()) {}

  void SetUp() override {
    if (several_.size() < 2) GTEST_SKIP() << "needs two devices (HETFLOW_TEST_DEVICES)";
  }

  // The parts add the same partial sums in the same order, so they agree with each other to the bit; on
  // devices of two platforms (the GPU machine's GPU beside PoCL) the rows themselves round differently
  // (test::one_platform), so a solve may then end one iteration apart from one device's and the fields
  // differ within the CG's tolerance rather than by rounding.
  void expect_same_iterations(int one, int split, int step) const {
    if (test::one_platform(one_, several_)) {
      EXPECT_EQ(one, split) << "step " << step;
    } else {
      EXPECT_NEAR(one, split, 1) << "step " << step;
    }
  }
  double field_tolerance(double same_platform) const {
    return test::one_platform(one_, several_) ? same_platform : 1e-8;
  }

  core::DeviceSet one_, several_;
};

// The split run takes the steps of the run on one device: the same CG iteration counts (the reductions
// add the same terms in another order) and fields that differ by rounding (a few units in the last place
// of the velocity, of order 1), far below the CG's tolerance of 1e-10 relative to the right-hand side.
TEST_F(FemFlowParts, JacobiRunsEqualOneDevice) {
  for (Ordering ordering : {Ordering::rcm, Ordering::morton}) {
    const Cavity cavity(ordering);
    const FlowParameters parameters = cavity_parameters(Preconditioner::jacobi);
    FlowSolver whole(one_, 0, cavity.mesh, cavity.data, parameters, cavity.constraints);
    FlowSolver split(several_, cavity.mesh, cavity.data, parameters, cavity.constraints, core::Distribution::uniform);
    EXPECT_EQ(split.parts(), several_.size());
    for (int step = 0; step < 6; ++step) {
      const StepReport a = whole.advance(0.02), b = split.advance(0.02);
      expect_same_iterations(a.cg.iterations, b.cg.iterations, step);
      EXPECT_NEAR(a.diagnostics.kinetic_energy, b.diagnostics.kinetic_energy,
                  field_tolerance(1e-12) * a.diagnostics.kinetic_energy);
      EXPECT_NEAR(a.diagnostics.stability_rate, b.diagnostics.stability_rate,
                  field_tolerance(1e-12) * a.diagnostics.stability_rate);
    }
    const FlowState a = whole.state(), b = split.state();
    const double du = max_difference(a.velocity, b.velocity), dp = max_difference(a.pressure, b.pressure);
    std::cout << "split against one device: max |du| " << du << ", max |dp| " << dp << "\n";
    EXPECT_LT(du, field_tolerance(1e-13));
    EXPECT_LT(dp, field_tolerance(1e-12));
    EXPECT_LT(max_difference(a.projection, b.projection), field_tolerance(1e-11));
    EXPECT_GT(max_difference(a.velocity, whole.rest_state().velocity), 0.5);  // the lid moved the flow
  }
}

// With AMG the parts split the finest level (and, on a hierarchy of three levels or more, the first
// coarse one) and run the coarser levels whole, the whole mesh's V-cycle, so the split run takes one
// device's iterations too: the 8³ cavity's hierarchy has two levels, the 14³ cavity's three.
TEST_F(FemFlowParts, AmgRunsEqualOneDevice) {
  for (const auto& [cells, levels] : {std::pair{8u, 2u}, std::pair{14u, 3u}}) {
    const Cavity cavity(Ordering::rcm, cells);
    const AmgHierarchy hierarchy(pressure_stiffness(
        cavity.data, fixed_node_mask(cavity.data.node_count(), cavity.constraints.pressure_nodes, "fixed pressure")));
    ASSERT_EQ(hierarchy.levels().size(), levels) << cells << "³ cells";
    const FlowParameters parameters = cavity_parameters(Preconditioner::amg);
    FlowSolver whole(one_, 0, cavity.mesh, cavity.data, parameters, cavity.constraints);
    FlowSolver split(several_, cavity.mesh, cavity.data, parameters, cavity.constraints, core::Distribution::uniform);
    for (int step = 0; step < 4; ++step) {
      const StepReport a = whole.advance(0.02), b = split.advance(0.02);
      expect_same_iterations(a.cg.iterations, b.cg.iterations, step);
    }
    const double du = max_difference(whole.velocity(), split.velocity());
    const double dp = max_difference(whole.pressure(), split.pressure());
    std::cout << cells << "³ cells, split against one device: max |du| " << du << ", max |dp| " << dp << "\n";
    EXPECT_LT(du, field_tolerance(1e-13));
    EXPECT_LT(dp, field_tolerance(1e-12));
  }
}

// A restart moves between layouts: a state taken from the split run and set on one device continues as
// the split run does.
TEST_F(FemFlowParts, StatesMoveBetweenOneDeviceAndParts) {
  const Cavity cavity(Ordering::rcm);
  const FlowParameters parameters = cavity_parameters(Preconditioner::jacobi);
  FlowSolver split(several_, cavity.mesh, cavity.data, parameters, cavity.constraints, core::Distribution::uniform);
  for (int step = 0; step < 3; ++step) split.advance(0.02);
  FlowSolver whole(one_, 0, cavity.mesh, cavity.data, parameters, cavity.constraints);
  whole.set_state(split.state());
  EXPECT_EQ(whole.step(), 3);
  const StepReport a = whole.advance(0.02), b = split.advance(0.02);
  expect_same_iterations(a.cg.iterations, b.cg.iterations, 4);
  EXPECT_LT(max_difference(whole.velocity(), split.velocity()), field_tolerance(1e-13));
}

// A failure stops every part with the message one device gives: the same step, reason and node.
TEST_F(FemFlowParts, AFailureReadsAsOnOneDevice) {
  const Cavity cavity(Ordering::rcm);
  FlowParameters parameters = cavity_parameters(Preconditioner::jacobi);
  parameters.max_courant = 0.05;
  FlowSolver whole(one_, 0, cavity.mesh, cavity.data, parameters, cavity.constraints);
  FlowSolver split(several_, cavity.mesh, cavity.data, parameters, cavity.constraints, core::Distribution::uniform);
  std::string one_message, split_message;
  try {
    whole.advance(0.05);
  } catch (const FlowError& e) {
    one_message = e.what();
  }
  try {
    split.advance(0.05);
  } catch (const FlowError& e) {
    split_message = e.what();
  }
  EXPECT_NE(one_message.find("Courant number"), std::string::npos) << one_message;
  EXPECT_EQ(split_message, one_message);
}

// The rows a part's product runs while p's halo travels read no halo node, and the run cannot grow: the
// rows on either side read one.
TEST_F(FemFlowParts, InteriorRowsReadNoHalo) {
  const Cavity cavity(Ordering::rcm, 6);
  const std::vector<double> weights{1, 1};
  for (std::size_t k = 0; k < 2; ++k) {
    const NodePart part = make_node_part(cavity.data, cavity.constraints, weights, k);
    core::ThreadHub hub(2);
    core::ThreadLink link(hub, k);
    const NodeHalo halo(one_, 0, link, part);
    const NodeHalo::Rows rows = halo.interior();
    EXPECT_GT(rows.count, part.owned / 2) << "part " << k;
    const auto reads_halo = [&](std::size_t row) {
      for (std::uint32_t e = part.data.row_start[row]; e < part.data.row_start[row + 1]; ++e)
        if (part.data.col[e] >= part.owned) return true;
      return false;
    };
    for (std::size_t row = rows.first; row < rows.first + rows.count; ++row) EXPECT_FALSE(reads_halo(row)) << row;
    if (rows.first > 0) EXPECT_TRUE(reads_halo(rows.first - 1));
    if (rows.first + rows.count < part.owned) EXPECT_TRUE(reads_halo(rows.first + rows.count));
  }
}

}  // namespace
}  // namespace hetflow::fem
