#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
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

// The compositions of the two-stack scheme (sequence.hpp): field k costs c(k mod W), c(0) = W - 1 (a
// block's suffixes), c(1) = 1 (chaining a suffix with the next block's first map), c(>= 2) = 2 (extending
// the prefix, then chaining); K (3 - 4 / W) when W divides K.
long two_stack_compositions(long fields, long w) {
  long total = 0;
  for (long k = 0; k < fields; ++k) total += k % w == 0 ? w - 1 : k % w == 1 ? 1 : 2;
  return total;
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
  for (CompositionScheme scheme : {CompositionScheme::two_stack, CompositionScheme::sequential}) {
  spec.scheme = scheme;
  Sequence composed(ds, p.flow, seeds, c, spec);
  const auto fields = composed.run();
  ASSERT_EQ(fields.size(), 3u);
  const long w = composed.window();
  EXPECT_EQ(composed.compositions_done(),
            scheme == CompositionScheme::sequential ? 3 * (w - 1) : two_stack_compositions(3, w));
  EXPECT_EQ(composed.compositions_done(), Sequence::cost(c, spec).compositions);
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
  std::printf("%s, %s: %zu seed values compared, max |intermediate - direct| = %.3g (largest |FTLE| %.3g)\n",
              p.name, to_string(scheme), compared, worst, largest);
  EXPECT_GT(compared, 300u);
  EXPECT_LT(worst, 1e-12) << to_string(scheme) << ", largest |FTLE| " << largest;
  }
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

// The double gyre (A = 0.1, eps = 0.25, omega = 2 pi / 10), T = +-15, RK4 with dt = 0.1, K start times
// 0, 1, 2, ... (interval 1 by default): W = 15 short maps of 10 steps per field, K + 14 short maps in all.
// The direct fields and the composed ones by both schemes, with steps, compositions and wall times.
constexpr int schemes = 2;
constexpr CompositionScheme scheme_of[schemes] = {CompositionScheme::two_stack, CompositionScheme::sequential};

struct GyreRun {
  std::vector<std::vector<double>> direct, composed[schemes];
  long direct_steps = 0, composed_steps[schemes] = {0, 0}, compositions[schemes] = {0, 0};
  double direct_seconds = 0, composed_seconds[schemes] = {0, 0};
};

GyreRun gyre_run(std::size_t n, double duration, std::size_t fields = 3, double interval = 1.0, long steps = 150) {
  const core::DeviceSet ds = test::test_device();
  Config c;
  c.duration = duration;
  c.steps = steps;
  c.integrator = Integrator::rk4;
  SequenceSpec spec;
  spec.fields = fields;
  spec.interval = interval;
  GyreRun r;
  const auto timed = [&](std::vector<std::vector<double>>& out, long& steps_taken, double& seconds, long* compositions) {
    Sequence seq(ds, DoubleGyre{}, gyre_seeds(n), c, spec);
    const auto begin = std::chrono::steady_clock::now();
    out = seq.run();
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    steps_taken = seq.steps_taken();
    if (compositions) *compositions = seq.compositions_done();
  };
  // A first short run builds the OpenCL programs (cached by the context), so the timings below do not
  // include compilation.
  {
    Config warm = c;
    warm.duration = duration > 0 ? 2 * interval : -2 * interval;
    warm.steps = 2 * steps / std::lround(std::abs(duration) / interval);
    SequenceSpec ws = spec;
    ws.fields = 2;
    for (int i = 0; i < schemes; ++i) {
      ws.scheme = scheme_of[i];
      Sequence(ds, DoubleGyre{}, gyre_seeds(n), warm, ws).run();
    }
  }
  spec.method = SequenceMethod::direct;
  timed(r.direct, r.direct_steps, r.direct_seconds, nullptr);
  spec.method = SequenceMethod::intermediate;
  for (int i = 0; i < schemes; ++i) {
    spec.scheme = scheme_of[i];
    timed(r.composed[i], r.composed_steps[i], r.composed_seconds[i], &r.compositions[i]);
  }
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

// Mean over the fields of the relative L1 difference from the direct fields, printed per field.
double mean_difference(const GyreRun& run, int scheme, const char* label) {
  double mean = 0;
  for (std::size_t k = 0; k < run.direct.size(); ++k) {
    const Difference d = difference(run.composed[scheme][k], run.direct[k]);
    std::printf("%s, %s, t0 = %zu: relative L1 %.3e, max %.3e\n", label, to_string(scheme_of[scheme]), k,
                d.relative_l1, d.max);
    mean += d.relative_l1 / static_cast<double>(run.direct.size());
  }
  return mean;
}

// Composition interpolates maps stored on the seed grid, so the composed fields differ from the direct
// ones by an interpolation error that falls as the grid refines.
// sequential (only short maps are interpolated), relative L1 per field, start times 0, 1, 2: h = 1/32:
// 3.9e-3, 4.4e-3, 4.0e-3; h = 1/64: 1.73e-3, 1.96e-3, 1.68e-3; h = 1/128: 8.4e-4, 8.8e-4, 9.8e-4 (first
// order in h: the error concentrates on the ridges, where the short maps' gradients vary on the scale of
// h). Bounds: 2.5e-3 at h = 1/64 and 1.25e-3 at 1/128 (the measured worst plus ~25 %).
// two_stack interpolates composed maps of up to W - 1 = 14 intervals, whose ridges are much sharper:
// h = 1/64: 5.8e-2, 4.6e-2, 4.2e-2; h = 1/128: 2.9e-2, 2.2e-2, 2.1e-2 (first order as well, ~25 times
// the sequential error; field 0 is block 0's suffix chain, the others its suffixes chained with a prefix).
// Bounds: 7e-2 and 3.6e-2 (measured worst plus ~25 %). Both: the error at least 1.6 times smaller at
// 1/128 than at 1/64 (measured 2.0 and 2.0).
TEST(SequenceDoubleGyre, ComposedFieldsApproachTheDirectOnesAsTheSeedGridRefines) {
  double mean_error[schemes][2] = {};
  const std::size_t resolutions[2] = {65, 129};
  const double bounds[schemes][2] = {{7e-2, 3.6e-2}, {2.5e-3, 1.25e-3}};
  for (int r = 0; r < 2; ++r) {
    const std::size_t n = resolutions[r];
    const GyreRun run = gyre_run(n, 15.0);
    const std::string label = "h = 1/" + std::to_string(n - 1);
    for (int i = 0; i < schemes; ++i) {
      ASSERT_EQ(run.composed[i].size(), 3u);
      for (std::size_t k = 0; k < 3; ++k) {
        EXPECT_LT(difference(run.composed[i][k], run.direct[k]).relative_l1, bounds[i][r])
            << label << ", " << to_string(scheme_of[i]) << ", field " << k;
      }
      mean_error[i][r] = mean_difference(run, i, label.c_str());
      std::printf("%s: direct %ld steps in %.2f s; %s %ld steps + %ld compositions in %.2f s\n", label.c_str(),
                  run.direct_steps, run.direct_seconds, to_string(scheme_of[i]), run.composed_steps[i],
                  run.compositions[i], run.composed_seconds[i]);
    }
    if (n == 129) {
      // The RK4 reference on 257 x 129 seeds (docs/ftle.md, "Validation"): interior mean 0.1524 at t0 = 0.
      EXPECT_NEAR(interior_mean(run.composed[1][0], gyre_seeds(n)), 0.1524, 0.01 * 0.1524);
      EXPECT_NEAR(interior_mean(run.composed[0][0], gyre_seeds(n)), 0.1524, 0.02 * 0.1524);
    }
  }
  for (int i = 0; i < schemes; ++i)
    EXPECT_LT(mean_error[i][1] * 1.6, mean_error[i][0]) << to_string(scheme_of[i]) << ": " << mean_error[i][0]
                                                        << " -> " << mean_error[i][1];
}

// Backward (T = -15), h = 1/64. sequential: 1.7e-3, 2.0e-3, 1.7e-3. two_stack: field 0 (block 0's
// suffixes, which backward interpolate only short maps) 1.7e-3, fields 1, 2 (chained with a composed
// prefix) 3.5e-2, 3.5e-2. Bounds as forward at h = 1/64.
TEST(SequenceDoubleGyre, BackwardFieldsAgreeToo) {
  const GyreRun run = gyre_run(65, -15.0);
  const double bounds[schemes] = {7e-2, 2.5e-3};
  for (int i = 0; i < schemes; ++i) {
    mean_difference(run, i, "backward, h = 1/64");
    for (std::size_t k = 0; k < 3; ++k)
      EXPECT_LT(difference(run.composed[i][k], run.direct[k]).relative_l1, bounds[i])
          << to_string(scheme_of[i]) << ", field " << k;
  }
}

// The composition order with an unsteady flow (the linear flows above are steady, so their short maps
// commute): with W = 2 every two_stack field is one chain of its two short maps, the earlier one applied
// first, which is what sequential does, so the fields agree to round-off, forward and backward (the
// linear tests check the plan itself, blocks, suffixes and prefixes, for W = 4).
TEST(SequenceDoubleGyre, TwoStackChainsInTimeOrder) {
  for (double duration : {2.0, -2.0}) {
    const GyreRun run = gyre_run(33, duration, 5, 1.0, 20);
    double worst = 0;
    for (std::size_t k = 0; k < 5; ++k) worst = std::max(worst, difference(run.composed[0][k], run.composed[1][k]).max);
    std::printf("T = %g, W = 2: max |two_stack - sequential| = %.3g\n", duration, worst);
    EXPECT_LT(worst, 1e-11) << "T = " << duration;
    EXPECT_EQ(run.compositions[0], two_stack_compositions(5, 2));
  }
}

// The work counted before a run equals what the run does: K |T| / dt direct steps against
// (K + W - 1) |interval| / dt, a saving of K W / (K + W - 1); compositions K (W - 1) (sequential) or
// sum c(k mod W) (two_stack).
TEST(SequenceCost, StepCountsMatchTheFormulaAndTheRun) {
  Config c;
  c.duration = 15;
  c.steps = 150;
  SequenceSpec spec;
  spec.fields = 3;
  spec.interval = 1.0;
  spec.scheme = CompositionScheme::sequential;
  const SequenceCost sequential = Sequence::cost(c, spec);
  spec.scheme = CompositionScheme::two_stack;
  const SequenceCost cost = Sequence::cost(c, spec);
  EXPECT_EQ(cost.direct_steps, 450);
  EXPECT_EQ(cost.short_maps, 17);
  EXPECT_EQ(cost.map_steps, 170);
  EXPECT_EQ(sequential.map_steps, 170);
  EXPECT_EQ(sequential.compositions, 42);
  EXPECT_EQ(cost.compositions, 14 + 1 + 2);
  EXPECT_DOUBLE_EQ(cost.step_saving(), 3.0 * 15 / 17);

  const GyreRun run = gyre_run(17, 15.0);
  EXPECT_EQ(run.direct_steps, cost.direct_steps);
  for (int i = 0; i < schemes; ++i) EXPECT_EQ(run.composed_steps[i], cost.map_steps);
  EXPECT_EQ(run.compositions[0], cost.compositions);
  EXPECT_EQ(run.compositions[1], sequential.compositions);
  // Both directions, other K and W (the counted plan is the one that runs).
  const GyreRun longer = gyre_run(9, -3.0, 7, 1.0, 30);
  EXPECT_EQ(longer.compositions[0], two_stack_compositions(7, 3));
  EXPECT_EQ(longer.compositions[1], 7 * 2);

  // The exact formula, and about 3 a field: 3 - 4 / W when W divides K.
  for (long w : {1L, 2L, 3L, 5L, 15L, 96L}) {
    for (long k : {1L, 2L, 3L, 7L, 32L, 96L, 200L, 960L}) {
      c.duration = static_cast<double>(w);
      c.steps = 2 * w;
      spec.fields = static_cast<std::size_t>(k);
      const SequenceCost two = Sequence::cost(c, spec);
      EXPECT_EQ(two.compositions, two_stack_compositions(k, w)) << "K = " << k << ", W = " << w;
      c.duration = -c.duration;
      EXPECT_EQ(Sequence::cost(c, spec).compositions, two.compositions) << "backward, K = " << k << ", W = " << w;
      if (k % w == 0 && w > 1) {
        EXPECT_EQ(two.compositions * w, k * (3 * w - 4));
      }
    }
  }

  // The paper's configuration (Conti et al. 2012, Section 4.5): 32 fields, windows of 96 snapshot
  // intervals, one step per interval. The step saving K W / (K + W - 1) = 24.2 is within 1 % of K W / (K
  // + W) = 24; Eq. 19 charges the indirect method 2 N_vel = 2 (K + W) step-equivalents and predicts half
  // of it, 12. two_stack: 95 + 1 + 30 x 2 = 156 compositions, about N_vel + N_FTLE = 160 as Eq. 19
  // assumes, so the saving with a composition at half a step is 3072 / (127 + 78) = 15.0 (sequential:
  // 3072 / (127 + 1520) = 1.87).
  c.duration = 96;
  c.steps = 96;
  spec.fields = 32;
  const SequenceCost paper = Sequence::cost(c, spec);
  EXPECT_EQ(paper.direct_steps, 32 * 96);
  EXPECT_EQ(paper.map_steps, 127);
  EXPECT_EQ(paper.compositions, 156);
  EXPECT_NEAR(paper.step_saving(), 32.0 * 96 / 127, 1e-12);
  EXPECT_NEAR(paper.step_saving(), 32.0 * 96 / 128, 0.01 * 24);
  EXPECT_NEAR(paper.step_saving() / 2, (128.0 - 32) * 32 / (2 * 128), 0.01 * 12);
  EXPECT_NEAR(paper.saving(), 3072.0 / (127 + 78), 1e-12);
  EXPECT_GT(paper.saving(), (128.0 - 32) * 32 / (2 * 128));
  spec.scheme = CompositionScheme::sequential;
  EXPECT_NEAR(Sequence::cost(c, spec).saving(), 3072.0 / (127 + 0.5 * 32 * 95), 1e-12);
  spec.scheme = CompositionScheme::two_stack;

  // Direct sequences take any interval; the intermediate method needs whole intervals and steps.
  spec.interval = 7;
  spec.method = SequenceMethod::direct;
  EXPECT_EQ(Sequence::cost(c, spec).map_steps, 0);
  EXPECT_EQ(Sequence::cost(c, spec).compositions, 0);
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
      for (int variant = 0; variant < 3; ++variant) {
        const SequenceMethod method = variant == 0 ? SequenceMethod::direct : SequenceMethod::intermediate;
        spec.method = method;
        spec.scheme = variant == 1 ? CompositionScheme::sequential : CompositionScheme::two_stack;
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
        if (variant == 1) {
          EXPECT_EQ(gridded.map_bytes, 3 * seeds.size() * 2 * rb);  // W = 3 maps
          EXPECT_EQ(gridded.work_bytes, 5 * seeds.size() * rb);
        } else if (variant == 2) {
          // K = 2, W = 3: block 0's three short maps and the suffix being built, W + 1 maps.
          EXPECT_EQ(gridded.map_bytes, 4 * seeds.size() * 2 * rb);
          EXPECT_EQ(gridded.work_bytes, 3 * seeds.size() * rb);
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

// A Continue that says stop once `wanted` fields exist stops every method there: the fields returned are
// the first ones of the full run, bit for bit (each comes from the same launches), and the steps it was
// shown grow, end at what the sequence took, and fall short of the full run's.
TEST(SequenceStop, ReturnsTheFieldsCompletedWhenAskedToStop) {
  const core::DeviceSet ds = test::test_device();
  const SeedGrid seeds = gyre_seeds(9);
  Config c;
  c.duration = 2;
  c.steps = 20;
  c.integrator = Integrator::heun;
  for (const auto& [method, scheme] : {std::pair{SequenceMethod::direct, CompositionScheme::sequential},
                                      std::pair{SequenceMethod::intermediate, CompositionScheme::sequential},
                                      std::pair{SequenceMethod::intermediate, CompositionScheme::two_stack}}) {
    SCOPED_TRACE(std::string(to_string(method)) + " " + to_string(scheme));
    SequenceSpec spec;
    spec.fields = 6;
    spec.interval = 0.5;
    spec.method = method;
    spec.scheme = scheme;
    Sequence whole(ds, DoubleGyre{}, seeds, c, spec);
    const auto full = whole.run();
    ASSERT_EQ(full.size(), spec.fields);
    for (const std::size_t wanted : {std::size_t{1}, std::size_t{3}}) {
      Sequence s(ds, DoubleGyre{}, seeds, c, spec);
      std::vector<long> shown;
      const auto part = s.run([&](long steps, std::size_t done) {
        shown.push_back(steps);
        return done < wanted;
      });
      ASSERT_GE(part.size(), wanted);
      ASSERT_LT(part.size(), spec.fields);
      for (std::size_t k = 0; k < part.size(); ++k) EXPECT_EQ(part[k], full[k]) << "field " << k;
      ASSERT_FALSE(shown.empty());
      EXPECT_TRUE(std::is_sorted(shown.begin(), shown.end()));
      EXPECT_EQ(shown.back(), s.steps_taken());
      EXPECT_LT(s.steps_taken(), whole.steps_taken());
    }
  }
}

}  // namespace
}  // namespace hetflow::ftle
