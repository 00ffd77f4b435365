#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "hetflow/mrag/wavelets.hpp"

namespace hetflow::mrag {
namespace {

// The average of x^d over [a, b].
double average(int d, double a, double b) { return (std::pow(b, d + 1) - std::pow(a, d + 1)) / ((d + 1) * (b - a)); }

// Coarse cells of width 1 at k − 2 .. k + 2 around cell [k, k + 1]: the children's averages of x^d are
// predicted exactly for d ≤ 4, and not for d = 5.
TEST(MragWavelets, PredictionIsExactForPolynomialsUpToDegreeFour) {
  const double k = 3;
  for (int d = 0; d <= 5; ++d) {
    std::array<double, 5> c{};
    for (int m = 0; m < 5; ++m) c[m] = average(d, k + m - 2, k + m - 1);
    const double left = average(d, k, k + 0.5), right = average(d, k + 0.5, k + 1);
    const double scale = std::pow(k + 3, d);
    if (d <= 4) {
      EXPECT_NEAR(predict_child(c, 0), left, 1e-13 * scale) << "degree " << d;
      EXPECT_NEAR(predict_child(c, 1), right, 1e-13 * scale) << "degree " << d;
    } else {
      EXPECT_GT(std::abs(predict_child(c, 0) - left), 1e-6 * scale) << "degree 5 is beyond the quartic";
    }
    EXPECT_NEAR(0.5 * (predict_child(c, 0) + predict_child(c, 1)), c[2], 1e-14 * scale) << "mean, degree " << d;
  }
}

// x^a y^b with a, b ≤ 4: the tensor prediction is exact for products of
// quartics.
TEST(MragWavelets, TensorPredictionIsExactForProductsOfQuartics) {
  for (int a = 0; a <= 4; ++a)
    for (int b = 0; b <= 4; ++b) {
      std::array<std::array<double, 5>, 5> c{};
      for (int n = 0; n < 5; ++n)
        for (int m = 0; m < 5; ++m) c[n][m] = average(a, m - 2, m - 1) * average(b, n - 2, n - 1);
      for (int sx = 0; sx < 2; ++sx)
        for (int sy = 0; sy < 2; ++sy) {
          const double exact = average(a, 0.5 * sx, 0.5 * sx + 0.5) * average(b, 0.5 * sy, 0.5 * sy + 0.5);
          EXPECT_NEAR(predict_child_2d(c, sx, sy), exact, 1e-13) << a << " " << b << " " << sx << sy;
        }
    }
}

TEST(MragWavelets, ForwardThenInverseReturnsTheSignal) {
  std::mt19937 random(7);
  std::uniform_real_distribution<double> value(-1, 1);
  std::vector<double> fine(64);
  for (double& f : fine) f = value(random);
  const std::vector<double> back = inverse_periodic(forward_periodic(fine));
  ASSERT_EQ(back.size(), fine.size());
  for (std::size_t i = 0; i < fine.size(); ++i) EXPECT_NEAR(back[i], fine[i], 1e-15) << i;
}

// A smooth periodic signal has details that fall at fifth order: 2^5 per halving of the cell.
TEST(MragWavelets, DetailsOfASmoothSignalFallAtFifthOrder) {
  std::vector<double> largest;
  for (int n : {32, 64}) {
    std::vector<double> fine;
    const double h = 2 * M_PI / n;
    for (int i = 0; i < n; ++i) fine.push_back((std::cos(i * h) - std::cos((i + 1) * h)) / h);
    double m = 0;
    for (double d : forward_periodic(fine).detail) m = std::max(m, std::abs(d));
    largest.push_back(m);
  }
  EXPECT_GT(std::log2(largest[0] / largest[1]), 4.8) << largest[0] << " " << largest[1];
}

}  // namespace
}  // namespace hetflow::mrag
