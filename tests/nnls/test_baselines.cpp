// Lawson-Hanson and FNNLS against SciPy's nnls, the KKT conditions, problems with a known solution,
// invariance under column units, rank deficiency and malformed input.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "hetflow/core/error.hpp"
#include "hetflow/nnls/fnnls.hpp"
#include "hetflow/nnls/kkt.hpp"
#include "hetflow/nnls/lawson_hanson.hpp"
#include "hetflow/nnls/support.hpp"
#include "hetflow/nnls/test_problems.hpp"
#include "nnls_measures.hpp"

namespace hetflow::nnls {
namespace {

using namespace test;
const std::filesystem::path test_data = std::filesystem::path(__FILE__).parent_path() / "data";

// scripts/nnls_reference.py: A, b and SciPy's solution, for problems built around a known x_star.
struct Reference {
  std::string name;
  double kappa = 1.0;
  bool strict = false;  // x_star is the unique solution (else b = A x_star is consistent)
  Matrix A;
  Vector b, x_star, x_scipy;
  double rnorm = 0.0;
};

const std::vector<Reference>& references() {
  static const std::vector<Reference> all = [] {
    std::ifstream in(test_data / "scipy_nnls_reference.json");
    const nlohmann::json json = nlohmann::json::parse(in);
    std::vector<Reference> out;
    for (const auto& p : json.at("problems")) {
      Reference r;
      r.name = p.at("name");
      r.kappa = p.at("kappa");
      r.strict = p.at("strict");
      r.A = Matrix(p.at("m"), p.at("n"));
      r.A.data = p.at("A").get<Vector>();
      r.b = p.at("b").get<Vector>();
      r.x_star = p.at("x_star").get<Vector>();
      r.x_scipy = p.at("x_scipy").get<Vector>();
      r.rnorm = p.at("rnorm");
      out.push_back(std::move(r));
    }
    return out;
  }();
  return all;
}



using Solver = Solution (*)(MatrixView, const Vector&, const BaselineOptions&);
struct Named {
  const char* name;
  Solver solve;
  bool normal_equations;
};
Solution fnnls_on_a(MatrixView A, const Vector& b, const BaselineOptions& options) { return fnnls(A, b, options); }
const Named solvers[] = {{"lawson_hanson", lawson_hanson, false}, {"fnnls", fnnls_on_a, true}};

TEST(NnlsBaselines, AgreeWithScipy) {
  ASSERT_EQ(references().size(), 9u);
  for (const Reference& ref : references())
    for (const Named& solver : solvers) {
      SCOPED_TRACE(ref.name + " " + solver.name);
      const Solution s = solver.solve(ref.A, ref.b, {});
      EXPECT_TRUE(s.converged) << s.diagnosis;
      EXPECT_TRUE(s.diagnosis.empty());
      // The optimal residual is well conditioned even where x is not (kappa = 1e8). The normal equations
      // (FNNLS) perturb x by about eps kappa_F^2 ||x|| along the smallest singular direction, which moves
      // A x by eps kappa_F ||A_F|| ||x|| <= eps kappa_F^2 ||b||: seen 1.2e-12 ||b|| at kappa 1e4 with the
      // GPU machine's LAPACK, where the reference LAPACK gave less than 1e-12.
      const Vector sv = free_singular_values(ref.A, s.x);
      const double kappa_f = sv.empty() ? 1.0 : sv.front() / sv.back();
      const double residual_tol = solver.normal_equations ? std::max(1e-12, 10 * eps * kappa_f) : 1e-12;
      EXPECT_NEAR(s.residual_norm, ref.rnorm, residual_tol * norm2(ref.b));
      EXPECT_TRUE(kkt_report(ref.A, ref.b, s.x).satisfied(1e-10));
      if (!ref.strict) continue;  // x need not be unique: only the residual and the KKT point are
      // kappa <= 1e4: the smallest scaled multiplier (>= 1e-4 here) stands far above the stopping
      // tolerance (~1e-12), so every solver must find the same active set. At kappa = 1e8 multipliers
      // that small cannot be resolved: the solvers may stop on different active sets, with residuals
      // equal to 1e-12 ||b|| (above) but x far apart, and only x on a common active set is comparable.
      if (ref.kappa <= 1e4) {
        EXPECT_EQ(zeros(s.x), zeros(ref.x_scipy));
      }
      if (zeros(s.x) != zeros(ref.x_scipy)) continue;
      const double bound = forward_error_bound(ref.A, ref.x_scipy, ref.rnorm, solver.normal_equations);
      EXPECT_LE(relative_difference(s.x, ref.x_scipy), bound);
    }
}

// The generator's x_star is the unique solution: recovered to the same least-squares bound.
TEST(NnlsBaselines, RecoverGeneratedSolution) {
  for (const double kappa : {1e1, 1e4})
    for (const double fraction : {0.05, 0.2, 0.5})
      for (const auto& [m, n] : {std::pair<std::size_t, std::size_t>{40, 30}, {50, 50}}) {
        const Matrix A = random_matrix(m, n, kappa, 7);
        const Problem p = with_active_set(A, fraction, 11);
        ASSERT_TRUE(p.strict);
        for (const Named& solver : solvers) {
          SCOPED_TRACE(std::to_string(m) + "x" + std::to_string(n) + " kappa " + std::to_string(kappa) + " active " +
                       std::to_string(fraction) + " " + solver.name);
          const Solution s = solver.solve(A, p.b, {});
          EXPECT_TRUE(s.converged) << s.diagnosis;
          EXPECT_EQ(zeros(s.x), zeros(p.x));
          EXPECT_LE(relative_difference(s.x, p.x),
                    forward_error_bound(A, p.x, s.residual_norm, solver.normal_equations));
          EXPECT_TRUE(kkt_report(A, p.b, s.x).satisfied(1e-10));
        }
      }
}

// Changing the unit of variable j by c_j (column j times c_j) divides x_j by c_j: the solvers scale
// the columns to unit norm, so the iteration and the stopping test see the same numbers up to rounding.
TEST(NnlsBaselines, ColumnUnitsDoNotMatter) {
  const Matrix A = random_matrix(40, 30, 1e2, 3);
  const Problem p = with_active_set(A, 0.3, 4);
  Matrix scaled = A;
  Vector c(A.cols);
  for (std::size_t j = 0; j < A.cols; ++j) {
    c[j] = std::pow(10.0, -6.0 + 12.0 * static_cast<double>(j) / static_cast<double>(A.cols - 1));
    for (std::size_t i = 0; i < A.rows; ++i) scaled(i, j) *= c[j];
  }
  for (const Named& solver : solvers) {
    SCOPED_TRACE(solver.name);
    const Solution plain = solver.solve(A, p.b, {}), units = solver.solve(scaled, p.b, {});
    Vector back(A.cols);
    for (std::size_t j = 0; j < A.cols; ++j) back[j] = units.x[j] * c[j];
    EXPECT_EQ(zeros(units.x), zeros(plain.x));
    EXPECT_EQ(units.iterations, plain.iterations);
    // Scaling a column by c_j and back rounds each entry once: a perturbation of the problem of relative
    // size eps, so the least-squares bound applies.
    EXPECT_LE(relative_difference(back, plain.x),
              forward_error_bound(A, plain.x, plain.residual_norm, solver.normal_equations));
    EXPECT_NEAR(units.residual_norm, plain.residual_norm, 1e-14 * norm2(p.b));
    EXPECT_TRUE(kkt_report(scaled, p.b, units.x).satisfied(1e-10));
  }
}

// Exact copies and a nonnegative combination of columns leave the cone {A x : x >= 0}, hence the
// optimal residual, unchanged; the solvers must stop at a KKT point with that residual. With a
// tolerance below the rounding of the gradient they try to release dependent columns: they must
// reject them and stop (with a diagnosis) instead of cycling.
TEST(NnlsBaselines, RankDeficientTerminatesAtKktPoint) {
  const Matrix A = random_matrix(40, 20, 10.0, 5);
  const Problem p = with_active_set(A, 0.2, 6);
  Matrix D(A.rows, A.cols + 3);
  std::copy(A.data.begin(), A.data.end(), D.data.begin());
  for (std::size_t i = 0; i < A.rows; ++i) {
    D(i, 20) = A(i, 3);            // exact copy
    D(i, 21) = 2.0 * A(i, 7);      // a copy in other units
    D(i, 22) = A(i, 1) + A(i, 2);  // in the cone of columns 1 and 2
  }
  const double optimum = lawson_hanson(A, p.b).residual_norm;
  for (const Named& solver : solvers) {
    SCOPED_TRACE(solver.name);
    for (const double tolerance : {0.0, 1e-300}) {
      SCOPED_TRACE("tolerance " + std::to_string(tolerance));
      const Solution s = solver.solve(D, p.b, {.tolerance = tolerance});
      EXPECT_TRUE(s.converged || s.diagnosis.find("depend linearly on the free ones") != std::string::npos)
          << s.diagnosis;
      EXPECT_LE(s.iterations, 3 * 23);
      EXPECT_NEAR(s.residual_norm, optimum, 1e-12 * norm2(p.b));
      EXPECT_TRUE(kkt_report(D, p.b, s.x).satisfied(1e-10));
    }
  }
}

TEST(NnlsBaselines, IterationLimitIsReported) {
  const Matrix A = random_matrix(40, 30, 10.0, 8);
  const Problem p = with_active_set(A, 0.2, 9);
  for (const Named& solver : solvers) {
    SCOPED_TRACE(solver.name);
    const Solution s = solver.solve(A, p.b, {.tolerance = 0.0, .max_iterations = 2});
    EXPECT_FALSE(s.converged);
    EXPECT_EQ(s.iterations, 2);
    EXPECT_EQ(s.diagnosis, "iteration limit 2 reached");
    EXPECT_GE(kkt_report(A, p.b, s.x).min_x, 0.0);  // still feasible
  }
}

TEST(NnlsBaselines, TrivialProblems) {
  const Matrix A = random_matrix(10, 8, 10.0, 1);
  for (const Named& solver : solvers) {
    SCOPED_TRACE(solver.name);
    const Solution zero_b = solver.solve(A, Vector(10, 0.0), {});
    EXPECT_TRUE(zero_b.converged);
    EXPECT_EQ(zero_b.x, Vector(8, 0.0));
    EXPECT_EQ(zero_b.residual_norm, 0.0);
    const Solution no_variables = solver.solve(Matrix(3, 0), Vector{0.0, 3.0, 4.0}, {});
    EXPECT_TRUE(no_variables.converged);
    EXPECT_TRUE(no_variables.x.empty());
    EXPECT_EQ(no_variables.residual_norm, 5.0);
  }
}

// One A^T A for several right-hand sides gives what fnnls(A, b) gives.
TEST(NnlsBaselines, FnnlsReusesNormalMatrix) {
  const Matrix A = random_matrix(50, 30, 1e3, 12);
  const Matrix AtA = normal_matrix(A);
  for (const std::uint64_t seed : {13, 14}) {
    const Problem p = with_active_set(A, 0.3, seed);
    const Solution direct = fnnls(A, p.b), reused = fnnls(AtA, normal_rhs(A, p.b), norm2(p.b));
    EXPECT_EQ(reused.x, direct.x);
    EXPECT_EQ(reused.iterations, direct.iterations);
    // ||r||^2 from ||b||^2 - 2 x^T A^T b + x^T A^T A x: ||r|| ~ ||b|| / 2 here, so little cancels.
    EXPECT_NEAR(reused.residual_norm, direct.residual_norm, 1e-12 * norm2(p.b));
  }
}

// The definition in kkt.hpp on a case worked by hand: A = diag(2, 4), b = (2, -1), ||b|| = sqrt(5).
TEST(NnlsKkt, MatchesTheDefinition) {
  Matrix A(2, 2);
  A(0, 0) = 2.0;
  A(1, 1) = 4.0;
  const Vector b{2.0, -1.0};
  // The solution (1, 0): r = (0, -1), g = (0, 4 * -1 / (4 sqrt 5)).
  const KktReport optimal = kkt_report(A, b, {1.0, 0.0});
  EXPECT_EQ(optimal.min_x, 0.0);
  EXPECT_NEAR(optimal.max_active_gradient, -1.0 / std::sqrt(5.0), 1e-15);
  EXPECT_EQ(optimal.max_free_gradient, 0.0);
  EXPECT_TRUE(optimal.satisfied(1e-10));
  // (0.5, 0): r = (1, -1), the free variable has g_1 = 2 / (2 sqrt 5).
  const KktReport short_of_it = kkt_report(A, b, {0.5, 0.0});
  EXPECT_NEAR(short_of_it.max_free_gradient, 1.0 / std::sqrt(5.0), 1e-15);
  EXPECT_FALSE(short_of_it.satisfied(1e-10));
  // (0, -0.25): infeasible, min_x = -0.25 * 4 / sqrt 5; r = (2, 0), so x_1 = 0 has g_1 = 2 / sqrt 5 > 0.
  const KktReport infeasible = kkt_report(A, b, {0.0, -0.25});
  EXPECT_NEAR(infeasible.min_x, -1.0 / std::sqrt(5.0), 1e-15);
  EXPECT_NEAR(infeasible.max_active_gradient, 2.0 / std::sqrt(5.0), 1e-15);
  EXPECT_FALSE(infeasible.satisfied(1e-10));
}

// 5e-14 next to 2.0 is round-off, not a positive variable: the threshold is sqrt(eps) * max|x|, and exact
// zeros, tiny and negative entries are counted apart.
TEST(NnlsSupport, CountsAboveSqrtEpsOfTheLargestEntry) {
  const Support s = support({2.0, 5e-14, 0.0, 3e-8, 2.9e-8, -1e-15, 0.0, -1.0});
  EXPECT_EQ(s.threshold, 2.0 * 1.4901161193847656e-08);
  EXPECT_EQ(s.positive, 2u);  // 2.0 and 3e-8 > 2.98e-8
  EXPECT_EQ(s.tiny, 3u);      // 5e-14, 2.9e-8, -1e-15
  EXPECT_EQ(s.zero, 2u);
  EXPECT_EQ(s.negative, 1u);
  const Support none = support({0.0, 0.0});
  EXPECT_EQ(none.zero, 2u);
  EXPECT_EQ(none.positive + none.tiny + none.negative, 0u);
}

TEST(NnlsBaselines, MalformedInputIsNamed) {
  Matrix A = random_matrix(20, 5, 10.0, 2);
  const Vector b(20, 1.0);
  for (const Named& solver : solvers) {
    SCOPED_TRACE(solver.name);
    EXPECT_THROW(solver.solve(A, Vector(19, 1.0), {}), core::Error);
    expect_error([&] { solver.solve(A, Vector(21, 1.0), {}); },
                 "b has 21 entries but A has 20 rows: b.size() must equal A.rows");
    Matrix bad = A;
    bad(12, 3) = std::numeric_limits<double>::quiet_NaN();
    expect_error([&] { solver.solve(bad, b, {}); }, "A(12, 3) = nan: A must be finite");
    Vector inf = b;
    inf[4] = -std::numeric_limits<double>::infinity();
    expect_error([&] { solver.solve(A, inf, {}); }, "b(4) = -inf: b must be finite");
    Matrix torn = A;
    torn.data.pop_back();
    expect_error([&] { solver.solve(torn, b, {}); }, "A is 20 x 5 but holds 99 entries");
  }
  expect_error([&] { fnnls(Matrix(3, 4), Vector(3), 1.0); }, "AtA is 3 x 4: AtA must be square");
  expect_error([&] { fnnls(Matrix(4, 4), Vector(3), 1.0); },
               "Atb has 3 entries but AtA has 4 rows: Atb.size() must equal AtA.rows");
  expect_error([&] { kkt_report(A, b, Vector(4)); }, "x has 4 entries but A has 5 columns: x.size() must equal A.cols");
}

}  // namespace
}  // namespace hetflow::nnls
