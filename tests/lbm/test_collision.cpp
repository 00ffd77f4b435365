// The collision operators against exact solutions: TRT's wall location in plane Poiseuille flow (exact at
// Lambda = 3/16 for any tau; Ginzburg, Verhaeghe & d'Humieres 2008), BGK as the TRT whose magic parameter is
// (tau - 1/2)^2, the viscous decay rate of a Taylor-Green vortex for each operator, and MRT's stability in
// an under-resolved shear layer.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numbers>
#include <string>
#include <vector>

#include "hetflow/core/error.hpp"
#include "hetflow/lbm/geometry_generators.hpp"
#include "hetflow/lbm/references.hpp"
#include "hetflow/lbm/solver.hpp"
#include "lbm_test_cases.hpp"
#include "test_devices.hpp"
#include "validation_output.hpp"

namespace hetflow::lbm {
namespace {

bool has_fp64(const core::DeviceSet& ds) { return ds.device(0).info.fp64; }

// The largest deviation of u_x from the plane Poiseuille profile over the fluid nodes of a channel with
// walls at y = 0 and ny - 1 (half-way bounce-back: width ny - 2), relative to the centre velocity, after
// enough steps for the slowest transient mode (decay rate nu pi^2 / h^2) to fall by e^-30.
double channel_error(const core::DeviceSet& ds, const Config& c, double g) {
  const int nx = 4, ny = 18, nz = 2;
  const double h = ny - 2, nu = (c.tau - 0.5) / 3;
  Solver s(ds, channel(nx, ny, nz), c);
  s.initialise();
  s.advance(static_cast<long>(std::ceil(30 * h * h / (std::numbers::pi * std::numbers::pi * nu))));
  const Fields f = s.fields();
  const double centre = plane_poiseuille(0.0, h, g, nu);
  double worst = 0;
  for (int z = 0; z < nz; ++z)
    for (int y = 1; y < ny - 1; ++y)
      for (int x = 0; x < nx; ++x) {
        const std::size_t n = static_cast<std::size_t>(x + nx * (y + ny * z));
        const double exact = plane_poiseuille(y - (ny - 1) / 2.0, h, g, nu);
        worst = std::max(worst, std::abs(f.u[3 * n] - exact) / centre);
      }
  return worst;
}

Config channel_config(double tau, Collision collision, double magic, double g) {
  Config c;
  c.tau = tau;
  c.collision = collision;
  c.magic = magic;
  c.storage = Storage::fp64;
  c.force = {g, 0, 0};
  return c;
}

// With Lambda = 3/16 the half-way bounce-back wall lies exactly half-way, so the parabola is the steady
// solution at every tau; BGK has Lambda = (tau - 1/2)^2 and is exact only at tau = 1/2 + sqrt(3/16).
TEST(LbmTrt, PlanePoiseuilleIsExactAtMagicThreeSixteenthsForAnyTau) {
  const core::DeviceSet ds = test::test_device();
  if (!has_fp64(ds)) GTEST_SKIP() << "no fp64";
  const double g = 1e-6;
  for (const double tau : {0.6, 1.0, 1.7}) {
    const double error = channel_error(ds, channel_config(tau, Collision::trt, 3.0 / 16, g), g);
    RecordProperty("trt_error_tau_" + test::sci(tau), test::sci(error));
    EXPECT_LE(error, 1e-9) << "TRT, tau " << tau;
  }
  const double magic_tau = 0.5 + std::sqrt(3.0 / 16);
  const double bgk_magic = channel_error(ds, channel_config(magic_tau, Collision::bgk, 0, g), g);
  EXPECT_LE(bgk_magic, 1e-9) << "BGK at its magic tau";
  // Elsewhere BGK's wall moves with tau: the same test fails it.
  const double bgk = channel_error(ds, channel_config(1.7, Collision::bgk, 0, g), g);
  RecordProperty("bgk_error_magic_tau", test::sci(bgk_magic));
  RecordProperty("bgk_error_tau_1.7", test::sci(bgk));
  EXPECT_GE(bgk, 1e-3) << "BGK, tau 1.7";
}

// The duct of LbmDuctPoiseuille (32 x 32 fluid nodes, body force) where the walls lie half-way: BGK at
// tau = 1/2 + sqrt(3/16), the thesis's acceptance case (relative L2 error of u_z at most 2.5e-4), and
// TRT with Lambda = 3/16 at tau = 0.8, where BGK's wall is off. What remains is the second-order error
// of the cross-section's Poisson problem, the same for both.
TEST(LbmTrt, DuctAtTheMagicRelaxationMeetsTheThesisBound) {
  const core::DeviceSet ds = test::test_device();
  if (!has_fp64(ds)) GTEST_SKIP() << "no fp64";
  const int nx = 34, ny = 34, nz = 4;
  const double g = 1e-5;
  for (const auto& [collision, tau, name] :
       {std::tuple{Collision::bgk, 0.5 + std::sqrt(3.0 / 16), "bgk"}, std::tuple{Collision::trt, 0.8, "trt"}}) {
    Config c = channel_config(tau, collision, 3.0 / 16, 0);
    c.force = {0, 0, g};
    Solver s(ds, duct(nx, ny, nz), c);
    s.initialise();
    // 6000 steps at nu = 0.1 leave the start-up transient below 1e-5 of the profile (LbmDuctPoiseuille).
    s.advance(static_cast<long>(6000 * 0.1 / s.viscosity()));
    const double error = test::duct_error(s.fields(), nx, ny, nz, g, s.viscosity());
    RecordProperty(std::string("rel_l2_") + name, test::sci(error));
    EXPECT_LE(error, 2.5e-4) << name;
  }
}

// TRT whose odd part relaxes like its even part is BGK: the same fields to round-off, forcing included.
TEST(LbmTrt, EqualRelaxationTimesGiveBgk) {
  const core::DeviceSet ds = test::test_device();
  if (!has_fp64(ds)) GTEST_SKIP() << "no fp64";
  const double tau = 0.7, g = 1e-5;
  Config bgk = channel_config(tau, Collision::bgk, 0, g), trt = channel_config(tau, Collision::trt, 0, g);
  bgk.force = trt.force = {g, 0.3 * g, -0.2 * g};
  trt.magic = (tau - 0.5) * (tau - 0.5);
  Solver a(ds, duct(9, 7, 6), bgk), b(ds, duct(9, 7, 6), trt);
  a.initialise(1.0, {0.01, 0, 0});
  b.initialise(1.0, {0.01, 0, 0});
  a.advance(200);
  b.advance(200);
  const Fields fa = a.fields(), fb = b.fields();
  double worst = 0, largest = 0;
  for (std::size_t i = 0; i < fa.u.size(); ++i) {
    worst = std::max(worst, std::abs(fa.u[i] - fb.u[i]));
    largest = std::max(largest, std::abs(fa.u[i]));
  }
  EXPECT_GT(largest, 1e-3);
  EXPECT_LE(worst, 1e-14 * largest);
}

// A Taylor-Green vortex u = U (-cos kx sin ky, sin kx cos ky, 0) on a periodic 32 x 32 lattice, with the
// pressure that balances it, decays as exp(-2 nu k^2 t). The amplitude is the projection of u on the
// initial field; its rate between steps 100 and 400 is held to 1 % of 2 nu k^2 for each operator.
double taylor_green_rate(const core::DeviceSet& ds, Collision collision, double magic) {
  const int n = 32, nz = 2;
  const double tau = 0.8, amplitude = 0.01, k = 2 * std::numbers::pi / n;
  Config c;
  c.tau = tau;
  c.collision = collision;
  c.magic = magic;
  c.storage = Storage::fp64;
  Solver s(ds, Geometry(n, n, nz), c);
  std::vector<double> rho;
  std::vector<std::array<double, 3>> u;
  for (int z = 0; z < nz; ++z)
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) {
        u.push_back({-amplitude * std::cos(k * x) * std::sin(k * y), amplitude * std::sin(k * x) * std::cos(k * y), 0});
        rho.push_back(1 - 0.75 * amplitude * amplitude * (std::cos(2 * k * x) + std::cos(2 * k * y)));
      }
  s.initialise(rho, u);
  auto projection = [&] {
    const Fields f = s.fields();
    double dot = 0, norm = 0;
    for (std::size_t i = 0; i < u.size(); ++i)
      for (std::size_t d = 0; d < 2; ++d) {
        dot += f.u[3 * i + d] * u[i][d];
        norm += u[i][d] * u[i][d];
      }
    return dot / norm;
  };
  s.advance(100);
  const double early = projection();
  s.advance(300);
  const double late = projection();
  return std::log(early / late) / 300 / (2 * (tau - 0.5) / 3 * k * k);
}

TEST(LbmCollision, TaylorGreenDecaysAtTheViscousRate) {
  const core::DeviceSet ds = test::test_device();
  if (!has_fp64(ds)) GTEST_SKIP() << "no fp64";
  for (const auto& [collision, magic, name] :
       {std::tuple{Collision::bgk, 0.0, "bgk"}, std::tuple{Collision::trt, 3.0 / 16, "trt_3_16"},
        std::tuple{Collision::trt, 0.25, "trt_1_4"}, std::tuple{Collision::mrt, 3.0 / 16, "mrt"}}) {
    const double ratio = taylor_green_rate(ds, collision, magic);
    RecordProperty(std::string("rate_ratio_") + name, test::sci(ratio));
    EXPECT_NEAR(ratio, 1.0, 0.01) << name;
  }
}

// Minion & Brown's doubly periodic shear layer (u = tanh(80 (y - 1/4)) below y = 1/2, tanh(80 (3/4 - y))
// above, v = 0.05 sin(2 pi (x + 1/4)), times u0 = 0.04) on 64 x 64 nodes, far too coarse for its
// Reynolds number u0 n / nu: under-resolved, where BGK blows up (docs/lbm-validation.md),
// MRT keeps every velocity finite and below 2 u0 for 5,000 steps at Re 3e4 and 1e5.
double shear_layer_peak(const core::DeviceSet& ds, Collision collision, double reynolds, long steps) {
  const int n = 64, nz = 2;
  const double u0 = 0.04;
  Config c;
  c.tau = 0.5 + 3 * u0 * n / reynolds;
  c.collision = collision;
  c.storage = Storage::fp64;
  Solver s(ds, Geometry(n, n, nz), c);
  std::vector<std::array<double, 3>> u;
  for (int z = 0; z < nz; ++z)
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) {
        const double yy = (y + 0.5) / n, xx = (x + 0.5) / n;
        const double ux = yy <= 0.5 ? std::tanh(80 * (yy - 0.25)) : std::tanh(80 * (0.75 - yy));
        u.push_back({u0 * ux, u0 * 0.05 * std::sin(2 * std::numbers::pi * (xx + 0.25)), 0});
      }
  s.initialise(std::vector<double>(u.size(), 1.0), u);
  double peak = 0;
  for (long done = 0; done < steps; done += 250) {
    s.advance(250);
    peak = 0;
    for (const double v : s.fields().u) {
      if (!std::isfinite(v)) return std::numeric_limits<double>::infinity();
      peak = std::max(peak, std::abs(v));
    }
  }
  return peak / u0;
}

