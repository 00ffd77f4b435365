#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "hetflow/core/error.hpp"
#include "hetflow/optim/exhaustive.hpp"
#include "hetflow/optim/levenberg_marquardt.hpp"
#include "hetflow/optim/nelder_mead.hpp"
#include "hetflow/optim/nlcg.hpp"
#include "problems.hpp"

namespace hetflow::optim {
namespace {

// Rosenbrock (value and residuals) whose candidate `index` of call `call` (0-based) fails.
BatchObjective failing_at(std::size_t call, std::size_t index, std::size_t* calls) {
  return [=](std::span<const Point> points) {
    std::vector<Evaluation> out;
    for (std::size_t k = 0; k < points.size(); ++k) {
      if (*calls == call && k == index) {
        out.push_back(Evaluation::failed("forward model diverged"));
      } else {
        out.push_back(Evaluation::of_residuals(test::rosenbrock_residuals(points[k])));
      }
    }
    ++*calls;
    return out;
  };
}

// One failing finite-difference point with OnFailure::skip: reported once, the gradient falls back to a
// one-sided difference, and the run still reaches (1, 1) to 1e-6.
TEST(Failures, NlcgSkipsAndReports) {
  std::size_t calls = 0;
  NlcgOptions options;
  options.run.on_failure = OnFailure::skip;
  const Result r = nlcg(failing_at(1, 1, &calls), test::rosenbrock_start(2), options);
  ASSERT_EQ(r.failures.size(), 1u);
  EXPECT_EQ(r.failures[0].reason, "forward model diverged");
  EXPECT_EQ(r.failures[0].batch, 1u);  // the first gradient
  for (double v : r.best) EXPECT_NEAR(v, 1.0, 1e-6);
}

// The same failure with OnFailure::stop ends the run at once: the stop reason names point and reason,
// the best point so far is returned, and every candidate of the failing batch is counted.
TEST(Failures, NlcgStopsAndReports) {
  std::size_t calls = 0;
  const Result r = nlcg(failing_at(1, 1, &calls), test::rosenbrock_start(2), {});
  EXPECT_FALSE(r.converged);
  EXPECT_EQ(calls, 2u);
  EXPECT_EQ(r.batches, 2u);
  EXPECT_EQ(r.evaluations, 5u);  // the start and all four points of the gradient
  ASSERT_EQ(r.failures.size(), 1u);
  EXPECT_EQ(r.stop_reason, "the objective failed at " + point_text(r.failures[0].point) + ": forward model diverged");
  EXPECT_EQ(r.best, test::rosenbrock_start(2));  // the best so far: the start
  EXPECT_EQ(r.value, 0.5 * test::rosenbrock(test::rosenbrock_start(2)));
}

// A failing line-search trial (skip) and a failing Jacobian point (skip): LM still converges.
TEST(Failures, LevenbergMarquardtSkips) {
  for (std::size_t call : {1u, 2u}) {
    std::size_t calls = 0;
    LevenbergMarquardtOptions options;
    options.run.on_failure = OnFailure::skip;
    const Result r = levenberg_marquardt(failing_at(call, 0, &calls), test::rosenbrock_start(2), options);
    EXPECT_EQ(r.failures.size(), 1u);
    EXPECT_TRUE(r.converged) << r.stop_reason;
    for (double v : r.best) EXPECT_NEAR(v, 1.0, 1e-6);
  }
}

// A failing vertex of the initial simplex counts as +∞ under skip; the simplex moves on.
TEST(Failures, NelderMeadSkips) {
  std::size_t calls = 0;
  NelderMeadOptions options;
  options.run.on_failure = OnFailure::skip;
  options.run.max_evaluations = 2000;
  const Result r = nelder_mead(failing_at(0, 2, &calls), {0.5, 0.5}, options);
  EXPECT_EQ(r.failures.size(), 1u);
  for (double v : r.best) EXPECT_NEAR(v, 1.0, 1e-4);
}

TEST(Failures, FailedStartEndsTheRun) {
  std::size_t calls = 0;
  NlcgOptions options;
  options.run.on_failure = OnFailure::skip;
  const Result r = nlcg(failing_at(0, 0, &calls), {0.0, 0.0}, options);
  EXPECT_EQ(r.stop_reason, "the objective failed at the start: forward model diverged");
  EXPECT_EQ(r.evaluations, 1u);
}

// Non-finite answers become failures that say what was wrong.
TEST(Failures, NonFiniteValuesAreFailures) {
  EXPECT_EQ(normalised(Evaluation::of(std::nan(""))).failure, "the objective value is nan");
  EXPECT_EQ(normalised(Evaluation::of_residuals({1.0, INFINITY})).failure, "residual 1 is inf");
  EXPECT_EQ(normalised(Evaluation::of_residuals({3.0, 4.0})).value, 12.5);
  EXPECT_EQ(Evaluation::failed("").failure, "the objective reported a failure without a reason");
}

// Exhaustive search under skip evaluates everything and reports each failure; under stop it ends after
// the batch holding the first failure, keeping that batch's results.
TEST(Failures, ExhaustiveSkipOrStop) {
  const Space space({Parameter::integer("a", 0, 9), Parameter::integer("b", 0, 9)});
  const BatchObjective objective = [](std::span<const Point> points) {
    std::vector<Evaluation> out;
    for (const Point& p : points)
      out.push_back(p[0] == 3 ? Evaluation::failed("a = 3 is unsupported") : Evaluation::of(std::abs(p[0] - 3.5) + p[1]));
    return out;
  };
  const Result skipped = exhaustive_search(space, objective, {10, {.on_failure = OnFailure::skip}});
  EXPECT_EQ(skipped.evaluations, 100u);
  EXPECT_EQ(skipped.failures.size(), 10u);
  EXPECT_EQ(skipped.best, (Point{4, 0}));
  EXPECT_TRUE(skipped.converged);
  const Result stopped = exhaustive_search(space, objective, {10, {.on_failure = OnFailure::stop}});
  EXPECT_EQ(stopped.evaluations, 40u);
  EXPECT_EQ(stopped.failures.size(), 10u);
  EXPECT_EQ(stopped.best, (Point{2, 0}));
  EXPECT_FALSE(stopped.converged);
}

// A broken objective contract is a programming error, not a candidate failure.
TEST(Failures, WrongNumberOfAnswersIsAnError) {
  const BatchObjective short_answer = [](std::span<const Point>) { return std::vector<Evaluation>{}; };
  EXPECT_THROW(nlcg(short_answer, {0.0}, {}), core::Error);
}

}  // namespace
}  // namespace hetflow::optim
