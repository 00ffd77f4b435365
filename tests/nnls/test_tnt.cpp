// The TNT solver (nnls/tnt.hpp) on the test device: the KKT conditions and agreement with FNNLS on
// problems with a known solution and on SVC matrices, invariance under column units, several
// right-hand sides, warm start, FP32, rank deficiency, Tikhonov regularisation, the iteration log and
// malformed input.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "hetflow/core/error.hpp"
#include "hetflow/core/event.hpp"
#include "hetflow/nnls/fnnls.hpp"
#include "hetflow/nnls/kkt.hpp"
#include "hetflow/nnls/lawson_hanson.hpp"
#include "hetflow/nnls/svc.hpp"
#include "hetflow/nnls/svc_device.hpp"
#include "hetflow/nnls/test_problems.hpp"
#include "hetflow/nnls/tnt.hpp"
#include "nnls_measures.hpp"
#include "test_devices.hpp"

namespace hetflow::nnls {
namespace {

using namespace test;

double host_residual(const Matrix& A, const Vector& b, const Vector& x) {
  Vector r = b;
  for (std::size_t j = 0; j < A.cols; ++j)
    for (std::size_t i = 0; i < A.rows; ++i) r[i] -= A(i, j) * x[j];
  return norm2(r);
}

// The thesis's first free set (Myre 2013, App. E.1 step 4): every variable.
std::vector<std::size_t> every_variable(std::size_t n) {
  std::vector<std::size_t> all(n);
  for (std::size_t j = 0; j < n; ++j) all[j] = j;
  return all;
}

Matrix scale_columns(const Matrix& A, const Vector& c) {
  Matrix out = A;
  for (std::size_t j = 0; j < A.cols; ++j)
    for (std::size_t i = 0; i < A.rows; ++i) out(i, j) *= c[j];
  return out;
}

class TntTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    devices_ = std::make_unique<core::DeviceSet>(test::test_device());
    if (devices_->device(0).info.fp64) tnt_ = std::make_unique<Tnt>(*devices_);
  }
  static void TearDownTestSuite() {
    tnt_.reset();
    devices_.reset();
  }
  void SetUp() override {
    if (!tnt_) GTEST_SKIP() << "the test device has no FP64";
  }
  static Tnt& tnt() { return *tnt_; }

  // By convexity, for any feasible y: (1/2)||r(x)||^2 - (1/2)||r(y)||^2 <= g(x)^T (y - x), which the KKT
  // test (to 1e-10, asserted by the callers) bounds by 1e-10 ||b|| (||D y||_1 + ||D x||_1), D the column
  // norms: x's residual exceeds y's by at most that gap.
  static void expect_within_kkt_gap(const Matrix& A, const Vector& b, const Solution& x, const Solution& y) {
    const Vector d = column_norms(A);
    double l1 = 0.0;
    for (std::size_t j = 0; j < A.cols; ++j) l1 += d[j] * (x.x[j] + y.x[j]);
    EXPECT_LE(0.5 * (x.residual_norm * x.residual_norm - y.residual_norm * y.residual_norm), 1e-10 * norm2(b) * l1);
  }

  // TNT against FNNLS on one problem: KKT, residual never worse than FNNLS's, and (where the active
  // set is resolvable) the same active set and x within the least-squares bounds.
  static void expect_agrees_with_fnnls(const Matrix& A, const Vector& b, bool compare_x, bool exact_residual = true) {
    const TntResult s = tnt().solve(A, b);
    const Solution f = fnnls(A, b);
    EXPECT_TRUE(s.converged) << s.diagnosis;
    EXPECT_TRUE(s.diagnosis.empty());
    EXPECT_TRUE(kkt_report(A, b, s.x).satisfied(1e-10));
    // The reported residual is the device's ||b - A_s x_s||: the host's to rounding.
    EXPECT_NEAR(s.residual_norm, host_residual(A, b, s.x), 1e-13 * norm2(b));
    if (exact_residual) {
      EXPECT_LE(s.residual_norm, f.residual_norm * (1.0 + 1e-8) + 1e-14 * norm2(b));
    } else {
      expect_within_kkt_gap(A, b, s, f);
    }
    if (!compare_x) return;
    EXPECT_EQ(zeros(s.x), zeros(f.x));
    if (zeros(s.x) != zeros(f.x)) return;
    // Both are off the exact solution by at most their bounds: TNT's CGNR as a least-squares solver,
    // FNNLS through the normal equations.
    const double bound = forward_error_bound(A, f.x, f.residual_norm, true) +
                         forward_error_bound(A, f.x, f.residual_norm, false);
    EXPECT_LE(relative_difference(s.x, f.x), bound);
  }

