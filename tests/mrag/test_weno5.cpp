#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "hetflow/mrag/weno5.hpp"

namespace hetflow::mrag {
namespace {

// The averages of sin over the cells [x0 + j h, x0 + (j + 1) h], j = −2..2; cell 0's right face is x0 + h.
std::vector<double> sine_averages(double h, double x0) {
  std::vector<double> f;
  for (int j = -2; j <= 2; ++j) {
    const double left = x0 + j * h, right = left + h;
    f.push_back((std::cos(left) - std::cos(right)) / h);
  }
  return f;
}

TEST(MragWeno5, SmoothnessIndicatorsAreMirrorImages) {
  const std::array<double, 3> is = weno5_smoothness(0.3, -1.2, 2.5, 0.7, 4.1);
  const std::array<double, 3> mirrored = weno5_smoothness(4.1, 0.7, 2.5, -1.2, 0.3);
  EXPECT_DOUBLE_EQ(is[0], mirrored[2]);
  EXPECT_DOUBLE_EQ(is[2], mirrored[0]);
  EXPECT_DOUBLE_EQ(is[1], mirrored[1]);
}

// Constants and linear data are reproduced by every candidate, so by any blend of them.
TEST(MragWeno5, ReproducesConstantAndLinearDataExactly) {
  EXPECT_EQ(weno5_face(2.5, 2.5, 2.5, 2.5, 2.5), 2.5);
  // Averages of 3x + 1 over unit cells centred at -2..2: the face at x = 0.5 has 2.5.
  EXPECT_NEAR(weno5_face(-5, -2, 1, 4, 7), 2.5, 1e-14);
}

// Smooth data: the face error of sin falls 2^5 = 32 times per halving of h (measured between h = 0.2 and
// 0.1 at a face where sin' and sin'' are both order one).
TEST(MragWeno5, IsFifthOrderOnSmoothData) {
  std::vector<double> errors;
  for (double h : {0.2, 0.1, 0.05}) {
    const std::vector<double> f = sine_averages(h, 0.7 - h);
    errors.push_back(std::abs(weno5_face(f[0], f[1], f[2], f[3], f[4]) - std::sin(0.7)));
  }
  EXPECT_GT(std::log2(errors[0] / errors[1]), 4.5) << errors[0] << " " << errors[1];
  EXPECT_GT(std::log2(errors[1] / errors[2]), 4.5) << errors[1] << " " << errors[2];
}

// A step: the face value stays between the data's bounds, within 1e-3 of the side it is reconstructed from.
TEST(MragWeno5, StaysNonOscillatoryAtAStep) {
  const double v = weno5_face(1, 1, 1, 0, 0);
  EXPECT_GE(v, 0.0);
  EXPECT_LE(v, 1.0);
  EXPECT_NEAR(v, 1.0, 1e-3);
  EXPECT_NEAR(weno5_face(1, 1, 0, 0, 0), 0.0, 1e-3);
}

}  // namespace
}  // namespace hetflow::mrag
