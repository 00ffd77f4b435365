#include <gtest/gtest.h>

#include "hetflow/core/error.hpp"
#include "hetflow/optim/levenberg_marquardt.hpp"
#include "problems.hpp"

namespace hetflow::optim {
namespace {

using test::rosenbrock_least_squares;
using test::rosenbrock_start;

// Rosenbrock as residuals (10(y − x²), 1 − x): the minimum (1, …, 1) to 1e-6 for both difference schemes.
TEST(LevenbergMarquardt, FindsRosenbrockMinimum) {
  for (std::size_t n : {2u, 10u}) {
    for (Difference scheme : {Difference::central, Difference::forward}) {
      LevenbergMarquardtOptions options;
      options.jacobian.scheme = scheme;
      const Result r = levenberg_marquardt(rosenbrock_least_squares(), rosenbrock_start(n), options);
      SCOPED_TRACE("n = " + std::to_string(n) + ": " + r.stop_reason);
      EXPECT_TRUE(r.converged);
      for (double v : r.best) EXPECT_NEAR(v, 1.0, 1e-6);
      EXPECT_EQ(r.residuals.size(), n);
      EXPECT_LT(r.value, 1e-12);
    }
  }
}

// x ≤ 0.5 makes the bound active: (0.5, 0.25) to 1e-8, every requested point inside the box.
TEST(LevenbergMarquardt, ActiveBoundHoldsMinimumAndPointsStayInBox) {
  const Bounds box({-2.0, -2.0}, {0.5, 2.0});
  bool left_box = false;
  LevenbergMarquardtOptions options;
  options.bounds = box;
  const Result r = levenberg_marquardt(rosenbrock_least_squares(nullptr, &box, &left_box), rosenbrock_start(2), options);
  SCOPED_TRACE(r.stop_reason);
  EXPECT_TRUE(r.converged);
  EXPECT_FALSE(left_box);
  EXPECT_NEAR(r.best[0], 0.5, 1e-8);
  EXPECT_NEAR(r.best[1], 0.25, 1e-8);
  EXPECT_NEAR(r.value, 0.125, 1e-12);  // ½‖r‖² = ½(1 − 0.5)²
}

TEST(LevenbergMarquardt, NeedsResiduals) {
  EXPECT_THROW(levenberg_marquardt(test::rosenbrock_objective(), {0.0, 0.0}, {}), core::Error);
}

}  // namespace
}  // namespace hetflow::optim