  static std::unique_ptr<core::DeviceSet> devices_;
  static std::unique_ptr<Tnt> tnt_;
};
std::unique_ptr<core::DeviceSet> TntTest::devices_;
std::unique_ptr<Tnt> TntTest::tnt_;

// Over-, under- and well-determined problems of every conditioning and active fraction. At kappa 1e8
// the smallest multipliers sink below what the gradient resolves, so the solvers may stop on
// different active sets with equal residuals: only the residual and the KKT point are compared. On the
// under-determined ones at kappa 1e8 both solvers meet the KKT test, but its tolerance leaves room for
// residuals a few per cent apart, either way round (measured ~1.5e-6 with differences of 5e-8 to 3e-7,
// ||b|| ~ 1, depending on the path TNT takes): the residuals are held to
// the duality gap the tolerance allows there (TNT may lose to FNNLS on such problems).
TEST_F(TntTest, AgreesWithFnnlsOnGeneratedProblems) {
  for (const auto& [m, n] : {std::pair<std::size_t, std::size_t>{80, 60}, {60, 80}, {100, 100}})
    for (const double kappa : {1e1, 1e4, 1e8}) {
      const Matrix A = random_matrix(m, n, kappa, 21);
      for (const double fraction : {0.05, 0.2, 0.5}) {
        SCOPED_TRACE(std::to_string(m) + "x" + std::to_string(n) + " kappa " + std::to_string(kappa) + " active " +
                     std::to_string(fraction));
        const Problem p = with_active_set(A, fraction, 22);
        expect_agrees_with_fnnls(A, p.b, kappa <= 1e4 && p.strict, m >= n || kappa <= 1e4);
        // And the known solution, to the bound with the normal equations' term: PCGNR stops on the
        // normal-equations residual B^T r (measured: up to 5x the pure least-squares bound at kappa 1e4).
        if (kappa <= 1e4 && p.strict) {
          const TntResult s = tnt().solve(A, p.b);
          EXPECT_EQ(zeros(s.x), zeros(p.x));
          EXPECT_LE(relative_difference(s.x, p.x), forward_error_bound(A, p.x, s.residual_norm, true));
        }
      }
    }
}

// SVC matrices (geometric singular values) from the host reference and, the same bits, generated on
// the device and solved there without a download.
TEST_F(TntTest, AgreesWithFnnlsOnSvcMatrices) {
  for (const auto& [m, n] : {std::pair<std::size_t, std::size_t>{96, 64}, {64, 96}, {80, 80}})
    for (const double kappa : {1e2, 1e6}) {
      SCOPED_TRACE(std::to_string(m) + "x" + std::to_string(n) + " kappa " + std::to_string(kappa));
      const SvcSpec spec{m, n, kappa, SvcMode::geometric, 31, {}};
      const Matrix A = svc_host(spec);
      const Problem p = with_active_set(A, 0.2, 32);
      expect_agrees_with_fnnls(A, p.b, kappa <= 1e4 && p.strict);

      SvcGenerator generator(*devices_);
      const core::Buffer<double> on_device = generator.generate(spec);
      const TntResult host = tnt().solve(A, p.b);
      const TntResult device = tnt().solve(DeviceMatrixView<double>::whole(on_device, m, n), p.b);
      EXPECT_TRUE(device.converged) << device.diagnosis;
      EXPECT_TRUE(kkt_report(A, p.b, device.x).satisfied(1e-10));
      // The column norms come from a device reduction instead of the host loop: rounding apart, the
      // same problem, with the same answer where it is unique. At kappa 1e6 the variables released below
      // FNNLS's tolerance follow the rounding, so the two may stop at different KKT points.
      if (kappa <= 1e4) {
        EXPECT_NEAR(device.residual_norm, host.residual_norm, 1e-12 * norm2(p.b));
      } else {
        expect_within_kkt_gap(A, p.b, device, host);
        expect_within_kkt_gap(A, p.b, host, device);
      }
      if (kappa <= 1e4 && p.strict) {
        EXPECT_EQ(zeros(device.x), zeros(host.x));
        EXPECT_LE(relative_difference(device.x, host.x), forward_error_bound(A, host.x, host.residual_norm, true));
      }
    }
}

