// The split flamelet (chem::Flamelet, docs/chem.md, Flamelets) with H2/O2 on the test device: its steady
// state against the host's Newton solution of the same semi-discrete equations, the measured orders of
// Lie and Strang splitting, and extinction at a high stoichiometric dissipation rate. The tests print
// what they measure.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "flamelet_newton.hpp"
#include "flamelet_test_setup.hpp"
#include "hetflow/chem/flamelet_run.hpp"
#include "test_devices.hpp"

namespace hetflow::chem {
namespace {

// Strang's steady state approaches the Newton solution (12 points, chi_st = 100 1/s) as dt falls: each
// halving of dt must cut the largest T difference by more than 3, and at dt = 25 us it must be below 2.5 K
// (docs/chem.md, Flamelets, has the values).
TEST(FlameletSteady, StrangApproachesTheNewtonSolutionAsDtFalls) {
  const core::DeviceSet devices = hetflow::test::test_device();
  const test::HydrogenFlamelet h(12);
  const std::size_t n = h.mechanism.species.size() + 1;
  const FlameletConfig config = h.config(100.0, Splitting::strang, 1e-8);
  const test::SteadyFlamelet reference = test::steady_flamelet(h.mechanism, h.z, config.chi, one_atm, h.burnt());
  const std::vector<double> t_ref = test::temperatures(reference.state, n);
  ASSERT_GT(*std::max_element(t_ref.begin(), t_ref.end()), 1500.0) << "the reference burns";
  Flamelet f(devices, h.mechanism, config);
  std::vector<double> errors;
  for (const double dt : {1e-4, 5e-5, 2.5e-5}) {
    f.set_state(h.burnt());
    FlameletRunSettings settings;
    settings.dt = dt;
    settings.steady_rate = 1e-3;
    const FlameletRun run = run_flamelet(f, settings, h.unburnt());
    ASSERT_EQ(run.outcome, FlameletOutcome::steady) << outcome_name(run.outcome);
    errors.push_back(test::largest_difference(test::temperatures(f.state(), n), t_ref));
    std::printf("dt = %g s: steady after %ld steps, largest |T - T_newton| = %.4g K\n", dt, run.steps, errors.back());
  }
  EXPECT_GT(errors[0] / errors[1], 3.0);
  EXPECT_GT(errors[1] / errors[2], 3.0);
  EXPECT_LT(errors[2], 2.5);
}

// T after t = 50 us from the steady flamelet of chi_st = 100 1/s, now at 200 1/s, with 32 to 512 steps:
// the differences of successive halvings of dt must fall at order 1 (Lie) and 2 (Strang). The steps are
// below a microsecond, where Strang shows its order; at longer steps the stiff chemistry and diffusion
// reduce it (docs/chem.md, Flamelets).
TEST(FlameletSplitting, LieIsFirstOrderAndStrangSecond) {
  const core::DeviceSet devices = hetflow::test::test_device();
  const test::HydrogenFlamelet h(12);
  const std::size_t n = h.mechanism.species.size() + 1;
  const std::vector<double> start =
      test::steady_flamelet(h.mechanism, h.z, dissipation_rates(h.z, 100.0, h.z_st), one_atm, h.burnt()).state;
  const double end = 5e-5;
  for (const Splitting s : {Splitting::lie, Splitting::strang}) {
    Flamelet f(devices, h.mechanism, h.config(200.0, s, 1e-12));
    std::vector<std::vector<double>> results;
    for (int steps = 32; steps <= 512; steps *= 2) {
      f.set_state(start);
      for (int i = 0; i < steps; ++i) f.step(end / steps);
      results.push_back(test::temperatures(f.state(), n));
    }
    std::vector<double> orders;
    for (std::size_t i = 2; i < results.size(); ++i) {
      const double coarse = test::largest_difference(results[i - 2], results[i - 1]);
      const double fine = test::largest_difference(results[i - 1], results[i]);
      ASSERT_GT(fine, 0.0);
      orders.push_back(std::log2(coarse / fine));
      std::printf("%s: dt = %g s: difference %.4g K, order %.3f\n", splitting_name(s), end / (32 << i), fine,
                  orders.back());
    }
    ASSERT_EQ(orders.size(), 3u);
    if (s == Splitting::lie) {
      for (const double p : orders) EXPECT_NEAR(p, 1.0, 0.1);
    } else {
      EXPECT_GT(orders[0], 1.5);
      EXPECT_NEAR(orders[1], 2.0, 0.2);
      EXPECT_NEAR(orders[2], 2.0, 0.15);
    }
  }
}

// Continuation along the S-curve of the 12-point flamelet: burning at chi_st = 1000 1/s (more than 1000 K
// above the mixing line), extinguished at 3000 and 10000 1/s, where T falls to the mixing line.
TEST(FlameletExtinction, HighDissipationRatesPutTheFlameOut) {
  const core::DeviceSet devices = hetflow::test::test_device();
  const test::HydrogenFlamelet h(12);
  Flamelet f(devices, h.mechanism, h.config(1000.0, Splitting::strang, 1e-8));
  f.set_state(h.burnt());
  const std::vector<double> mixing = h.unburnt();
  FlameletRunSettings settings;
  settings.dt = 5e-6;
  settings.steady_rate = 1e-2;
  std::vector<FlameletRun> runs;
  for (const double chi_st : {1000.0, 3000.0, 10000.0}) {
    f.set_dissipation_rates(dissipation_rates(h.z, chi_st, h.z_st));
    runs.push_back(run_flamelet(f, settings, mixing));
    std::printf("chi_st = %g 1/s: %s after %ld steps, T_max - T_mix = %.4g K\n", chi_st,
                outcome_name(runs.back().outcome), runs.back().steps, runs.back().rise);
  }
  EXPECT_EQ(runs[0].outcome, FlameletOutcome::steady);
  EXPECT_GT(runs[0].rise, 1000.0);
  for (std::size_t i = 1; i < runs.size(); ++i) {
    EXPECT_EQ(runs[i].outcome, FlameletOutcome::extinct) << i;
    EXPECT_LT(runs[i].rise, settings.extinction_rise) << i;
  }
}

// A flamelet whose reactors cannot finish a step (one RADAU5 step allowed) stops with an error that names
// the step and the grid point, and keeps the state it had.
TEST(FlameletErrors, ARadauFailureNamesTheStepAndTheGridPoint) {
  const core::DeviceSet devices = hetflow::test::test_device();
  const test::HydrogenFlamelet h(6);
  FlameletConfig config = h.config(100.0, Splitting::lie, 1e-8);
  config.options.nmax = 1;
  Flamelet f(devices, h.mechanism, config);
  f.set_state(h.burnt());
  const std::vector<double> before = f.state();
  try {
    f.step(1e-4);
    ADD_FAILURE() << "no error";
  } catch (const FlameletError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("flamelet step 1 (t = 0 to 0.0001 s): RADAU5 failed at grid point "), std::string::npos)
        << what;
    EXPECT_NE(what.find("IDID = -2"), std::string::npos) << what;
  }
  EXPECT_EQ(f.state(), before);
  EXPECT_EQ(f.steps(), 0);
}

}  // namespace
}  // namespace hetflow::chem