TEST(LbmCollision, MrtStaysBoundedWhereBgkBlowsUp) {
  const core::DeviceSet ds = test::test_device();
  if (!has_fp64(ds)) GTEST_SKIP() << "no fp64";
  for (const double reynolds : {3e4, 1e5}) {
    const double mrt = shear_layer_peak(ds, Collision::mrt, reynolds, 5000);
    RecordProperty("mrt_peak_re_" + test::sci(reynolds), test::sci(mrt));
    EXPECT_LT(mrt, 2.0) << "MRT, Re " << reynolds;
  }
  RecordProperty("bgk_peak_re_3e4", test::sci(shear_layer_peak(ds, Collision::bgk, 3e4, 5000)));
}

// TRT and MRT keep the solver's promises: the three patterns (and on CPUs the vector kernels beside the
// node ones, which the random walls mix) and a split over devices give the same bits.
TEST(LbmCollision, PatternsAndDevicesGiveTheSameBits) {
  const core::DeviceSet one = test::test_device();
  const core::DeviceSet several = test::test_devices();
  const Geometry geo = test::random_walls();
  for (const Collision collision : {Collision::trt, Collision::mrt}) {
    auto config = [&](Pattern pattern) {
      Config c = test::skewed_flow(pattern, Storage::fp32);
      c.collision = collision;
      c.exact_arithmetic = true;
      return c;
    };
    std::vector<Fields> results;
    for (const Pattern p : {Pattern::ab, Pattern::aa, Pattern::lagrangian}) {
      Solver s(one, geo, config(p));
      s.initialise(1.0, {0.01, 0.0, -0.02});
      s.advance(7);
      results.push_back(s.fields());
    }
    Solver split(several, geo, config(Pattern::aa));
    ASSERT_GE(split.parts(), 2u);
    split.initialise(1.0, {0.01, 0.0, -0.02});
    split.advance(7);
    results.push_back(split.fields());
    for (std::size_t k = 1; k < results.size(); ++k) {
      EXPECT_EQ(results[k].rho, results[0].rho) << to_string(collision) << ", run " << k;
      EXPECT_EQ(results[k].u, results[0].u) << to_string(collision) << ", run " << k;
    }
  }
}