// Column j in units c_j (c from 1e-6 to 1e6): the scaled problem is the same up to one rounding per
// entry, so the same iterations, active set and x / c to the least-squares bound.
TEST_F(TntTest, ColumnUnitsDoNotMatter) {
  const Matrix A = random_matrix(60, 40, 1e2, 3);
  const Problem p = with_active_set(A, 0.3, 4);
  Vector c(A.cols);
  for (std::size_t j = 0; j < A.cols; ++j)
    c[j] = std::pow(10.0, -6.0 + 12.0 * static_cast<double>(j) / static_cast<double>(A.cols - 1));
  const Matrix scaled = scale_columns(A, c);
  const TntResult plain = tnt().solve(A, p.b), units = tnt().solve(scaled, p.b);
  Vector back(A.cols);
  for (std::size_t j = 0; j < A.cols; ++j) back[j] = units.x[j] * c[j];
  EXPECT_TRUE(units.converged) << units.diagnosis;
  EXPECT_EQ(zeros(units.x), zeros(plain.x));
  EXPECT_EQ(units.iterations, plain.iterations);
  EXPECT_EQ(units.inner_iterations, plain.inner_iterations);
  EXPECT_LE(relative_difference(back, plain.x), forward_error_bound(A, plain.x, plain.residual_norm, false));
  EXPECT_NEAR(units.residual_norm, plain.residual_norm, 1e-14 * norm2(p.b));
  EXPECT_TRUE(kkt_report(scaled, p.b, units.x).satisfied(1e-10));
}

// A's layout in device memory: the same matrix as a padded, offset block of a larger buffer (a
// leading dimension of m + 7, 5 entries in) gives the contiguous view's answer bit for bit, since the
// kernels read it through the view and the arithmetic does not change. (Row-major files are turned
// column-major on reading: tests/io/test_npy.cpp.)
TEST_F(TntTest, MemoryLayoutDoesNotMatter) {
  const Matrix A = random_matrix(70, 50, 1e3, 21);
  const Problem p = with_active_set(A, 0.3, 22);
  const std::size_t m = A.rows, n = A.cols, ld = m + 7, offset = 5;
  const core::Queue& q = devices_->compute(0);
  core::Buffer<double> tight(devices_->context(0), m * n), padded(devices_->context(0), offset + ld * n);
  tight.write(q, std::span<const double>(A.data));
  std::vector<double> spread(offset + ld * n, std::numeric_limits<double>::quiet_NaN());
  for (std::size_t j = 0; j < n; ++j) std::copy(A.column(j), A.column(j) + m, spread.begin() + offset + j * ld);
  padded.write(q, std::span<const double>(spread));
  const TntResult a = tnt().solve(DeviceMatrixView<double>::whole(tight, m, n), p.b);
  const TntResult b = tnt().solve(DeviceMatrixView<double>{padded, m, n, ld, offset}, p.b);
  EXPECT_TRUE(a.converged) << a.diagnosis;
  EXPECT_EQ(a.x, b.x);
  EXPECT_EQ(a.residual_norm, b.residual_norm);
  EXPECT_EQ(a.iterations, b.iterations);
}

// One upload and one A^T A for three right-hand sides: each result is the single solve's, bit for bit
// (each starts from the same AA and shift).
TEST_F(TntTest, SeveralRightHandSidesEqualSingleSolves) {
  const Matrix A = random_matrix(70, 50, 1e3, 12);
  Matrix B(A.rows, 3);
  for (std::size_t c = 0; c < 3; ++c) {
    const Problem p = with_active_set(A, 0.1 + 0.2 * static_cast<double>(c), 13 + c);
    std::copy(p.b.begin(), p.b.end(), B.column(c));
  }
  const std::vector<TntResult> all = tnt().solve(A, B, {});
  ASSERT_EQ(all.size(), 3u);
  for (std::size_t c = 0; c < 3; ++c) {
    SCOPED_TRACE("column " + std::to_string(c));
    const TntResult one = tnt().solve(A, Vector(B.column(c), B.column(c) + B.rows));
    EXPECT_EQ(all[c].x, one.x);
    EXPECT_EQ(all[c].residual_norm, one.residual_norm);
    EXPECT_EQ(all[c].iterations, one.iterations);
    EXPECT_EQ(all[c].factorizations, one.factorizations);
    EXPECT_TRUE(all[c].converged);
  }
}

