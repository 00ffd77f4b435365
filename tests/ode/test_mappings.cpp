#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "hetflow/core/error.hpp"
#include "hetflow/ode/radau5_launch.hpp"
#include "problems.hpp"
#include "test_devices.hpp"

namespace hetflow::ode {
namespace {

// y' = A y with A = Q D Q, Q = I - (2/n) 1 1^T (a symmetric reflection, Q^-1 = Q) and D the eigenvalues
// d_i = -10^(4 i / (n - 1)), from -1 to -1e4: stiff, dense, with the exact solution y(t) = Q e^(D t) Q y0.
constexpr int big_n = 60;

double eigenvalue(int i) { return -std::pow(10.0, 4.0 * i / (big_n - 1)); }

// Q v for the reflection above.
std::vector<double> reflect(std::vector<double> v) {
  double sum = 0.0;
  for (double x : v) sum += x;
  for (double& x : v) x -= 2.0 / big_n * sum;
  return v;
}

System stiff_linear(bool analytic) {
  return {.n = big_n, .source = R"(
double eigenvalue(int i) { return -pow(10.0, 4.0 * i / (ODE_N - 1)); }
void rhs(double t, const double* y, double* f, __global const double* p) {
  double s = 0.0;
  for (int i = 0; i < ODE_N; ++i) s += y[i];
  for (int i = 0; i < ODE_N; ++i) f[i] = eigenvalue(i) * (y[i] - 2.0 / ODE_N * s);
  double r = 0.0;
  for (int i = 0; i < ODE_N; ++i) r += f[i];
  for (int i = 0; i < ODE_N; ++i) f[i] -= 2.0 / ODE_N * r;
}
// A_ij = d_i delta_ij - (2/n)(d_i + d_j) + (4/n^2) sum(d).
double sum_of_eigenvalues() {
  double sum = 0.0;
  for (int k = 0; k < ODE_N; ++k) sum += eigenvalue(k);
  return sum;
}
double entry(int i, int j, double sum) {
  return (i == j ? eigenvalue(i) : 0.0) - 2.0 / ODE_N * (eigenvalue(i) + eigenvalue(j)) + 4.0 / (ODE_N * ODE_N) * sum;
}
void jac(double t, const double* y, double* dfdy, __global const double* p) {
  const double sum = sum_of_eigenvalues();
  for (int j = 0; j < ODE_N; ++j)
    for (int i = 0; i < ODE_N; ++i) dfdy[i + j * ODE_N] = entry(i, j, sum);
}
)",
          .analytic_jacobian = analytic};
}

// The same system with a cooperative rhs and jac for mapping 2 (System::group_rhs, group_jac): each
// work-item takes some components or columns, the rhs's two sums go through `work`, and 2 / n comes from
// `tables`. The same operations in the same order as rhs() and jac(), so the same bits.
System stiff_linear_cooperative() {
  System s = stiff_linear(true);
  s.source += R"(
#if ODE_GROUP_RHS
void rhs_group(double t, const SHARED double* y, SHARED double* f, __global const double* p,
               __global const double* tables, SHARED double* work) {
  const double scale = tables[0];
  double s = 0.0;
  for (int i = 0; i < ODE_N; ++i) s += y[i];
  FOR_OWN(i, 0, ODE_N) work[i] = eigenvalue(i) * (y[i] - scale * s);
  SYNC();
  double r = 0.0;
  for (int i = 0; i < ODE_N; ++i) r += work[i];
  FOR_OWN(i, 0, ODE_N) f[i] = work[i] - scale * r;
}
#endif
#if ODE_GROUP_JAC
void jac_group(double t, const SHARED double* y, SHARED double* dfdy, __global const double* p,
               __global const double* tables, SHARED double* work) {
  const double sum = sum_of_eigenvalues();
  FOR_OWN(j, 0, ODE_N)
  for (int i = 0; i < ODE_N; ++i) dfdy[i + j * ODE_N] = entry(i, j, sum);
}
#endif
)";
  s.group_rhs = true;
  s.group_jac = true;
  s.group_work = big_n;
  s.tables = {2.0 / big_n};
  return s;
}

