// The sparse decompositions (System::jacobian_pattern, sparse_lu.hpp): the plan's ordering and fill on
// a matrix whose answer is known, its errors, and RADAU5 with sparse factors against the dense LU on a
// stiff reaction-diffusion system with a rank-one coupling.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "hetflow/ode/sparse_lu.hpp"
#include "problems.hpp"

namespace hetflow::ode {
namespace {

// An arrow: a full first row and column over the diagonal. In the natural order its hub would fill
// every entry; minimum degree takes the leaves first and the hub once one leaf is left (a tie of
// degree one goes to the lower index), so the factors keep the 3 n - 2 entries and each elimination
// updates one entry.
TEST(OdeSparseLu, TakesAnArrowsHubLastWithoutFill) {
  constexpr int n = 50;
  std::vector<std::array<int, 2>> pattern;
  for (int i = 1; i < n; ++i) {
    pattern.push_back({0, i});
    pattern.push_back({i, 0});
  }
  const SparseLu lu = sparse_lu(n, pattern);
  EXPECT_EQ(lu.entries, 3 * n - 2);
  EXPECT_EQ(lu.updates, static_cast<std::size_t>(n - 1));
}

TEST(OdeSparseLu, NamesAPatternEntryOutsideTheMatrix) {
  const std::vector<std::array<int, 2>> pattern{{0, 1}, {3, 4}};
  try {
    sparse_lu(4, pattern);
    FAIL() << "an entry outside the matrix was accepted";
  } catch (const core::Error& e) {
    EXPECT_EQ(std::string(e.what()), "sparse LU: Jacobian pattern entry (3, 4) lies outside the 4 x 4 matrix");
  }
}

// Hairer & Wanner's one-dimensional Brusselator (Solving ODEs II, section IV.1), u and v interleaved
// over 50 cells (n = 100, α = 1/50), with every u also driven towards 1 by the mean of all the u's,
// -κ (ū - 1), κ the system's parameter: a band of width 2 plus a full rank-one block. A group_only
// system, so that jac_group can hand the rank-one part over as u and v (ODE_LOW_RANK).
constexpr int cells = 50;
System brusselator(bool sparse) {
  System s{.n = 2 * cells,
           .source = R"(
#define BR_CELLS (ODE_N / 2)
#define BR_C (0.02 * (BR_CELLS + 1) * (BR_CELLS + 1))
void rhs_group(double t, const SHARED double* y, SHARED double* f, __global const double* p,
               __global const double* tables, WORK_SPACE double* work) {
  double mean = 0.0;
  for (int j = 0; j < BR_CELLS; ++j) mean += y[2 * j];
  mean /= BR_CELLS;
  FOR_OWN(i, 0, BR_CELLS) {
    const double u = y[2 * i], v = y[2 * i + 1];
    const double ul = i > 0 ? y[2 * i - 2] : 1.0, ur = i < BR_CELLS - 1 ? y[2 * i + 2] : 1.0;
    const double vl = i > 0 ? y[2 * i - 1] : 3.0, vr = i < BR_CELLS - 1 ? y[2 * i + 3] : 3.0;
    f[2 * i] = 1.0 + u * u * v - 4.0 * u + BR_C * (ul - 2.0 * u + ur) - p[0] * (mean - 1.0);
    f[2 * i + 1] = 3.0 * u - u * u * v + BR_C * (vl - 2.0 * v + vr);
  }
}
void jac_group(double t, const SHARED double* y, MATRIX_SPACE double* dfdy, __global const double* p,
               __global const double* tables, WORK_SPACE double* work) {
  FOR_OWN(k, 0, ODE_N * ODE_N) dfdy[k] = 0.0;
  SYNC();
  FOR_OWN(i, 0, BR_CELLS) {
    const int a = 2 * i, b = 2 * i + 1;
    const double u = y[a], v = y[b];
    dfdy[a + a * ODE_N] = 2.0 * u * v - 4.0 - 2.0 * BR_C;
    dfdy[a + b * ODE_N] = u * u;
    dfdy[b + a * ODE_N] = 3.0 - 2.0 * u * v;
    dfdy[b + b * ODE_N] = -u * u - 2.0 * BR_C;
    if (i > 0) dfdy[a + (a - 2) * ODE_N] = dfdy[b + (b - 2) * ODE_N] = BR_C;
    if (i < BR_CELLS - 1) dfdy[a + (a + 2) * ODE_N] = dfdy[b + (b + 2) * ODE_N] = BR_C;
#if ODE_LOW_RANK
    dfdy[ODE_N * ODE_N + a] = -p[0] / BR_CELLS;
    dfdy[ODE_N * ODE_N + b] = 0.0;
    dfdy[ODE_N * ODE_N + ODE_N + a] = 1.0;
    dfdy[ODE_N * ODE_N + ODE_N + b] = 0.0;
#else
    for (int j = 0; j < BR_CELLS; ++j) dfdy[a + 2 * j * ODE_N] -= p[0] / BR_CELLS;
#endif
  }
}
)",
           .analytic_jacobian = true,
           .parameters = 1,
           .group_rhs = true,
           .group_jac = true,
           .group_only = true};
  if (!sparse) return s;
  for (int i = 0; i < cells; ++i) {
    const int a = 2 * i, b = 2 * i + 1;
    for (const std::array<int, 2> e : {std::array{a, b}, std::array{b, a}}) s.jacobian_pattern.push_back(e);
    if (i > 0) s.jacobian_pattern.insert(s.jacobian_pattern.end(), {{a, a - 2}, {b, b - 2}});
    if (i < cells - 1) s.jacobian_pattern.insert(s.jacobian_pattern.end(), {{a, a + 2}, {b, b + 2}});
  }
  s.jacobian_low_rank = true;
  return s;
}

// u = 1 + sin(2π x), v = 3 on x = i / 51, and κ = 0, 2, 20 over t in [0, 10].
Batch brusselator_batch() {
  Batch b;
  for (const double kappa : {0.0, 2.0, 20.0}) {
    for (int i = 0; i < cells; ++i) {
      b.y0.push_back(1.0 + std::sin(2.0 * M_PI * (i + 1) / (cells + 1)));
      b.y0.push_back(3.0);
    }
    b.params.push_back(kappa);
  }
  b.t_end = {10.0};
  return b;
}

double largest_difference(const Result& a, const Result& b, std::size_t system) {
  double d = 0.0;
  for (std::size_t i = system * 2 * cells; i < (system + 1) * 2 * cells; ++i)
    d = std::max(d, std::fabs(a.y[i] - b.y[i]));
  return d;
}

// At rtol = atol = 1e-10 the sparse factors give the dense LU's answer to the accuracy asked for: both
// lie within 1e-8 of a run at 1e-13 (the values are of order 1), and take steps within 10 % of each other,
// in the device's automatic mapping.
TEST(OdeSparseLu, IntegratesLikeTheDenseLu) {
  Options o;
  o.rtol = {1e-10};
  o.atol = {1e-10};
  const Batch batch = brusselator_batch();
  const Result sparse = Radau5(test::devices(), brusselator(true), o).integrate(batch);
  const Result dense = Radau5(test::devices(), brusselator(false), o).integrate(batch);
  o.rtol = {1e-13};
  o.atol = {1e-13};
  const Result tight = Radau5(test::devices(), brusselator(false), o).integrate(batch);
  ASSERT_EQ(sparse.failures() + dense.failures() + tight.failures(), 0u) << sparse.report() << dense.report();
  for (std::size_t s = 0; s < 3; ++s) {
    SCOPED_TRACE("system " + std::to_string(s));
    std::printf("Brusselator system %zu: sparse %ld steps, %.2e from the tight run; dense %ld steps, %.2e\n", s,
                sparse.statistics[s].nstep, largest_difference(sparse, tight, s), dense.statistics[s].nstep,
                largest_difference(dense, tight, s));
    EXPECT_LT(largest_difference(sparse, tight, s), 1e-8);
    EXPECT_LT(largest_difference(dense, tight, s), 1e-8);
    EXPECT_NEAR(static_cast<double>(sparse.statistics[s].nstep), static_cast<double>(dense.statistics[s].nstep),
                0.1 * static_cast<double>(dense.statistics[s].nstep));
  }
}

// Mapping 2 shares each pivot's updates and each column's among the group and sums vᵀ b in index order:
// mapping 1's bits.
TEST(OdeSparseLu, MappingsGiveTheSameBits) {
  SKIP_UNTESTABLE(Mapping::work_group, test::devices());
  Options o;
  o.rtol = {1e-8};
  o.atol = {1e-8};
  o.mapping = Mapping::work_item;
  const Batch batch = brusselator_batch();
  const Result one = Radau5(test::devices(), brusselator(true), o).integrate(batch);
  o.mapping = Mapping::work_group;
  const Result two = Radau5(test::devices(), brusselator(true), o).integrate(batch);
  ASSERT_EQ(one.failures(), 0u) << one.report();
  test::expect_identical(one, two);
}

TEST(OdeSparseLu, RefusesALowRankWithoutAGroupOnlySystem) {
  System s = test::robertson(true);
  s.jacobian_pattern = {{0, 1}};
  s.jacobian_low_rank = true;
  try {
    Radau5(test::devices(), s);
    FAIL() << "a low-rank Jacobian without jac_group was accepted";
  } catch (const core::Error& e) {
    EXPECT_NE(std::string(e.what()).find("jacobian_low_rank needs a jacobian_pattern and a group_only system"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace hetflow::ode