// By default the first free set holds the variables whose gradient A^T b at x = 0 is positive: the others
// already satisfy the KKT conditions there. On a Gaussian matrix (n = 400) that set holds 61-82 % of the
// variables, and the solve reaches the KKT point of the thesis's start (every variable free); with three
// quarters of x at zero it takes 7 factorisations against 11.
TEST_F(TntTest, StartsFromThePositiveGradientAtZero) {
  const Matrix A = gaussian_matrix(400, 400, 0.0, 3);
  const Vector norms = column_norms(A);
  for (const double active : {0.05, 0.25, 0.5, 0.75}) {
    SCOPED_TRACE("active " + std::to_string(active));
    const Problem p = with_active_set(A, active, 4);
    // The first set, bracketed by host gradients beyond the device's rounding.
    std::size_t surely = 0, maybe = 0;
    for (std::size_t j = 0; j < A.cols; ++j) {
      double g = 0.0;
      for (std::size_t i = 0; i < A.rows; ++i) g += A(i, j) * p.b[i];
      const double rounding = 1e-12 * norms[j] * norm2(p.b);
      surely += g > rounding;
      maybe += g > -rounding;
    }
    const TntResult start = tnt().solve(A, p.b);
    const TntResult all = tnt().solve(A, p.b, {.initial_free = every_variable(A.cols)});
    const std::size_t first = start.log.front().free + start.log.front().deleted;
    EXPECT_GE(first, surely);
    EXPECT_LE(first, maybe);
    EXPECT_LT(first, A.cols);
    for (const TntResult* s : {&start, &all}) {
      EXPECT_TRUE(s->converged) << s->diagnosis;
      EXPECT_TRUE(kkt_report(A, p.b, s->x).satisfied(1e-10));
    }
    EXPECT_EQ(zeros(start.x), zeros(all.x));
    EXPECT_NEAR(start.residual_norm, all.residual_norm, 1e-10 * norm2(p.b));
    if (active == 0.75) {
      EXPECT_LT(start.factorizations, all.factorizations);
    }
  }
}

// Started from the solution's free set, the first LSQ reproduces it and the first outer iteration
// finds nothing to release.
TEST_F(TntTest, WarmStartFromTheSolutionTakesOneOuterIteration) {
  const Matrix A = random_matrix(80, 60, 1e3, 5);
  const Problem p = with_active_set(A, 0.5, 6);
  const TntResult cold = tnt().solve(A, p.b);
  ASSERT_TRUE(cold.converged) << cold.diagnosis;
  EXPECT_GT(cold.iterations, 1);
  TntOptions warm_start;
  for (std::size_t j = 0; j < A.cols; ++j)
    if (cold.x[j] > 0.0) warm_start.initial_free.push_back(j);
  const TntResult warm = tnt().solve(A, p.b, warm_start);
  EXPECT_TRUE(warm.converged) << warm.diagnosis;
  EXPECT_EQ(warm.iterations, 1);
  EXPECT_EQ(warm.inner_iterations, 0);
  EXPECT_EQ(zeros(warm.x), zeros(cold.x));
  EXPECT_LE(relative_difference(warm.x, cold.x), forward_error_bound(A, cold.x, cold.residual_norm, false));
}

// keep_going is asked before every outer iteration with the iterations done; false ends the solve there,
// unconverged, at the best point so far (feasible, its residual no worse than the first LSQ's).
TEST_F(TntTest, KeepGoingStopsBeforeTheNextOuterIteration) {
  const Matrix A = random_matrix(80, 60, 1e3, 5);
  const Problem p = with_active_set(A, 0.5, 6);
  std::vector<int> asked;
  TntOptions o;
  o.keep_going = [&](int iterations) {
    asked.push_back(iterations);
    return true;
  };
  const TntResult whole = tnt().solve(A, p.b, o);
  ASSERT_TRUE(whole.converged) << whole.diagnosis;
  ASSERT_GT(whole.iterations, 1);
  std::vector<int> expected(static_cast<std::size_t>(whole.iterations));
  for (std::size_t i = 0; i < expected.size(); ++i) expected[i] = static_cast<int>(i);
  EXPECT_EQ(asked, expected);  // 0 .. iterations - 1: after the last, the solve converged
  o.keep_going = [](int iterations) { return iterations < 1; };
  const TntResult stopped = tnt().solve(A, p.b, o);
  EXPECT_FALSE(stopped.converged);
  EXPECT_EQ(stopped.iterations, 1);
  EXPECT_EQ(stopped.diagnosis, "stopped after 1 outer iterations");
  EXPECT_TRUE(std::all_of(stopped.x.begin(), stopped.x.end(), [](double v) { return v >= 0.0; }));
  EXPECT_GE(stopped.residual_norm, whole.residual_norm);
}

// FP32 on the device: the same algorithm terminates at FP32's level. The default tolerance is
// 10 eps_32 sqrt(n) = 7.5e-6 here; the answer, evaluated in FP64, is held to 1e-5 (measured: free
// gradients ~5e-8, residual within 2e-8 ||b|| of FNNLS's).
TEST_F(TntTest, Fp32Terminates) {
  for (const double kappa : {1e1, 1e3}) {
    SCOPED_TRACE("kappa " + std::to_string(kappa));
    const Matrix A = random_matrix(60, 40, kappa, 9);
    const Problem p = with_active_set(A, 0.3, 10);
    const TntResult s = tnt().solve(A, p.b, {.fp32 = true});
    EXPECT_TRUE(s.converged) << s.diagnosis;
    EXPECT_LE(s.iterations, 3 * 40);
    EXPECT_TRUE(kkt_report(A, p.b, s.x).satisfied(1e-5));
    const Solution f = fnnls(A, p.b);
    EXPECT_LE(s.residual_norm, f.residual_norm + 1e-6 * norm2(p.b));
  }
}

