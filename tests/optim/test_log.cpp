#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <stdexcept>
#include <string>
#include <unistd.h>

#include "hetflow/core/error.hpp"
#include "hetflow/optim/evaluation_log.hpp"
#include "hetflow/optim/exhaustive.hpp"
#include "hetflow/optim/levenberg_marquardt.hpp"
#include "hetflow/optim/nelder_mead.hpp"
#include "hetflow/optim/nlcg.hpp"
#include "hetflow/optim/simulated_annealing.hpp"
#include "problems.hpp"

namespace hetflow::optim {
namespace {

namespace fs = std::filesystem;

struct Interrupted : std::runtime_error {
  Interrupted() : std::runtime_error("killed") {}
};

class Log : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("hetflow-optim-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path path(const std::string& name) const { return dir_ / name; }

  fs::path dir_;
};

// A method run as a function of its objective and run options.
using Method = std::function<Result(const BatchObjective&, RunOptions)>;

// Rosenbrock with residuals (so every method can use it) that throws, like a killed process, at call
// `kill_at`; counts its calls.
BatchObjective rosenbrock_until(std::size_t kill_at, std::size_t* calls) {
  return [=](std::span<const Point> points) {
    if (*calls == kill_at) throw Interrupted();
    ++*calls;
    std::vector<Evaluation> out;
    for (const Point& p : points) out.push_back(Evaluation::of_residuals(test::rosenbrock_residuals(p)));
    return out;
  };
}

void expect_identical(const Result& a, const Result& b) {
  EXPECT_EQ(a.best, b.best);
  EXPECT_EQ(a.value, b.value);  // bit-exact: the log holds shortest round-trip doubles
  EXPECT_EQ(a.iterations, b.iterations);
  EXPECT_EQ(a.evaluations, b.evaluations);
  EXPECT_EQ(a.batches, b.batches);
  EXPECT_EQ(a.stop_reason, b.stop_reason);
}

// Runs `method` once uninterrupted, once killed after `k` batches and then resumed from its log; the
// resumed run must give the identical result and evaluation count, calling the objective only for the
// batches the log lacked.
void check_resume(const Method& method, std::size_t k, const fs::path& path) {
  std::size_t calls = 0;
  const Result whole = method(rosenbrock_until(SIZE_MAX, &calls), {.max_evaluations = 100000});
  ASSERT_GT(whole.batches, k);

  calls = 0;
  {
    EvaluationLog log = EvaluationLog::create(path);
    EXPECT_THROW(method(rosenbrock_until(k, &calls), {.max_evaluations = 100000, .log = &log}), Interrupted);
  }
  calls = 0;
  EvaluationLog log = EvaluationLog::resume(path);
  EXPECT_EQ(log.batches_to_replay(), k);
  const Result resumed = method(rosenbrock_until(SIZE_MAX, &calls), {.max_evaluations = 100000, .log = &log});
  expect_identical(whole, resumed);
  EXPECT_EQ(calls, whole.batches - k);

  // The log now holds the whole run: a header and one line per evaluation.
  std::ifstream in(path);
  std::size_t lines = 0;
  for (std::string line; std::getline(in, line);) ++lines;
  EXPECT_EQ(lines, 1 + whole.evaluations);
}

TEST_F(Log, NlcgResumesIdentically) {
  const Method method = [](const BatchObjective& f, RunOptions run) {
    NlcgOptions o;
    o.run = run;
    return nlcg(f, test::rosenbrock_start(2), o);
  };
  check_resume(method, 7, path("nlcg.jsonl"));
}

TEST_F(Log, LevenbergMarquardtResumesIdentically) {
  const Method method = [](const BatchObjective& f, RunOptions run) {
    LevenbergMarquardtOptions o;
    o.run = run;
    return levenberg_marquardt(f, test::rosenbrock_start(10), o);
  };
  check_resume(method, 5, path("lm.jsonl"));
}

TEST_F(Log, NelderMeadResumesIdentically) {
  const Method method = [](const BatchObjective& f, RunOptions run) {
    NelderMeadOptions o;
    o.run = run;
    return nelder_mead(f, test::rosenbrock_start(2), o);
  };
  check_resume(method, 40, path("nm.jsonl"));
}

const Space grid({Parameter::real("x", -2, 2, 0.1), Parameter::real("y", -2, 2, 0.1)});

TEST_F(Log, SimulatedAnnealingResumesIdentically) {
  const Method method = [](const BatchObjective& f, RunOptions run) {
    AnnealingOptions o;
    o.start = {-1.2, 1};
    o.seed = 11;
    o.run = run;
    return simulated_annealing(grid, f, o);
  };
  check_resume(method, 20, path("sa.jsonl"));
}

TEST_F(Log, ExhaustiveResumesIdentically) {
  const Method method = [](const BatchObjective& f, RunOptions run) { return exhaustive_search(grid, f, {100, run}); };
  check_resume(method, 9, path("exhaustive.jsonl"));
}

// A crash in the middle of writing a batch leaves a cut line: resume drops that batch (and cuts it from
// the file) and evaluates it again; the result is still identical.
TEST_F(Log, CutBatchIsEvaluatedAgain) {
  const Method method = [](const BatchObjective& f, RunOptions run) {
    NlcgOptions o;
    o.run = run;
    return nlcg(f, test::rosenbrock_start(2), o);
  };
  std::size_t calls = 0;
  const Result whole = method(rosenbrock_until(SIZE_MAX, &calls), {});
  {
    EvaluationLog log = EvaluationLog::create(path("cut.jsonl"));
    calls = 0;
    EXPECT_THROW(method(rosenbrock_until(4, &calls), {.log = &log}), Interrupted);
  }
  std::ofstream(path("cut.jsonl"), std::ios::app) << R"({"batch":4,"size":5,"index":0,"iteration":1,"point":[0.1)";
  EvaluationLog log = EvaluationLog::resume(path("cut.jsonl"));
  EXPECT_EQ(log.batches_to_replay(), 4u);
  calls = 0;
  const Result resumed = method(rosenbrock_until(SIZE_MAX, &calls), {.log = &log});
  expect_identical(whole, resumed);
  EXPECT_EQ(calls, whole.batches - 4);
}

// Failures are logged and replayed like values.
TEST_F(Log, FailuresAreLoggedAndReplayed) {
  const Space space({Parameter::integer("a", 0, 9)});
  const BatchObjective objective = [](std::span<const Point> points) {
    std::vector<Evaluation> out;
    for (const Point& p : points) out.push_back(p[0] == 3 ? Evaluation::failed("no \"3\" here") : Evaluation::of(p[0]));
    return out;
  };
  {
    EvaluationLog log = EvaluationLog::create(path("failures.jsonl"));
    exhaustive_search(space, objective, {5, {.on_failure = OnFailure::skip, .log = &log}});
  }
  EvaluationLog log = EvaluationLog::resume(path("failures.jsonl"));
  const BatchObjective never = [](std::span<const Point>) -> std::vector<Evaluation> { throw std::logic_error("called"); };
  const Result r = exhaustive_search(space, never, {5, {.on_failure = OnFailure::skip, .log = &log}});
  ASSERT_EQ(r.failures.size(), 1u);
  EXPECT_EQ(r.failures[0].reason, "no \"3\" here");
  EXPECT_EQ(r.failures[0].point, (Point{3}));
  EXPECT_EQ(r.evaluations, 10u);
}

// A log replayed into another run is refused with the line and the two points, not silently reused.
TEST_F(Log, LogOfAnotherRunIsRefused) {
  {
    EvaluationLog log = EvaluationLog::create(path("other.jsonl"));
    NlcgOptions o;
    o.run.log = &log;
    nlcg(test::rosenbrock_objective(), {0.0, 0.0}, o);
  }
  EvaluationLog log = EvaluationLog::resume(path("other.jsonl"));
  NlcgOptions o;
  o.run.log = &log;
  try {
    nlcg(test::rosenbrock_objective(), {0.5, 0.0}, o);
    FAIL() << "no error";
  } catch (const core::Error& e) {
    EXPECT_EQ(std::string(e.what()), "optimisation log '" + path("other.jsonl").string() +
                                         "' line 2: the run asks for point [0.5,0.0] where the log holds [0.0,0.0]; "
                                         "the log belongs to another run or other options");
  }
  EvaluationLog again = EvaluationLog::resume(path("other.jsonl"));
  NelderMeadOptions nm;
  nm.run.log = &again;
  EXPECT_THROW(nelder_mead(test::rosenbrock_objective(), {0.0, 0.0}, nm), core::Error);
}

TEST_F(Log, MalformedLineIsAnError) {
  std::ofstream(path("bad.jsonl")) << R"({"log":"hetflow-optim-log","version":1,"method":"nlcg-pr+"})" << "\nnot json\n{}\n";
  EXPECT_THROW(EvaluationLog::resume(path("bad.jsonl")), core::Error);
}

}  // namespace
}  // namespace hetflow::optim