Batch stiff_batch(int systems) {
  Batch b;
  for (int s = 0; s < systems; ++s)
    for (int i = 0; i < big_n; ++i) b.y0.push_back(1.0 + 0.01 * i - 0.1 * s);
  b.t_end = {0.5};
  return b;
}

using test::devices;

// The system offers jac() when `analytic`; `jacobian` says whether it is used (default: when offered).
Result solve(Mapping mapping, bool analytic, const Batch& batch, std::optional<Jacobian> jacobian = std::nullopt,
             bool cooperative = false) {
  Options o;
  o.rtol = {1e-8};
  o.atol = {1e-8};
  o.mapping = mapping;
  o.jacobian = jacobian.value_or(analytic ? Jacobian::analytic : Jacobian::finite_difference);
  const Radau5 solver(devices(), cooperative ? stiff_linear_cooperative() : stiff_linear(analytic), o);
  EXPECT_EQ(solver.mapping(batch.y0.size() / solver.system().n), mapping);
  return solver.integrate(batch);
}

class OdeMappings : public ::testing::TestWithParam<bool> {};

// n = 60 by both mappings on one device: the same counters and the same bits, since every element and
// every norm gets the same operations in the same order; both near the exact solution.
TEST_P(OdeMappings, StiffLinearSystemAgrees) {
  SKIP_UNTESTABLE(Mapping::work_group, devices());
  const bool analytic = GetParam();
  const Batch batch = stiff_batch(3);
  const Result a = solve(Mapping::work_item, analytic, batch);
  const Result b = solve(Mapping::work_group, analytic, batch);
  ASSERT_EQ(a.failures(), 0u) << a.report();
  ASSERT_EQ(b.failures(), 0u) << b.report();
  for (std::size_t s = 0; s < 3; ++s) {
    const Statistics &p = a.statistics[s], &q = b.statistics[s];
    std::printf("system %zu: nfcn %ld njac %ld nstep %ld naccpt %ld nrejct %ld ndec %ld nsol %ld\n", s, p.nfcn, p.njac,
                p.nstep, p.naccpt, p.nrejct, p.ndec, p.nsol);
    test::expect_same_counters(p, q);
    EXPECT_EQ(p.h, q.h);
    std::vector<double> y0(batch.y0.begin() + s * big_n, batch.y0.begin() + (s + 1) * big_n);
    std::vector<double> exact = reflect(y0);
    for (int i = 0; i < big_n; ++i) exact[i] *= std::exp(eigenvalue(i) * batch.t_end[0]);
    exact = reflect(exact);
    for (std::size_t i = 0; i < big_n; ++i) {
      const double u = a.y[s * big_n + i], v = b.y[s * big_n + i];
      EXPECT_EQ(u, v) << "system " << s << " component " << i;
      EXPECT_NEAR(v, exact[i], 1e-6) << "system " << s << " component " << i;
    }
  }
}

// Decompositions in panels (Options::lu_panel; GPUs take 4 in mapping 1) give DEC's counters and bits:
// panels of 3 and 4 against none on the n = 60 system in mapping 1, and where mapping 2 runs, panels of 4
// in groups of 8 (several tiles of the trailing matrix), of 16 in groups of 32 and of 3 in groups of 256;
// widths outside -1 .. 16 are refused.
TEST(OdeLuPanels, KeepDecsBits) {
  for (const int panel : {-2, 17}) {
    Options bad;
    bad.lu_panel = panel;
    EXPECT_THROW(Radau5(devices(), stiff_linear(true), bad), core::Error) << panel;
  }
  const Batch batch = stiff_batch(3);
  std::vector<Result> results;
  struct Run {
    Mapping mapping;
    int panel;
    std::size_t work_group;
  };
  std::vector<Run> runs{{Mapping::work_item, 0, 0}, {Mapping::work_item, 3, 0}, {Mapping::work_item, 4, 0}};
  if (!test::untestable(Mapping::work_group, devices()))
    runs.insert(runs.end(),
                {{Mapping::work_group, 4, 8}, {Mapping::work_group, 16, 32}, {Mapping::work_group, 3, 256}});
  for (const Run& run : runs) {
    Options o;
    o.rtol = {1e-8};
    o.atol = {1e-8};
    o.mapping = run.mapping;
    o.lu_panel = run.panel;
    o.work_group = run.work_group;
    results.push_back(Radau5(devices(), stiff_linear(true), o).integrate(batch));
    ASSERT_EQ(results.back().failures(), 0u) << results.back().report();
  }
  for (std::size_t k = 1; k < results.size(); ++k) {
    for (std::size_t s = 0; s < 3; ++s) {
      test::expect_same_counters(results[0].statistics[s], results[k].statistics[s]);
      EXPECT_EQ(results[0].statistics[s].h, results[k].statistics[s].h);
    }
    EXPECT_EQ(results[0].y, results[k].y) << test::mapping_name(runs[k].mapping) << ", panels of " << runs[k].panel;
  }
}