// Copies and a non-negative combination of columns (as in test_baselines.cpp): from the thesis's start
// (all free) a singular AA(F, F) in the first solve, shifted until it factors. TNT must stop at a KKT
// point with the optimal residual from either start, also with a tolerance below rounding (then by the
// single-insertion rule, with a diagnosis).
TEST_F(TntTest, RankDeficientTerminatesAtKktPoint) {
  const Matrix A = random_matrix(40, 20, 10.0, 5);
  const Problem p = with_active_set(A, 0.2, 6);
  Matrix D(A.rows, A.cols + 3);
  std::copy(A.data.begin(), A.data.end(), D.data.begin());
  for (std::size_t i = 0; i < A.rows; ++i) {
    D(i, 20) = A(i, 3);
    D(i, 21) = 2.0 * A(i, 7);
    D(i, 22) = A(i, 1) + A(i, 2);
  }
  const double optimum = lawson_hanson(A, p.b).residual_norm;
  for (const std::vector<std::size_t>& start : {std::vector<std::size_t>{}, every_variable(D.cols)}) {
    for (const double tolerance : {0.0, 1e-300}) {
      SCOPED_TRACE("tolerance " + std::to_string(tolerance) + ", start " + std::to_string(start.size()));
      const TntResult s = tnt().solve(D, p.b, {.tolerance = tolerance, .initial_free = start});
      EXPECT_TRUE(s.converged || !s.diagnosis.empty());
      EXPECT_LE(s.iterations, 3 * 23);
      EXPECT_NEAR(s.residual_norm, optimum, 1e-12 * norm2(p.b));
      EXPECT_TRUE(kkt_report(D, p.b, s.x).satisfied(1e-10));
    }
  }
}

// lambda > 0 solves min ||A_s x_s - b||^2 + lambda ||x_s||^2: with unit columns (A_s = A) that is
// NNLS on [A; sqrt(lambda) I] and [b; 0], which FNNLS solves for comparison (condition number below
// 1 / sqrt(lambda) = 10, so x agrees to 1e-12).
TEST_F(TntTest, TikhonovMatchesTheAugmentedProblem) {
  Matrix A = random_matrix(50, 40, 1e6, 14);
  Vector c(A.cols);
  for (std::size_t j = 0; j < A.cols; ++j) c[j] = 1.0 / norm2(Vector(A.column(j), A.column(j) + A.rows));
  A = scale_columns(A, c);
  const Problem p = with_active_set(A, 0.3, 15);
  const double lambda = 1e-2;
  Matrix augmented(A.rows + A.cols, A.cols);
  for (std::size_t j = 0; j < A.cols; ++j) {
    std::copy_n(A.column(j), A.rows, augmented.column(j));
    augmented(A.rows + j, j) = std::sqrt(lambda);
  }
  Vector b_augmented = p.b;
  b_augmented.resize(A.rows + A.cols, 0.0);
  const TntResult s = tnt().solve(A, p.b, {.lambda = lambda});
  const Solution f = fnnls(augmented, b_augmented);
  EXPECT_TRUE(s.converged) << s.diagnosis;
  EXPECT_TRUE(kkt_report(augmented, b_augmented, s.x).satisfied(1e-10));
  EXPECT_EQ(zeros(s.x), zeros(f.x));
  EXPECT_LE(relative_difference(s.x, f.x), 1e-12);
  EXPECT_NEAR(s.residual_norm, host_residual(A, p.b, s.x), 1e-13 * norm2(p.b));
}

