// A synthetic version of the thesis's inversion (Myre 2013, Sec. 7.3.2): data from a known (Pe, St,
// Theta) inside the thesis's bounds, NLCG from the thesis's start (Pe 2000, St 10, Theta 4.5). Noise-free
// data must give the truth to 1e-6 relative; with noise of 1 % of the outlet signal, every parameter
// must lie within 3 standard deviations of the truth (Gauss-Newton covariance at the solution) and the
// RMS misfit must match the noise. Failing candidates are reported and the run goes on (skip) or ends
// with its best point (stop).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <utility>
#include <vector>

#include "hetflow/core/error.hpp"
#include "hetflow/karst/inversion.hpp"
#include "hetflow/optim/evaluation_log.hpp"
#include "hetflow/optim/random.hpp"
#include "test_devices.hpp"

namespace hetflow::karst {
namespace {

constexpr double background = 10;  // rock and initial water temperature, °C (docs/karst.md, Method)
constexpr double psi = 2.235;      // Tyson Spring Cave (thesis Table 4.3)
const HeatPoint truth{1960, 12, 3.2};

Series storm(double (*f)(double)) {
  Series s;
  for (int i = 0; i <= 500; ++i) {
    s.t.push_back(0.01 * i);
    s.value.push_back(f(s.t.back()));
  }
  return s;
}

// A storm pulse: the flow speeds up to 2.5 V̄ while warm rain water passes the inlet.
const Series velocity = storm([](double t) { return 1 + 1.5 * std::exp(-std::pow((t - 1) / 0.4, 2)); });
const Series inlet = storm([](double t) { return background + 3 * std::exp(-std::pow((t - 1.2) / 0.3, 2)); });

// 40 water and 15 rock nodes, 80 observations with 5 steps each (v* dt / dx <= 1): a few ms per batch on PoCL.
MisfitProblem problem(Series observed) {
  MisfitProblem p{inlet, velocity, std::move(observed), {}, 5, psi};
  p.grid.nodes = 40;
  p.grid.rock_nodes = 15;
  p.grid.rock_extent = 4;
  p.grid.initial = background;
  return p;
}

Series observation_times() {
  Series s;
  for (int k = 1; k <= 80; ++k) s.t.push_back(0.05 * k);
  s.value.assign(s.t.size(), background);
  return s;
}

// The model's outlet at the truth, plus Gaussian noise of `noise` (seeded).
Series synthetic(KarstDevice& device, double noise) {
  KarstMisfit generator(device, problem(observation_times()), {});
  const KarstParameters p{truth[0], truth[1], truth[2], psi, 0};
  Series s = generator.outlet(std::span(&p, 1))[0];
  optim::Random random(7);
  for (double& v : s.value) v += noise * random.normal();
  return s;
}

double signal_range(const Series& s) {
  const auto [lo, hi] = std::minmax_element(s.value.begin(), s.value.end());
  return *hi - *lo;
}

class KarstInversion : public ::testing::Test {
 protected:
  core::DeviceSet devices = test::test_device();
  KarstDevice device{devices};
};

// Pe barely shapes this outlet: at equal noise its relative standard deviation is about 60 times St's
// (2 against 0.03, see the noisy test), so the flat valley along Pe ends NLCG's line searches at
// round-off about 3e-6 from the truth (St and Theta: 4e-8). Levenberg-Marquardt's Gauss-Newton steps
// reach 1e-9 in all three.
TEST_F(KarstInversion, NoiseFreeDataGiveTheTruth) {
  for (const auto& [method, pe_tolerance] : {std::pair{Method::nlcg, 1e-5}, std::pair{Method::levenberg_marquardt, 1e-6}}) {
    KarstMisfit misfit(device, problem(synthetic(device, 0)), {});
    InversionOptions options;
    options.method = method;
    const InversionResult r = invert(misfit, options);
    ASSERT_TRUE(r.optimisation.failures.empty());
    const double x[3] = {r.best.Pe, r.best.St, r.best.Theta};
    const double tolerance[3] = {pe_tolerance, 1e-6, 1e-6};
    for (int i = 0; i < 3; ++i)
      EXPECT_NEAR(x[i], truth[i], tolerance[i] * truth[i]) << heat_point_names[i] << ": " << r.optimisation.stop_reason;
    EXPECT_LT(r.rms, 1e-6);
    EXPECT_EQ(r.forward_runs, r.optimisation.evaluations + 7);  // the method's, then the solution and its stencil
  }
}

TEST_F(KarstInversion, NoisyDataGiveTheTruthWithinThreeSigma) {
  const Series clean = synthetic(device, 0);
  const double noise = 0.01 * signal_range(clean);
  for (const Method method : {Method::nlcg, Method::levenberg_marquardt}) {
    KarstMisfit misfit(device, problem(synthetic(device, noise)), {});
    InversionOptions options;
    options.method = method;
    options.noise = noise;
    const InversionResult r = invert(misfit, options);
    const double x[3] = {r.best.Pe, r.best.St, r.best.Theta};
    // Pe's sigma (about 4000) exceeds its box [1900, 2050]: the data cannot tell Pe there, and the run
    // may end on a bound. St and Theta are determined to about 3 %.
    for (int i = 0; i < 3; ++i) {
      ASSERT_TRUE(std::isfinite(r.sigma[i])) << heat_point_names[i];
      if (i > 0) {
        EXPECT_LT(r.sigma[i], 0.05 * truth[i]) << heat_point_names[i];
      }
      EXPECT_LE(std::abs(x[i] - truth[i]), 3 * r.sigma[i])
          << heat_point_names[i] << " = " << x[i] << " +- " << r.sigma[i] << "; " << r.optimisation.stop_reason;
    }
    // The fit explains the data down to the noise, no further (80 samples: about +-8 % for the RMS).
    EXPECT_NEAR(r.rms, noise, 0.25 * noise);
  }
}

TEST_F(KarstInversion, ACandidateTheModelRejectsFailsAloneInItsBatch) {
  KarstMisfit misfit(device, problem(synthetic(device, 0)), {});
  const std::vector<optim::Point> batch = {{0.5, 0.5, 0.5}, {0.5, -1, 0.5}, {0.2, 0.3, 0.4}};
  const auto together = misfit(batch);
  ASSERT_EQ(together.size(), 3u);
  EXPECT_TRUE(together[0].ok());
  ASSERT_FALSE(together[1].ok());
  EXPECT_NE(together[1].failure.find("St = -18.5"), std::string::npos) << together[1].failure;
  const auto alone = misfit(std::span(batch).subspan(2));
  EXPECT_EQ(together[2].residuals, alone[0].residuals);
}

// A flaky forward model: every 7th candidate, counted from the 4th, fails whatever its parameters, so
// failures hit gradient stencils and line searches alike.
optim::BatchObjective flaky(KarstMisfit& misfit) {
  return [&misfit, count = std::size_t{0}](std::span<const optim::Point> points) mutable {
    auto e = misfit(points);
    for (auto& one : e)
      if (count++ % 7 == 3) one = optim::Evaluation::failed("no convergence (injected)");
    return e;
  };
}

TEST_F(KarstInversion, FailedCandidatesAreSkippedAndLogged) {
  KarstMisfit misfit(device, problem(synthetic(device, 0)), {});
  const auto log_path = std::filesystem::temp_directory_path() / "hetflow_karst_inversion_log.jsonl";
  optim::EvaluationLog log = optim::EvaluationLog::create(log_path);
  InversionOptions options;
  options.run.on_failure = optim::OnFailure::skip;
  options.run.log = &log;
  const optim::Result r = minimise(flaky(misfit), misfit.box(), options);
  ASSERT_FALSE(r.failures.empty());
  EXPECT_EQ(r.failures[0].reason, "no convergence (injected)");
  EXPECT_TRUE(r.converged) << r.stop_reason;
  // Failed stencil points leave first-order differences, so the end is less sharp (2e-4 seen).
  EXPECT_NEAR(misfit.parameters(r.best).Theta, truth[2], 1e-3 * truth[2]) << r.stop_reason;

  // Stopping on the first failure keeps the best point so far, and the log holds every evaluation.
  options.run.on_failure = optim::OnFailure::stop;
  optim::EvaluationLog stopped = optim::EvaluationLog::create(log_path);
  options.run.log = &stopped;
  const optim::Result s = minimise(flaky(misfit), misfit.box(), options);
  EXPECT_FALSE(s.converged);
  EXPECT_NE(s.stop_reason.find("no convergence (injected)"), std::string::npos) << s.stop_reason;
  EXPECT_TRUE(std::isfinite(s.value));
  std::size_t lines = 0;
  std::ifstream in(log_path);
  for (std::string line; std::getline(in, line);) ++lines;
  EXPECT_EQ(lines, s.evaluations + 1);  // the header, then one line per evaluation
  std::filesystem::remove(log_path);
}

TEST_F(KarstInversion, BoundsThatExcludeTheStartNameTheParameter) {
  KarstMisfit misfit(device, problem(synthetic(device, 0)), {});
  InversionOptions options;
  options.start = {2000, 10, 7};
  try {
    invert(misfit, options);
    FAIL() << "no error";
  } catch (const core::Error& e) {
    EXPECT_STREQ(e.what(), "karst inversion: start Theta = 7 is outside its bounds [0.1, 6]");
  }
  const ParameterBox upside_down{{1900, 20, 0.1}, {2050, 0.75, 6}};
  try {
    upside_down.check({2000, 10, 4.5});
    FAIL() << "no error";
  } catch (const core::Error& e) {
    EXPECT_STREQ(e.what(), "karst inversion: bounds of St [20, 0.75]: expected finite lower < upper");
  }
}

}  // namespace
}  // namespace hetflow::karst