// A cooperative rhs and jac (rhs_group, jac_group) in mapping 2 give mapping 1's counters and bits.
TEST(OdeGroupRhs, GivesMapping1Bits) {
  SKIP_UNTESTABLE(Mapping::work_group, devices());
  const Batch batch = stiff_batch(3);
  const Result a = solve(Mapping::work_item, true, batch);
  const Result b = solve(Mapping::work_group, true, batch, std::nullopt, true);
  ASSERT_EQ(a.failures(), 0u) << a.report();
  ASSERT_EQ(b.failures(), 0u) << b.report();
  test::expect_identical(a, b);
}

// The phased mapping (steps in work-items, decompositions by a work-group per system between passes)
// gives mapping 1's counters and bits: the n = 60 system with jac() and with differences, whose matrices
// a GPU decomposes in global memory, and Van der Pol oscillators of stiffness 1e-1 to 1e-6, which leave
// the passes after different numbers of steps (a GPU decomposes their matrices in local memory).
TEST(OdePhased, GivesMapping1Bits) {
  for (const bool analytic : {true, false}) {
    const Batch batch = stiff_batch(3);
    const Result a = solve(Mapping::work_item, analytic, batch);
    const Result b = solve(Mapping::phased, analytic, batch);
    ASSERT_EQ(a.failures(), 0u) << a.report();
    ASSERT_EQ(b.failures(), 0u) << b.report();
    SCOPED_TRACE(analytic ? "jac()" : "differences");
    test::expect_identical(a, b);
  }
  const Batch vdp = test::van_der_pol_batch(40);
  std::vector<Result> results;
  for (const Mapping mapping : {Mapping::work_item, Mapping::phased}) {
    Options o;
    o.rtol = {1e-6};
    o.atol = {1e-6};
    o.mapping = mapping;
    results.push_back(Radau5(devices(), test::van_der_pol(true), o).integrate(vdp));
    ASSERT_EQ(results.back().failures(), 0u) << results.back().report();
  }
  test::expect_identical(results[0], results[1]);
  long fewest = results[0].statistics[0].nstep, most = fewest;
  for (const Statistics& st : results[0].statistics) {
    fewest = std::min(fewest, st.nstep);
    most = std::max(most, st.nstep);
  }
  EXPECT_LT(2 * fewest, most);  // the passes' lists shrink as systems finish
}

