#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "double_gyre_reference.hpp"
#include "hetflow/ftle/sequence.hpp"
#include "test_devices.hpp"

namespace hetflow::ftle {
namespace {

// n x n seeds on [-1, 1]^2, spacing 2 / (n - 1).
SeedGrid square_seeds(std::size_t n) { return SeedGrid::spanning({-1, -1, 0}, {1, 1, 0}, {n, n, 1}, 2); }

// Seeds on [0, 2] x [0, 1], (2n - 1) x n of them, spacing 1 / (n - 1): the gyre's invariant box.
SeedGrid gyre_seeds(std::size_t n) { return SeedGrid::spanning({0, 0, 0}, {2, 1, 0}, {2 * n - 1, n, 1}, 2); }

struct Difference {
  double max = 0, relative_l1 = 0;
};

Difference difference(const std::vector<double>& a, const std::vector<double>& reference) {
  Difference d;
  double diff = 0, norm = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    d.max = std::max(d.max, std::abs(a[i] - reference[i]));
    diff += std::abs(a[i] - reference[i]);
    norm += std::abs(reference[i]);
  }
  d.relative_l1 = diff / norm;
  return d;
}

struct LinearCase {
  const char* name;
  LinearFlow flow;
  double duration;
  long steps;
  double interval;
  Interpolation composition;
  double radius;  // seeds within this distance of the origin (max norm for saddles) are compared
  bool round;     // compare within a circle rather than a square
};

class SequenceLinear : public ::testing::TestWithParam<LinearCase> {};

// A linear flow's short maps are linear, and M4' and linear interpolation reproduce linear functions,
// so the composed map is the direct one to round-off wherever every interpolation stencil lies inside
// the seed grid: the compared seeds (and their gradient neighbours) stay >= 2h from the faces at every
// intermediate time (saddle: |x0| <= 0.3 grows to 0.815 < 1 - 2h over T = 1; rotation: r < 0.8 keeps
// its radius). Three start times; the fields of a steady flow are the same for each.
TEST_P(SequenceLinear, ComposedFieldIsTheDirectOneToRoundOff) {
  const core::DeviceSet ds = test::test_device();
  const LinearCase p = GetParam();
  const SeedGrid seeds = square_seeds(65);
  Config c;
  c.duration = p.duration;
  c.steps = p.steps;
  c.integrator = Integrator::rk4;
  SequenceSpec spec;
  spec.fields = 3;
  spec.interval = p.interval;
  spec.composition = p.composition;
  spec.method = SequenceMethod::direct;
  const auto direct = Sequence(ds, p.flow, seeds, c, spec).run();
  spec.method = SequenceMethod::intermediate;
  Sequence composed(ds, p.flow, seeds, c, spec);
  const auto fields = composed.run();
  ASSERT_EQ(fields.size(), 3u);
  EXPECT_EQ(composed.compositions_done(), 3 * (composed.window() - 1));
  double worst = 0, largest = 0;
  std::size_t compared = 0;
  for (std::size_t k = 0; k < fields.size(); ++k) {
    for (std::size_t j = 0; j < seeds.counts[1]; ++j) {
      for (std::size_t i = 0; i < seeds.counts[0]; ++i) {
        const double x = seeds.position(0, i), y = seeds.position(1, j);
        const bool inside = p.round ? std::hypot(x, y) < p.radius : std::abs(x) <= p.radius + 1e-12;
        if (!inside) continue;
        const std::size_t s = j * seeds.counts[0] + i;
        worst = std::max(worst, std::abs(fields[k][s] - direct[k][s]));
        largest = std::max(largest, std::abs(direct[k][s]));
        ++compared;
      }
    }
  }
  RecordProperty("max_difference", std::to_string(worst));
  std::printf("%s: %zu seed values compared, max |intermediate - direct| = %.3g (largest |FTLE| %.3g)\n", p.name,
              compared, worst, largest);
  EXPECT_GT(compared, 300u);
  EXPECT_LT(worst, 1e-12) << "largest |FTLE| " << largest;
}

INSTANTIATE_TEST_SUITE_P(
    Flows, SequenceLinear,
    ::testing::Values(
        LinearCase{"saddle_m4", LinearFlow::saddle({1.0, -1.0}), 1.0, 100, 0.25, Interpolation::m4prime, 0.3, false},
        LinearCase{"saddle_linear", LinearFlow::saddle({1.0, -1.0}), 1.0, 100, 0.25, Interpolation::linear, 0.3, false},
        LinearCase{"saddle_backward", LinearFlow::saddle({-1.0, 1.0}), -1.0, 100, 0.25, Interpolation::m4prime, 0.3,
                   false},
        LinearCase{"rotation_m4", LinearFlow::rotation(1.0), 2 * M_PI, 628, M_PI / 2, Interpolation::m4prime, 0.8,
                   true}),
    [](const auto& param_info) { return std::string(param_info.param.name); });

// The double gyre (A = 0.1, eps = 0.25, omega = 2 pi / 10), T = +-15, RK4 with dt = 0.1, start times
// 0, 1, 2: W = 15 short maps of 10 steps per field, 17 short maps in all.
struct GyreRun {
  std::vector<std::vector<double>> direct, composed;
  long direct_steps = 0, composed_steps = 0, compositions = 0;
  double direct_seconds = 0, composed_seconds = 0;
};

GyreRun gyre_run(std::size_t n, double duration) {
  const core::DeviceSet ds = test::test_device();
  Config c;
  c.duration = duration;
  c.steps = 150;
  c.integrator = Integrator::rk4;
  SequenceSpec spec;
  spec.fields = 3;
  spec.interval = 1.0;
  GyreRun r;
  const auto timed = [&](SequenceMethod method, std::vector<std::vector<double>>& out, long& steps, double& seconds) {
    spec.method = method;
    Sequence seq(ds, DoubleGyre{}, gyre_seeds(n), c, spec);
    const auto begin = std::chrono::steady_clock::now();
    out = seq.run();
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    steps = seq.steps_taken();
    if (method == SequenceMethod::intermediate) r.compositions = seq.compositions_done();
  };
  timed(SequenceMethod::direct, r.direct, r.direct_steps, r.direct_seconds);
  timed(SequenceMethod::intermediate, r.composed, r.composed_steps, r.composed_seconds);
  return r;
}

double interior_mean(const std::vector<double>& field, const SeedGrid& seeds) {
  double sum = 0;
  std::size_t count = 0;
  for (std::size_t j = 1; j + 1 < seeds.counts[1]; ++j) {
    for (std::size_t i = 1; i + 1 < seeds.counts[0]; ++i) {
      sum += field[j * seeds.counts[0] + i];
      ++count;
    }
  }
  return sum / static_cast<double>(count);
}

// Composition interpolates each short map on the seed grid, so the composed fields differ from the
// direct ones by an interpolation error that falls as the grid refines. Measured (relative L1 per field,
// start times 0, 1, 2): h = 1/32: 3.9e-3, 4.4e-3, 4.0e-3; h = 1/64: 1.73e-3, 1.96e-3, 1.68e-3;
// h = 1/128: 8.4e-4, 8.8e-4, 9.8e-4 (first order in h: the error concentrates on the ridges, where
// the short maps' gradients vary on the scale of h). Bounds: 2.5e-3 at h = 1/64 and 1.25e-3 at 1/128
// (the measured worst plus ~25 %), below the spec's acceptance proposal of 2e-3 at the finer grid,
// and the error at least 1.6 times smaller at 1/128 than at 1/64 (measured 2.0). Backward (T = -15)
// fields behave the same (1.7e-3 at h = 1/64).
TEST(SequenceDoubleGyre, ComposedFieldsApproachTheDirectOnesAsTheSeedGridRefines) {
  double mean_error[2] = {0, 0};
  const std::size_t resolutions[2] = {65, 129};
  const double bounds[2] = {2.5e-3, 1.25e-3};
  for (int r = 0; r < 2; ++r) {
    const std::size_t n = resolutions[r];
    const GyreRun run = gyre_run(n, 15.0);
    ASSERT_EQ(run.composed.size(), 3u);
    for (std::size_t k = 0; k < 3; ++k) {
      const Difference d = difference(run.composed[k], run.direct[k]);
      std::printf("h = 1/%zu, t0 = %zu: relative L1 %.3e, max %.3e\n", n - 1, k, d.relative_l1, d.max);
      EXPECT_LT(d.relative_l1, bounds[r]) << "h = 1/" << n - 1 << ", field " << k;
      mean_error[r] += d.relative_l1 / 3;
    }
    std::printf("h = 1/%zu: direct %ld steps in %.2f s, intermediate %ld steps + %ld compositions in %.2f s\n", n - 1,
                run.direct_steps, run.direct_seconds, run.composed_steps, run.compositions, run.composed_seconds);
    if (n == 129) {
      // The spec's table (4.2.2, 257 x 129 seeds, RK4 reference): interior mean 0.1524 at t0 = 0.
      EXPECT_NEAR(interior_mean(run.composed[0], gyre_seeds(n)), 0.1524, 0.01 * 0.1524);
    }
  }
  EXPECT_LT(mean_error[1] * 1.6, mean_error[0]) << mean_error[0] << " -> " << mean_error[1];
}

TEST(SequenceDoubleGyre, BackwardFieldsAgreeToo) {
  const GyreRun run = gyre_run(65, -15.0);
  for (std::size_t k = 0; k < 3; ++k) {
    const Difference d = difference(run.composed[k], run.direct[k]);
    std::printf("backward, h = 1/64, t0 = %zu: relative L1 %.3e\n", k, d.relative_l1);
    EXPECT_LT(d.relative_l1, 2.5e-3) << "field " << k;
  }
}

// The work counted before a run equals what the run does: K |T| / dt direct steps against
// (K + W - 1) |interval| / dt, a saving of K W / (K + W - 1).
TEST(SequenceCost, StepCountsMatchTheFormulaAndTheRun) {
  Config c;
  c.duration = 15;
  c.steps = 150;
  SequenceSpec spec;
  spec.fields = 3;
  spec.interval = 1.0;
  const SequenceCost cost = Sequence::cost(c, spec);
  EXPECT_EQ(cost.direct_steps, 450);
  EXPECT_EQ(cost.short_maps, 17);
  EXPECT_EQ(cost.map_steps, 170);
  EXPECT_EQ(cost.compositions, 42);
  EXPECT_DOUBLE_EQ(cost.step_saving(), 3.0 * 15 / 17);

  const GyreRun run = gyre_run(17, 15.0);
  EXPECT_EQ(run.direct_steps, cost.direct_steps);
  EXPECT_EQ(run.composed_steps, cost.map_steps);
  EXPECT_EQ(run.compositions, cost.compositions);

  // The paper's configuration (spec 4.1.2): 32 fields, windows of 96 snapshot intervals, one step per
  // interval. The step saving K W / (K + W - 1) = 24.2 is within 1 % of K W / (K + W) = 24; Eq. 19
  // charges the indirect method 2 N_vel = 2 (K + W) step-equivalents and predicts half of it, 12.
  c.duration = 96;
  c.steps = 96;
  spec.fields = 32;
  const SequenceCost paper = Sequence::cost(c, spec);
  EXPECT_EQ(paper.direct_steps, 32 * 96);
  EXPECT_EQ(paper.map_steps, 127);
  EXPECT_NEAR(paper.step_saving(), 32.0 * 96 / 127, 1e-12);
  EXPECT_NEAR(paper.step_saving(), 32.0 * 96 / 128, 0.01 * 24);
  EXPECT_NEAR(paper.step_saving() / 2, (128.0 - 32) * 32 / (2 * 128), 0.01 * 12);

  // Direct sequences take any interval; the intermediate method needs whole intervals and steps.
  spec.interval = 7;
  spec.method = SequenceMethod::direct;
  EXPECT_EQ(Sequence::cost(c, spec).map_steps, 0);
  spec.method = SequenceMethod::intermediate;
  EXPECT_THROW(Sequence::cost(c, spec), core::Error);
  spec.interval = 1.5;
  c.steps = 100;  // 64 intervals: 100 steps do not split
  EXPECT_THROW(Sequence::cost(c, spec), core::Error);
}

void expect_memory(const core::DeviceSet& ds, const Sequence& seq, const SequenceMemory& estimate) {
  const SequenceMemory used = seq.peak_memory();
  EXPECT_EQ(used.solver_bytes, estimate.solver_bytes) << ds.size() << " device(s)";
  EXPECT_EQ(used.map_bytes, estimate.map_bytes);
  EXPECT_EQ(used.work_bytes, estimate.work_bytes);
  EXPECT_EQ(used.total(), estimate.total());
}

// The estimate made before a run equals what the run allocates: the Solver's device_bytes(), the W
// short maps and the composition's buffers; one device and two, analytic and gridded velocity (resident,
// and streamed through 4 snapshot slots), both precisions.
TEST(SequenceMemory, EstimateEqualsWhatTheSequenceAllocates) {
  const core::DeviceSet one = test::test_device(), several = test::test_devices();
  const SeedGrid seeds = gyre_seeds(9);  // 17 x 9
  const VelocityGrid grid = sample_on_grid(
      2, {33, 17, 1}, {0, 0, 0}, {1.0 / 16, 1.0 / 16, 1}, {0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5, 5},
      [](const std::array<double, 3>& x, double t) { return reference::double_gyre_velocity(DoubleGyre{}, x, t); });
  Config c;
  c.duration = 3;
  c.steps = 30;
  SequenceSpec spec;
  spec.fields = 2;
  spec.interval = 1;
  for (const core::DeviceSet* ds : {&one, &several}) {
    for (core::Precision precision : {core::Precision::f64, core::Precision::f32}) {
      c.precision = precision;
      for (SequenceMethod method : {SequenceMethod::direct, SequenceMethod::intermediate}) {
        spec.method = method;
        const SequenceMemory analytic = Sequence::memory(*ds, DoubleGyre{}, seeds, c, spec);
        Sequence a(*ds, DoubleGyre{}, seeds, c, spec);
        a.run();
        expect_memory(*ds, a, analytic);
        const std::size_t rb = precision == core::Precision::f64 ? 8 : 4;
        Config streamed = c;
        streamed.velocity_budget_bytes = 4 * 33 * 17 * 2 * rb;
        const SequenceMemory small = Sequence::memory(*ds, grid, seeds, streamed, spec);
        Sequence gs(*ds, grid, seeds, streamed, spec);
        const auto streamed_fields = gs.run();
        expect_memory(*ds, gs, small);

        const SequenceMemory gridded = Sequence::memory(*ds, grid, seeds, c, spec);
        Sequence g(*ds, grid, seeds, c, spec);
        const auto fields = g.run();
        expect_memory(*ds, g, gridded);
        // The velocity snapshots, mirrored to every device, dominate the gridded Solver; streamed, the
        // Solver holds 4 of the 11.
        EXPECT_GE(gridded.solver_bytes, ds->size() * 11 * 33 * 17 * 2 * rb);
        EXPECT_EQ(gridded.solver_bytes - small.solver_bytes, ds->size() * 7 * 33 * 17 * 2 * rb);
        EXPECT_EQ(streamed_fields, fields);
        if (method == SequenceMethod::intermediate) {
          EXPECT_EQ(gridded.map_bytes, 3 * seeds.size() * 2 * rb);  // W = 3 maps
          EXPECT_EQ(gridded.work_bytes, 5 * seeds.size() * rb);
        } else {
          EXPECT_EQ(gridded.map_bytes + gridded.work_bytes, 0u);
        }
        ASSERT_EQ(fields.size(), 2u);
        for (double v : fields[1]) ASSERT_TRUE(std::isfinite(v));
      }
    }
  }
}

TEST(SequenceErrors, RejectsWhatCannotCompose) {
  const core::DeviceSet ds = test::test_device();
  const SeedGrid seeds = gyre_seeds(9);
  const VelocityGrid grid = sample_on_grid(
      2, {33, 17, 1}, {0, 0, 0}, {1.0 / 16, 1.0 / 16, 1}, {0, 10},
      [](const std::array<double, 3>& x, double t) { return reference::double_gyre_velocity(DoubleGyre{}, x, t); });
  Config c;
  c.duration = 2;
  c.steps = 20;
  SequenceSpec spec;
  spec.fields = 2;
  spec.interval = 1;
  c.boundary = Boundary::periodic;
  EXPECT_THROW(Sequence(ds, grid, seeds, c, spec), core::Error);
  spec.method = SequenceMethod::direct;
  EXPECT_NO_THROW(Sequence(ds, grid, seeds, c, spec));
  spec.fields = 0;
  EXPECT_THROW(Sequence(ds, DoubleGyre{}, seeds, c, spec), core::Error);
  spec.fields = 1;
  spec.interval = -1;
  EXPECT_THROW(Sequence(ds, DoubleGyre{}, seeds, c, spec), core::Error);
}

}  // namespace
}  // namespace hetflow::ftle
