// The host reference against exact properties of the scheme and the Ogata-Banks solution.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <vector>

#include "hetflow/karst/host_solver.hpp"
#include "hetflow/karst/ogata_banks.hpp"

namespace hetflow::karst {
namespace {

// A velocity that varies by +-40 % and an inlet pulse, both over t* in [0, 2].
Series wavy_velocity() {
  Series s;
  for (int i = 0; i <= 40; ++i) {
    s.t.push_back(0.05 * i);
    s.value.push_back(1 + 0.4 * std::sin(3.0 * s.t.back()));
  }
  return s;
}

Series pulse_inlet(double background) {
  Series s;
  for (int i = 0; i <= 40; ++i) {
    s.t.push_back(0.05 * i);
    const double u = (s.t.back() - 0.4) / 0.1;
    s.value.push_back(background + 0.5 * std::exp(-u * u));
  }
  return s;
}

Grid heat_grid() {
  Grid g;
  g.nodes = 60;
  g.rock_nodes = 15;
  g.rock_extent = 3;
  g.times = Grid::uniform_times(0.01, 150);
  return g;
}

TEST(KarstHost, UniformStateStaysUniform) {
  const KarstParameters heat{500, 3, 2, 2.2, 0};
  for (const FarField far : {FarField::fixed, FarField::insulated}) {
    for (const double initial : {1.0, 7.25}) {
      Grid g = heat_grid();
      g.far_field = far;
      g.initial = initial;
      const Series out = host_run(Series{{0, 2}, {initial, initial}}, wavy_velocity(), heat, g);
      double worst = 0;
      for (const double v : out.value) worst = std::max(worst, std::abs(v - initial));
      EXPECT_LE(worst, 1e-14) << "initial " << initial;  // observed: 0 (the deviation from it is exactly 0)
    }
  }
  Grid solute = heat_grid();
  solute.model = Model::solute;
  const Series out = host_run(Series{{0, 2}, {1, 1}}, wavy_velocity(), KarstParameters{500, 0, 1, 1, 0}, solute);
  for (const double v : out.value) EXPECT_LE(std::abs(v - 1), 1e-14);
}

TEST(KarstHost, ThesisOutletRowDriftsFromUniformState) {
  // The row as printed (Myre 2013, Eq. 4.20) is off the uniform state by dt (v*/dx - 2/(Pe dx^2)) T per
  // step.
  // Pe = 500, dx = 1/60, v* = 1: v*/dx = 60 > 2/(Pe dx^2) = 14.4, so the outlet warms above the uniform 1
  // (observed: +0.889 after 150 steps of 0.01).
  Grid g = heat_grid();
  g.outlet = Outlet::thesis;
  const Series out = host_run(Series{{0, 2}, {1, 1}}, Series{{0, 2}, {1, 1}}, KarstParameters{500, 3, 2, 2.2, 0}, g);
  const double drift = out.value.back() - 1;
  std::printf("thesis outlet drift after %zu steps: %.6g\n", out.size(), drift);
  EXPECT_GT(drift, 1e-3);
}

// Max error against Ogata-Banks over the conduit at t* = 0.5, Pe = 50, step inlet 1 into 0.
double ogata_banks_error(std::size_t nodes, double dt, bool heat) {
  constexpr double pe = 50, t_end = 0.5;
  Grid g;
  g.model = heat ? Model::heat : Model::solute;
  g.nodes = nodes;
  g.rock_nodes = 3;
  g.initial = 0;
  HostSolver solver(KarstParameters{pe, 0, 1, 1, 0}, g);
  const auto steps = static_cast<std::size_t>(std::llround(t_end / dt));
  for (std::size_t k = 0; k < steps; ++k) solver.step(dt, 1, 1);
  double err = 0;
  for (std::size_t j = 0; j < nodes; ++j) {
    const double x = static_cast<double>(j + 1) * g.dx();
    err = std::max(err, std::abs(solver.water(j) - ogata_banks(x, t_end, 1, 1 / pe)));
  }
  return err;
}

TEST(KarstHost, StantonZeroMatchesOgataBanksFirstOrder) {
  // dt and dx halve together; implicit Euler's O(dt) error dominates central differences' O(dx^2).
  // The outlet (x* = 1) is 0.5 ahead of the front, 3.5 front widths: its effect on the profile is < 1e-6.
  std::vector<double> err;
  for (std::size_t n = 200; n <= 3200; n *= 2) err.push_back(ogata_banks_error(n, 1.0 / static_cast<double>(n), false));
  for (std::size_t i = 1; i < err.size(); ++i) {
    const double order = std::log2(err[i - 1] / err[i]);
    std::printf("N = %d: max error %.4e, observed order %.4f\n", 200 << i, err[i], order);
    EXPECT_GE(order, 0.8);
    EXPECT_LE(order, 1.2);
  }
  EXPECT_LE(err.back(), 1.5e-3);
  // Heat with St = 0 is the same scheme: the rock is never felt.
  EXPECT_EQ(ogata_banks_error(200, 0.005, true), err.front());
}

TEST(KarstHost, OgataBanksFormulaStaysFiniteAtLargePe) {
  // exp(v x / D) alone overflows for v x / D > 709; the erfcx form does not.
  const double c = ogata_banks(1.0, 1.0, 1.0, 1e-4);  // front at x = 1: c = 1/2 + O(sqrt(D))
  EXPECT_NEAR(c, 0.5, 1e-2);
  // At the switch z = 25 the asymptotic series agrees with exp(z^2) erfc(z), still representable there.
  const double direct = std::exp(625.0) * std::erfc(25.0);
  EXPECT_NEAR(erfcx(25.0), direct, 1e-14 * direct);
  EXPECT_NEAR(erfcx(30.0) * 30.0 * std::sqrt(std::numbers::pi), 1.0, 6e-4);  // leading term 1 - 1/(2 z^2)
}

TEST(KarstHost, HeatBalanceIsExactWithOutflowOutletAndInsulatedRock) {
  // Identity of host_solver.hpp: E^{k+1} - E^k = dx [inflow - outflow + lag] for every step.
  const KarstParameters p{300, 4, 1.5, 2.235, 0};
  Grid g = heat_grid();
  g.far_field = FarField::insulated;
  const Series inlet = pulse_inlet(1), velocity = wavy_velocity();
  const StepForcing f = step_forcing(inlet, velocity, g);
  HostSolver s(p, g);
  const std::size_t n = g.nodes, m = g.rock_nodes;
  const double dx = g.dx(), dr = g.dr();
  const auto water_weight = [&](std::size_t j) { return j + 1 == n ? 0.5 : 1.0; };
  const auto content = [&] {
    double e = 0;
    for (std::size_t j = 0; j < n; ++j) {
      double rock = 0;
      for (std::size_t i = 0; i < m; ++i) rock += (i == 0 || i + 1 == m ? 0.5 : 1.0) * s.rock(i, j);
      e += water_weight(j) * (s.water(j) + 2 / p.Psi * dr * rock);
    }
    return dx * e;
  };
  double e = content(), worst = 0, lag_total = 0, in_total = 0;
  for (std::size_t k = 0; k < g.times.size(); ++k) {
    std::vector<double> before(n);
    for (std::size_t j = 0; j < n; ++j) before[j] = s.water(j);
    s.step(f.dt[k], f.velocity[k], f.inlet[k]);
    const double a = f.dt[k] / (p.Pe * dx * dx), c = f.velocity[k] * f.dt[k] / (2 * dx);
    const double in = f.inlet[k], w0 = s.water(0);
    double lag = 0;
    for (std::size_t j = 0; j < n; ++j) lag += water_weight(j) * (before[j] - s.water(j));
    lag *= f.dt[k] * p.St;
    const double change = dx * (c * (in + w0) - a * (w0 - in) - 2 * c * s.outlet() + lag);
    const double e_new = content();
    worst = std::max(worst, std::abs(e_new - e - change));
    lag_total += dx * lag;
    in_total += dx * (c * (in + w0) - a * (w0 - in));
    e = e_new;
  }
  std::printf("heat balance: worst step residual %.3e, content %.6f, inflow %.6f, coupling lag %.3e\n", worst, e,
              in_total, lag_total);
  EXPECT_LE(worst, 1e-13);
}

}  // namespace
}  // namespace hetflow::karst
