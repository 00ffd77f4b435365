// The front tracking of a shock–bubble interaction on synthetic lines (fast, in CI), and the validation
// against Haas & Sturtevant's (1987) air–helium experiment at M = 1.22, labelled `long`
// (tests/CMakeLists.txt): minutes on a GPU. HETFLOW_MRAG_SHOCK_BUBBLE_LEVEL sets its finest level (levels 1
// and 2, cells of D/36 and D/72, suit PoCL; unset, level 3, cells of D/144).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "hetflow/core/error.hpp"
#include "hetflow/mrag/block_flow.hpp"
#include "hetflow/mrag/front_tracks.hpp"
#include "hetflow/mrag/shock_bubble.hpp"
#include "hetflow/mrag/stiffened_gas.hpp"
#include "test_devices.hpp"

namespace hetflow::mrag {
namespace {

const StiffenedGas &air = ShockBubble::air, &helium = ShockBubble::helium;

BlockFlow::Cell cell(double x, double h, double p, double big_gamma = air.big_gamma()) {
  BlockFlow::Cell c;
  c.x = x;
  c.y = h / 2;
  c.h = h;
  c.state.p = p;
  c.state.big_gamma = big_gamma;
  return c;
}

// A line of cells over [0, 1]: 20 cells of 0.05 then 20 of 0.025 beyond x = 0.5 (a resolution jump), each
// cell's pressure and Γ from its centre.
template <class P, class G>
std::vector<BlockFlow::Cell> line(P pressure, G big_gamma) {
  std::vector<BlockFlow::Cell> cells;
  for (int k = 0; k < 10; ++k) cells.push_back(cell(0.025 + 0.05 * k, 0.05, pressure(0.025 + 0.05 * k)));
  for (int k = 0; k < 20; ++k) cells.push_back(cell(0.5125 + 0.025 * k, 0.025, pressure(0.5125 + 0.025 * k)));
  for (BlockFlow::Cell& c : cells) c.state.big_gamma = big_gamma(c.x);
  return cells;
}

// A pressure that falls linearly from `behind` to `ahead` over [x0 − w, x0 + w]: its mid-value lies at x0,
// and the linear interpolation between centres finds it exactly.
double ramp(double x, double x0, double w, double behind, double ahead) {
  const double s = std::clamp((x - (x0 - w)) / (2 * w), 0.0, 1.0);
  return behind + s * (ahead - behind);
}

double uniform_air(double) { return air.big_gamma(); }

// The row next to the wall y = 0 comes out in the order of x, cells of any size, the rows above left out.
TEST(MragShockBubble, TheCentrelineIsTheRowOnTheWallInTheOrderOfX) {
  std::vector<BlockFlow::Cell> cells = {cell(0.75, 0.5, 1), cell(0.125, 0.25, 2), cell(0.375, 0.25, 3)};
  BlockFlow::Cell above = cell(0.125, 0.25, 4);
  above.y = 0.375;
  cells.push_back(above);
  const std::vector<BlockFlow::Cell> row = centreline(cells);
  ASSERT_EQ(row.size(), 3u);
  EXPECT_EQ(row[0].state.p, 2);
  EXPECT_EQ(row[1].state.p, 3);
  EXPECT_EQ(row[2].state.p, 1);
}

// Two east-running shocks (pressure higher to the west) and a west-running one: the easternmost east-running
// shock is found at its mid-value within round-off, across a change of cell size; a window finds the other;
// a fall below the threshold or a west-running shock is not a shock.
TEST(MragShockBubble, TheShockFrontIsTheEasternmostJumpAtItsMidValue) {
  const auto two_shocks = [](double x) {
    return x < 0.5 ? ramp(x, 0.3, 0.07, 2.0, 1.5) : ramp(x, 0.71, 0.04, 1.5, 1.0);
  };
  const std::vector<BlockFlow::Cell> both = line(two_shocks, uniform_air);
  ASSERT_TRUE(shock_front(both, 0.05).has_value());
  EXPECT_NEAR(*shock_front(both, 0.05), 0.71, 1e-12);
  EXPECT_NEAR(shock_front(both, 0.05, 0, 0.6).value_or(NAN), 0.3, 1e-12);
  const std::vector<BlockFlow::Cell> west_running =
      line([](double x) { return ramp(x, 0.71, 0.04, 1.0, 1.5); }, uniform_air);
  EXPECT_FALSE(shock_front(west_running, 0.05).has_value());
  const std::vector<BlockFlow::Cell> weak = line([](double x) { return ramp(x, 0.71, 0.04, 1.02, 1.0); }, uniform_air);
  EXPECT_FALSE(shock_front(weak, 0.05).has_value());
  EXPECT_NEAR(shock_front(weak, 1e-3).value_or(NAN), 0.71, 1e-12);
}

// A helium slab with smeared edges: the interfaces are where the helium fraction from Γ crosses 1/2, the
// refracted shock is the shock between them, and a line without helium has neither.
TEST(MragShockBubble, InterfacesAreWhereTheHeliumFractionCrossesOneHalf) {
  const double g_air = air.big_gamma(), g_he = helium.big_gamma();
  // Γ mixes linearly in the volume fraction: α = 1/2 at 0.375 and at 0.8.
  const auto slab = [&](double x) {
    const double alpha = std::min(std::clamp((x - 0.275) / 0.2, 0.0, 1.0), std::clamp((0.9 - x) / 0.2, 0.0, 1.0));
    return g_air + alpha * (g_he - g_air);
  };
  const auto pressure = [](double x) { return x < 0.5 ? ramp(x, 0.2, 0.06, 1.6, 1.0) : ramp(x, 0.7, 0.03, 1.5, 1.0); };
  const std::vector<BlockFlow::Cell> cells = line(pressure, slab);
  EXPECT_NEAR(inner_fraction(cells[0], g_air, g_he), 0, 1e-15);
  const std::optional<Interfaces> i = interfaces(cells, g_air, g_he);
  ASSERT_TRUE(i.has_value());
  EXPECT_NEAR(i->upstream, 0.375, 1e-12);
  EXPECT_NEAR(i->downstream, 0.8, 1e-12);
  const Fronts f = fronts(cells, 7.0, 0.05, g_air, g_he);
  EXPECT_EQ(f.time, 7.0);
  EXPECT_NEAR(f.lead_shock.value_or(NAN), 0.7, 1e-12);
  EXPECT_NEAR(f.refracted_shock.value_or(NAN), 0.7, 1e-12);
  EXPECT_NEAR(f.upstream.value_or(NAN), 0.375, 1e-12);
  // A shock west of the slab is the lead shock but not a refracted one.
  const Fronts before = fronts(line([](double x) { return ramp(x, 0.2, 0.06, 1.6, 1.0); }, slab), 0, 0.05, g_air, g_he);
  EXPECT_NEAR(before.lead_shock.value_or(NAN), 0.2, 1e-12);
  EXPECT_FALSE(before.refracted_shock.has_value());
  const Fronts no_helium = fronts(line(pressure, uniform_air), 0, 0.05, g_air, g_he);
  EXPECT_FALSE(no_helium.upstream || no_helium.downstream || no_helium.refracted_shock);
}

// The least-squares line through x = 2 + 3 t: exact over its window, leaving out the samples that missed
// the front and those outside the window; with offsets of ±0.01 alternating on 11 equally spaced times
// (their products with t − 5 add up to zero) the slope is still 3, and the rms is the offsets' spread.
TEST(MragShockBubble, TheLineFitGivesTheSlopeOverItsWindowAndTheSamplesItFound) {
  std::vector<Fronts> samples;
  for (int k = 0; k <= 10; ++k) {
    Fronts f;
    f.time = k;
    if (k != 4) f.upstream = 2 + 3.0 * k;  // a sample that missed the front
    f.downstream = 2 + 3.0 * k + (k % 2 ? 0.01 : -0.01);
    if (k > 7) f.upstream = 100;  // outside the window below
    samples.push_back(f);
  }
  const LineFit exact = fit_line(track(samples, &Fronts::upstream), 0, 7);
  EXPECT_EQ(exact.points, 7u);
  EXPECT_NEAR(exact.slope, 3, 1e-12);
  EXPECT_NEAR(exact.intercept, 2, 1e-12);
  EXPECT_NEAR(exact.rms, 0, 1e-12);
  const LineFit noisy = fit_line(track(samples, &Fronts::downstream), 0, 10);
  EXPECT_EQ(noisy.points, 11u);
  EXPECT_NEAR(noisy.slope, 3, 1e-12);
  EXPECT_NEAR(noisy.intercept, 2 - 0.01 / 11, 1e-12);
  EXPECT_NEAR(noisy.rms, 0.01 * std::sqrt(1 - 1.0 / 121), 1e-12);
  EXPECT_THROW(fit_line(track(samples, &Fronts::upstream), 3.5, 4.5), core::Error);
  EXPECT_THROW(fit_line({{1, 2}, {1, 3}}, 0, 2), core::Error);
}

// The fronts on the centreline every 10 µs from 60 µs before the shock meets the disc to `end_us` after,
// on roots of 0.5 × 0.5 with blocks of 16² cells up to `level` (finest cells of D/(36 · 2^(level − 1))),
// adapted every 8 steps as a run adapts (with the next step) with the tests' thresholds, after an initial state
// sampled level + 1 times.
std::vector<Fronts> shock_bubble_fronts(int level, double end_us) {
  using C = ShockBubble;
  core::DeviceSet devices = test::test_device();
  BlockFlow flow(devices.compute(0), BlockTree(C::roots_x, C::roots_y, level), 16, C::sides(), C::root_size);
  flow.set(C::initial);
  for (int pass = 0; pass < level + 1; ++pass) {
    flow.adapt(1e-3, 1e-4);
    flow.set(C::initial);
  }
  const double us = 1 / C::microseconds_per_unit(), t0 = C::contact_time();
  // A shock's pairs of cells: each falls by more than 3 % of the pressure ahead of it, which every shock
  // here does across its few cells of smearing, and the acoustic ripples behind the shocks do not.
  constexpr double jump = 0.03;
  std::vector<Fronts> samples;
  long steps = 0;
  for (double t_us = -60; t_us <= end_us + 1e-9; t_us += 10) {
    const double t = t0 + t_us * us;
    while (flow.time() < t) {
      if (steps++ % 8 == 0) flow.adapt_with_next_step(1e-3, 1e-4);
      flow.step(std::min(flow.stable_dt(0.5), t - flow.time()));
    }
    samples.push_back(fronts(centreline(flow.cells()), t_us, jump, air.big_gamma(), helium.big_gamma()));
    const Fronts& f = samples.back();
    const auto mm = [&](const std::optional<double>& x) {
      return x ? std::to_string((*x - (C::centre_x - C::radius)) * C::metres_per_unit * 1e3) : std::string("-");
    };
    std::cout << "t " << t_us << " us: shock " << mm(f.lead_shock) << ", refracted " << mm(f.refracted_shock)
              << ", upstream " << mm(f.upstream) << ", downstream " << mm(f.downstream) << " mm; "
              << flow.tree().leaves().size() << " leaves, " << flow.steps() << " steps" << std::endl;
  }
  return samples;
}

int shock_bubble_level() {
  const char* text = std::getenv("HETFLOW_MRAG_SHOCK_BUBBLE_LEVEL");
  if (!text || !*text) return 3;
  const long level = std::strtol(text, nullptr, 10);
  if (level < 1 || level > 5)
    throw std::invalid_argument(std::string("HETFLOW_MRAG_SHOCK_BUBBLE_LEVEL = '") + text + "': expected 1 to 5");
  return static_cast<int>(level);
}

// The six front velocities of Haas & Sturtevant's wave diagram, each a least-squares line through the
// centreline positions over its window (µs after the shock meets the disc), within the experiment's ±10 %.
TEST(MragShockBubbleLong, FrontVelocitiesMatchHaasAndSturtevant) {
  struct Front {
    const char* name;
    std::optional<double> Fronts::*front;
    double t_begin, t_end;  // µs after contact
    double measured;        // m/s
  };
  // The windows: the incident shock before it meets the disc, after the first samples in which the initially
  // sharp shock settles; the refracted shock while it crosses the helium (at about 950 m/s it needs 53 µs
  // for the diameter); the transmitted shock for 80 µs once it has left the disc; the upstream interface
  // over the first 100 µs, while the incident shock passes the disc; the downstream interface from when the
  // refracted shock reaches it; the jet once the upstream interface has stopped accelerating and runs
  // steadily along the axis.
  const std::vector<Front> table = {
      {"incident shock", &Fronts::lead_shock, -50, 0, 410},
      {"refracted shock", &Fronts::refracted_shock, 0, 40, 900},
      {"transmitted shock", &Fronts::lead_shock, 70, 150, 393},
      {"upstream interface", &Fronts::upstream, 0, 100, 170},
      {"downstream interface", &Fronts::downstream, 60, 300, 145},
      {"air jet", &Fronts::upstream, 200, 300, 230},
  };
  const int level = shock_bubble_level();
  const std::vector<Fronts> samples = shock_bubble_fronts(level, 300);
  const double scale = ShockBubble::metres_per_unit * 1e6;  // units per µs to m/s
  for (const Front& f : table) {
    const LineFit fit = fit_line(track(samples, f.front), f.t_begin, f.t_end);
    const double v = fit.slope * scale;
    std::cout << "level " << level << ", " << f.name << " over [" << f.t_begin << ", " << f.t_end << "] us ("
              << fit.points << " samples, rms " << fit.rms * ShockBubble::metres_per_unit * 1e3 << " mm): " << v
              << " m/s, measured " << f.measured << ", " << 100 * (v / f.measured - 1) << " %\n";
    EXPECT_NEAR(v, f.measured, 0.1 * f.measured) << f.name;
  }
}

}  // namespace
}  // namespace hetflow::mrag
