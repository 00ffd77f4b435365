// The generated OpenCL jac() (reactor_jacobian_source.cpp) against the host's analytic Jacobian
// (ConstantPressureReactor::jacobian) at the states of the Cantera reference tables.
#include <gtest/gtest.h>

#include <cstdio>

#include "chem_test_util.hpp"
#include "hetflow/chem/reactor.hpp"
#include "hetflow/chem/reactor_source.hpp"
#include "hetflow/core/buffer.hpp"
#include "hetflow/core/program.hpp"
#include "group_test_util.hpp"
#include "jacobian_test_util.hpp"
#include "test_devices.hpp"

namespace hetflow::chem {
namespace {

// The two run the same operations in the same order and differ only in the last bits of exp, log and
// pow (the device RHS test sees 1e-14): 1e-12 of each column's largest entry leaves room for the
// cancellations in the sums over reactions.
constexpr double tolerance = 1e-12;

using States = test::StackedStates;

void check_device_jacobian(const Mechanism& mechanism, const std::string& name) {
  const std::vector<test::ReactorState> states = test::reference_states(mechanism, name);
  const std::size_t n = mechanism.species.size() + 1, count = states.size();
  const States stacked = test::stacked_reference_states(mechanism, name);
  const std::vector<double>& pressures = stacked.pressures;
  ASSERT_GT(count, 0u);
  const core::DeviceSet devices = hetflow::test::test_device();
  // A mechanism above 64 species has no jac(), only jac_group (ode::System::group_only), which also
  // writes J as S + u vᵀ for the sparse decompositions.
  const ode::System system = reactor_system(mechanism);
  const std::vector<double> device = system.group_only ? test::run_group(devices, system, stacked, true, name)
                                                       : test::run_generated(devices, system, stacked, true, name);
  const std::vector<double> low_rank =
      system.group_only ? test::low_rank_jacobians(test::run_group(devices, system, stacked, true, name, true), system)
                        : device;

  const Kinetics kinetics(mechanism);
  double worst = 0.0;
  for (std::size_t i = 0; i < count; ++i) {
    const ConstantPressureReactor reactor(kinetics, pressures[i]);
    std::vector<double> host(n * n);
    reactor.jacobian(states[i].y, host);
    const std::vector<double> got(device.begin() + static_cast<std::ptrdiff_t>(i * n * n),
                                  device.begin() + static_cast<std::ptrdiff_t>((i + 1) * n * n));
    const std::vector<double> got_low_rank(low_rank.begin() + static_cast<std::ptrdiff_t>(i * n * n),
                                           low_rank.begin() + static_cast<std::ptrdiff_t>((i + 1) * n * n));
    const double t0 = states[i].y.back();
    std::size_t at = 0;
    const double e = test::worst_column_error(test::scaled(got, t0), test::scaled(host, t0), n, &at);
    EXPECT_LE(e, tolerance) << name << " state " << i << ": entry (" << at % n << ", " << at / n << ") " << got[at]
                            << " vs " << host[at];
    const double e_low = test::worst_column_error(test::scaled(got_low_rank, t0), test::scaled(host, t0), n, &at);
    EXPECT_LE(e_low, tolerance) << name << " state " << i << ", S + u vT: entry (" << at % n << ", " << at / n << ") "
                                << got_low_rank[at] << " vs " << host[at];
    worst = std::max({worst, e, e_low});
  }
  std::printf("%s on %s: worst device vs host Jacobian entry, relative to its column's largest: %.2e\n", name.c_str(),
              devices.device(0).label().c_str(), worst);
}

// RADAU5's mapping 2 takes jac_group, mapping 1 jac(): the same bits, so that results do not depend on
// the mapping. A group of 16 work-items makes each own several species, reactions and columns.
void check_group_jacobian(const Mechanism& mechanism, const std::string& name) {
  const States states = test::stacked_reference_states(mechanism, name);
  const core::DeviceSet devices = hetflow::test::test_device();
  const ode::System system = reactor_system(mechanism);
  ASSERT_TRUE(system.group_jac);
  const auto n = static_cast<std::size_t>(system.n);
  test::expect_same_bits(test::run_group(devices, system, states, true, name),
                         test::run_generated(devices, system, states, true, name), [&](std::size_t i) {
                           return name + " state " + std::to_string(i / (n * n)) + " entry (" + std::to_string(i % n) +
                                  ", " + std::to_string(i / n % n) + ")";
                         });
}

// GRI-Mech 3.0's jac() takes PoCL long to build: labelled slow.
TEST(ChemDeviceJacobianSlow, Gri30MatchesHost) { check_device_jacobian(test::gri30_yaml(), "gri30"); }

TEST(ChemDeviceJacobian, H2O2MatchesHost) {
  check_device_jacobian(read_yaml_mechanism(test::mechanisms / "h2o2.yaml"), "h2o2");
}

TEST(ChemDeviceJacobian, ChemkinFeatureFixtureMatchesHost) {
  check_device_jacobian(read_chemkin(test::test_data / "features.inp", test::mechanisms / "gri30_thermo.dat"),
                        "features");
}

TEST(ChemDeviceJacobian, DodecaneReitzMatchesHost) { check_device_jacobian(test::dodecane_reitz(), "dodecane_reitz"); }

TEST(ChemDeviceJacobian, HexaneNuigMatchesHost) { check_device_jacobian(test::hexane_nuig(), "hexane_nuig"); }

TEST(ChemGroupJacobianSlow, Gri30GivesJacBits) { check_group_jacobian(test::gri30_yaml(), "gri30"); }

TEST(ChemGroupJacobian, H2O2GivesJacBits) {
  check_group_jacobian(read_yaml_mechanism(test::mechanisms / "h2o2.yaml"), "h2o2");
}

TEST(ChemGroupJacobian, ChemkinFeatureFixtureGivesJacBits) {
  check_group_jacobian(read_chemkin(test::test_data / "features.inp", test::mechanisms / "gri30_thermo.dat"),
                       "features");
}

}  // namespace
}  // namespace hetflow::chem
