#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>

#include "hetflow/core/error.hpp"
#include "hetflow/lbm/geometry_generators.hpp"
#include "hetflow/lbm/references.hpp"
#include "hetflow/lbm/solver.hpp"
#include "test_devices.hpp"
#include "validation_output.hpp"

namespace hetflow::lbm {
namespace {

using test::sci;

// The phases beside a flat interface with the default G = 1.0 at tau = 1 (a 48-node periodic column
// with two interfaces, settled for 20000 steps; see docs/lbm.md, "Two components").
constexpr double rich = 2.2285, poor = 0.0287;

// A drop of component a in component b on a periodic n x n x 1 lattice (a cylinder: Laplace's law in
// 2-D reads dp = sigma / R), FP64. Starts from a sharp interface at the coexistence densities.
struct Drop {
  double radius;         // from the area of component a, sqrt(A / pi)
  double pressure_jump;  // centre minus far corner, from the equation of state
  double rho_a_inside, rho_b_inside, rho_a_outside, rho_b_outside;
  double mass_drift[2];  // relative change of each component's mass over the run
};

Drop settle_drop(const core::DeviceSet& ds, double r0) {
  const int n = 48;
  Config c;
  c.tau = 1.0;
  c.storage = Storage::fp64;
  c.two_component = TwoComponent{};
  Solver s(ds, Geometry(n, n, 1), c);
  std::vector<double> rho_a(static_cast<std::size_t>(n * n)), rho_b(rho_a.size());
  for (int y = 0; y < n; ++y) {
    for (int x = 0; x < n; ++x) {
      const bool inside = std::hypot(x - n / 2.0 + 0.5, y - n / 2.0 + 0.5) < r0;
      rho_a[static_cast<std::size_t>(x + n * y)] = inside ? rich : poor;
      rho_b[static_cast<std::size_t>(x + n * y)] = inside ? poor : rich;
    }
  }
  s.initialise(rho_a, rho_b);
  auto masses = [&](const Fields& f) {
    std::array<double, 2> m{0, 0};
    for (std::size_t i = 0; i < f.rho_a.size(); ++i) {
      m[0] += f.rho_a[i];
      m[1] += f.rho_b[i];
    }
    return m;
  };
  const std::array<double, 2> m0 = masses(s.fields());
  s.advance(3000);
  const Fields f = s.fields();
  const std::array<double, 2> m1 = masses(f);
  Drop d{};
  const auto centre = static_cast<std::size_t>(n / 2 + n * (n / 2));
  d.rho_a_inside = f.rho_a[centre];
  d.rho_b_inside = f.rho_b[centre];
  d.rho_a_outside = f.rho_a[0];
  d.rho_b_outside = f.rho_b[0];
  double area = 0;
  for (double r : f.rho_a) area += (r - d.rho_a_outside) / (d.rho_a_inside - d.rho_a_outside);
  d.radius = std::sqrt(area / std::numbers::pi);
  d.pressure_jump = two_component_pressure(d.rho_a_inside, d.rho_b_inside, *c.two_component) -
                    two_component_pressure(d.rho_a_outside, d.rho_b_outside, *c.two_component);
  for (int k = 0; k < 2; ++k) d.mass_drift[k] = std::abs(m1[k] - m0[k]) / m0[k];
  return d;
}

TEST(LbmTwoComponent, DropsObeyLaplacesLawAndConserveEachComponent) {
  const core::DeviceSet ds = test::test_device();
  if (!ds.device(0).info.fp64) GTEST_SKIP() << "no fp64";
  std::vector<double> radii, jumps;
  double drift = 0;
  for (double r0 : {8.0, 10.0, 12.0, 14.0, 16.0}) {
    const Drop d = settle_drop(ds, r0);
    // The phases keep the flat interface's composition. Their total density is free (the symmetric
    // mixture's phases balance at any total) and follows the lattice's mass: the majorities stay within
    // 10 % of the column's; the dissolved minorities, which the drop's pressure shifts most, within 30 %.
    EXPECT_NEAR(d.rho_a_inside / rich, 1.0, 0.10) << "R0 = " << r0;
    EXPECT_NEAR(d.rho_b_outside / rich, 1.0, 0.10) << "R0 = " << r0;
    EXPECT_NEAR(d.rho_b_inside / poor, 1.0, 0.30) << "R0 = " << r0;
    EXPECT_NEAR(d.rho_a_outside / poor, 1.0, 0.30) << "R0 = " << r0;
    RecordProperty("densities_R" + std::to_string(static_cast<int>(r0)),
                   sci(d.rho_a_inside) + " " + sci(d.rho_b_inside) + " " + sci(d.rho_a_outside) + " " +
                       sci(d.rho_b_outside));
    for (double m : d.mass_drift) drift = std::max(drift, m);
    radii.push_back(d.radius);
    jumps.push_back(d.pressure_jump);
  }
  const LaplaceFit fit = laplace_fit(radii, jumps);
  std::vector<std::vector<double>> rows;
  for (std::size_t i = 0; i < radii.size(); ++i) rows.push_back({radii[i], jumps[i]});
  test::write_validation_csv("laplace_two_component.csv", {"radius", "pressure_jump"}, rows);
  RecordProperty("sigma", std::to_string(fit.sigma));
  RecordProperty("r_squared", std::to_string(fit.r_squared));
  RecordProperty("mass_drift", sci(drift));
  EXPECT_GT(fit.r_squared, 0.99);
  EXPECT_GT(fit.sigma, 0.0);
  // A straight line through the origin: the intercept is small against the smallest jump.
  EXPECT_LT(std::abs(fit.intercept), 0.1 * jumps.back());
  // Each component's populations are relaxed towards equilibria of the same density: its mass changes
  // only by rounding.
  EXPECT_LE(drift, 1e-11);
}

// The interaction forces between the components cancel in pairs and the common velocity keeps the
// collision's momentum exchange between the components balanced, so a periodic box keeps its total
// momentum through a spinodal decomposition (a 1 % random perturbation of an even mixture separating
// at G = 1). The fields' velocity is (momentum + F/2) / rho and the forces sum to zero, so the sum of
// rho u is the total momentum. Tolerance: fp64 round-off of sums over 32^2 nodes of O(0.1) momenta.
TEST(LbmTwoComponent, PeriodicBoxConservesMomentum) {
  const core::DeviceSet ds = test::test_device();
  const int n = 32;
  Config c;
  c.tau = 1.0;
  c.storage = Storage::fp64;
  c.two_component = TwoComponent{};
  Solver s(ds, Geometry(n, n, 1), c);
  std::vector<double> rho_a(static_cast<std::size_t>(n * n)), rho_b(rho_a.size());
  for (std::size_t i = 0; i < rho_a.size(); ++i) {
    // A fixed pseudo-random pattern, the same on every platform.
    const double noise = std::sin(12.9898 * static_cast<double>(i)) * 0.01;
    rho_a[i] = 1.0 + noise;
    rho_b[i] = 1.0 - noise;
  }
  s.initialise(rho_a, rho_b, {0.01, -0.02, 0});
  auto momentum = [&] {
    const Fields f = s.fields();
    std::array<double, 3> p{0, 0, 0};
    double speed = 0;
    for (std::size_t i = 0; i < f.rho.size(); ++i) {
      for (std::size_t d = 0; d < 3; ++d) p[d] += f.rho[i] * f.u[3 * i + d];
      speed = std::max(speed, std::hypot(f.u[3 * i], f.u[3 * i + 1]));
    }
    return std::pair(p, speed);
  };
  const auto [p0, speed0] = momentum();
  s.advance(400);
  const auto [p1, speed1] = momentum();
  // The decomposition is under way: velocities well above the initial drift.
  EXPECT_GT(speed1, 0.03) << "no separation dynamics to test";
  for (std::size_t d = 0; d < 3; ++d) EXPECT_NEAR(p1[d], p0[d], 1e-9) << "component " << d;
}

TEST(LbmTwoComponent, PressureFollowsTheEquationOfState) {
  const TwoComponent tc;
  EXPECT_NEAR(two_component_pressure(1.2, 0.5, tc), 1.7 / 3.0 + 0.6 / 3.0, 1e-15);
}

// A layer of component a across the slab faces in a duct of component b, with walls that prefer a,
// a body force and a start velocity: every kernel branch of both components runs.
struct Mixture {
  Geometry geometry = duct(12, 10, 9);
  std::vector<double> rho_a, rho_b;
  Mixture() : rho_a(geometry.size()), rho_b(geometry.size()) {
    for (std::size_t i = 0; i < rho_a.size(); ++i) {
      const bool layer = (i / (12 * 10)) % 9 < 4;
      rho_a[i] = layer ? rich : poor;
      rho_b[i] = layer ? poor : rich;
    }
  }
  Config config(Pattern pattern, Storage storage) const {
    Config c;
    c.tau = 0.9;
    c.force = {1e-5, -2e-5, 3e-5};
    c.pattern = pattern;
    c.storage = storage;
    c.two_component = TwoComponent{1.2, 0.7, {1.2, 0.6}};
    return c;
  }
};

TEST(LbmTwoComponent, PatternsGiveBitIdenticalFields) {
  const core::DeviceSet ds = test::test_device();
  const Mixture mix;
  for (Storage storage : {Storage::fp32, Storage::fp64}) {
    if (storage == Storage::fp64 && !ds.device(0).info.fp64) continue;
    for (long steps : {1L, 2L, 7L}) {
      std::vector<Fields> results;
      for (Pattern p : {Pattern::ab, Pattern::aa, Pattern::lagrangian}) {
        Solver s(ds, mix.geometry, mix.config(p, storage));
        s.initialise(mix.rho_a, mix.rho_b, {0.01, 0.0, -0.02});
        s.advance(steps);
        results.push_back(s.fields());
      }
      for (std::size_t k = 1; k < results.size(); ++k) {
        const std::string what = std::string(to_string(storage)) + ", pattern " + std::to_string(k) + ", steps " +
                                 std::to_string(steps);
        EXPECT_EQ(results[k].rho_a, results[0].rho_a) << what;
        EXPECT_EQ(results[k].rho_b, results[0].rho_b) << what;
        EXPECT_EQ(results[k].u, results[0].u) << what;
      }
    }
  }
}

TEST(LbmTwoComponent, SeveralDevicesGiveBitIdenticalFields) {
  const core::DeviceSet one = test::test_device();
  const core::DeviceSet several = test::test_devices();
  ASSERT_GE(several.size(), 2u);
  const Mixture mix;
  for (Pattern pattern : {Pattern::aa, Pattern::ab}) {
    for (Storage storage : {Storage::fp32, Storage::fp64}) {
      if (storage == Storage::fp64 && !(one.device(0).info.fp64 && several.device(1).info.fp64)) continue;
      Config c = mix.config(pattern, storage);
      c.exact_arithmetic = true;
      Solver a(one, mix.geometry, c), b(several, mix.geometry, c);
      EXPECT_EQ(b.parts(), several.size());
      a.initialise(mix.rho_a, mix.rho_b, {0.01, 0.0, -0.02});
      b.initialise(mix.rho_a, mix.rho_b, {0.01, 0.0, -0.02});
      for (long steps : {1L, 8L}) {  // 1 and 9 in all: both A-A parities at the end
        a.advance(steps);
        b.advance(steps);
        const Fields fa = a.fields(), fb = b.fields();
        const std::string what = std::string(to_string(pattern)) + " " + to_string(storage) + ", step " +
                                 std::to_string(a.step());
        EXPECT_EQ(fa.rho_a, fb.rho_a) << what;
        EXPECT_EQ(fa.rho_b, fb.rho_b) << what;
        EXPECT_EQ(fa.u, fb.u) << what;
      }
    }
  }
}

TEST(LbmTwoComponent, RejectsBadInput) {
  const core::DeviceSet ds = test::test_device();
  auto message = [&](const Config& c, const Geometry& geo) {
    try {
      Solver s(ds, geo, c);
      s.initialise(1.0);
    } catch (const core::Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  Config c;
  c.two_component = TwoComponent{};
  c.shan_chen = ShanChen{};
  EXPECT_NE(message(c, Geometry(4, 4, 4)).find("shan_chen and two_component are exclusive"), std::string::npos);
  c.shan_chen.reset();
  c.two_component->tau_b = 0.5;
  EXPECT_NE(message(c, Geometry(4, 4, 4)).find("tau_b must exceed 0.5"), std::string::npos);
  c.two_component->tau_b = 1.0;
  EXPECT_NE(message(c, Geometry(4, 4, 4)).find("initialised with a density per component"), std::string::npos);
  Geometry open(4, 4, 4);
  open.set(1, 1, 0, NodeType::inlet);
  EXPECT_NE(message(c, open).find("no open boundaries"), std::string::npos);
}

}  // namespace
}  // namespace hetflow::lbm
