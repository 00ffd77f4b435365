// Adaptive integrators (DOPRI5, DOP853): each tracer fills every step with substeps chosen by error
// control. Checked against exact flow maps (the linear saddle) and a tight host reference (the double
// gyre): the error follows the tolerance, falls with the substep count at the method's order, the field
// does not depend on the devices, and a tracer that needs too many substeps stops with a reason.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <tuple>
#include <vector>

#include "double_gyre_reference.hpp"
#include "hetflow/ftle/solver.hpp"
#include "hetflow/ftle/velocity_grid.hpp"
#include "same_field.hpp"
#include "test_devices.hpp"

namespace hetflow::ftle {
namespace {

struct Advected {
  std::vector<double> map;
  Solver::Substeps substeps;
};

Config adaptive_config(Integrator integrator, double rtol, double duration, long steps) {
  Config c;
  c.integrator = integrator;
  c.rtol = rtol;
  c.atol = rtol * 1e-3;
  c.duration = duration;
  c.steps = steps;
  return c;
}

template <class Flow>
Advected run(const core::DeviceSet& ds, const Flow& flow, const SeedGrid& seeds, const Config& c) {
  Solver s(ds, flow, seeds, c);
  s.advance_to_end();
  return {s.flow_map(), s.substeps()};
}

// The largest error of a flow map against the exact saddle map (x e^T, y e^-T), relative to the largest
// final coordinate.
double saddle_error(const std::vector<double>& map, const SeedGrid& seeds, double duration) {
  double worst = 0, largest = 0;
  for (std::size_t i = 0; i < seeds.size(); ++i) {
    const double x = seeds.position(0, i % seeds.counts[0]), y = seeds.position(1, i / seeds.counts[0]);
    const double exact[2] = {x * std::exp(duration), y * std::exp(-duration)};
    for (int d = 0; d < 2; ++d) {
      worst = std::max(worst, std::abs(map[2 * i + d] - exact[d]));
      largest = std::max(largest, std::abs(exact[d]));
    }
  }
  return worst / largest;
}

struct Method {
  Integrator integrator;
  double loose, tight;    // two tolerances
  double embedded_order;  // of the error estimate
};

class AdaptiveSaddle : public ::testing::TestWithParam<Method> {};

// On u = (x, -y) over T = 4 (stretching e^4) in one step, the error stays within a small multiple of
// rtol, and a tighter tolerance costs substeps as the error estimate's order says.
TEST_P(AdaptiveSaddle, ErrorFollowsTheToleranceAtTheMethodsOrder) {
  const core::DeviceSet ds = test::test_device();
  const Method m = GetParam();
  const LinearFlow flow = LinearFlow::saddle({1.0, -1.0});
  const SeedGrid seeds = SeedGrid::spanning({-1, -1, 0}, {1, 1, 0}, {9, 9, 1}, 2);
  const double duration = 4.0;
  const Advected loose = run(ds, flow, seeds, adaptive_config(m.integrator, m.loose, duration, 1));
  const Advected tight = run(ds, flow, seeds, adaptive_config(m.integrator, m.tight, duration, 1));
  const double e_loose = saddle_error(loose.map, seeds, duration), e_tight = saddle_error(tight.map, seeds, duration);
  std::printf("%s: rtol %g: error %.3e, %llu substeps (%llu rejected); rtol %g: error %.3e, %llu substeps\n",
              to_string(m.integrator), m.loose, e_loose, static_cast<unsigned long long>(loose.substeps.accepted),
              static_cast<unsigned long long>(loose.substeps.rejected), m.tight, e_tight,
              static_cast<unsigned long long>(tight.substeps.accepted));
  EXPECT_LT(e_loose, 20 * m.loose);
  EXPECT_LT(e_tight, 20 * m.tight);
  // The substeps grow as the tolerance to the power -1/(order + 1) at most.
  EXPECT_GT(tight.substeps.accepted, loose.substeps.accepted);
  EXPECT_LT(static_cast<double>(tight.substeps.accepted) / static_cast<double>(loose.substeps.accepted),
            3 * std::pow(m.loose / m.tight, 1.0 / m.embedded_order));
}

INSTANTIATE_TEST_SUITE_P(Methods, AdaptiveSaddle,
                         ::testing::Values(Method{Integrator::dopri5, 1e-5, 1e-9, 4.0},
                                           Method{Integrator::dop853, 1e-7, 1e-12, 5.0}),
                         [](const auto& param_info) { return std::string(to_string(param_info.param.integrator)); });

// The double gyre's flow map over T = 5 against a host RK4 reference of 3200 steps (error ~1e-13):
// tighter tolerances give smaller errors, DOP853 needs fewer substeps than DOPRI5 for the same tolerance.
TEST(AdaptiveDoubleGyre, FlowMapErrorFollowsTheTolerance) {
  const core::DeviceSet ds = test::test_device();
  const SeedGrid seeds = SeedGrid::spanning({0, 0, 0}, {2, 1, 0}, {21, 11, 1}, 2);
  const double duration = 5.0;
  const std::vector<double> reference = reference::double_gyre_flow_map(DoubleGyre{}, seeds, 0.0, duration, 3200);
  const auto error = [&](const std::vector<double>& map) {
    double worst = 0;
    for (std::size_t i = 0; i < map.size(); ++i) worst = std::max(worst, std::abs(map[i] - reference[i]));
    return worst;
  };
  double previous = 1;
  std::uint64_t dopri5_substeps = 0;
  for (Integrator integrator : {Integrator::dopri5, Integrator::dop853}) {
    for (double rtol : {1e-4, 1e-7, 1e-10}) {
      const Advected r = run(ds, DoubleGyre{}, seeds, adaptive_config(integrator, rtol, duration, 5));
      const double e = error(r.map);
      std::printf("%s rtol %g: max error %.3e, %.1f substeps per tracer\n", to_string(integrator), rtol, e,
                  static_cast<double>(r.substeps.accepted) / static_cast<double>(seeds.size()));
      EXPECT_LT(e, 100 * rtol) << to_string(integrator) << " rtol " << rtol;
      EXPECT_LT(e, previous) << to_string(integrator) << " rtol " << rtol;
      previous = e;
      if (rtol == 1e-10) {
        if (integrator == Integrator::dopri5) {
          dopri5_substeps = r.substeps.accepted;
        } else {
          EXPECT_LT(r.substeps.accepted, dopri5_substeps / 3);
        }
      }
    }
    previous = 1;
  }
}

// Gridded velocity (the steady double gyre on a 201 x 101 grid, M4'): DOP853 at rtol 1e-10 and RK4 with
// 4,000 steps integrate the same interpolated field, so their flow maps agree to well within the
// interpolation's own error, and the adaptive run takes far fewer velocity evaluations.
TEST(AdaptiveGridded, AgreesWithAFineFixedStepOnTheSameGrid) {
  const core::DeviceSet ds = test::test_device();
  constexpr double pi = 3.141592653589793, amplitude = 0.1;
  const VelocityGrid grid =
      sample_on_grid(2, {201, 101, 1}, {0, 0, 0}, {0.01, 0.01, 1}, {0.0}, [](const std::array<double, 3>& x, double) {
        return std::array<double, 3>{-pi * amplitude * std::sin(pi * x[0]) * std::cos(pi * x[1]),
                                     pi * amplitude * std::cos(pi * x[0]) * std::sin(pi * x[1]), 0};
      });
  const SeedGrid seeds = SeedGrid::spanning({0.1, 0.1, 0}, {1.9, 0.9, 0}, {19, 9, 1}, 2);
  Config fixed;
  fixed.duration = 5.0;
  fixed.steps = 4000;
  Solver a(ds, grid, seeds, fixed);
  a.advance_to_end();
  Solver b(ds, grid, seeds, adaptive_config(Integrator::dop853, 1e-10, 5.0, 1));
  b.advance_to_end();
  const std::vector<double> ma = a.flow_map(), mb = b.flow_map();
  double worst = 0;
  for (std::size_t i = 0; i < ma.size(); ++i) worst = std::max(worst, std::abs(ma[i] - mb[i]));
  std::printf("gridded: DOP853 vs RK4 (4000 steps) %.3e, %.1f substeps per tracer\n", worst,
              static_cast<double>(b.substeps().accepted) / static_cast<double>(seeds.size()));
  EXPECT_LT(worst, 1e-6);
  EXPECT_LT(b.substeps().accepted, seeds.size() * 400);
}

// Every tracer chooses its substeps alone, so the devices do not change the field.
TEST(AdaptiveDoubleGyre, TwoDevicesGiveTheSameField) {
  const core::DeviceSet one = test::test_device();
  const core::DeviceSet several = test::test_devices();
  ASSERT_GE(several.size(), 2u) << "set POCL_DEVICES='pthread pthread'";
  const SeedGrid seeds = SeedGrid::spanning({0, 0, 0}, {2, 1, 0}, {41, 21, 1}, 2);
  const Config c = adaptive_config(Integrator::dop853, 1e-9, 15.0, 15);
  const auto field = [&](const core::DeviceSet& ds) {
    Solver s(ds, DoubleGyre{}, seeds, c);
    s.advance_to_end();
    return s.ftle();
  };
  test::expect_same_field(one, several, field(one), field(several), 1e-9);
}

// With a tolerance no substep can miss, every step is one substep of dt: the pair's solution formula as
// a fixed-step method. Halving dt divides the change of the double gyre's flow map by 2^order (self-
// convergence over dt, dt/2, dt/4, free of a reference's own error), which checks the tableaux: a wrong
// coefficient drops the order. DOP853's ratio approaches 2^8 from above over these steps (measured 593,
// 420 and 355 for 8, 10 and 14 steps; finer, round-off takes over), so its upper bound is wide.
TEST(AdaptiveDoubleGyre, OneSubstepPerStepConvergesAtTheMethodsOrder) {
  const core::DeviceSet ds = test::test_device();
  const SeedGrid seeds = SeedGrid::spanning({0, 0, 0}, {2, 1, 0}, {21, 11, 1}, 2);
  const double duration = 5.0;
  // The root mean square over the tracers, which a few chaotic ones sway less than the largest.
  const auto difference = [](const std::vector<double>& a, const std::vector<double>& b) {
    double sum = 0;
    for (std::size_t i = 0; i < a.size(); ++i) sum += (a[i] - b[i]) * (a[i] - b[i]);
    return std::sqrt(sum / static_cast<double>(a.size()));
  };
  for (const auto& [integrator, steps, low, high] :
       {std::tuple{Integrator::dopri5, 50L, 28.0, 40.0}, std::tuple{Integrator::dop853, 10L, 220.0, 600.0}}) {
    std::vector<Advected> runs;
    for (long n : {steps, 2 * steps, 4 * steps})
      runs.push_back(run(ds, DoubleGyre{}, seeds, adaptive_config(integrator, 1e10, duration, n)));
    EXPECT_EQ(runs[0].substeps.accepted, seeds.size() * static_cast<std::uint64_t>(steps));
    EXPECT_EQ(runs[0].substeps.rejected, 0u);
    const double coarse = difference(runs[0].map, runs[1].map), fine = difference(runs[1].map, runs[2].map);
    std::printf("%s: %ld steps: change %.3e, then %.3e: ratio %.1f (2^order %d)\n", to_string(integrator), steps,
                coarse, fine, coarse / fine, 1 << order(integrator));
    EXPECT_GT(coarse / fine, low) << to_string(integrator);
    EXPECT_LT(coarse / fine, high) << to_string(integrator);
  }
}

// A rotation at 1e7 rad per unit time needs some 1e8 substeps over T = 1: the tracer stops after
// 100,000 in its one step, and the error names the seed and the reason.
TEST(AdaptiveFailures, TooManySubstepsStopTheTracerWithAReason) {
  const core::DeviceSet ds = test::test_device();
  const SeedGrid seeds = SeedGrid::spanning({0.5, 0.5, 0}, {1, 1, 0}, {2, 2, 1}, 2);
  Solver s(ds, LinearFlow::rotation(1e7), seeds, adaptive_config(Integrator::dopri5, 1e-6, 1.0, 1));
  s.advance_to_end();
  try {
    (void)s.ftle();
    ADD_FAILURE() << "no error";
  } catch (const TracerError& e) {
    EXPECT_NE(std::string(e.what()).find("over 100000 substeps in one step"), std::string::npos) << e.what();
    EXPECT_EQ(e.step(), 1);
  }
  Config fine = adaptive_config(Integrator::dopri5, 1e-15, 1.0, 1);
  EXPECT_THROW(Solver(ds, DoubleGyre{}, seeds, fine), core::Error);  // below fp64's resolution
  fine.precision = core::Precision::f32;
  fine.rtol = 1e-7;
  EXPECT_THROW(Solver(ds, DoubleGyre{}, seeds, fine), core::Error);
}

}  // namespace
}  // namespace hetflow::ftle
