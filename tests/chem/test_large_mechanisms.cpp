// Mechanisms above 100 species (data/mechanisms/README.md), which the reactor runs as an
// ode::System::group_only system (reactor_group.cl in every mapping, constants in the tables):
// ignition delays against Cantera's, and RADAU5's promise that the mapping changes no bit.
// n-dodecane (Wang, Ra, Jia & Reitz; n = 101) and n-hexane (NUIG; n = 1269) run with the unit tests on
// every device: their sparse decompositions (ode::System::jacobian_pattern) take an n-hexane ignition
// seconds where the dense LU took minutes on a GPU.
#include <gtest/gtest.h>

#include <cstring>

#include "hetflow/chem/reactor_source.hpp"
#include "ignition_test_util.hpp"
#include "jacobian_test_util.hpp"

namespace hetflow::chem {
namespace {

// As for GRI-Mech 3.0 (test_gri_ignition.cpp): 1 %, far above the differences measured (printed).
constexpr double tolerance = 0.01;

TEST(ChemLargeMechanism, ReactorIsGroupOnlyAboveSixtyFourEquations) {
  EXPECT_FALSE(reactor_system(test::gri30_yaml()).group_only);  // n = 54
  const ode::System dodecane = reactor_system(test::dodecane_reitz());
  EXPECT_EQ(dodecane.n, 101);
  EXPECT_TRUE(dodecane.group_only);
  EXPECT_EQ(dodecane.source.find("void rhs("), std::string::npos);
  EXPECT_EQ(dodecane.source.find("void jac("), std::string::npos);
  // Without its Jacobian the reactor falls back to rhs(), which RADAU5's difference quotients need.
  EXPECT_FALSE(reactor_system(test::dodecane_reitz(), ReactorJacobian::finite_difference).group_only);
}

// Located with dense output over [0, 1 ms] (sampled_crossing), as the n-hexane case below.
TEST(ChemLargeMechanism, DodecaneAir1200KDelayMatchesCantera) {
  test::IgnitionCase(test::dodecane_reitz(), "dodecane_reitz_ignition", "n-dodecane/air (Reitz, 100 species)")
      .check(1200.0, tolerance, 1e-3);
}

// n-hexane's ignition case after 1 µs (hexane_nuig_early_reference.json; Cantera at rtol 1e-13): a run
// short enough for a CPU, where mapping 1 keeps this system's vectors in global memory. Tolerances: T
// within 1e-9 relative (RADAU5 at rtol 1e-10); every mass fraction within 1e-6 relative plus 10 atol
// (1e-13): radicals still growing by orders of magnitude amplify the integration's relative error, and
// below about 1e-8 the absolute tolerance (1e-14) is what controls a species.
TEST(ChemLargeMechanism, HexaneEarlyStateMatchesCantera) {
  const nlohmann::json ref = test::reference("hexane_nuig_early");
  test::IgnitionCase run(test::hexane_nuig(), "hexane_nuig_ignition", "n-hexane/air (NUIG, 1268 species)");
  const auto names = ref["species"].get<std::vector<std::string>>();
  std::vector<double> y0 = test::reactor_state(run.mechanism, names, ref["Y0"].get<std::vector<double>>(),
                                               ref["T0"].get<double>());
  const ode::Batch batch{.y0 = y0, .params = {ref["p"].get<double>()}, .t0 = {0.0}, .t_end = {ref["t"].get<double>()}};
  const ode::Result r = run.solver->integrate(batch);
  ASSERT_EQ(r.failures(), 0u) << r.report();
  const double T = ref["T"].get<double>();
  EXPECT_NEAR(r.y.back(), T, 1e-9 * T);
  const std::vector<double> want = test::in_mechanism_order(run.mechanism, names, ref["Y"].get<std::vector<double>>());
  std::size_t compared = 0;
  double worst = 0.0;
  for (std::size_t k = 0; k < want.size(); ++k) {
    EXPECT_NEAR(r.y[k], want[k], 1e-6 * want[k] + 1e-13) << run.mechanism.species[k].name;
    if (want[k] < 1e-8) continue;
    ++compared;
    worst = std::max(worst, std::abs(r.y[k] - want[k]) / want[k]);
  }
  EXPECT_GE(compared, 10u);
  std::printf("n-hexane after %g s on %s: T %.12f K (Cantera %.12f), %zu mass fractions above 1e-8, worst "
              "relative difference among them %.2e, %ld steps\n",
              ref["t"].get<double>(), run.devices.device(0).label().c_str(), r.y.back(), T, compared, worst,
              r.statistics[0].nstep);
}

// One system's integration over [0, 1 ms] with dense output, on GPUs in mapping 2's default work-groups
// for n > 256 (launch::large_group work-items). One pass of 1000 samples brackets the delay (0.43 ms) in
// 1 µs, a quarter of the tolerance, and each further pass would integrate to the delay again.
TEST(ChemLargeMechanism, HexaneAir1200KDelayMatchesCantera) {
  test::IgnitionCase(test::hexane_nuig(), "hexane_nuig_ignition", "n-hexane/air (NUIG, 1268 species)",
                     ReactorKind::constant_pressure, test::IgnitionCase::tight())
      .check(1200.0, tolerance, 1e-3, 0);
}

// n-dodecane's 8 reference states over 1e-4 s, at rtol 1e-8 and atol 1e-12, in mapping m (a work-item
// per system, the group functions as a group of one; or a work-group of `work_group` work-items per
// system, 0 the default), with the reactor's sparse decompositions or, with `dense`, the dense LU.
ode::Result dodecane_states(const core::DeviceSet& devices, ode::Mapping m, std::size_t work_group, bool dense) {
  const Mechanism mechanism = test::dodecane_reitz();
  const test::StackedStates states = test::stacked_reference_states(mechanism, "dodecane_reitz");
  ode::System system = reactor_system(mechanism);
  if (dense) {
    system.jacobian_pattern.clear();
    system.jacobian_low_rank = false;
  }
  ode::Options o;
  o.rtol = {1e-8};
  o.atol = {1e-12};
  // RADAU5's default first step, 1e-6 s, takes the partly burnt state at 2200 K and 20 atm to a wrong
  // accepted step (T < 0); from 1e-10 s every state ends where Cantera's reactor does.
  o.h0 = 1e-10;
  o.mapping = m;
  o.work_group = work_group;
  return ode::Radau5(devices, system, o).integrate(ode::Batch{states.y, states.pressures, {0.0}, {1e-4}});
}

// Mapping 1 and mapping 2 (in groups of 32, and of 256 as above n = 256) end with the same bits and
// step counts. Mapping 2 only on GPUs: PoCL cannot compile it in usable time (docs/ode.md, Mappings).
TEST(ChemLargeMechanism, DodecaneMappingsGiveTheSameBits) {
  const core::DeviceSet devices = hetflow::test::test_device();
  if (devices.device(0).info.kind != core::DeviceKind::gpu)
    GTEST_SKIP() << "mapping 2 is tested on GPUs (PoCL cannot compile it in time)";
  const ode::Result one = dodecane_states(devices, ode::Mapping::work_item, 0, false);
  ASSERT_EQ(one.failures(), 0u) << one.report();
  ASSERT_EQ(one.statistics.size(), 8u);
  long steps = 0;
  for (const ode::Statistics& st : one.statistics) steps += st.nstep;
  EXPECT_GT(steps, 8 * 10);
  for (const std::size_t width : {0, 256}) {
    const ode::Result two = dodecane_states(devices, ode::Mapping::work_group, width, false);
    ASSERT_EQ(two.failures(), 0u) << two.report();
    for (std::size_t s = 0; s < one.statistics.size(); ++s) {
      EXPECT_EQ(two.statistics[s].nstep, one.statistics[s].nstep) << "system " << s << ", group " << width;
      EXPECT_EQ(two.statistics[s].njac, one.statistics[s].njac) << "system " << s << ", group " << width;
    }
    for (std::size_t i = 0; i < one.y.size(); ++i)
      EXPECT_EQ(std::memcmp(&two.y[i], &one.y[i], sizeof(double)), 0)
          << "y[" << i << "]: mapping 2 (group " << width << ") " << two.y[i] << ", mapping 1 " << one.y[i];
  }
}

// The sparse decompositions (ode::System::jacobian_pattern, with the rank-one part) against the dense LU
// on the same states, in the device's automatic mapping: other roundings of the same Newton systems. Measured on PoCL:
// the same step counts and states within 2.1e-15; 1e-9 leaves room for a step decision that a rounding tips.
TEST(ChemLargeMechanism, DodecaneSparseFactorsMatchTheDenseLu) {
  const core::DeviceSet devices = hetflow::test::test_device();
  const ode::Result sparse = dodecane_states(devices, ode::Mapping::automatic, 0, false);
  const ode::Result dense = dodecane_states(devices, ode::Mapping::automatic, 0, true);
  ASSERT_EQ(sparse.failures() + dense.failures(), 0u) << sparse.report() << dense.report();
  const std::size_t n = sparse.y.size() / 8;
  double worst_t = 0.0, worst_y = 0.0;
  for (std::size_t s = 0; s < 8; ++s) {
    const double t = dense.y[s * n + n - 1];
    worst_t = std::max(worst_t, std::abs(sparse.y[s * n + n - 1] - t) / t);
    for (std::size_t k = 0; k + 1 < n; ++k)
      worst_y = std::max(worst_y, std::abs(sparse.y[s * n + k] - dense.y[s * n + k]));
    std::printf("n-dodecane state %zu: sparse %ld steps, %ld decompositions; dense %ld, %ld\n", s,
                sparse.statistics[s].nstep, sparse.statistics[s].ndec, dense.statistics[s].nstep,
                dense.statistics[s].ndec);
  }
  std::printf("n-dodecane sparse against dense LU: T %.2e relative, mass fractions %.2e\n", worst_t, worst_y);
  EXPECT_LT(worst_t, 1e-9);
  EXPECT_LT(worst_y, 1e-9);
}

}  // namespace
}  // namespace hetflow::chem
