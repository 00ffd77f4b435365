// Dense output (ode::Batch::samples, docs/ode.md): RADAU5's collocation polynomial at given times against
// exact solutions and against integrations that stop at those times; sampling leaves every other result's
// bits; mappings, chunks, devices and run orders give the same sample bits; failed and interrupted
// systems leave NaN; malformed sample lists are refused, naming the value.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "hetflow/core/error.hpp"
#include "problems.hpp"
#include "test_devices.hpp"

namespace hetflow::ode {
namespace {

using test::error_of;

using test::devices;

// y0' = -k (y0 - cos t), y1' = -y1, with k the system's parameter: stiff for large k, and exactly
// y0 = (y0(0) - k^2 / (k^2 + 1)) e^(-k t) + (k^2 cos t + k sin t) / (k^2 + 1), y1 = y1(0) e^(-t) from t = 0.
System relaxation() {
  return {.n = 2,
          .source = R"(
void rhs(double t, const double* y, double* f, __global const double* p) {
  f[0] = -p[0] * (y[0] - cos(t));
  f[1] = -y[1];
}
void jac(double t, const double* y, double* dfdy, __global const double* p) {
  dfdy[0] = -p[0];
  dfdy[1] = 0.0;
  dfdy[2] = 0.0;
  dfdy[3] = -1.0;
}
)",
          .analytic_jacobian = true,
          .parameters = 1};
}

std::array<double, 2> relaxation_exact(double k, double a, double b, double t) {
  const double q = k * k + 1.0;
  return {(a - k * k / q) * std::exp(-k * t) + (k * k * std::cos(t) + k * std::sin(t)) / q, b * std::exp(-t)};
}

Options tolerance(double tol, Mapping mapping = Mapping::work_item) {
  Options o;
  o.rtol = {tol};
  o.atol = {tol};
  o.mapping = mapping;
  return o;
}

// `count` times from a to b, both included.
std::vector<double> evenly(double a, double b, int count) {
  std::vector<double> t;
  for (int i = 0; i < count; ++i) t.push_back(i == count - 1 ? b : a + (b - a) * i / (count - 1));
  return t;
}

// 0, then `count` times geometric from `first` to `last`, both included.
std::vector<double> from_zero_geometric(double first, double last, int count) {
  std::vector<double> t{0.0};
  for (int i = 0; i < count; ++i)
    t.push_back(i == count - 1 ? last : first * std::pow(last / first, static_cast<double>(i) / (count - 1)));
  return t;
}

// Sample j of system s, component i.
double sample(const Result& r, std::size_t n, std::size_t s, std::size_t j, std::size_t i) {
  return r.samples[(s * r.sample_count + j) * n + i];
}

// Van der Pol oscillators of stiffness 1e-1 to 1e-6, which take from tens to hundreds of steps (the
// phased mapping's passes leave them at different steps), with 21 samples each: one list for all, or
// with per_system_samples a list of its own per system, shifted by a fraction of its spacing.
Batch oscillators(bool with_samples, bool per_system) {
  constexpr int count = 12;
  Batch b = test::van_der_pol_batch(count);
  if (!with_samples) return b;
  b.per_system_samples = per_system;
  for (int s = 0; s < (per_system ? count : 1); ++s) {
    std::vector<double> t = evenly(0.0, 2.0, 21);
    for (std::size_t j = 1; j + 1 < t.size(); ++j) t[j] += 0.1 * s / count;
    b.samples.insert(b.samples.end(), t.begin(), t.end());
  }
  return b;
}


// The relaxation at k = 1, 1e3 and 1e6 from (2, 1) to t = 10, sampled through the transient (geometric
// from 1e-7) and after it (evenly), at rtol = atol = 1e-8: every sample within 1e-6 (100 rtol) of the exact
// solution; the sample at t0 is y0 and the one at t_end the final state, bit for bit. The dense output is a
// cubic through the step's nodes, of order 3 where the steps are of order 5, and a stiff system's steps
// grow beyond what bounds the cubic's error between the nodes: h_max = 0.02 bounds it (h^4 max|y''''| / 4!
// times at most 0.05, below 1e-9 past the transient).
TEST(OdeDenseOutput, MatchesTheExactSolution) {
  const std::array<double, 3> stiffness{1.0, 1e3, 1e6};
  Batch b;
  for (const double k : stiffness) {
    b.y0.insert(b.y0.end(), {2.0, 1.0});
    b.params.push_back(k);
  }
  b.t_end = {10.0};
  b.samples = from_zero_geometric(1e-7, 0.1, 13);
  const std::vector<double> later = evenly(0.1, 10.0, 100);
  b.samples.insert(b.samples.end(), later.begin() + 1, later.end());
  Options o = tolerance(1e-8);
  o.h_max = 0.02;
  const Result r = Radau5(devices(), relaxation(), o).integrate(b);
  ASSERT_EQ(r.failures(), 0u) << r.report();
  ASSERT_EQ(r.sample_count, b.samples.size());
  ASSERT_EQ(r.samples.size(), 3 * b.samples.size() * 2);
  std::size_t checked = 0;
  for (std::size_t s = 0; s < stiffness.size(); ++s) {
    for (std::size_t j = 0; j < b.samples.size(); ++j) {
      const std::array<double, 2> exact = relaxation_exact(stiffness[s], 2.0, 1.0, b.samples[j]);
      for (std::size_t i = 0; i < 2; ++i) {
        const double u = sample(r, 2, s, j, i);
        EXPECT_NEAR(u, exact[i], 1e-6) << "k = " << stiffness[s] << ", t = " << b.samples[j] << ", component " << i;
        ++checked;
      }
    }
    for (std::size_t i = 0; i < 2; ++i) {
      EXPECT_EQ(sample(r, 2, s, 0, i), b.y0[2 * s + i]);
      EXPECT_EQ(sample(r, 2, s, b.samples.size() - 1, i), r.y[2 * s + i]);
    }
  }
  EXPECT_EQ(checked, 3 * 113 * 2u);
}

// Integrated backwards, from t = 1 to 0 (k = 1), with samples in that direction: the exact solution.
TEST(OdeDenseOutput, FollowsABackwardIntegration) {
  const std::array<double, 2> start = relaxation_exact(1.0, 2.0, 1.0, 1.0);
  Batch b;
  b.y0 = {start[0], start[1]};
  b.params = {1.0};
  b.t0 = {1.0};
  b.t_end = {0.0};
  b.samples = evenly(1.0, 0.0, 11);
  const Result r = Radau5(devices(), relaxation(), tolerance(1e-8)).integrate(b);
  ASSERT_EQ(r.failures(), 0u) << r.report();
  std::size_t checked = 0;
  for (std::size_t j = 0; j < b.samples.size(); ++j) {
    const std::array<double, 2> exact = relaxation_exact(1.0, 2.0, 1.0, b.samples[j]);
    for (std::size_t i = 0; i < 2; ++i, ++checked)
      EXPECT_NEAR(sample(r, 2, 0, j, i), exact[i], 1e-6) << "t = " << b.samples[j] << ", component " << i;
  }
  EXPECT_EQ(checked, 22u);
}

// Robertson's kinetics sampled at 0 and 24 times from 1e-5 to 40, and the same systems integrated
// separately to each of those times (one system per time, per-system end times): each sample agrees
// with the integration that stops there to 10 (rtol |y| + atol) at rtol = 1e-6, atol = 1e-10, as two
// approximations within a few tolerances of the solution do.
TEST(OdeDenseOutput, AgreesWithIntegrationsThatStopThere) {
  Options o = tolerance(1e-6);
  o.atol = {1e-10};
  const Radau5 solver(devices(), test::robertson(true), o);
  Batch sampled;
  sampled.y0 = {1.0, 0.0, 0.0};
  sampled.t_end = {40.0};
  sampled.samples = from_zero_geometric(1e-5, 40.0, 24);
  const Result dense = solver.integrate(sampled);
  ASSERT_EQ(dense.failures(), 0u) << dense.report();
  Batch stops;
  stops.t_end.clear();
  for (std::size_t j = 1; j < sampled.samples.size(); ++j) {
    stops.y0.insert(stops.y0.end(), {1.0, 0.0, 0.0});
    stops.t_end.push_back(sampled.samples[j]);
  }
  const Result stopped = solver.integrate(stops);
  ASSERT_EQ(stopped.failures(), 0u) << stopped.report();
  std::size_t checked = 0;
  for (std::size_t j = 1; j < sampled.samples.size(); ++j) {
    for (std::size_t i = 0; i < 3; ++i, ++checked) {
      const double u = sample(dense, 3, 0, j, i), v = stopped.y[(j - 1) * 3 + i];
      const double scale = 1e-6 * std::fabs(v) + 1e-10;
      EXPECT_NEAR(u, v, 10 * scale) << "t = " << sampled.samples[j] << ", component " << i;
    }
  }
  EXPECT_EQ(checked, 72u);
  // The last sample is t_end itself: the final state's bits.
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(sample(dense, 3, 0, 24, i), dense.y[i]);
}

// In every mapping that this device runs (mapping 2 on GPUs only; mapping 1 also with its matrices in
// global memory), the final states and every counter equal the run without samples, bit for bit, with
// one list for all systems and with a list per system; and every mapping gives mapping 1's sample bits.
TEST(OdeDenseOutput, ChangesNoOtherBitAndAgreesAcrossMappings) {
  struct Variant {
    Mapping mapping;
    std::size_t private_matrix_limit;
  };
  const Batch plain = oscillators(false, false);
  std::array<Result, 2> reference;  // mapping 1's samples: one list for all, one per system
  std::size_t variants = 0;
  for (const Variant v : {Variant{Mapping::work_item, 0}, Variant{Mapping::work_item, 1}, Variant{Mapping::phased, 0},
                          Variant{Mapping::work_group, 0}}) {
    if (test::untestable(v.mapping, devices())) continue;
    SCOPED_TRACE(std::string(test::mapping_name(v.mapping)) + (v.private_matrix_limit ? ", system matrices" : ""));
    Options o = tolerance(1e-6, v.mapping);
    o.private_matrix_limit = v.private_matrix_limit;
    const Radau5 solver(devices(), test::van_der_pol(true), o);
    const Result without = solver.integrate(plain);
    ASSERT_EQ(without.failures(), 0u) << without.report();
    EXPECT_TRUE(without.samples.empty());
    for (const bool per_system : {false, true}) {
      const Result with = solver.integrate(oscillators(true, per_system));
      test::expect_identical(without, with);
      ASSERT_EQ(with.sample_count, 21u);
      ASSERT_EQ(with.samples.size(), 12u * 21 * 2);
      for (const double u : with.samples) ASSERT_TRUE(std::isfinite(u));
      Result& first = reference[per_system ? 1 : 0];
      if (variants == 0)
        first = with;
      else
        EXPECT_EQ(with.samples, first.samples) << (per_system ? "per system" : "shared");
    }
    ++variants;
  }
  EXPECT_GE(variants, 3u);
}

// Chunks (of 5 systems), two devices, and a sort key that runs the systems in reverse give the sample
// bits of one chunk in batch order, with a list per system. A chunk holds each system's samples: 104
// bytes per Van der Pol system without them, 8 n more per sample, and 8 more per sample for its own list.
TEST(OdeDenseOutput, ChunksDevicesAndRunOrderKeepTheSampleBits) {
  const Batch batch = oscillators(true, true);
  const Result whole = Radau5(devices(), test::van_der_pol(true), tolerance(1e-6)).integrate(batch);
  ASSERT_EQ(whole.failures(), 0u) << whole.report();
  Options chunked = tolerance(1e-6);
  chunked.chunk_systems = 5;
  Batch reversed = batch;
  for (std::size_t s = 0; s < 12; ++s) reversed.sort_key.push_back(-static_cast<double>(s));
  const Radau5 chunks(devices(), test::van_der_pol(true), chunked);
  EXPECT_EQ(chunks.plan(12, false)[0].system_bytes, 104u);
  EXPECT_EQ(chunks.plan(12, false, 21, false)[0].system_bytes, 104u + 8 * 21 * 2);
  EXPECT_EQ(chunks.plan(12, false, 21, true)[0].system_bytes, 104u + 8 * 21 * 3);
  for (const Batch* b : {&batch, static_cast<const Batch*>(&reversed)}) {
    const Result r = chunks.integrate(*b);
    EXPECT_EQ(r.chunking[0].chunks, 3u);
    EXPECT_EQ(r.chunking[0].system_bytes, 104u + 8 * 21 * 3);
    EXPECT_EQ(r.samples, whole.samples) << (b == &batch ? "chunks" : "chunks in reverse order");
    EXPECT_EQ(r.y, whole.y);
  }
  const core::DeviceSet two = hetflow::test::test_devices();
  if (two.size() < 2 || !hetflow::test::one_platform(devices(), two))
    GTEST_SKIP() << "needs two devices of one platform";
  const Result shared = Radau5(two, test::van_der_pol(true), chunked).integrate(batch);
  EXPECT_EQ(shared.samples, whole.samples) << "two devices";
}

// A system stopped by nmax keeps its samples up to the last accepted step and NaN after; the systems of
// chunks an interrupted run did not start have NaN samples only.
TEST(OdeDenseOutput, UnreachedSamplesAreNaN) {
  Options o = tolerance(1e-4);
  o.h0 = 1e-6;
  o.nmax = 50;
  Batch b;
  b.y0 = {2.0, -0.66};
  b.params = {1e-6};
  b.t_end = {2.0};
  b.samples = evenly(0.0, 2.0, 41);
  const Result r = Radau5(devices(), test::van_der_pol(true), o).integrate(b);
  ASSERT_EQ(r.statistics[0].status, Status::too_many_steps);
  std::size_t reached = 0, unreached = 0;
  for (std::size_t j = 0; j < b.samples.size(); ++j) {
    const bool before = b.samples[j] <= r.statistics[0].t;
    for (std::size_t i = 0; i < 2; ++i) EXPECT_EQ(std::isnan(sample(r, 2, 0, j, i)), !before) << "t = " << b.samples[j];
    ++(before ? reached : unreached);
  }
  EXPECT_GT(reached, 0u);
  EXPECT_GT(unreached, 0u);

  Options chunked = tolerance(1e-6);
  chunked.chunk_systems = 4;
  const Result stopped = Radau5(devices(), test::van_der_pol(true), chunked)
                             .integrate(oscillators(true, false), [](std::size_t, std::size_t) { return false; });
  std::size_t run = 0, not_run = 0;
  for (std::size_t s = 0; s < 12; ++s) {
    const bool ran = stopped.statistics[s].status != Status::not_run;
    for (std::size_t j = 0; j < 21; ++j)
      for (std::size_t i = 0; i < 2; ++i) EXPECT_EQ(std::isnan(sample(stopped, 2, s, j, i)), !ran) << "system " << s;
    ++(ran ? run : not_run);
  }
  EXPECT_GT(run, 0u);
  EXPECT_GT(not_run, 0u);
}

// Malformed sample lists are refused before anything runs, each naming the value and what was expected.
TEST(OdeDenseOutput, MalformedSamplesAreRefused) {
  const Radau5 solver(devices(), test::van_der_pol(true), tolerance(1e-6));
  const auto refused = [&](Batch b) { return error_of([&] { (void)solver.integrate(b); }); };
  Batch two;
  two.y0 = {2.0, -0.66, 2.0, -0.66};
  two.params = {1e-3, 1e-3};
  two.t_end = {2.0};
  struct Case {
    std::vector<double> samples;
    bool per_system;
    std::vector<double> t0, t_end;
    std::string message;
  };
  const std::vector<Case> cases{
      {{0.5, 1.0, 1.5},
       true,
       {0.0},
       {2.0},
       "batch samples has 3 values with per_system_samples: expected the same number for each of the 2 systems"},
      {{0.5, NAN}, false, {0.0}, {2.0}, "batch samples[1] = nan: expected a finite time"},
      {{0.5, 3.0},
       false,
       {0.0},
       {2.0},
       "batch samples[1] = 3: expected a time within [t0, t_end] = [0, 2] of system 0"},
      {{-0.25},
       false,
       {0.0},
       {2.0},
       "batch samples[0] = -0.25: expected a time within [t0, t_end] = [0, 2] of system 0"},
      {{0.5, 0.25},
       false,
       {0.0},
       {2.0},
       "batch samples[1] = 0.25 comes before samples[0] = 0.5: expected the samples in the direction of integration, "
       "non-decreasing from t0 = 0 to t_end = 2"},
      {{0.5, 1.0},
       false,
       {2.0},
       {0.0},
       "batch samples[1] = 1 comes before samples[0] = 0.5: expected the samples in the direction of integration, "
       "non-increasing from t0 = 2 to t_end = 0"},
      {{0.5, 1.5},
       false,
       {0.0},
       {2.0, 1.0},
       "batch samples[1] = 1.5: expected a time within [t0, t_end] = [0, 1] of system 1"},
      {{0.5, 1.0, 0.5, 1.5},
       true,
       {0.0},
       {2.0, 1.0},
       "batch samples[3] (system 1, sample 1) = 1.5: expected a time within [t0, t_end] = [0, 1] of system 1"},
  };
  for (const Case& c : cases) {
    Batch b = two;
    b.samples = c.samples;
    b.per_system_samples = c.per_system;
    b.t0 = c.t0;
    b.t_end = c.t_end;
    EXPECT_EQ(refused(b), c.message);
  }
  EXPECT_EQ(cases.size(), 8u);
}

}  // namespace
}  // namespace hetflow::ode