// The log: the initial solve, then one entry per trial; accepted scores strictly decrease, every
// outer iteration but the last accepts exactly one trial, and the counters add up.
TEST_F(TntTest, IterationLogIsConsistent) {
  const Matrix A = random_matrix(100, 100, 1e4, 16);
  const Problem p = with_active_set(A, 0.5, 17);
  for (const auto& [rc, ec] : {std::pair<double, double>{0.2, 1.2}, {0.5, 2.0}, {0.9, 1.5}}) {
    SCOPED_TRACE("rc " + std::to_string(rc) + " ec " + std::to_string(ec));
    const TntResult s = tnt().solve(A, p.b, {.reduction = rc, .expansion = ec});
    ASSERT_TRUE(s.converged) << s.diagnosis;
    ASSERT_EQ(s.log.size(), static_cast<std::size_t>(s.inner_iterations) + 1);
    EXPECT_EQ(s.log.front().outer, 0);
    EXPECT_TRUE(s.log.front().accepted);
    double last = s.log.front().residual;
    int cg = 0, accepted = 0;
    for (std::size_t i = 0; i < s.log.size(); ++i) {
      const TntIteration& it = s.log[i];
      cg += it.cg_iterations;
      if (i == 0) continue;
      EXPECT_GE(it.outer, 1);
      EXPECT_LE(it.outer, s.iterations);
      EXPECT_GE(it.inserted, 1u);
      EXPECT_LE(it.free, A.cols);
      if (it.accepted) {
        EXPECT_LT(it.residual, last);
        last = it.residual;
        ++accepted;
      } else {
        EXPECT_GE(it.residual, last);
      }
    }
    EXPECT_EQ(cg, s.cg_iterations);
    EXPECT_EQ(accepted, s.iterations - 1);
    EXPECT_GE(s.factorizations, s.inner_iterations + 1);
    EXPECT_NEAR(last, s.residual_norm, 1e-15 * norm2(p.b));
    EXPECT_EQ(zeros(s.x), zeros(p.x));  // the constants change the path, not the answer
    EXPECT_TRUE(kkt_report(A, p.b, s.x).satisfied(1e-10));
  }
  const TntResult limited = tnt().solve(A, p.b, {.max_outer_iterations = 2});
  EXPECT_FALSE(limited.converged);
  EXPECT_EQ(limited.iterations, 2);
  EXPECT_EQ(limited.diagnosis, "iteration limit 2 reached");
  EXPECT_GE(kkt_report(A, p.b, limited.x).min_x, 0.0);
}

// The thesis's deletion rule (most negative y first; Myre 2013, App. E.2) with its constants (rc 0.2,
// ec 1.2) and its start (every variable free) also terminates; where the active set is well resolved it
// finds FNNLS's, and on the kappa 1e8 problem where its LSQ raises the residual it stops by rule 5.6.6 of
// App. E.1 with a diagnosis, still feasible and no worse than where it started (scaled gradient 1.5e-6
// left, residual 2.9e-7 ||b|| above FNNLS's; the default rule converges there).
TEST_F(TntTest, SpecDeletionRuleTerminates) {
  const TntOptions spec_rule{
      .reduction = 0.2, .expansion = 1.2, .deletion = TntDeletion::most_negative, .initial_free = every_variable(60)};
  const Matrix A = random_matrix(80, 60, 1e4, 21);
  const Problem p = with_active_set(A, 0.5, 22);
  const TntResult s = tnt().solve(A, p.b, spec_rule);
  EXPECT_TRUE(s.converged) << s.diagnosis;
  EXPECT_EQ(zeros(s.x), zeros(p.x));
  EXPECT_TRUE(kkt_report(A, p.b, s.x).satisfied(1e-10));

  const Matrix hard = random_matrix(80, 60, 1e8, 21);
  const Problem q = with_active_set(hard, 0.05, 22);
  const TntResult stopped = tnt().solve(hard, q.b, spec_rule);
  EXPECT_FALSE(stopped.converged);
  EXPECT_NE(stopped.diagnosis.find("no insertion lowered the residual"), std::string::npos) << stopped.diagnosis;
  EXPECT_GE(kkt_report(hard, q.b, stopped.x).min_x, 0.0);
  EXPECT_LE(stopped.residual_norm, stopped.log.front().residual);
  EXPECT_LE(stopped.residual_norm, fnnls(hard, q.b).residual_norm + 1e-6 * norm2(q.b));
  const TntResult fixed = tnt().solve(hard, q.b);
  EXPECT_TRUE(fixed.converged) << fixed.diagnosis;
  EXPECT_TRUE(kkt_report(hard, q.b, fixed.x).satisfied(1e-10));
}