// Mapping 1 with each system's matrices in global memory beside its chunk (what a GPU takes where private
// matrices would have the driver reserve more than Options::private_matrix_limit; forced here by a limit
// of one byte, and kept private by the largest limit) gives the private matrices' counters and bits, with
// jac() and with differences, and its chunk buffers hold the matrices: a memory_budget that holds the
// n = 60 system's vectors but not its 4 n^2 doubles is refused, naming the bytes per system it needs.
TEST(OdeSystemMatrices, GiveMapping1BitsAndCountInTheChunks) {
  const Batch batch = stiff_batch(5);
  for (const bool analytic : {true, false}) {
    SCOPED_TRACE(analytic ? "jac()" : "differences");
    Options o;
    o.rtol = {1e-8};
    o.atol = {1e-8};
    o.mapping = Mapping::work_item;
    o.jacobian = analytic ? Jacobian::analytic : Jacobian::finite_difference;
    o.private_matrix_limit = std::numeric_limits<std::size_t>::max();
    const Result standard = Radau5(devices(), stiff_linear(analytic), o).integrate(batch);
    o.private_matrix_limit = 1;
    const Result r = Radau5(devices(), stiff_linear(analytic), o).integrate(batch);
    ASSERT_EQ(standard.failures(), 0u) << standard.report();
    ASSERT_EQ(r.failures(), 0u) << r.report();
    test::expect_identical(standard, r);
    // y, t and h, the counters; then the phased record (20 + 4 n doubles), the matrices (4 n^2), pivots
    // (2 n ints) and three list entries.
    constexpr std::size_t n = big_n, vectors = 8 * (n + 2) + 8 * 8;
    EXPECT_EQ(standard.chunking[0].system_bytes, vectors);
    EXPECT_EQ(r.chunking[0].system_bytes, vectors + 8 * (20 + 4 * n + 4 * n * n) + 4 * 2 * n + 12);
  }
  Options tight;
  tight.mapping = Mapping::work_item;
  tight.memory_budget = 100000;
  tight.private_matrix_limit = std::numeric_limits<std::size_t>::max();
  EXPECT_EQ(Radau5(devices(), stiff_linear(true), tight).integrate(batch).failures(), 0u);
  tight.private_matrix_limit = 1;
  try {
    Radau5(devices(), stiff_linear(true), tight).integrate(batch);
    FAIL() << "a budget below one system's matrices was accepted";
  } catch (const core::Error& e) {
    EXPECT_NE(std::string(e.what()).find("ODE memory_budget = 100000 bytes on " + devices().device(0).label() +
                                         " cannot hold one system: each of the two chunk buffers needs 118332 "
                                         "bytes per system"),
              std::string::npos)
        << e.what();
  }
}

// Automatic: the system's jac() in either mapping (the same bits as asking for it), differences for a
// system without one; asking for jac() of a system without one is an error.
TEST(OdeJacobianChoice, AutomaticUsesJacInMapping1) {
  const Batch batch = stiff_batch(2);
  EXPECT_EQ(solve(Mapping::work_item, true, batch, Jacobian::automatic).y, solve(Mapping::work_item, true, batch).y);
  EXPECT_NE(solve(Mapping::work_item, true, batch).y,
            solve(Mapping::work_item, true, batch, Jacobian::finite_difference).y);
  EXPECT_EQ(solve(Mapping::work_item, false, batch, Jacobian::automatic).y, solve(Mapping::work_item, false, batch).y);
  EXPECT_THROW(solve(Mapping::work_item, false, batch, Jacobian::analytic), core::Error);
}

TEST(OdeJacobianChoice, AutomaticUsesJacInMapping2) {
  SKIP_UNTESTABLE(Mapping::work_group, devices());
  const Batch batch = stiff_batch(2);
  EXPECT_EQ(solve(Mapping::work_group, true, batch, Jacobian::automatic).y, solve(Mapping::work_group, true, batch).y);
  EXPECT_EQ(solve(Mapping::work_group, true, batch, Jacobian::automatic).y, solve(Mapping::work_item, true, batch).y);
}

// y0' = -a y0, yi' = c y0 - bi yi (a = 1e4, c = 1e6, bi = 1 + i / n): once h is past the first
// transient, the iteration matrices' column 0 has |c| in every row below the diagonal, and each
// elimination step leaves equal entries below the next pivot, so every step swaps rows. DEC takes the
// first of equal rows (any other changed 78 of 80 results' bits on PoCL); mapping 2, in groups of 8 and
// of the default width, with and without panels of 3 and 4, must take the same rows and swap them the
// same way to give mapping 1's bits. All near the exact solution.
constexpr int ties_n = 40;
constexpr double ties_a = 1e4, ties_c = 1e6;

