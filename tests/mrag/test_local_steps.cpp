#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <iostream>
#include <string>
#include <tuple>
#include <vector>

#include "hetflow/core/error.hpp"
#include "hetflow/mrag/block_flow.hpp"
#include "hetflow/mrag/exact_riemann.hpp"
#include "hetflow/mrag/stiffened_gas.hpp"
#include "test_devices.hpp"

namespace hetflow::mrag {
namespace {

const StiffenedGas air{1.4, 0}, helium{1.67, 0};

// A helium disc in air moving with u = (1, 0.5) at p = 1 (the spec's T-INT).
FaceState moving_disc(double x, double y) {
  const bool inside = std::hypot(x - 0.5, y - 0.5) < 0.2;
  const StiffenedGas& gas = inside ? helium : air;
  return FaceState{inside ? 0.138 : 1.0, 1.0, 0.5, 1.0, gas.big_gamma(), gas.big_pi()};
}

// 2 × 2 roots with one root refined twice in a corner, another once: levels 0, 1 and 2 meet with jumps of
// one level and, where the corner's level-2 leaves touch level-0 roots, of two.
BlockTree three_levels() {
  BlockTree tree(2, 2, 2);
  tree.refine({0, 0, 0});
  tree.refine({1, 1, 1});
  tree.refine({0, 1, 1});
  return tree;
}

// 2 × 2 roots, one of them refined to level 2 throughout: levels 0 and 2 meet with a jump of two, and
// level 1 holds no leaf, so local steps of depth 2 have an empty middle group.
BlockTree levels_zero_and_two() {
  BlockTree tree(2, 2, 2);
  tree.refine({0, 0, 0});
  for (int y = 0; y < 2; ++y)
    for (int x = 0; x < 2; ++x) tree.refine({1, x, y});
  return tree;
}

void run_to(BlockFlow& flow, double t, double cfl = 0.5) {
  while (flow.time() < t) flow.step(std::min(flow.stable_dt(cfl), t - flow.time()));
}

// Σ q h² of the conserved fields ρ, ρu, ρv, ρE.
std::array<double, 4> totals(const BlockFlow& flow) {
  std::array<double, 4> sum{};
  const std::vector<double> q = flow.conserved();
  const std::size_t cells = static_cast<std::size_t>(flow.block_size()) * flow.block_size();
  std::size_t b = 0;
  for (const BlockKey& leaf : flow.tree().leaves()) {
    const double h = flow.root_size() / (flow.block_size() * static_cast<double>(1 << leaf.level));
    for (std::size_t f = 0; f < sum.size(); ++f)
      for (std::size_t c = 0; c < cells; ++c) sum[f] += q[(b * fields + f) * cells + c] * h * h;
    ++b;
  }
  return sum;
}

// On a tree of one level every leaf is in one group, and a local step is the global step bit for bit.
TEST(MragLocalSteps, OnAUniformTreeAStepIsTheGlobalStep) {
  core::DeviceSet devices = test::test_device();
  std::vector<std::vector<double>> results;
  for (const int depth : {0, 2}) {
    BlockTree tree(2, 2, 1);
    for (const BlockKey& root : std::vector<BlockKey>(tree.leaves().begin(), tree.leaves().end())) tree.refine(root);
    BlockFlow flow(devices.compute(0), tree, 8, sides(Edge::periodic, Edge::periodic), 0.5);
    flow.local_time_steps(depth);
    flow.set(moving_disc);
    for (int k = 0; k < 3; ++k) flow.step(flow.stable_dt(0.5));
    results.push_back(flow.conserved());
  }
  ASSERT_EQ(results[0].size(), results[1].size());
  for (std::size_t k = 0; k < results[0].size(); ++k) ASSERT_EQ(results[0][k], results[1][k]) << k;
}

// Local steps over three levels, jumps of one and two among them (and over levels 0 and 2 alone, whose
// middle group is empty), keep the disc's p and u uniform within 1e-11 after it has gone once around (a
// dense output and a linear extension of uniform p and u are uniform), and conserve ρ, ρu, ρv and ρE within
// 1e-13 of themselves with periodic sides (the coarse faces take the finer faces' fluxes summed over their
// steps), with either Runge–Kutta scheme; in FP32 p and u within 2e-5 (the global steps' bound) and the
// totals within 3e-5 (FP32's rounding of the updates moves them: by 1.1e-5 with global steps, 0.9–1.0e-5
// with local ones on PoCL).
TEST(MragLocalSteps, AMovingInterfaceKeepsPressureUniformAndTheTotalsStay) {
  core::DeviceSet devices = test::test_device();
  for (const auto& [scheme, precision, gap] : {std::tuple{TimeScheme::ssp_rk3, core::Precision::f64, false},
                                               std::tuple{TimeScheme::ssp_rk2, core::Precision::f64, false},
                                               std::tuple{TimeScheme::ssp_rk3, core::Precision::f32, false},
                                               std::tuple{TimeScheme::ssp_rk3, core::Precision::f64, true}})
    for (const int depth : {1, 2}) {
      const bool fp32 = precision == core::Precision::f32;
      BlockFlow flow(devices.compute(0), gap ? levels_zero_and_two() : three_levels(), 8,
                     sides(Edge::periodic, Edge::periodic), 0.5, scheme, precision);
      flow.local_time_steps(depth);
      flow.set(moving_disc);
      const std::array<double, 4> before = totals(flow);
      run_to(flow, 1.0, scheme == TimeScheme::ssp_rk3 ? 0.5 : 0.4);
      double dp = 0, du = 0, dv = 0;
      for (const BlockFlow::Cell& c : flow.cells()) {
        dp = std::max(dp, std::abs(c.state.p - 1));
        du = std::max(du, std::abs(c.state.un - 1));
        dv = std::max(dv, std::abs(c.state.ut - 0.5));
      }
      const std::array<double, 4> after = totals(flow);
      const std::string what = "depth " + std::to_string(depth) + (scheme == TimeScheme::ssp_rk3 ? ", RK3" : ", RK2") +
                               (fp32 ? ", fp32" : "") + (gap ? ", levels 0 and 2" : "");
      std::cout << what << ": max |p - 1| " << dp << ", |u - 1| " << du << ", |v - 0.5| " << dv << " after "
                << flow.steps() << " steps; totals drift";
      for (std::size_t f = 0; f < after.size(); ++f) std::cout << " " << (after[f] - before[f]) / before[f];
      std::cout << "\n";
      const double bound = fp32 ? 2e-5 : 1e-11, drift = fp32 ? 3e-5 : 1e-13;
      EXPECT_LT(dp, bound) << what;
      EXPECT_LT(du, bound) << what;
      EXPECT_LT(dv, bound) << what;
      for (std::size_t f = 0; f < after.size(); ++f) EXPECT_NEAR(after[f], before[f], drift * before[f]) << what << f;
    }
}

// Sod's problem along x on roots of 16² cells whose middle half is refined: with local steps the finer
// leaves take two steps per step of the coarse ones, and the density's L1 error against the exact solution
// at t = 0.2 stays within 10 % of the global steps' (which the finest cells' CFL number limits everywhere).
TEST(MragLocalSteps, SodAcrossAResolutionJumpMatchesTheGlobalSteps) {
  core::DeviceSet devices = test::test_device();
  const ExactRiemann exact({1, 0, 1}, {0.125, 0, 0.1}, air, air);
  std::array<double, 2> error{};
  std::array<long, 2> steps{};
  for (const int depth : {0, 1}) {
    BlockTree tree(8, 1, 1);
    for (int x = 2; x < 6; ++x) tree.refine({0, x, 0});
    BlockFlow flow(devices.compute(0), tree, 16, sides(Edge::outflow, Edge::periodic), 1.0 / 8);
    flow.local_time_steps(depth);
    flow.set([](double x, double) {
      const bool left = x < 0.5;
      return FaceState{left ? 1.0 : 0.125, 0, 0, left ? 1.0 : 0.1, air.big_gamma(), 0};
    });
    run_to(flow, 0.2);
    for (const BlockFlow::Cell& c : flow.cells())
      error[depth] += std::abs(c.state.rho - exact.sample((c.x - 0.5) / 0.2).state.rho) * c.h * c.h;
    steps[depth] = flow.steps();
  }
  std::cout << "Sod density L1: " << error[0] << " in " << steps[0] << " global steps, " << error[1] << " in "
            << steps[1] << " local steps\n";
  EXPECT_LT(error[1], 1.1 * error[0]);
  EXPECT_LT(error[0], 0.01);
}

// Local steps need a depth of at least 0 and are chosen before the flow has a state; a run split over
// devices refuses them.
TEST(MragLocalSteps, AreChosenOnOneDeviceBeforeTheState) {
  core::DeviceSet devices = test::test_device();
  BlockFlow flow(devices.compute(0), three_levels(), 8, sides(Edge::periodic, Edge::periodic), 0.5);
  EXPECT_THROW(flow.local_time_steps(-1), core::Error);
  flow.set(moving_disc);
  EXPECT_THROW(flow.local_time_steps(1), core::Error);
  const core::DeviceSet several = test::test_devices();
  if (several.size() < 2) GTEST_SKIP() << "needs two devices (HETFLOW_TEST_DEVICES)";
  BlockFlow split(several, three_levels(), 8, sides(Edge::periodic, Edge::periodic), 0.5, TimeScheme::ssp_rk3,
                  core::Precision::f64, {}, std::vector<double>(several.size(), 1.0));
  EXPECT_THROW(split.local_time_steps(1), core::Error);
  EXPECT_NO_THROW(split.local_time_steps(0));
}

}  // namespace
}  // namespace hetflow::mrag
