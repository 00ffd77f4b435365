#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "hetflow/core/error.hpp"
#include "hetflow/mrag/block_flow.hpp"
#include "hetflow/mrag/colour_function.hpp"
#include "hetflow/mrag/exact_riemann.hpp"
#include "hetflow/mrag/reflux_table.hpp"
#include "hetflow/mrag/stiffened_gas.hpp"
#include "hetflow/mrag/tree_memory.hpp"
#include "test_devices.hpp"

namespace hetflow::mrag {
namespace {

const StiffenedGas air{1.4, 0}, helium{1.67, 0};

// Runs `flow` to time t at Courant number 0.5.
void run_to(BlockFlow& flow, double t) {
  while (flow.time() < t) flow.step(std::min(flow.stable_dt(0.5), t - flow.time()));
}

// A helium disc in air moving with u = (1, 0.5) at p = 1 across a periodic unit square, once around in x
// (the spec's T-INT): on a uniform grid and on a tree with jumps of one and two levels, p and u stay
// uniform to round-off, as Γ's advection and the linear ghost prediction promise: within 1e-11 in FP64 with
// HLLE or HLLC, and
// within 2e-5 in FP32 (its unit roundoff is 6e-8; the runs take about 330 and 600 steps of three stages,
// whose roundings add up).
TEST(MragBlockFlow, AnInterfaceCarriedOnceAroundKeepsPressureAndVelocityUniform) {
  core::DeviceSet devices = test::test_device();
  for (const auto& [precision, solver] :
       {std::pair{core::Precision::f64, RiemannSolver::hlle}, std::pair{core::Precision::f64, RiemannSolver::hllc},
        std::pair{core::Precision::f32, RiemannSolver::hlle}})
    for (const bool adapted : {false, true}) {
      BlockTree tree(2, 2, 2);
      if (adapted) {
        tree.refine({0, 0, 0});
        tree.refine({1, 1, 1});
      }
      BlockFlow flow(devices.compute(0), tree, 8, sides(Edge::periodic, Edge::periodic), 0.5, TimeScheme::ssp_rk3,
                     precision, SpatialScheme{.riemann = solver, .colour = {}});
      flow.set([](double x, double y) {
        const bool inside = std::hypot(x - 0.5, y - 0.5) < 0.2;
        const StiffenedGas& gas = inside ? helium : air;
        return FaceState{inside ? 0.138 : 1.0, 1.0, 0.5, 1.0, gas.big_gamma(), gas.big_pi()};
      });
      run_to(flow, 1.0);
      double dp = 0, du = 0, dv = 0;
      for (const BlockFlow::Cell& c : flow.cells()) {
        dp = std::max(dp, std::abs(c.state.p - 1));
        du = std::max(du, std::abs(c.state.un - 1));
        dv = std::max(dv, std::abs(c.state.ut - 0.5));
      }
      const bool fp32 = precision == core::Precision::f32;
      const std::string what = std::string(adapted ? "adapted" : "uniform") + (fp32 ? ", fp32" : ", fp64") +
                               (solver == RiemannSolver::hllc ? ", hllc" : ", hlle");
      std::cout << what << ": max |p - 1| " << dp << ", |u - 1| " << du << ", |v - 0.5| " << dv << " after "
                << flow.steps() << " steps\n";
      const double bound = fp32 ? 2e-5 : 1e-11;
      EXPECT_LT(dp, bound) << what;
      EXPECT_LT(du, bound) << what;
      EXPECT_LT(dv, bound) << what;
    }
}

// The paper's colour-function closure on the T-INT disc (helium φ ≥ 0, γ 5/3, ε = 0.5; air γ 1.4), uniform
// grid: γ(φ) is nonlinear, so the moving contact makes pressure oscillations that the Γ closure does not;
// the spec expects them of order 1e-3 to 1e-2, and the test holds them within [1e-4, 5e-2]. With one gas
// (γ1 = γ2) the closure is Γ's and Sod's problem gives the same line within 1e-13.
TEST(MragBlockFlow, TheColourFunctionClosureOscillatesAtAMovingContact) {
  core::DeviceSet devices = test::test_device();
  const ColourFunction colour{helium.gamma, air.gamma, 0.5};
  BlockFlow flow(devices.compute(0), BlockTree(2, 2, 0), 8, sides(Edge::periodic, Edge::periodic), 0.5,
                 TimeScheme::ssp_rk3, core::Precision::f64,
                 SpatialScheme{.riemann = RiemannSolver::hlle, .colour = colour});
  flow.set([](double x, double y) {
    const bool inside = std::hypot(x - 0.5, y - 0.5) < 0.2;
    const StiffenedGas& gas = inside ? helium : air;
    return FaceState{inside ? 0.138 : 1.0, 1.0, 0.5, 1.0, gas.big_gamma(), gas.big_pi()};
  });
  run_to(flow, 1.0);
  double dp = 0;
  for (const BlockFlow::Cell& c : flow.cells()) dp = std::max(dp, std::abs(c.state.p - 1));
  std::cout << "colour function, T-INT: max |p - 1| " << dp << " after " << flow.steps() << " steps\n";
  EXPECT_GT(dp, 1e-4);
  EXPECT_LT(dp, 5e-2);

  std::vector<double> lines[2];
  for (int k = 0; k < 2; ++k) {
    SpatialScheme spatial;
    if (k == 1) spatial.colour = ColourFunction{air.gamma, air.gamma, 0.5};
    BlockFlow sod(devices.compute(0), BlockTree(4, 1, 0), 16, sides(Edge::outflow, Edge::periodic), 0.25,
                  TimeScheme::ssp_rk3, core::Precision::f64, spatial);
    sod.set([](double x, double) {
      return FaceState{x < 0.5 ? 1.0 : 0.125, 0, 0, x < 0.5 ? 1.0 : 0.1, air.big_gamma(), 0};
    });
    run_to(sod, 0.2);
    for (const BlockFlow::Cell& c : sod.cells())
      if (c.y < 1.0 / 64) lines[k].push_back(c.state.rho);
  }
  ASSERT_EQ(lines[0].size(), 64u);
  for (std::size_t i = 0; i < lines[0].size(); ++i) EXPECT_NEAR(lines[1][i], lines[0][i], 1e-13) << i;
}

// Sod's problem on 128 cells in FP32 and FP64: the density lines differ by an L1 norm below 1e-5, far below
// either's error against the exact solution (3.8e-3), which agree within 1 %.
TEST(MragBlockFlow, SodInFp32StaysWithinItsRoundingOfFp64) {
  core::DeviceSet devices = test::test_device();
  const ExactRiemann exact({1, 0, 1}, {0.125, 0, 0.1}, air, air);
  const int cells = 128;
  std::vector<double> lines[2];
  double errors[2] = {0, 0};
  for (int k = 0; k < 2; ++k) {
    BlockFlow flow(devices.compute(0), BlockTree(cells / 16, 1, 0), 16, sides(Edge::outflow, Edge::periodic),
                   16.0 / cells, TimeScheme::ssp_rk3, k == 0 ? core::Precision::f32 : core::Precision::f64);
    flow.set([](double x, double) {
      return FaceState{x < 0.5 ? 1.0 : 0.125, 0, 0, x < 0.5 ? 1.0 : 0.1, air.big_gamma(), 0};
    });
    run_to(flow, 0.2);
    lines[k].assign(cells, 0);
    for (const BlockFlow::Cell& c : flow.cells())
      if (c.y < 1.0 / cells) lines[k][static_cast<std::size_t>(c.x * cells)] = c.state.rho;
    for (int i = 0; i < cells; ++i)
      errors[k] += std::abs(lines[k][i] - exact.sample(((i + 0.5) / cells - 0.5) / 0.2).state.rho) / cells;
  }
  double difference = 0;
  for (int i = 0; i < cells; ++i) difference += std::abs(lines[0][i] - lines[1][i]) / cells;
  std::cout << "Sod, 128 cells: fp32 - fp64 density L1 " << difference << "; errors " << errors[0] << " (fp32), "
            << errors[1] << " (fp64)\n";
  EXPECT_LT(difference, 1e-5);
  EXPECT_NEAR(errors[0], errors[1], 0.01 * errors[1]);
}

// Sod's problem along x on 64 and 128 cells (periodic in y) and along y on 64: the density's L1 error
// against the exact solution falls with the cells, the rows stay equal, and the problem along y gives the
// problem along x transposed.
TEST(MragBlockFlow, SodAlongEitherAxisConvergesToTheExactSolution) {
  core::DeviceSet devices = test::test_device();
  const ExactRiemann exact({1, 0, 1}, {0.125, 0, 0.1}, air, air);
  const auto sod = [&](int cells, int axis, std::vector<double>* line) {
    const int roots = cells / 16;
    const BlockTree tree(axis == 0 ? roots : 1, axis == 0 ? 1 : roots, 0);
    BlockFlow flow(devices.compute(0), tree, 16,
                   axis == 0 ? sides(Edge::outflow, Edge::periodic) : sides(Edge::periodic, Edge::outflow),
                   1.0 / roots);
    flow.set([&](double x, double y) {
      const bool left = (axis == 0 ? x : y) < 0.5;
      return FaceState{left ? 1.0 : 0.125, 0, 0, left ? 1.0 : 0.1, air.big_gamma(), 0};
    });
    run_to(flow, 0.2);
    double spread = 0;
    line->assign(static_cast<std::size_t>(cells), NAN);
    for (const BlockFlow::Cell& c : flow.cells()) {
      const auto k = static_cast<std::size_t>((axis == 0 ? c.x : c.y) * cells);
      if (std::isnan((*line)[k])) (*line)[k] = c.state.rho;
      spread = std::max(spread, std::abs((*line)[k] - c.state.rho));
    }
    double error = 0;
    for (int k = 0; k < cells; ++k)
      error += std::abs((*line)[k] - exact.sample(((k + 0.5) / cells - 0.5) / 0.2).state.rho) / cells;
    EXPECT_LT(spread, 1e-13) << "rows differ";
    return error;
  };
  std::vector<double> x64, x128, y64;
  const double e64 = sod(64, 0, &x64), e128 = sod(128, 0, &x128);
  sod(64, 1, &y64);
  std::cout << "Sod density L1: " << e64 << " on 64 cells, " << e128 << " on 128\n";
  EXPECT_LT(e128, 0.65 * e64) << e64 << " " << e128;
  EXPECT_LT(e128, 5e-3);
  for (std::size_t k = 0; k < x64.size(); ++k) EXPECT_NEAR(y64[k], x64[k], 1e-13) << k;
}

// Sod's problem with its left state prescribed through an inflow west side equals the one with an outflow
// side while the rarefaction stays away from x = 0: at t = 0.1 (its head at x = 0.38) every cell agrees
// within 1e-12 (3.7e-14 on PoCL).
TEST(MragBlockFlow, AnInflowSideCarriesItsState) {
  core::DeviceSet devices = test::test_device();
  const auto sod = [](double x, double) {
    return x < 0.5 ? FaceState{1, 0, 0, 1, air.big_gamma(), 0} : FaceState{0.125, 0, 0, 0.1, air.big_gamma(), 0};
  };
  Sides inflow = sides(Edge::outflow, Edge::periodic);
  inflow.west = Edge::inflow;
  inflow.inflow[west] = sod(0, 0);
  BlockFlow a(devices.compute(0), BlockTree(4, 1, 0), 16, inflow, 0.25);
  BlockFlow b(devices.compute(0), BlockTree(4, 1, 0), 16, sides(Edge::outflow, Edge::periodic), 0.25);
  a.set(sod);
  b.set(sod);
  run_to(a, 0.1);
  run_to(b, 0.1);
  const std::vector<BlockFlow::Cell> ca = a.cells(), cb = b.cells();
  double largest = 0;
  for (std::size_t k = 0; k < ca.size(); ++k)
    largest = std::max({largest, std::abs(ca[k].state.rho - cb[k].state.rho), std::abs(ca[k].state.p - cb[k].state.p)});
  std::cout << "inflow against outflow: " << largest << "\n";
  EXPECT_LT(largest, 1e-12);
}

// Walls at both ends of [0, 0.5] are the mirror lines of a periodic [0, 1] holding the state and its mirror
// image (u negated): after 40 steps the walled run equals the periodic run's first half.
TEST(MragBlockFlow, ReflectingWallsActAsMirrors) {
  core::DeviceSet devices = test::test_device();
  const auto state = [](double x) {
    const double bump = std::exp(-std::pow((x - 0.15) / 0.05, 2));
    return FaceState{1 + 0.5 * bump, 0.3 + 0.2 * bump, 0, 1 + bump, air.big_gamma(), 0};
  };
  BlockFlow walled(devices.compute(0), BlockTree(2, 1, 0), 8, sides(Edge::wall, Edge::periodic), 0.25);
  walled.set([&](double x, double) { return state(x); });
  BlockFlow mirrored(devices.compute(0), BlockTree(4, 1, 0), 8, sides(Edge::periodic, Edge::periodic), 0.25);
  mirrored.set([&](double x, double) {
    if (x < 0.5) return state(x);
    FaceState w = state(1 - x);
    w.un = -w.un;
    return w;
  });
  for (int step = 0; step < 40; ++step) {
    const double dt = walled.stable_dt(0.5);
    walled.step(dt);
    mirrored.step(dt);
  }
  const std::vector<BlockFlow::Cell> a = walled.cells(), b = mirrored.cells();
  std::size_t matched = 0;
  for (const BlockFlow::Cell& c : a)
    for (const BlockFlow::Cell& d : b)
      if (std::abs(c.x - d.x) < 1e-12 && std::abs(c.y - d.y) < 1e-12) {
        ++matched;
        EXPECT_NEAR(c.state.rho, d.state.rho, 1e-13) << c.x;
        EXPECT_NEAR(c.state.un, d.state.un, 1e-13) << c.x;
        EXPECT_NEAR(c.state.p, d.state.p, 1e-13) << c.x;
      }
  EXPECT_EQ(matched, a.size());
  // The waves reached the wall at x = 0: its cell has moved off its initial state.
  EXPECT_GT(std::abs(a.front().state.p - 1), 1e-3);
}

// Lax & Liu's (1998) configuration 3, four constant quadrants about (0.5, 0.5): the problem is symmetric
// about the diagonal, and so is the solution at t = 0.1 on 32 × 32 cells, within 1e-12.
TEST(MragBlockFlow, LaxLiuConfigurationThreeStaysSymmetricAboutTheDiagonal) {
  core::DeviceSet devices = test::test_device();
  BlockFlow flow(devices.compute(0), BlockTree(2, 2, 0), 16, sides(Edge::outflow, Edge::outflow), 0.5);
  flow.set([](double x, double y) {
    const double g = air.big_gamma();
    if (x >= 0.5 && y >= 0.5) return FaceState{1.5, 0, 0, 1.5, g, 0};
    if (x < 0.5 && y >= 0.5) return FaceState{0.5323, 1.206, 0, 0.3, g, 0};
    if (x < 0.5) return FaceState{0.138, 1.206, 1.206, 0.029, g, 0};
    return FaceState{0.5323, 0, 1.206, 0.3, g, 0};
  });
  run_to(flow, 0.1);
  std::map<std::pair<long, long>, FaceState> at;
  for (const BlockFlow::Cell& c : flow.cells()) at[{std::lround(c.x * 64), std::lround(c.y * 64)}] = c.state;
  ASSERT_EQ(at.size(), 1024u);
  double asymmetry = 0;
  for (const auto& [key, w] : at) {
    const FaceState& t = at.at({key.second, key.first});
    asymmetry = std::max({asymmetry, std::abs(w.rho - t.rho), std::abs(w.p - t.p), std::abs(w.un - t.ut)});
  }
  EXPECT_LT(asymmetry, 1e-12);
}

// A state that leaves the physical range stops the run, naming the step, the time, the block and the cell.
TEST(MragBlockFlow, ANonPhysicalStateStopsTheRun) {
  core::DeviceSet devices = test::test_device();
  BlockFlow flow(devices.compute(0), BlockTree(1, 1, 0), 8, sides(Edge::periodic, Edge::periodic), 1.0);
  flow.set([](double x, double) { return FaceState{x < 0.5 ? 1.0 : -1.0, 0, 0, 1, 2.5, 0}; });
  try {
    flow.stable_dt(0.5);
    FAIL() << "no error";
  } catch (const core::Error& e) {
    EXPECT_STREQ(e.what(),
                 "mrag: step 0 (t = 0): leaf 0 (level 0, block 0, 0), cell (4, 0) holds rho -1, p 1: not finite, "
                 "or a density or c^2 that is not positive");
  }
}

// Temporal order on a fixed grid: against a run with a step 16 times smaller, halving the step divides the
// error by about 4 with the second-order scheme and 8 with the third.
TEST(MragBlockFlow, TheRungeKuttaSchemesHaveTheirOrderInTime) {
  core::DeviceSet devices = test::test_device();
  const auto smooth = [](double x, double y) {
    const double blend = 0.5 + 0.5 * std::sin(2 * M_PI * x);
    return FaceState{1 + 0.3 * std::cos(2 * M_PI * (x + y)),
                     0.4,
                     0.1 * std::sin(2 * M_PI * y),
                     1 + 0.2 * blend,
                     blend * air.big_gamma() + (1 - blend) * helium.big_gamma(),
                     0};
  };
  const auto run = [&](TimeScheme scheme, double dt) {
    BlockFlow flow(devices.compute(0), BlockTree(2, 2, 0), 8, sides(Edge::periodic, Edge::periodic), 0.5, scheme);
    flow.set(smooth);
    for (int k = 0; k < static_cast<int>(std::lround(0.04 / dt)); ++k) flow.step(dt);
    std::vector<double> rho;
    for (const BlockFlow::Cell& c : flow.cells()) rho.push_back(c.state.rho);
    return rho;
  };
  const std::vector<double> reference = run(TimeScheme::ssp_rk3, 1.25e-4);
  const auto error = [&](const std::vector<double>& rho) {
    double e = 0;
    for (std::size_t k = 0; k < rho.size(); ++k) e = std::max(e, std::abs(rho[k] - reference[k]));
    return e;
  };
  const double order2 = std::log2(error(run(TimeScheme::ssp_rk2, 2e-3)) / error(run(TimeScheme::ssp_rk2, 1e-3)));
  const double order3 = std::log2(error(run(TimeScheme::ssp_rk3, 2e-3)) / error(run(TimeScheme::ssp_rk3, 1e-3)));
  std::cout << "temporal orders: " << order2 << " (RK2), " << order3 << " (RK3)\n";
  EXPECT_GT(order2, 1.8);
  EXPECT_GT(order3, 2.7);
}

// A circular explosion (ρ, p = 1 inside r = 0.1, 0.125 and 0.1 outside) to t = 0.05, on the uniform grid of
// 128 × 128 cells and on a grid of 4 × 4 roots adapted every four steps up to that level: the adaptive density
// differs from the uniform one, averaged over each adaptive cell, by an L1 norm below 1e-5 with half the
// cells or fewer (measured on PoCL: 3.0e-7 with at most 39 % of them).
TEST(MragBlockFlow, AnAdaptiveRunStaysCloseToTheUniformRunOfItsFinestLevel) {
  core::DeviceSet devices = test::test_device();
  constexpr int n = 128;
  const auto explosion = [](double x, double y) {
    const bool inside = std::hypot(x - 0.5, y - 0.5) < 0.1;
    return FaceState{inside ? 1.0 : 0.125, 0, 0, inside ? 1.0 : 0.1, air.big_gamma(), 0};
  };
  BlockTree fine(4, 4, 2);
  for (const BlockKey& root : std::vector<BlockKey>(fine.leaves().begin(), fine.leaves().end())) fine.refine(root);
  for (const BlockKey& leaf : std::vector<BlockKey>(fine.leaves().begin(), fine.leaves().end())) fine.refine(leaf);
  BlockFlow uniform(devices.compute(0), fine, 8, sides(Edge::outflow, Edge::outflow), 0.25);
  BlockFlow adaptive(devices.compute(0), BlockTree(4, 4, 2), 8, sides(Edge::outflow, Edge::outflow), 0.25);
  uniform.set(explosion);
  adaptive.set(explosion);
  for (int round = 0; round < 3; ++round) {
    adaptive.adapt(1e-3, 1e-4);
    adaptive.set(explosion);
  }
  run_to(uniform, 0.05);
  std::size_t largest_count = 0;
  for (int step = 0; adaptive.time() < 0.05; ++step) {
    if (step % 4 == 0) adaptive.adapt(1e-3, 1e-4);
    largest_count = std::max(largest_count, adaptive.cells().size());
    adaptive.step(std::min(adaptive.stable_dt(0.5), 0.05 - adaptive.time()));
  }
  std::vector<double> rho(n * n);
  for (const BlockFlow::Cell& c : uniform.cells())
    rho[static_cast<std::size_t>(std::floor(c.x * n) + n * std::floor(c.y * n))] = c.state.rho;
  double l1 = 0;
  for (const BlockFlow::Cell& c : adaptive.cells()) {
    const int m = static_cast<int>(std::lround(c.h * n)), i0 = static_cast<int>(std::lround((c.x - c.h / 2) * n)),
              j0 = static_cast<int>(std::lround((c.y - c.h / 2) * n));
    double mean = 0;
    for (int j = j0; j < j0 + m; ++j)
      for (int i = i0; i < i0 + m; ++i) mean += rho[static_cast<std::size_t>(i + n * j)] / (m * m);
    l1 += std::abs(c.state.rho - mean) * c.h * c.h;
  }
  std::cout << "adaptive against uniform: L1 " << l1 << ", cells at most " << largest_count << " of " << n * n
            << " (compression " << static_cast<double>(largest_count) / (n * n) << ")\n";
  EXPECT_LT(l1, 1e-5);
  EXPECT_LE(largest_count, static_cast<std::size_t>(n * n / 2));
}

// The total of a conserved field over the grid: Σ q h².
double total(const BlockFlow& flow, double (*field)(const FaceState&)) {
  double sum = 0;
  for (const BlockFlow::Cell& c : flow.cells()) sum += field(c.state) * c.h * c.h;
  return sum;
}

double density(const FaceState& s) { return s.rho; }

// Refining every block and collapsing them all again returns the cells: the restriction of predicted
// children is their parent. Both keep the total mass.
TEST(MragBlockFlow, RefiningThenCollapsingEveryBlockReturnsTheData) {
  core::DeviceSet devices = test::test_device();
  BlockFlow flow(devices.compute(0), BlockTree(2, 2, 1), 8, sides(Edge::periodic, Edge::outflow), 0.5);
  flow.set([](double x, double y) {
    return FaceState{1 + 0.5 * std::sin(6 * x) * std::cos(5 * y), 0.2 * y, -0.1 * x, 1 + x * y, 2.5, 0};
  });
  const std::vector<BlockFlow::Cell> before = flow.cells();
  const double mass = total(flow, density);
  const BlockFlow::Adaptation up = flow.adapt(0, 0);  // every detail is at least 0
  EXPECT_EQ(up.refined, 4u);
  EXPECT_EQ(flow.tree().leaves().size(), 16u);
  EXPECT_NEAR(total(flow, density), mass, 1e-14 * mass);
  const BlockFlow::Adaptation down = flow.adapt(2, 2);  // scaled details are at most 1
  EXPECT_EQ(down.collapsed, 4u);
  const std::vector<BlockFlow::Cell> after = flow.cells();
  ASSERT_EQ(after.size(), before.size());
  for (std::size_t k = 0; k < after.size(); ++k) {
    EXPECT_NEAR(after[k].state.rho, before[k].state.rho, 1e-14) << k;
    EXPECT_NEAR(after[k].state.p, before[k].state.p, 1e-13) << k;
  }
}

// A helium disc (r 0.2) in air at p = 1 moving with u = (1, 0.5) across the unit square.
FaceState moving_disc(double x, double y) {
  const bool inside = std::hypot(x - 0.5, y - 0.5) < 0.2;
  const StiffenedGas& gas = inside ? helium : air;
  return FaceState{inside ? 0.138 : 1.0, 1.0, 0.5, 1.0, gas.big_gamma(), gas.big_pi()};
}

// An adaptation with the next step is decided from the details before the step and moves the stepped state:
// on the helium disc, 24 steps after its initial adaptation, where a step does not change what the
// adaptation decides (checked), the tree and the data equal bit for bit those of the step followed by
// adapt(), the tree is the old one until the step, and the mass is kept to round-off.
TEST(MragBlockFlow, AnAdaptationWithTheNextStepIsTheStepThenTheAdaptation) {
  core::DeviceSet devices = test::test_device();
  const auto flow_of = [&](const BlockTree& tree) {
    return BlockFlow(devices.compute(0), tree, 8, sides(Edge::periodic, Edge::periodic), 0.25);
  };
  BlockFlow flow = flow_of(BlockTree(4, 4, 2));
  flow.set(moving_disc);
  for (int round = 0; round < 3; ++round) {
    flow.adapt(1e-3, 1e-4);
    flow.set(moving_disc);
  }
  for (int step = 0; step < 24; ++step) flow.step(flow.stable_dt(0.5));
  const BlockTree before = flow.tree();
  const std::vector<double> start = flow.conserved();
  const double dt = flow.stable_dt(0.5), mass = total(flow, density);

  BlockFlow stepped_then_adapted = flow_of(before);
  stepped_then_adapted.load(start, flow.time(), flow.steps());
  BlockFlow adapted = flow_of(before);
  adapted.load(start, flow.time(), flow.steps());
  adapted.adapt(1e-3, 1e-4);
  ASSERT_NE(adapted.tree().leaves(), before.leaves()) << "the adaptation changes nothing here";
  stepped_then_adapted.step(dt);
  stepped_then_adapted.adapt(1e-3, 1e-4);
  ASSERT_EQ(stepped_then_adapted.tree().leaves(), adapted.tree().leaves()) << "the step changed the decision";

  flow.adapt_with_next_step(1e-3, 1e-4);
  EXPECT_EQ(flow.tree().leaves(), before.leaves());
  EXPECT_EQ(flow.conserved(), start);
  flow.step(dt);
  EXPECT_EQ(flow.tree().leaves(), adapted.tree().leaves());
  EXPECT_TRUE(flow.conserved() == stepped_then_adapted.conserved());
  EXPECT_NEAR(total(flow, density), mass, 1e-13 * mass);
}

// A flow may use the memory limit_memory() gives it: an adaptation whose grid would take more is refused
// before it changes anything, saying what it would take; the run then goes on with the grid it had, and a
// limit below the present grid is refused at once.
TEST(MragBlockFlow, AnAdaptationPastTheMemoryLimitIsRefusedAndKeepsTheGrid) {
  core::DeviceSet devices = test::test_device();
  BlockFlow flow(devices.compute(0), BlockTree(2, 2, 1), 8, sides(Edge::periodic, Edge::outflow), 0.5);
  flow.set([](double x, double y) {
    return FaceState{1 + 0.5 * std::sin(6 * x) * std::cos(5 * y), 0.2 * y, -0.1 * x, 1 + x * y, 2.5, 0};
  });
  const double four = tree_bytes(4, 8, 8), sixteen = tree_bytes(16, 8, 8);
  flow.limit_memory(static_cast<std::uint64_t>((four + sixteen) / 2));
  const std::vector<double> before = flow.conserved();
  try {
    flow.adapt(0, 0);  // every block would be refined
    FAIL() << "an adaptation to 16 blocks passed a limit between the memory of 4 and of 16";
  } catch (const core::Error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("mrag: step 0 (t = 0): a grid of 16 blocks of 8 x 8 cells, finest level 1, would take "),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("raise the refinement threshold"), std::string::npos) << message;
  }
  EXPECT_EQ(flow.tree().leaves().size(), 4u);
  EXPECT_EQ(flow.conserved(), before);
  flow.step(flow.stable_dt(0.5));
  EXPECT_EQ(flow.steps(), 1);
  EXPECT_THROW(flow.limit_memory(static_cast<std::uint64_t>(four / 2)), core::Error);
}

// The helium disc on a 4 × 4 root grid, moving for t = 0.05 and adapted every eight steps (ε 1e-3 to refine, 1e-4 to
// compress), the initial state sampled again after each of three adaptations: the finest blocks gather at the
// interface, the corners stay at level 0, and p and u stay uniform. Without flux correction at resolution jumps the
// mass is not conserved exactly (docs/mrag.md, Time integration): it drifted by 1.6e-8 of itself here.
TEST(MragBlockFlow, AnAdaptingGridFollowsTheInterfaceAndKeepsPressureUniform) {
  core::DeviceSet devices = test::test_device();
  BlockFlow flow(devices.compute(0), BlockTree(4, 4, 2), 8, sides(Edge::periodic, Edge::periodic), 0.25);
  flow.set(moving_disc);
  for (int round = 0; round < 3; ++round) {
    flow.adapt(1e-3, 1e-4);
    flow.set(moving_disc);
  }
  int finest = 0, coarsest = 9;
  for (const BlockKey& leaf : flow.tree().leaves()) {
    finest = std::max(finest, leaf.level);
    coarsest = std::min(coarsest, leaf.level);
  }
  EXPECT_EQ(finest, 2);
  EXPECT_EQ(coarsest, 0);
  EXPECT_TRUE(flow.tree().is_leaf({0, 0, 0}));
  const double mass = total(flow, density);
  for (int step = 0; flow.time() < 0.05; ++step) {
    if (step % 8 == 0) flow.adapt(1e-3, 1e-4);
    flow.step(std::min(flow.stable_dt(0.5), 0.05 - flow.time()));
  }
  const double drift = std::abs(total(flow, density) - mass) / mass;
  EXPECT_LT(drift, 1e-12);
  double dp = 0, du = 0;
  for (const BlockFlow::Cell& c : flow.cells()) {
    dp = std::max(dp, std::abs(c.state.p - 1));
    du = std::max(du, std::abs(c.state.un - 1));
  }
  std::cout << "adapting: " << flow.tree().leaves().size() << " leaves, max |p - 1| " << dp << ", |u - 1| " << du
            << ", mass drift " << drift << "\n";
  EXPECT_LT(dp, 1e-11);
  EXPECT_LT(du, 1e-11);
}

}  // namespace
}  // namespace hetflow::mrag