TEST(OdePivotTies, GroupMappingTakesDecsRows) {
  SKIP_UNTESTABLE(Mapping::work_group, devices());
  const System ties{.n = ties_n, .source = R"(
double rate(int i) { return 1.0 + (double)i / ODE_N; }
void rhs(double t, const double* y, double* f, __global const double* p) {
  f[0] = -1e4 * y[0];
  for (int i = 1; i < ODE_N; ++i) f[i] = 1e6 * y[0] - rate(i) * y[i];
}
void jac(double t, const double* y, double* dfdy, __global const double* p) {
  for (int k = 0; k < ODE_N * ODE_N; ++k) dfdy[k] = 0.0;
  dfdy[0] = -1e4;
  for (int i = 1; i < ODE_N; ++i) {
    dfdy[i] = 1e6;
    dfdy[i + i * ODE_N] = -rate(i);
  }
}
)",
                    .analytic_jacobian = true};
  Batch batch;
  for (int s = 0; s < 2; ++s)
    for (int i = 0; i < ties_n; ++i) batch.y0.push_back(1.0 + 0.5 * s);
  batch.t_end = {1.0};
  struct Run {
    Mapping mapping;
    std::size_t work_group;
    int lu_panel;
  };
  std::vector<Result> results;
  for (const Run run : {Run{Mapping::work_item, 0, -1}, Run{Mapping::work_group, 0, -1}, Run{Mapping::work_group, 8, -1},
                        Run{Mapping::work_group, 8, 3}, Run{Mapping::work_group, 0, 4}}) {
    Options o;
    o.rtol = {1e-8};
    o.atol = {1e-8};
    o.mapping = run.mapping;
    o.work_group = run.work_group;
    o.lu_panel = run.lu_panel;
    results.push_back(Radau5(devices(), ties, o).integrate(batch));
    ASSERT_EQ(results.back().failures(), 0u) << results.back().report();
  }
  for (std::size_t k = 1; k < results.size(); ++k) {
    EXPECT_EQ(results[k].y, results[0].y) << "run " << k;
    for (std::size_t s = 0; s < 2; ++s) test::expect_same_counters(results[k].statistics[s], results[0].statistics[s]);
  }
  for (int s = 0; s < 2; ++s) {
    const double y0 = 1.0 + 0.5 * s, t = 1.0;
    for (int i = 1; i < ties_n; ++i) {
      const double b = 1.0 + static_cast<double>(i) / ties_n;
      const double exact = y0 * std::exp(-b * t) + ties_c * y0 / (b - ties_a) * (std::exp(-ties_a * t) - std::exp(-b * t));
      EXPECT_NEAR(results[0].y[s * ties_n + i], exact, 1e-6 * std::fabs(exact)) << "system " << s << " component " << i;
    }
  }
}

// The launch shape (Options::work_group, groups_per_unit; what `hetflow tune radau5` picks) moves systems
// between work-items, never their numbers, in either mapping; launch_shape() reports what runs, and a
// work-group above the device's limit or more than 4096 groups per unit is refused.
TEST(OdeLaunchShape, ChangesNoBitsOfEitherMapping) {
  const Batch batch = stiff_batch(5);
  for (Mapping mapping : {Mapping::work_item, Mapping::work_group}) {
    if (test::untestable(mapping, devices())) continue;
    const Result standard = solve(mapping, true, batch);
    Options o;
    o.rtol = {1e-8};
    o.atol = {1e-8};
    o.mapping = mapping;
    o.work_group = 8;
    o.groups_per_unit = 3;
    o.max_registers = 32;  // binds on NVIDIA GPUs only
    const Radau5 shaped(devices(), stiff_linear(true), o);
    const Radau5::LaunchShape shape = shaped.launch_shape(5);
    EXPECT_EQ(shape.mapping, mapping);
    EXPECT_EQ(shape.work_group, 8u);
    EXPECT_EQ(shape.groups_per_unit, 3u);
    EXPECT_EQ(shape.max_registers, core::takes_register_budget(devices().device(0).info) ? 32u : 0u);
    const Result r = shaped.integrate(batch);
    EXPECT_EQ(r.y, standard.y) << test::mapping_name(mapping);
    for (std::size_t s = 0; s < 5; ++s) test::expect_same_counters(r.statistics[s], standard.statistics[s]);
  }
  Options wide;
  wide.work_group = devices().device(0).info.max_work_group + 1;
  EXPECT_THROW(Radau5(devices(), stiff_linear(true), wide), core::Error);
  Options many;
  many.groups_per_unit = 4097;
  EXPECT_THROW(Radau5(devices(), stiff_linear(true), many), core::Error);
  for (std::size_t registers : {8u, 256u}) {
    Options budget;
    budget.max_registers = registers;
    EXPECT_THROW(Radau5(devices(), stiff_linear(true), budget), core::Error) << registers;
  }
}

