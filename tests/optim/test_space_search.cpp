#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "hetflow/core/error.hpp"
#include "hetflow/optim/exhaustive.hpp"
#include "hetflow/optim/simulated_annealing.hpp"

namespace hetflow::optim {
namespace {

// The autotuner's kind of space: threads 1…64 × algorithm × a tuning constant on a 0.02 grid,
// 64 · 4 · 51 = 13056 points.
Space toy_space(Space::Constraint feasible = {}) {
  return Space({Parameter::integer("threads", 1, 64), Parameter::categorical("algorithm", {"pcr", "cr", "sweep", "thomas"}),
                Parameter::real("rc", 0.0, 1.0, 0.02)},
               std::move(feasible));
}

// A bowl in threads and rc, plus a cost per algorithm; the unique minimum 0 is at (37, sweep, 0.62).
double toy_cost(const Point& p) {
  static constexpr double algorithm_cost[] = {0.5, 0.8, 0.0, 0.3};
  const double t = p[0] - 37, rc = p[2] - 0.62;
  return t * t / 100 + algorithm_cost[static_cast<int>(p[1])] + 4 * rc * rc;
}

BatchObjective counted(std::size_t* evaluations, std::set<Point>* seen = nullptr) {
  return [evaluations, seen](std::span<const Point> points) {
    std::vector<Evaluation> out;
    for (const Point& p : points) {
      ++*evaluations;
      if (seen) seen->insert(p);
      out.push_back(Evaluation::of(toy_cost(p)));
    }
    return out;
  };
}

TEST(Space, SizesAndEnumeration) {
  const Space space = toy_space();
  EXPECT_EQ(space.parameters()[2].size(), 51u);  // 0, 0.02, …, 1 despite 1/0.02 rounding
  ASSERT_TRUE(space.size());
  EXPECT_EQ(*space.size(), 64u * 4u * 51u);
  EXPECT_EQ(space.at(0), (Point{1, 0, 0.0}));
  EXPECT_EQ(space.at(*space.size() - 1), (Point{64, 3, 1.0}));
  EXPECT_TRUE(space.contains({37, 2, 0.62}));
  EXPECT_FALSE(space.contains({37, 4, 0.62}));
  EXPECT_FALSE(space.contains({37.5, 2, 0.62}));
  EXPECT_EQ(space.describe({37, 2, 0.62}), "threads=37, algorithm=sweep, rc=0.62");
  EXPECT_FALSE(Space({Parameter::real("rc", 0, 1)}).size());  // continuous: no count
}

TEST(Space, InvalidParametersNameThemselves) {
  EXPECT_THROW(Space({Parameter::categorical("algorithm", {})}), core::Error);
  EXPECT_THROW(Space({Parameter::integer("threads", 8, 1)}), core::Error);
  EXPECT_THROW(Space({Parameter::real("rc", 1, 1)}), core::Error);
  try {
    Space({Parameter::integer("threads", 1, 8, 0)});
    FAIL();
  } catch (const core::Error& e) {
    EXPECT_EQ(std::string(e.what()), "parameter 'threads': the step 0 must be positive");
  }
}

// Exhaustive search evaluates exactly the product of the sizes, each point once, and returns the argmin.
TEST(Exhaustive, EnumeratesProductOfSizes) {
  std::size_t evaluations = 0;
  std::set<Point> seen;
  const Result r = exhaustive_search(toy_space(), counted(&evaluations, &seen), {64, {.max_evaluations = 20000}});
  EXPECT_EQ(evaluations, 13056u);
  EXPECT_EQ(seen.size(), 13056u);
  EXPECT_EQ(r.evaluations, 13056u);
  EXPECT_EQ(r.batches, 204u);  // 13056 / 64
  EXPECT_TRUE(r.converged);
  EXPECT_EQ(r.best, (Point{37, 2, 0.62}));
  EXPECT_EQ(r.value, 0.0);
}

// Infeasible points are neither evaluated nor counted.
TEST(Exhaustive, SkipsInfeasiblePoints) {
  std::size_t evaluations = 0;
  const Space space = toy_space([](const Point& p) { return static_cast<int>(p[0]) % 2 == 0; });  // even threads only
  const Result r = exhaustive_search(space, counted(&evaluations), {100, {.max_evaluations = 20000}});
  EXPECT_EQ(evaluations, 32u * 4u * 51u);
  EXPECT_EQ(r.best, (Point{36, 2, 0.62}));
}

TEST(Exhaustive, RefusesContinuousOrOversizedSpaces) {
  std::size_t evaluations = 0;
  EXPECT_THROW(exhaustive_search(Space({Parameter::real("rc", 0, 1)}), counted(&evaluations), {}), core::Error);
  EXPECT_THROW(exhaustive_search(toy_space(), counted(&evaluations), {64, {.max_evaluations = 1000}}), core::Error);
  EXPECT_EQ(evaluations, 0u);
}

AnnealingOptions toy_annealing(std::uint64_t seed) {
  AnnealingOptions o;
  o.start = {8, 0, 0.2};
  o.cooling = 0.97;
  o.seed = seed;
  return o;
}

// With seed 7, SA finds the exact optimum of the 13056-point toy with far fewer evaluations than
// exhaustive search (asserted: under 1500, a ninth of it).
TEST(SimulatedAnnealing, FindsMixedSpaceOptimumWithFewerEvaluations) {
  std::size_t evaluations = 0;
  const Result r = simulated_annealing(toy_space(), counted(&evaluations), toy_annealing(7));
  SCOPED_TRACE(r.stop_reason);
  EXPECT_EQ(r.best, (Point{37, 2, 0.62}));
  EXPECT_EQ(r.value, 0.0);
  EXPECT_EQ(r.evaluations, evaluations);
  EXPECT_LT(evaluations, 1500u);
  EXPECT_TRUE(r.converged);
}

// Over 20 seeds, the optimum is found in at least 19 (95 %).
TEST(SimulatedAnnealing, FindsOptimumForMostSeeds) {
  int found = 0;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    std::size_t evaluations = 0;
    const Result r = simulated_annealing(toy_space(), counted(&evaluations), toy_annealing(seed));
    found += r.best == Point{37, 2, 0.62};
  }
  EXPECT_GE(found, 19);
}

// A seed fixes the run: the same seed gives the same evaluations in the same order.
TEST(SimulatedAnnealing, ReproducibleForASeed) {
  const auto trace = [](std::uint64_t seed) {
    std::vector<Point> order;
    const BatchObjective objective = [&order](std::span<const Point> points) {
      std::vector<Evaluation> out;
      for (const Point& p : points) {
        order.push_back(p);
        out.push_back(Evaluation::of(toy_cost(p)));
      }
      return out;
    };
    simulated_annealing(toy_space(), objective, toy_annealing(seed));
    return order;
  };
  EXPECT_EQ(trace(3), trace(3));
  EXPECT_NE(trace(3), trace(4));
}

// Memoised and feasible: no point is evaluated twice, and no infeasible point at all.
TEST(SimulatedAnnealing, EvaluatesEachFeasiblePointOnce) {
  std::size_t evaluations = 0;
  std::set<Point> seen;
  const Space space = toy_space([](const Point& p) { return p[1] != 1; });  // never "cr"
  const Result r = simulated_annealing(space, counted(&evaluations, &seen), toy_annealing(5));
  EXPECT_EQ(seen.size(), evaluations);
  for (const Point& p : seen) EXPECT_NE(p[1], 1.0);
  EXPECT_EQ(r.best, (Point{37, 2, 0.62}));
}

TEST(SimulatedAnnealing, RejectsStartOutsideTheSpace) {
  std::size_t evaluations = 0;
  AnnealingOptions o;
  o.start = {65, 0, 0.2};
  EXPECT_THROW(simulated_annealing(toy_space(), counted(&evaluations), o), core::Error);
  EXPECT_EQ(evaluations, 0u);
}

// A continuous parameter: SA gets close to its optimum (within 0.05) and keeps it in range.
TEST(SimulatedAnnealing, ContinuousParameter) {
  const Space space({Parameter::integer("threads", 1, 64), Parameter::real("rc", 0.0, 1.0)});
  std::size_t evaluations = 0;
  const BatchObjective objective = [&evaluations](std::span<const Point> points) {
    std::vector<Evaluation> out;
    for (const Point& p : points) {
      ++evaluations;
      EXPECT_TRUE(p[1] >= 0 && p[1] <= 1);
      const double t = p[0] - 20, rc = p[1] - 0.3;
      out.push_back(Evaluation::of(t * t / 100 + 4 * rc * rc));
    }
    return out;
  };
  AnnealingOptions o;
  o.start = {60, 0.9};
  o.cooling = 0.97;
  const Result r = simulated_annealing(space, objective, o);
  EXPECT_EQ(r.best[0], 20.0);
  EXPECT_NEAR(r.best[1], 0.3, 0.05);
}

}  // namespace
}  // namespace hetflow::optim