// The default deletion rule (batch: a projected line search before each step_back loop, and the first
// trial's early zeros) reaches the same KKT point as Lawson-Hanson's step_back with fewer factorisations.
// The deletions weigh most when the start holds many variables that must leave, so the rules are compared
// from the thesis's start, every variable free,
// on a well-conditioned SVC problem (16 against 25) as on ill-conditioned ones (kappa 1e6 at n = 400:
// 133 against 238; kappa 1e8 at n = 200: 237 against 252). Without the early zeros (early_reach 1) batch
// takes 211 at n = 400; reaching twice the step it took 155 there and 196 at n = 200, the small problem
// on which the default's reach costs more than it saves. At the thesis's rc 0.2 the kappa 1e8 one
// took batch more (406 against 354): its small batches release variables below FNNLS's tolerance in more
// trials.
TEST_F(TntTest, BatchDeletionSavesFactorisations) {
  struct Case {
    Matrix A;
    double active, ratio;  // batch's factorisations below ratio times step_back's
    bool well_conditioned;
  };
  const Case cases[] = {{svc_host({200, 200, 1e2, SvcMode::geometric, 5, {}}), 0.25, 0.75, true},
                        {svc_host({200, 200, 1e8, SvcMode::geometric, 5, {}}), 0.05, 1.0, false},
                        {random_matrix(400, 400, 1e6, 11), 0.05, 0.8, false}};
  for (const Case& c : cases) {
    SCOPED_TRACE("n " + std::to_string(c.A.cols) + ", active " + std::to_string(c.active));
    const Problem p = with_active_set(c.A, c.active, 7);
    const std::vector<std::size_t> all = every_variable(c.A.cols);
    const TntResult batch = tnt().solve(c.A, p.b, {.deletion = TntDeletion::batch, .initial_free = all});
    const TntResult step_back = tnt().solve(c.A, p.b, {.deletion = TntDeletion::step_back, .initial_free = all});
    for (const TntResult* s : {&batch, &step_back}) {
      EXPECT_TRUE(s->converged) << s->diagnosis;
      EXPECT_TRUE(kkt_report(c.A, p.b, s->x).satisfied(1e-10));
    }
    EXPECT_NEAR(batch.residual_norm, step_back.residual_norm, 1e-10 * norm2(p.b));
    if (c.well_conditioned) {
      EXPECT_EQ(zeros(batch.x), zeros(step_back.x));
    }
    EXPECT_LT(batch.factorizations, c.ratio * step_back.factorizations);
  }
  // The early zeros on their own: the n = 400 problem without them.
  const Case& ill = cases[2];
  const Problem p = with_active_set(ill.A, ill.active, 7);
  const std::vector<std::size_t> all = every_variable(ill.A.cols);
  const TntResult early = tnt().solve(ill.A, p.b, {.initial_free = all}),
                  without = tnt().solve(ill.A, p.b, {.early_reach = 1, .initial_free = all});
  EXPECT_TRUE(without.converged) << without.diagnosis;
  EXPECT_NEAR(early.residual_norm, without.residual_norm, 1e-10 * norm2(p.b));
  EXPECT_LT(early.factorizations, 0.75 * without.factorizations);
}

// At condition 1e6 the optimum frees variables whose scaled gradient at the KKT point of FNNLS's tolerance
// lies below that tolerance (about 1e-11 here) but far above the gradient's rounding: TNT releases them
// and reaches the known x to the least-squares bound with the normal equations' term. Stopped at FNNLS's
// tolerance it left 9 of the 237 free variables bound and x 0.3 away (SciPy's Lawson-Hanson: 1.7e-6).
TEST_F(TntTest, RecoversTheKnownSolutionAtCondition1e6) {
  const Matrix A = svc_host({250, 250, 1e6, SvcMode::geometric, 11, {}});
  const Problem p = with_active_set(A, 0.05, 7);
  const TntResult s = tnt().solve(A, p.b);
  EXPECT_TRUE(s.converged) << s.diagnosis;
  EXPECT_EQ(zeros(s.x), zeros(p.x));
  EXPECT_LE(relative_difference(s.x, p.x), forward_error_bound(A, p.x, s.residual_norm, true));
}

// Every subproblem gets PCGNR's second iteration, the CGNR correction. With the preconditioner an
// explicit inverse, the first iterate solves the normal equations and on the Gaussian blur kernel
// (condition about 3e4) its ||A^T r|| often passes the tolerance already, with x a digit short of what
// the correction gives (docs/nnls.md, "The families with the updated inverse"). Each subproblem's PCGNR
// starts from y = 0: at least two iterations per factorisation (none of this problem's fails and raises
// the shift).
TEST_F(TntTest, EverySubproblemGetsTheCgnrCorrection) {
  const Matrix A = blur_matrix(300, 1.5);
  const Problem p = with_active_set(A, 0.05, 9);
  const TntResult s = tnt().solve(A, p.b);
  EXPECT_TRUE(s.converged) << s.diagnosis;
  EXPECT_GE(s.cg_iterations, 2 * s.factorizations);
}

// The time breakdown: each part is positive where it ran, and together they fit in the call's wall time
// (the rest is gradients, residuals and line searches); two right-hand sides share one setup.
TEST_F(TntTest, TheTimeBreakdownFitsInTheCall) {
  const Matrix A = random_matrix(120, 100, 1e3, 41);
  const Problem p = with_active_set(A, 0.3, 42);
  Matrix B(A.rows, 2);
  std::copy(p.b.begin(), p.b.end(), B.column(0));
  std::copy(p.b.begin(), p.b.end(), B.column(1));
  const core::WallTimer timer;
  const std::vector<TntResult> r = tnt().solve(A, B);
  const double wall = timer.seconds();
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].setup_seconds, r[1].setup_seconds);
  double parts = r[0].setup_seconds;
  for (const TntResult& s : r) {
    EXPECT_GT(s.factorizations, 0);
    EXPECT_GT(s.factor_seconds, 0.0);
    EXPECT_GT(s.cg_seconds, 0.0);
    parts += s.factor_seconds + s.cg_seconds;
  }
  EXPECT_GT(r[0].setup_seconds, 0.0);
  EXPECT_LE(parts, wall);
}