// On NVIDIA GPUs kernels take 64 registers per work-item, the phased mapping 80 past n = 16 (its solves
// in the final row order), but mapping 2's batches below 8 systems per compute unit the compiler's
// choice; Options::max_registers overrides them all; other devices take none.
TEST(OdeLaunchShape, RegisterBudgetFollowsTheBatch) {
  const bool budgets = core::takes_register_budget(devices().device(0).info);
  const std::size_t units = devices().device(0).info.compute_units;
  Options o;
  o.mapping = Mapping::work_group;
  const Radau5 group(devices(), stiff_linear(true), o);
  EXPECT_EQ(group.launch_shape(8 * units - 1).max_registers, 0u);
  EXPECT_EQ(group.launch_shape(8 * units).max_registers, budgets ? 64u : 0u);
  o.max_registers = 100;
  EXPECT_EQ(Radau5(devices(), stiff_linear(true), o).launch_shape(1).max_registers, budgets ? 100u : 0u);
  o = Options{};
  o.mapping = Mapping::work_item;
  EXPECT_EQ(Radau5(devices(), stiff_linear(true), o).launch_shape(1).max_registers, budgets ? 64u : 0u);
  o.mapping = Mapping::phased;
  EXPECT_EQ(Radau5(devices(), stiff_linear(true), o).launch_shape(1).max_registers, budgets ? 80u : 0u);
  EXPECT_EQ(Radau5(devices(), test::van_der_pol(true), o).launch_shape(1).max_registers, budgets ? 64u : 0u);
}

// Mapping 1 decomposes in panels of 4 on GPUs and of none on CPUs, mapping 2 in none up to n =
// large_panel_n and in panels of 16 above on GPUs, unless Options::lu_panel says.
TEST(OdeLaunchShape, PanelWidthFollowsTheDevice) {
  const bool gpu = devices().device(0).info.kind == core::DeviceKind::gpu;
  Options o;
  o.mapping = Mapping::work_item;
  EXPECT_EQ(Radau5(devices(), stiff_linear(true), o).launch_shape(1).lu_panel, gpu ? 4 : 0);
  o.lu_panel = 3;
  EXPECT_EQ(Radau5(devices(), stiff_linear(true), o).launch_shape(1).lu_panel, 3);
  o.mapping = Mapping::work_group;
  EXPECT_EQ(Radau5(devices(), stiff_linear(true), o).launch_shape(1).lu_panel, 3);
  o.lu_panel = -1;
  EXPECT_EQ(Radau5(devices(), stiff_linear(true), o).launch_shape(1).lu_panel, 0);
  EXPECT_EQ(Radau5(devices(), test::idle_group_only(launch::large_panel_n), o).launch_shape(1).lu_panel, 0);
  EXPECT_EQ(Radau5(devices(), test::idle_group_only(launch::large_panel_n + 1), o).launch_shape(1).lu_panel,
            gpu ? 16 : 0);
}

// Work-groups hold 32 work-items on GPUs and 4 on CPUs, but mapping 2's hold large_group on GPUs above
// large_panel_n, unless Options::work_group says.
TEST(OdeLaunchShape, GroupWidthFollowsTheSystem) {
  const bool gpu = devices().device(0).info.kind == core::DeviceKind::gpu;
  const unsigned narrow = gpu ? 32 : 4, wide = gpu ? launch::large_group : 4;
  Options o;
  o.mapping = Mapping::work_group;
  EXPECT_EQ(Radau5(devices(), test::idle_group_only(launch::large_panel_n), o).launch_shape(1).work_group, narrow);
  EXPECT_EQ(Radau5(devices(), test::idle_group_only(launch::large_panel_n + 1), o).launch_shape(1).work_group, wide);
  o.mapping = Mapping::work_item;
  EXPECT_EQ(Radau5(devices(), test::idle_group_only(launch::large_panel_n + 1), o).launch_shape(1).work_group, narrow);
  o.mapping = Mapping::work_group;
  o.work_group = 64;
  EXPECT_EQ(Radau5(devices(), test::idle_group_only(launch::large_panel_n + 1), o).launch_shape(1).work_group, 64u);
}

INSTANTIATE_TEST_SUITE_P(Jacobians, OdeMappings, ::testing::Bool(),
                         [](const auto& param_info) { return param_info.param ? "analytic" : "fd"; });

}  // namespace
}  // namespace hetflow::ode
