#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "hetflow/optim/nlcg.hpp"
#include "problems.hpp"

namespace hetflow::optim {
namespace {

using test::rosenbrock_objective;
using test::rosenbrock_start;

// PR+ on Rosenbrock from the standard start: the minimum (1, …, 1) to 1e-6 in every coordinate. The run
// may end on the resolution of the values rather than on the gradient tolerance (the central-difference
// bias h²f'''/6 ≈ 1e-8 at the minimum), so `converged` is not asserted.
TEST(Nlcg, PolakRibiereFindsRosenbrockMinimum) {
  for (std::size_t n : {2u, 10u}) {
    NlcgOptions options;
    options.run.max_evaluations = 5000;
    const Result r = nlcg(rosenbrock_objective(), rosenbrock_start(n), options);
    SCOPED_TRACE("n = " + std::to_string(n) + ": " + r.stop_reason);
    ASSERT_EQ(r.best.size(), n);
    for (double v : r.best) EXPECT_NEAR(v, 1.0, 1e-6);
    EXPECT_LT(r.value, 1e-12);
  }
}

// f = ½(x − x*)ᵀA(x − x*) with A = tridiag(−1, 4, −1): FR with its near-exact line search is CG on a
// quadratic, so it reaches x* to 1e-10 in at most n iterations (FR restarts only every n).
TEST(Nlcg, FletcherReevesSolvesQuadraticInNIterations) {
  constexpr std::size_t n = 8;
  Point target(n);
  for (std::size_t i = 0; i < n; ++i) target[i] = 0.5 + 0.25 * static_cast<double>(i);
  const auto quadratic = [target](const Point& x) {
    double f = 0;
    for (std::size_t i = 0; i < n; ++i) {
      double ax = 4 * (x[i] - target[i]);
      if (i > 0) ax -= x[i - 1] - target[i - 1];
      if (i + 1 < n) ax -= x[i + 1] - target[i + 1];
      f += 0.5 * (x[i] - target[i]) * ax;
    }
    return Evaluation::of(f);
  };
  NlcgOptions options;
  options.update = ConjugateUpdate::fletcher_reeves;
  options.gradient_tolerance = 1e-9;
  const Result r = nlcg(test::batch_of(quadratic), Point(n, 0.0), options);
  SCOPED_TRACE(r.stop_reason);
  EXPECT_TRUE(r.converged);
  EXPECT_LE(r.iterations, n);
  for (std::size_t i = 0; i < n; ++i) EXPECT_NEAR(r.best[i], target[i], 1e-10);
}

// Rosenbrock on x ≤ 0.5: the minimum moves to the bound, (0.5, 0.25), found to 1e-8; no point requested
// (line-search trials and finite-difference points alike) leaves the box.
TEST(Nlcg, ActiveBoundHoldsMinimumAndPointsStayInBox) {
  const Bounds box({-2.0, -2.0}, {0.5, 2.0});
  bool left_box = false;
  NlcgOptions options;
  options.bounds = box;
  const Result r = nlcg(rosenbrock_objective(nullptr, &box, &left_box), rosenbrock_start(2), options);
  SCOPED_TRACE(r.stop_reason);
  EXPECT_FALSE(left_box);
  EXPECT_NEAR(r.best[0], 0.5, 1e-8);
  EXPECT_NEAR(r.best[1], 0.25, 1e-8);
  EXPECT_NEAR(r.value, 0.25, 1e-12);
}

// A start on the active bound with infinite limits elsewhere: still found, still inside.
TEST(Nlcg, StartOnBoundWithInfiniteLimits) {
  const double inf = std::numeric_limits<double>::infinity();
  const Bounds box({-inf, -inf}, {0.5, inf});
  bool left_box = false;
  NlcgOptions options;
  options.bounds = box;
  options.update = ConjugateUpdate::fletcher_reeves;
  const Result r = nlcg(rosenbrock_objective(nullptr, &box, &left_box), {0.5, -1.0}, options);
  SCOPED_TRACE(r.stop_reason);
  EXPECT_FALSE(left_box);
  EXPECT_NEAR(r.best[0], 0.5, 1e-8);
  EXPECT_NEAR(r.best[1], 0.25, 1e-8);
}

// The budget is honoured: the run stops before a batch that would exceed it and says so.
TEST(Nlcg, StopsAtEvaluationBudget) {
  NlcgOptions options;
  options.run.max_evaluations = 40;
  const Result r = nlcg(rosenbrock_objective(), rosenbrock_start(2), options);
  EXPECT_FALSE(r.converged);
  EXPECT_LE(r.evaluations, 40u);
  EXPECT_NE(r.stop_reason.find("budget of 40 evaluations"), std::string::npos) << r.stop_reason;
  EXPECT_LT(r.value, test::rosenbrock(rosenbrock_start(2)));
}

// keep_going is asked before every batch with the evaluations done so far (rising from 0); the run stops
// where it first says no, says why, and keeps its best point.
TEST(Nlcg, ACallerStopsTheRunThroughKeepGoing) {
  std::vector<std::size_t> asked;
  NlcgOptions options;
  options.run.max_evaluations = 5000;
  options.run.keep_going = [&](std::size_t evaluations) {
    asked.push_back(evaluations);
    return evaluations < 30;
  };
  const Result r = nlcg(rosenbrock_objective(), rosenbrock_start(2), options);
  EXPECT_FALSE(r.converged);
  EXPECT_EQ(r.stop_reason, "stopped by its caller");
  ASSERT_FALSE(asked.empty());
  EXPECT_EQ(asked.front(), 0u);
  EXPECT_TRUE(std::is_sorted(asked.begin(), asked.end()));
  EXPECT_GE(asked.back(), 30u);
  EXPECT_EQ(r.evaluations, asked.back());
  EXPECT_LT(r.value, test::rosenbrock(rosenbrock_start(2)));
}

}  // namespace
}  // namespace hetflow::optim
