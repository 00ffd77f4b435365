#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "hetflow/lbm/references.hpp"

namespace hetflow::lbm {
namespace {

constexpr double pi = 3.14159265358979323846;

// The series exactly as printed, truncated: an independent check of the rearranged summation.
double naive_series(double x, double y, double a, double b, double g, double nu, int terms) {
  double sum = 0.0;
  for (int k = 0; k < terms; ++k) {
    const double n = 2.0 * k + 1.0;
    const double sign = k % 2 == 0 ? 1.0 : -1.0;
    // cosh overflows past 710; by then the ratio of the two is below exp(-60) for these points.
    const double ratio = n * pi * b / (2 * a) < 700.0 ? std::cosh(n * pi * y / (2 * a)) / std::cosh(n * pi * b / (2 * a)) : 0.0;
    sum += sign / (n * n * n) * (1.0 - ratio) * std::cos(n * pi * x / (2 * a));
  }
  return 16.0 * a * a * g / (nu * pi * pi * pi) * sum;
}

TEST(LbmReference, DuctSeriesMatchesTheSeriesAsPrinted) {
  const double a = 1.0, b = 1.7, g = 2e-5, nu = 0.1;
  for (const double x : {0.0, 0.3, -0.8})
    for (const double y : {0.0, 0.9, -1.5}) {
      // Truncation of the printed series at n = 4001 leaves ~1/(4 n^2) ~ 2e-8 of the scale a^2 g/nu.
      EXPECT_NEAR(duct_poiseuille(x, y, a, b, g, nu), naive_series(x, y, a, b, g, nu, 2000), 3e-8 * a * a * g / nu)
          << x << ", " << y;
    }
}

TEST(LbmReference, WideDuctApproachesPlanePoiseuille) {
  const double a = 1.0, b = 50.0, g = 1e-6, nu = 1.0 / 6.0;
  for (const double y : {0.0, 10.0, -30.0})
    for (int i = -9; i <= 9; ++i) {
      const double x = 0.1 * i;
      const double plane = plane_poiseuille(x, 2 * a, g, nu);
      EXPECT_NEAR(duct_poiseuille(x, y, a, b, g, nu) / plane, 1.0, 1e-6) << x << ", " << y;
    }
  EXPECT_DOUBLE_EQ(plane_poiseuille(0.0, 2.0, 1.0, 0.5), 1.0);
  EXPECT_EQ(plane_poiseuille(1.0, 2.0, 1.0, 0.5), 0.0);
}

TEST(LbmReference, DuctSeriesSolvesPoissonWithSecondOrderLaplacian) {
  const double a = 1.0, b = 0.6, g = 3.0, nu = 0.5;
  const auto laplacian_error = [&](double h) {
    double worst = 0.0;
    for (const double x : {0.0, 0.35, -0.7})
      for (const double y : {0.0, 0.25, -0.4}) {
        const double u = duct_poiseuille(x, y, a, b, g, nu);
        const double lap = (duct_poiseuille(x + h, y, a, b, g, nu) + duct_poiseuille(x - h, y, a, b, g, nu) +
                            duct_poiseuille(x, y + h, a, b, g, nu) + duct_poiseuille(x, y - h, a, b, g, nu) - 4 * u) /
                           (h * h);
        worst = std::max(worst, std::abs(lap + g / nu));
      }
    return worst;
  };
  const double coarse = laplacian_error(0.02), fine = laplacian_error(0.01);
  EXPECT_LT(fine, 1e-3 * g / nu);
  EXPECT_NEAR(coarse / fine, 4.0, 0.2);  // second order: the error is truncation, not a wrong equation
}

TEST(LbmReference, DuctVelocityVanishesOnTheWalls) {
  const double a = 1.3, b = 0.8, g = 1.0, nu = 1.0;
  const double scale = a * a * g / nu;
  for (int i = -10; i <= 10; ++i) {
    const double s = 0.099 * i;
    EXPECT_LT(std::abs(duct_poiseuille(a, s * b, a, b, g, nu)), 1e-12 * scale);
    EXPECT_LT(std::abs(duct_poiseuille(s * a, -b, a, b, g, nu)), 1e-12 * scale);
    // Just inside, the series itself must go to zero, not a special case.
    EXPECT_LT(std::abs(duct_poiseuille(a * (1 - 1e-13), s * b, a, b, g, nu)), 1e-12 * scale);
    EXPECT_LT(std::abs(duct_poiseuille(s * a, b * (1 - 1e-13), a, b, g, nu)), 1e-12 * scale);
  }
}

TEST(LbmReference, SquareDuctFlowRateIsTheTabulatedConstant) {
  const double a = 2.0, g = 1e-4, nu = 0.2;
  const double q = 4 * a * a * duct_poiseuille_mean(a, a, g, nu);
  EXPECT_NEAR(q / (a * a * a * a * g / nu), 0.5623, 1e-4 * 0.5623);
  // The mean series against a midpoint-rule integral of the velocity series, for a 2:1 duct both ways.
  for (const auto& [aa, bb] : {std::pair{1.0, 2.0}, std::pair{2.0, 1.0}}) {
    const int m = 200;
    double integral = 0.0;
    for (int j = 0; j < m; ++j)
      for (int i = 0; i < m; ++i)
        integral += duct_poiseuille(-aa + (i + 0.5) * 2 * aa / m, -bb + (j + 0.5) * 2 * bb / m, aa, bb, g, nu);
    EXPECT_NEAR(integral / (m * m) / duct_poiseuille_mean(aa, bb, g, nu), 1.0, 1e-4);
  }
}

TEST(LbmReference, LatticeDuctPutsTheWallHalfACellOutside) {
  const LatticeDuct d = lattice_duct(34, 20);
  EXPECT_DOUBLE_EQ(d.a, 16.0);
  EXPECT_DOUBLE_EQ(d.b, 9.0);
  EXPECT_DOUBLE_EQ(d.x(1), -15.5);
  EXPECT_DOUBLE_EQ(d.x(32), 15.5);
  EXPECT_DOUBLE_EQ(d.y(1), -8.5);
  const auto u = lattice_duct_profile(34, 20, 1e-6, 0.1);
  ASSERT_EQ(u.size(), 34u * 20u);
  EXPECT_EQ(u[0 + 34 * 5], 0.0);
  EXPECT_EQ(u[33 + 34 * 5], 0.0);
  EXPECT_EQ(u[7 + 34 * 19], 0.0);
  EXPECT_GT(u[1 + 34 * 1], 0.0);
  EXPECT_DOUBLE_EQ(u[1 + 34 * 7], u[32 + 34 * 7]);  // symmetric
  EXPECT_DOUBLE_EQ(u[5 + 34 * 1], u[5 + 34 * 18]);
  EXPECT_THROW(lattice_duct(2, 10), std::invalid_argument);
}

TEST(LbmReference, LaplaceFitRecoversALine) {
  const std::vector<double> radii{6, 8, 10, 14, 20};
  std::vector<double> dp;
  for (const double r : radii) dp.push_back(0.12 / r + 3e-4);
  LaplaceFit fit = laplace_fit(radii, dp);
  EXPECT_NEAR(fit.sigma, 0.12, 1e-14);
  EXPECT_NEAR(fit.intercept, 3e-4, 1e-15);
  EXPECT_NEAR(fit.r_squared, 1.0, 1e-12);

  const double noise[] = {2e-4, -3e-4, 1e-4, 3e-4, -2e-4};
  for (std::size_t i = 0; i < dp.size(); ++i) dp[i] += noise[i];
  fit = laplace_fit(radii, dp);
  EXPECT_LT(fit.r_squared, 1.0);
  EXPECT_GT(fit.r_squared, 0.9);
  EXPECT_NEAR(fit.sigma, 0.12, 0.02);

  EXPECT_THROW(laplace_fit(std::vector<double>{5}, std::vector<double>{1}), std::invalid_argument);
  EXPECT_THROW(laplace_fit(std::vector<double>{5, 5}, std::vector<double>{1, 2}), std::invalid_argument);
  EXPECT_THROW(laplace_fit(std::vector<double>{5, 0}, std::vector<double>{1, 2}), std::invalid_argument);
  EXPECT_THROW(laplace_fit(std::vector<double>{5, 6}, std::vector<double>{1}), std::invalid_argument);
}

TEST(LbmReference, DarcyPermeability) {
  EXPECT_DOUBLE_EQ(darcy_permeability(2e-3, 0.1, 1e-5), 20.0);
  EXPECT_THROW(darcy_permeability(1.0, 0.1, 0.0), std::invalid_argument);
  EXPECT_THROW(darcy_permeability(1.0, -0.1, 1.0), std::invalid_argument);
}

}  // namespace
}  // namespace hetflow::lbm
