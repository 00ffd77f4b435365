#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <numbers>

#include "hetflow/lbm/references.hpp"
#include "hetflow/lbm/solver.hpp"
#include "test_devices.hpp"
#include "validation_output.hpp"

namespace hetflow::lbm {
namespace {

// A drop of liquid in its vapour on a periodic 64 x 64 x 1 lattice (a cylinder: Laplace's law in 2-D
// reads dp = sigma / R). Starts from a sharp interface at the coexistence densities of the classic
// parameter set; 4000 steps at tau = 1 let the interface and the pressure settle.
struct Drop {
  double radius;        // from the liquid area, sqrt(A / pi)
  double pressure_jump;  // centre minus far corner
  double rho_liquid, rho_vapour;
};

Drop settle_drop(const core::DeviceSet& ds, double r0) {
  const int n = 64;
  Config c;
  c.tau = 1.0;
  c.shan_chen = ShanChen{};
  Solver s(ds, Geometry(n, n, 1), c);
  std::vector<double> rho(static_cast<std::size_t>(n * n));
  for (int y = 0; y < n; ++y) {
    for (int x = 0; x < n; ++x) {
      const double r = std::hypot(x - n / 2.0 + 0.5, y - n / 2.0 + 0.5);
      rho[static_cast<std::size_t>(x + n * y)] = r < r0 ? 524.0 : 85.7;
    }
  }
  s.initialise(rho);
  s.advance(4000);
  const Fields f = s.fields();
  Drop d{};
  d.rho_liquid = f.rho[static_cast<std::size_t>(n / 2 + n * (n / 2))];
  d.rho_vapour = f.rho[0];
  double area = 0;
  for (double r : f.rho) area += (r - d.rho_vapour) / (d.rho_liquid - d.rho_vapour);
  d.radius = std::sqrt(area / std::numbers::pi);
  d.pressure_jump = shan_chen_pressure(d.rho_liquid, *c.shan_chen) - shan_chen_pressure(d.rho_vapour, *c.shan_chen);
  return d;
}

TEST(LbmShanChen, DropletsObeyLaplacesLaw) {
  const core::DeviceSet ds = test::test_device();
  std::vector<double> radii, jumps;
  for (double r0 : {8.0, 10.0, 12.0, 14.0, 17.0}) {
    const Drop d = settle_drop(ds, r0);
    // The phases settle near the coexistence densities of this parameter set (about 524 and 86; the
    // drop's curvature raises both a little).
    EXPECT_NEAR(d.rho_liquid / 524.0, 1.0, 0.05) << "R0 = " << r0;
    EXPECT_NEAR(d.rho_vapour / 85.7, 1.0, 0.10) << "R0 = " << r0;
    radii.push_back(d.radius);
    jumps.push_back(d.pressure_jump);
  }
  const LaplaceFit fit = laplace_fit(radii, jumps);
  std::vector<std::vector<double>> rows;
  for (std::size_t i = 0; i < radii.size(); ++i) rows.push_back({radii[i], jumps[i]});
  test::write_validation_csv("laplace.csv", {"radius", "pressure_jump"}, rows);
  RecordProperty("sigma", std::to_string(fit.sigma));
  RecordProperty("r_squared", std::to_string(fit.r_squared));
  EXPECT_GT(fit.r_squared, 0.99);
  EXPECT_GT(fit.sigma, 0.0);
  // A straight line through the origin: the intercept is small against the smallest jump.
  EXPECT_LT(std::abs(fit.intercept), 0.1 * jumps.back());
}

TEST(LbmShanChen, PressureFollowsTheEquationOfState) {
  const ShanChen sc;
  const double psi = 4.0 * std::exp(-200.0 / 300.0);
  EXPECT_NEAR(shan_chen_pressure(300.0, sc), 100.0 - 20.0 * psi * psi, 1e-12);
}

}  // namespace
}  // namespace hetflow::lbm
