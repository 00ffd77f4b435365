#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "hetflow/core/error.hpp"
#include "hetflow/optim/nlcg.hpp"
#include "hetflow/optim/spread.hpp"
#include "world.hpp"

namespace hetflow::optim {
namespace {

// Residuals (x, 2x) for x < 5; a failure with a reason longer than one packed word at x = 5.
Evaluation answer(const Point& p) {
  if (p[0] == 5) return Evaluation::failed("the model rejected x = 5 (negative velocity)");
  return Evaluation::of_residuals({p[0], 2 * p[0]});
}

std::vector<Evaluation> answers(std::span<const Point> batch) {
  std::vector<Evaluation> out;
  for (const Point& p : batch) out.push_back(normalised(answer(p)));
  return out;
}

TEST(MpiSpreadObjective, EvaluatesEachShareOnceAndGivesEveryRankTheWholeBatch) {
  mpi::Communicator& world = test::world();
  std::vector<Point> batch;
  for (int k = 0; k < 7; ++k) batch.push_back({static_cast<double>(k), 0.5});
  std::vector<double> seen;
  const BatchObjective spread = spread_over(world, [&](std::span<const Point> mine) {
    for (const Point& p : mine) seen.push_back(p[0]);
    return answers(mine);
  });
  const std::vector<Evaluation> got = spread(batch);
  const std::vector<Evaluation> expected = answers(batch);
  ASSERT_EQ(got.size(), expected.size());
  for (std::size_t k = 0; k < got.size(); ++k) {
    EXPECT_EQ(got[k].failure, expected[k].failure) << "point " << k;
    EXPECT_EQ(got[k].residuals, expected[k].residuals) << "point " << k;
    if (expected[k].ok()) {
      EXPECT_EQ(got[k].value, expected[k].value) << "point " << k;
    }
  }
  // Rank r of P evaluated exactly points [7 r / P, 7 (r + 1) / P).
  std::vector<double> share;
  for (std::size_t k = 7 * world.rank() / world.size(); k < 7 * (world.rank() + 1) / world.size(); ++k)
    share.push_back(static_cast<double>(k));
  EXPECT_EQ(seen, share);
}

TEST(MpiSpreadObjective, AnExceptionOnOneRankThrowsOnEveryRank) {
  mpi::Communicator& world = test::world();
  const std::vector<Point> batch{{0}, {1}, {2}, {3}};
  const BatchObjective spread = spread_over(world, [&](std::span<const Point> mine) -> std::vector<Evaluation> {
    if (world.rank() == world.size() - 1) throw std::runtime_error("device lost");
    return answers(mine);
  });
  if (world.rank() == world.size() - 1) {
    EXPECT_THROW(spread(batch), std::runtime_error);
  } else {
    try {
      spread(batch);
      ADD_FAILURE() << "no exception on rank " << world.rank();
    } catch (const core::Error& e) {
      EXPECT_NE(std::string(e.what()).find("process " + std::to_string(world.size() - 1) + " failed: device lost"),
                std::string::npos)
          << e.what();
    }
  }
  // The ranks are still in step: a following batch completes everywhere.
  EXPECT_EQ(spread_over(world, answers)(batch).size(), batch.size());
}

TEST(MpiSpreadObjective, NlcgTakesTheSameStepsAsOnOneProcess) {
  mpi::Communicator& world = test::world();
  // Rosenbrock in 3 unknowns, least squares: residuals 10 (x_{i+1} - x_i^2), 1 - x_i.
  const BatchObjective rosenbrock = [](std::span<const Point> batch) {
    std::vector<Evaluation> out;
    for (const Point& x : batch) {
      std::vector<double> r;
      for (std::size_t i = 0; i + 1 < x.size(); ++i) {
        r.push_back(10 * (x[i + 1] - x[i] * x[i]));
        r.push_back(1 - x[i]);
      }
      out.push_back(Evaluation::of_residuals(std::move(r)));
    }
    return out;
  };
  NlcgOptions options;
  options.max_iterations = 200;
  const Point start{-1.2, 1.0, 0.5};
  const Result alone = nlcg(rosenbrock, start, options);
  const Result spread = nlcg(spread_over(world, rosenbrock), start, options);
  EXPECT_EQ(spread.best, alone.best);  // bit for bit: the same evaluations in the same order
  EXPECT_EQ(spread.evaluations, alone.evaluations);
  EXPECT_EQ(spread.iterations, alone.iterations);
  EXPECT_LT(alone.value, 1e-10);  // it did converge to (1, 1, 1)
}

}  // namespace
}  // namespace hetflow::optim