TEST_F(TntTest, TrivialProblems) {
  const Matrix A = random_matrix(10, 8, 10.0, 1);
  const TntResult zero_b = tnt().solve(A, Vector(10, 0.0));
  EXPECT_TRUE(zero_b.converged);
  EXPECT_EQ(zero_b.x, Vector(8, 0.0));
  EXPECT_EQ(zero_b.residual_norm, 0.0);
  const TntResult no_variables = tnt().solve(Matrix(3, 0), Vector{0.0, 3.0, 4.0});
  EXPECT_TRUE(no_variables.converged);
  EXPECT_TRUE(no_variables.x.empty());
  EXPECT_EQ(no_variables.residual_norm, 5.0);
  // No positive gradient at x = 0 (A >= 0, b = -A 1): the first free set is empty and x = 0 is the answer.
  Matrix P = A;
  for (double& a : P.data) a = std::abs(a);
  Vector b(10, 0.0);
  for (std::size_t j = 0; j < P.cols; ++j)
    for (std::size_t i = 0; i < P.rows; ++i) b[i] -= P(i, j);
  const TntResult none = tnt().solve(P, b);
  EXPECT_TRUE(none.converged) << none.diagnosis;
  EXPECT_EQ(none.x, Vector(8, 0.0));
  EXPECT_EQ(none.log.front().free, 0u);
  EXPECT_EQ(none.log.front().deleted, 0u);  // nothing entered the first set, so nothing left it
  EXPECT_EQ(none.factorizations, 0);
  EXPECT_NEAR(none.residual_norm, norm2(b), 1e-14 * norm2(b));
  // A zero column never enters: x_j = 0 exactly.
  Matrix Z = A;
  std::fill_n(Z.column(2), Z.rows, 0.0);
  const Problem p = with_active_set(A, 0.0, 2);
  const TntResult s = tnt().solve(Z, p.b);
  EXPECT_EQ(s.x[2], 0.0);
  EXPECT_TRUE(kkt_report(Z, p.b, s.x).satisfied(1e-10));
}

TEST_F(TntTest, MalformedInputIsNamed) {
  const Matrix A = random_matrix(20, 5, 10.0, 2);
  const Vector b(20, 1.0);
  expect_error([&] { tnt().solve(A, Vector(21, 1.0)); },
               "b has 21 entries but A has 20 rows: b.size() must equal A.rows");
  Matrix bad = A;
  bad(12, 3) = std::numeric_limits<double>::quiet_NaN();
  expect_error([&] { tnt().solve(bad, b); }, "A(12, 3) = nan: A must be finite");
  Vector inf = b;
  inf[4] = -std::numeric_limits<double>::infinity();
  expect_error([&] { tnt().solve(A, inf); }, "b(4) = -inf: b must be finite");
  Matrix torn = A;
  torn.data.pop_back();
  expect_error([&] { tnt().solve(torn, b); }, "A is 20 x 5 but holds 99 entries");
  expect_error([&] { tnt().solve(A, Matrix(19, 2), {}); },
               "B has 19 rows but A has 20 rows: B.rows must equal A.rows");
  expect_error([&] { tnt().solve(A, b, {.reduction = 1.0}); }, "TntOptions.reduction = 1.000000: must lie in (0, 1)");
  expect_error([&] { tnt().solve(A, b, {.early_reach = 0.5}); },
               "TntOptions.early_reach = 0.500000: must be finite and >= 1");
  expect_error([&] { tnt().solve(A, b, {.initial_free = {1, 5}}); },
               "TntOptions.initial_free[1] = 5: every index must be below A.cols = 5");
  // A on the device: b against its shape, and its entries through the column norms.
  core::Buffer<double> on_device(devices_->context(0), A.data.size());
  Matrix nan_column = A;
  nan_column(7, 4) = std::numeric_limits<double>::quiet_NaN();
  on_device.write(tnt().queue(), std::span<const double>(nan_column.data));
  const auto view = DeviceMatrixView<double>::whole(on_device, 20, 5);
  expect_error([&] { tnt().solve(view, Vector(19, 1.0)); },
               "b has 19 entries but A has 20 rows: b.size() must equal A.rows");
  expect_error([&] { tnt().solve(view, b); }, "A(:, 4) has a NaN or infinite entry (or overflows): A must be finite");
}

}  // namespace
}  // namespace hetflow::nnls
