#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <tuple>
#include <vector>

#include "problems.hpp"
#include "test_devices.hpp"

namespace hetflow::ode {
namespace {

struct Expected {
  long nfcn, njac, nstep, naccpt, nrejct, ndec, nsol;
};

struct Case {
  const char* name;
  System (*problem)(bool);
  bool analytic;
  Controller controller;
  double rtol, atol, t_end;
  std::vector<double> y0, params;
  Expected stats;
  // Final components from the Fortran oracle (docs/ode.md, Validation); HIRES lists
  // y1 and y8 only (index, value).
  std::vector<std::pair<int, double>> y;
  double rel_tol;  // on those components: see MatchFortranRadau5
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

const std::vector<double> vdp_y0{2.0, -0.66}, rober_y0{1.0, 0.0, 0.0},
    hires_y0{1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0057};

std::vector<Case> cases() {
  const auto g = Controller::gustafsson;
  return {
      {"vdpol_analytic", test::van_der_pol, true, g, 1e-4, 1e-4, 2.0, vdp_y0, {1e-6},
       {2218, 161, 275, 238, 8, 248, 660}, {{0, 1.7061611005587547}, {1, -0.89280747768156532}}, 1e-11},
      {"vdpol_fd", test::van_der_pol, false, g, 1e-4, 1e-4, 2.0, vdp_y0, {1e-6},
       {2218, 161, 275, 238, 8, 248, 660}, {{0, 1.7061610998327421}, {1, -0.89280743970053456}}, 1e-7},
      {"vdpol_classical", test::van_der_pol, true, Controller::classical, 1e-4, 1e-4, 2.0, vdp_y0, {1e-6},
       {2401, 160, 295, 235, 25, 266, 722}, {{0, 1.7061659804301963}, {1, -0.89280773675474889}}, 1e-11},
      {"rober40_analytic", test::robertson, true, g, 1e-6, 1e-10, 40.0, rober_y0, {},
       {338, 40, 49, 47, 2, 49, 97},
       {{0, 0.71582713825938526}, {1, 9.1855323081348903e-6}, {2, 0.28416367620830629}}, 1e-11},
      {"rober40_fd", test::robertson, false, g, 1e-6, 1e-10, 40.0, rober_y0, {},
       {338, 40, 49, 47, 2, 49, 97},
       {{0, 0.71582713825955335}, {1, 9.1855323082339355e-6}, {2, 0.28416367620813776}}, 1e-11},
      {"rober1e11_analytic", test::robertson, true, g, 1e-6, 1e-12, 1e11, rober_y0, {},
       {1953, 251, 262, 261, 1, 261, 564}, {{0, 2.0833344700194e-8}, {1, 8.3333380516e-14}, {2, 0.99999997916657}}, 1e-10},
      {"hires_analytic", test::hires, true, g, 1e-6, 1e-10, 321.8122, hires_y0, {},
       {1140, 73, 127, 117, 2, 103, 341}, {{0, 7.3713129575582600e-4}, {7, 2.8500006286426433e-3}}, 1e-11},
      {"hires_fd", test::hires, false, g, 1e-6, 1e-10, 321.8122, hires_y0, {},
       {1134, 72, 128, 117, 3, 104, 339}, {{0, 7.3713129320037460e-4}, {7, 2.8500008950644675e-3}}, 1e-11},
  };
}

class OdeReferenceStatistics : public ::testing::TestWithParam<std::tuple<Case, Mapping>> {};

// docs/ode.md, Validation: with h0 = 1e-6 and every other parameter at its default, the port takes exactly the
// Fortran's steps, so every counter matches exactly. The final states agree to about 1e-12 but not bit
// for bit: FP contraction is off and sqrt is correctly rounded on both sides, but PoCL's pow() differs
// from glibc's in the last bit for about 9 % of arguments (measured), and pow(err, 0.25) sets the step
// sizes. The Van der Pol run with a finite-difference Jacobian amplifies those last bits most: its
// Jacobian differences terms of size 1/eps = 1e6, so it is held to 1e-7. The long Robertson run is
// printed to 11-14 digits only. Both mappings are held to the same numbers.
TEST_P(OdeReferenceStatistics, MatchFortranRadau5) {
  const Case& c = std::get<0>(GetParam());
  static const core::DeviceSet devices = hetflow::test::test_device();
  SKIP_UNTESTABLE(std::get<1>(GetParam()), devices);
  Options options;
  options.rtol = {c.rtol};
  options.atol = {c.atol};
  options.h0 = 1e-6;
  options.controller = c.controller;
  options.mapping = std::get<1>(GetParam());
  options.jacobian = c.analytic ? Jacobian::analytic : Jacobian::finite_difference;
  const Radau5 solver(devices, c.problem(c.analytic), options);
  Batch batch;
  batch.y0 = c.y0;
  batch.params = c.params;
  batch.t0 = {0.0};
  batch.t_end = {c.t_end};
  const Result r = solver.integrate(batch);
  const Statistics& s = r.statistics.at(0);
  std::printf("%s: IDID %d nfcn %ld njac %ld nstep %ld naccpt %ld nrejct %ld ndec %ld nsol %ld\n", c.name, s.idid(),
              s.nfcn, s.njac, s.nstep, s.naccpt, s.nrejct, s.ndec, s.nsol);
  for (std::size_t i = 0; i < r.y.size(); ++i) std::printf("  y[%zu] = %.17g\n", i, r.y[i]);
  EXPECT_EQ(s.status, Status::success) << describe(s, options.nmax);
  EXPECT_EQ(s.nfcn, c.stats.nfcn);
  EXPECT_EQ(s.njac, c.stats.njac);
  EXPECT_EQ(s.nstep, c.stats.nstep);
  EXPECT_EQ(s.naccpt, c.stats.naccpt);
  EXPECT_EQ(s.nrejct, c.stats.nrejct);
  EXPECT_EQ(s.ndec, c.stats.ndec);
  EXPECT_EQ(s.nsol, c.stats.nsol);
  EXPECT_EQ(s.t, c.t_end);
  for (const auto& [i, value] : c.y)
    EXPECT_NEAR(r.y.at(static_cast<std::size_t>(i)), value, c.rel_tol * std::fabs(value)) << "component " << i;
}

INSTANTIATE_TEST_SUITE_P(Fortran, OdeReferenceStatistics,
                         ::testing::Combine(::testing::ValuesIn(cases()),
                                            ::testing::Values(Mapping::work_item, Mapping::work_group,
                                                              Mapping::phased)),
                         [](const auto& param_info) {
                           return std::string(std::get<0>(param_info.param).name) + "_" +
                                  test::mapping_name(std::get<1>(param_info.param));
                         });

}  // namespace
}  // namespace hetflow::ode