TEST(LbmTrt, RejectsBadInput) {
  const core::DeviceSet ds = test::test_device();
  Config c;
  c.collision = Collision::trt;
  for (const double magic : {0.0, -0.1, std::nan("")}) {
    c.magic = magic;
    try {
      Solver(ds, duct(6, 6, 6), c);
      FAIL() << magic;
    } catch (const core::Error& e) {
      EXPECT_NE(std::string(e.what()).find("magic parameter"), std::string::npos) << e.what();
    }
  }
  c.magic = 0.25;
  c.two_component = TwoComponent{};
  try {
    Solver(ds, Geometry(6, 6, 6), c);
    FAIL();
  } catch (const core::Error& e) {
    EXPECT_NE(std::string(e.what()).find("collision trt is built for one component"), std::string::npos) << e.what();
  }
  Config mrt;
  mrt.collision = Collision::mrt;
  Geometry open = duct(6, 6, 6);
  open.set(2, 2, 0, NodeType::inlet);
  try {
    Solver(ds, open, mrt);
    FAIL();
  } catch (const core::Error& e) {
    EXPECT_NE(std::string(e.what()).find("collision mrt has no Zou-He inlets or outlets"), std::string::npos)
        << e.what();
  }
  Solver s(ds, duct(6, 6, 6), Config{});
  EXPECT_THROW(s.initialise(std::vector<double>(216, 1.0), std::vector<std::array<double, 3>>(215)), core::Error);
  EXPECT_THROW(parse_collision("cumulant"), core::Error);
  EXPECT_EQ(parse_collision(to_string(Collision::trt)), Collision::trt);
}

}  // namespace
}  // namespace hetflow::lbm
