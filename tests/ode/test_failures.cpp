#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "hetflow/core/error.hpp"
#include "problems.hpp"
#include "test_devices.hpp"

namespace hetflow::ode {
namespace {

using test::error_of;

using test::devices;

Batch vdp(double t_end) {
  Batch b;
  b.y0 = {2.0, -0.66};
  b.params = {1e-6};
  b.t_end = {t_end};
  return b;
}


// The integration failures, with both mappings.
class OdeFailures : public ::testing::TestWithParam<Mapping> {};

// nmax exceeded: IDID = -2 after exactly nmax + 1 attempted steps, reported with the time reached.
TEST_P(OdeFailures, TooManySteps) {
  SKIP_UNTESTABLE(GetParam(), devices());
  Options o;
  o.mapping = GetParam();
  o.rtol = o.atol = {1e-4};
  o.h0 = 1e-6;
  o.nmax = 50;
  const Radau5 solver(devices(), test::van_der_pol(true), o);
  const Result r = solver.integrate(vdp(2.0));
  const Statistics& s = r.statistics[0];
  EXPECT_EQ(s.status, Status::too_many_steps);
  EXPECT_EQ(s.nstep, 51);
  EXPECT_GT(s.t, 0.0);
  EXPECT_LT(s.t, 2.0);
  EXPECT_EQ(r.failures(), 1u);
  EXPECT_NE(r.report().find("system 0: IDID = -2: more than nmax = 50 steps"), std::string::npos) << r.report();
}

// y' = y^2 from y(0) = 1 blows up at t = 1: the step size shrinks until 0.1 |h| <= |t| uround.
TEST_P(OdeFailures, StepSizeTooSmall) {
  SKIP_UNTESTABLE(GetParam(), devices());
  const System blow_up{.n = 1,
                       .source = "void rhs(double t, const double* y, double* f, __global const double* p) {"
                                 " f[0] = y[0] * y[0]; }"};
  Options o;
  o.mapping = GetParam();
  const Radau5 solver(devices(), blow_up, o);
  Batch b;
  b.y0 = {1.0};
  b.t_end = {2.0};
  const Result r = solver.integrate(b);
  const Statistics& s = r.statistics[0];
  EXPECT_EQ(s.status, Status::step_too_small) << describe(s, 100000);
  EXPECT_NEAR(s.t, 1.0, 1e-6);
  EXPECT_LE(0.1 * std::fabs(s.h), std::fabs(s.t) * 1e-16);
  EXPECT_NE(r.report().find("IDID = -3: step size too small"), std::string::npos) << r.report();
}

// A Jacobian of entries 2^1000 swamps the shift gamma/h: E1 = gamma/h I - J is exactly singular (its
// rows are equal), at every halving of h. After the fifth singular decomposition: IDID = -4, before
// any step was attempted.
TEST_P(OdeFailures, RepeatedlySingular) {
  SKIP_UNTESTABLE(GetParam(), devices());
  const System singular{.n = 2, .source = R"(
void rhs(double t, const double* y, double* f, __global const double* p) { f[0] = 0.0; f[1] = 0.0; }
void jac(double t, const double* y, double* dfdy, __global const double* p) {
  for (int k = 0; k < 4; ++k) dfdy[k] = 0x1p1000;
})",
                        .analytic_jacobian = true};
  Options o;
  o.mapping = GetParam();
  o.jacobian = Jacobian::analytic;  // automatic would difference rhs under mapping 2
  const Radau5 solver(devices(), singular, o);
  Batch b;
  b.y0 = {1.0, 1.0, 1.0, 1.0};  // two systems: the reason is reported for each
  b.t_end = {1.0};
  const Result r = solver.integrate(b);
  ASSERT_EQ(r.failures(), 2u);
  for (const Statistics& s : r.statistics) {
    EXPECT_EQ(s.status, Status::singular_matrix);
    EXPECT_EQ(s.njac, 1);
    EXPECT_EQ(s.ndec, 0);
    EXPECT_EQ(s.nstep, 0);
    EXPECT_EQ(s.nfcn, 1);
    EXPECT_EQ(s.h, 1e-6 / 16);  // halved after each of the first four
  }
  EXPECT_NE(r.report().find("system 1: IDID = -4"), std::string::npos) << r.report();
}

INSTANTIATE_TEST_SUITE_P(Mappings, OdeFailures,
                         ::testing::Values(Mapping::work_item, Mapping::work_group, Mapping::phased),
                         [](const auto& param_info) { return test::mapping_name(param_info.param); });

// A group_only system (radau5.hpp) needs both group functions and its analytic Jacobian, and no mapping
// but the phased one refuses it for its size.
TEST(OdeFailuresInput, GroupOnlySystems) {
  const System full = test::idle_group_only(300);
  Options o;
  o.mapping = Mapping::work_item;
  EXPECT_EQ(error_of([&] { Radau5(devices(), full, o); }), "no error");
  o.mapping = Mapping::phased;
  EXPECT_NE(error_of([&] { Radau5(devices(), full, o); }).find("the phased mapping takes no group_only system"),
            std::string::npos);
  o.mapping = Mapping::work_item;
  System no_jacobian = full;
  no_jacobian.group_jac = false;
  EXPECT_NE(error_of([&] { Radau5(devices(), no_jacobian, o); }).find("group_only needs group_rhs, analytic_jacobian and group_jac"),
            std::string::npos);
  System no_source = full;
  no_source.source = "void rhs_group() {}";
  EXPECT_NE(error_of([&] { Radau5(devices(), no_source, o); }).find("defines rhs_group and jac_group"), std::string::npos);
  o.jacobian = Jacobian::finite_difference;
  EXPECT_NE(error_of([&] { Radau5(devices(), full, o); }).find("jacobian is finite_difference but the system is group_only"),
            std::string::npos);
}

// Each mapping states its own limit on n; automatic takes mapping 2 on GPUs for small batches and the
// phased mapping for large ones.
TEST(OdeFailuresInput, SystemSizeLimits) {
  const std::string rhs = "void rhs(double t, const double* y, double* f, __global const double* p) {"
                          " for (int i = 0; i < ODE_N; ++i) f[i] = -y[i]; }";
  Options o;
  o.mapping = Mapping::work_item;
  EXPECT_NE(error_of([&] { Radau5(devices(), System{.n = 65, .source = rhs}, o); }).find("n = 65: expected 1 .. 64"),
            std::string::npos);
  o.mapping = Mapping::work_group;
  EXPECT_NE(error_of([&] { Radau5(devices(), System{.n = 129, .source = rhs}, o); }).find("n = 129: expected 1 .. 128"),
            std::string::npos);
  o.mapping = Mapping::automatic;
  const bool gpus = !test::untestable(Mapping::work_group, devices());
  // n > 16 on GPUs: mapping 2 for a batch that cannot fill them, the phased mapping for one that can (64
  // systems per compute unit); n > 64 only fits mapping 2. CPUs take mapping 1.
  const Radau5 small(devices(), System{.n = 16, .source = rhs}, o), large(devices(), System{.n = 17, .source = rhs}, o);
  const std::size_t fill = 64 * devices().device(0).info.compute_units * devices().size();
  EXPECT_EQ(small.mapping(1), Mapping::work_item);
  EXPECT_EQ(large.mapping(1), gpus ? Mapping::work_group : Mapping::work_item);
  EXPECT_EQ(large.mapping(fill - 1), gpus ? Mapping::work_group : Mapping::work_item);
  EXPECT_EQ(large.mapping(fill), gpus ? Mapping::phased : Mapping::work_item);
  if (gpus) {
    EXPECT_EQ(Radau5(devices(), System{.n = 65, .source = rhs}, o).mapping(fill), Mapping::work_group);
  }
  // n <= 16: with a cooperative rhs_group mapping 2 for batches below 40 systems per compute unit, the
  // phased mapping from there.
  const Radau5 cooperative(devices(), System{.n = 11, .source = rhs, .group_rhs = true}, o);
  const std::size_t few = 40 * devices().device(0).info.compute_units * devices().size();
  EXPECT_EQ(cooperative.mapping(few - 1), gpus ? Mapping::work_group : Mapping::work_item);
  EXPECT_EQ(cooperative.mapping(few), gpus ? Mapping::phased : Mapping::work_item);
  EXPECT_EQ(small.mapping(few), gpus ? Mapping::phased : Mapping::work_item);
  SKIP_UNTESTABLE(Mapping::work_group, devices());
  // Mapping 1's cap does not apply to mapping 2: y' = -y with n = 100 decays to e^-1 y0.
  o.mapping = Mapping::work_group;
  const Result r =
      Radau5(devices(), System{.n = 100, .source = rhs}, o).integrate(Batch{.y0 = std::vector<double>(100, 1.0)});
  ASSERT_EQ(r.failures(), 0u) << r.report();
  for (double v : r.y) EXPECT_NEAR(v, std::exp(-1.0), 1e-5);
}

TEST(OdeFailuresInput, BadInputNamesTheValue) {
  const auto rhs_only = test::van_der_pol(false);
  const System empty{.n = 0, .source = rhs_only.source, .parameters = 1};
  EXPECT_NE(error_of([&] { Radau5(devices(), empty); }).find("n = 0"), std::string::npos);
  Options o;
  o.rtol = {0.0};
  EXPECT_NE(error_of([&] { Radau5(devices(), rhs_only, o); }).find("rtol[0] = 0"), std::string::npos);
  o = {};
  o.atol = {1e-6, -1.0};
  EXPECT_NE(error_of([&] { Radau5(devices(), rhs_only, o); }).find("atol[1] = -1"), std::string::npos);
  o = {};
  o.atol = {1e-6, 1e-6, 1e-6};
  EXPECT_NE(error_of([&] { Radau5(devices(), rhs_only, o); }).find("atol = 3 values"), std::string::npos);

  const Radau5 solver(devices(), rhs_only, {});
  Batch b = vdp(2.0);
  b.y0[1] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_NE(error_of([&] { solver.integrate(b); }).find("y0 of system 0, component 1 = nan"), std::string::npos);
  // A large batch is checked in ranges on several threads (radau5_buffers.hpp's parallel_grain, 2^18 values):
  // the error still names its first non-finite value, though on two threads the second range finds
  // its own (early in it) long before the first range reaches the first (late in it).
  b = vdp(2.0);
  b.y0.assign(2 * 300000, 1.0);
  b.params.assign(300000, 1e-6);
  b.y0[2 * 149000 + 1] = std::numeric_limits<double>::quiet_NaN();
  b.y0[2 * 150500] = std::numeric_limits<double>::infinity();
  EXPECT_NE(error_of([&] { solver.integrate(b); }).find("y0 of system 149000, component 1 = nan"), std::string::npos);
  b = vdp(0.0);
  EXPECT_NE(error_of([&] { solver.integrate(b); }).find("t_end = t0 = 0"), std::string::npos);
  b = vdp(2.0);
  b.params = {};
  EXPECT_NE(error_of([&] { solver.integrate(b); }).find("params has 0 values"), std::string::npos);
  b = vdp(2.0);
  b.y0.push_back(1.0);
  EXPECT_NE(error_of([&] { solver.integrate(b); }).find("y0 has 3 values"), std::string::npos);
  b = vdp(2.0);
  b.sort_key = {1.0, 2.0};
  EXPECT_NE(error_of([&] { solver.integrate(b); }).find("sort_key has 2 values: expected none or 1"), std::string::npos);
  b.sort_key = {std::numeric_limits<double>::infinity()};
  EXPECT_NE(error_of([&] { solver.integrate(b); }).find("sort_key of system 0, component 0 = inf"), std::string::npos);
  // A compile error in the user's source shows the build log, from the first integrate() (the kernel of
  // the batch's mapping is built then).
  const Radau5 broken(devices(), System{.n = 1, .source = "void rhs(double t) { oops; }"});
  EXPECT_NE(error_of([&] { broken.integrate(Batch{.y0 = {1.0}}); }).find("oops"), std::string::npos);
  EXPECT_NE(error_of([&] { broken.prepare(1); }).find("oops"), std::string::npos);
}

}  // namespace
}  // namespace hetflow::ode
