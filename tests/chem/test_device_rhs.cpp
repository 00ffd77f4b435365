// The generated OpenCL reactor RHS (reactor_source.cpp) against the host reactor at the states of
// the Cantera reference tables.
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

// The host and device differ only in the last bits of exp, log and pow.
constexpr double rtol = 1e-11;

using States = test::StackedStates;

// The device's rhs at every state: the generated rhs(), or rhs_group for a mechanism that has none
// (ode::System::group_only, above 64 species).
std::vector<double> device_values(const core::DeviceSet& devices, const Mechanism& mechanism, const States& s,
                                  const std::string& name) {
  const ode::System system = reactor_system(mechanism);
  if (system.group_only) return test::run_group(devices, system, s, false, name);
  return test::run_generated(devices, system, s, false, name);
}

void check_device_rhs(const Mechanism& mechanism, const std::string& name) {
  const States states = test::stacked_reference_states(mechanism, name);
  const std::vector<double>& y = states.y;
  const std::vector<double>& pressures = states.pressures;
  const std::size_t n = mechanism.species.size() + 1;
  const std::size_t count = pressures.size();
  ASSERT_GT(count, 0u);
  const core::DeviceSet devices = hetflow::test::test_device();
  const std::vector<double> device = device_values(devices, mechanism, states, name);

  const Kinetics kinetics(mechanism);
  double worst = 0.0;
  for (std::size_t i = 0; i < count; ++i) {
    const ConstantPressureReactor reactor(kinetics, pressures[i]);
    std::vector<double> host(n);
    reactor.rhs(std::span<const double>(y).subspan(i * n, n), host);
    const std::vector<double> got(device.begin() + static_cast<std::ptrdiff_t>(i * n),
                                  device.begin() + static_cast<std::ptrdiff_t>((i + 1) * n));
    const std::string at = name + " state " + std::to_string(i);
    // dY/dt of species far from their equilibrium-limited rates is a sum of cancelling terms: below
    // 1e-10 of the largest |dY/dt| the comparison is absolute, as in test_reference.cpp.
    const std::vector<double> host_y(host.begin(), host.end() - 1), got_y(got.begin(), got.end() - 1);
    worst = std::max(worst, test::expect_close(at + " dY/dt", got_y, host_y, rtol, 1e-10 * test::largest(host_y)));
    worst = std::max(worst, test::expect_close(at + " dT/dt", {got.back()}, {host.back()}, rtol));
  }
  std::printf("%s on %s: worst relative difference device vs host RHS %.2e\n", name.c_str(),
              devices.device(0).label().c_str(), worst);
}

// rhs_lanes (ode::System::stage_lanes), which CPUs' RADAU5 evaluates its Newton stages with: work-item i
// puts states i, i + 1, i + 2 and i + 3 (cyclically) in its four lanes, all at state i's pressure, and
// every lane is compared with the host reactor at that pressure, as check_device_rhs compares rhs().
void check_lanes_rhs(const Mechanism& mechanism, const std::string& name) {
  const core::DeviceSet devices = hetflow::test::test_device();
  if (devices.device(0).info.kind != core::DeviceKind::cpu) GTEST_SKIP() << "only CPUs evaluate stages in lanes";
  const States states = test::stacked_reference_states(mechanism, name);
  const ode::System system = reactor_system(mechanism);
  ASSERT_TRUE(system.stage_lanes);
  const auto n = static_cast<std::size_t>(system.n);
  const std::size_t count = states.pressures.size();
  ASSERT_GE(count, 4u);
  const std::string wrapper = R"(
__kernel void reactor_rhs_lanes(__global const double* y, __global double* f, __global const double* p) {
  const size_t i = get_global_id(0);
  double4 yi[REACTOR_N], fi[REACTOR_N];
  for (int k = 0; k < REACTOR_N; ++k)
    for (int l = 0; l < 4; ++l) yi[k][l] = y[((i + l) % REACTOR_COUNT) * REACTOR_N + k];
  rhs_lanes((double4)(0.0), yi, fi, p + i);
  for (int k = 0; k < REACTOR_N; ++k)
    for (int l = 0; l < 4; ++l) f[(4 * i + l) * REACTOR_N + k] = fi[k][l];
}
)";
  const std::string source = "#define ODE_STAGE_LANES 1\n#define REACTOR_N " + std::to_string(n) +
                             "\n#define REACTOR_COUNT " + std::to_string(count) + "\n" + system.source + wrapper;
  const core::Context& ctx = devices.context(0);
  const core::Queue& q = devices.compute(0);
  const core::Program program = core::build_program(ctx, "chem reactor rhs lanes " + name, source, "");
  core::Kernel kernel = program.kernel("reactor_rhs_lanes");
  core::Buffer<double> y(ctx, states.y.size()), result(ctx, 4 * count * n), p(ctx, count);
  y.write(q, states.y);
  p.write(q, states.pressures);
  kernel.args(y, result, p);
  kernel.launch(q, count);
  std::vector<double> device(4 * count * n);
  result.read(q, device);

  const Kinetics kinetics(mechanism);
  double worst = 0.0;
  for (std::size_t i = 0; i < count; ++i)
    for (std::size_t l = 0; l < 4; ++l) {
      const ConstantPressureReactor reactor(kinetics, states.pressures[i]);
      std::vector<double> host(n);
      reactor.rhs(std::span<const double>(states.y).subspan((i + l) % count * n, n), host);
      const auto got = device.begin() + static_cast<std::ptrdiff_t>((4 * i + l) * n);
      const std::vector<double> got_y(got, got + static_cast<std::ptrdiff_t>(n - 1)), host_y(host.begin(), host.end() - 1);
      const std::string at = name + " lane " + std::to_string(l) + " of work-item " + std::to_string(i);
      worst = std::max(worst, test::expect_close(at + " dY/dt", got_y, host_y, rtol, 1e-10 * test::largest(host_y)));
      worst = std::max(worst, test::expect_close(at + " dT/dt", {got[static_cast<std::ptrdiff_t>(n - 1)]}, {host.back()}, rtol));
    }
  std::printf("%s on %s: worst relative difference device lanes vs host RHS %.2e\n", name.c_str(),
              devices.device(0).label().c_str(), worst);
}

// RADAU5's mapping 2 takes rhs_group, mapping 1 rhs(): the two must give the same bits, so that results
// do not depend on the mapping. A group of 16 work-items makes each own several species and reactions.
void check_group_rhs(const Mechanism& mechanism, const std::string& name) {
  const States states = test::stacked_reference_states(mechanism, name);
  const core::DeviceSet devices = hetflow::test::test_device();
  // Without jac(), so that rhs_group is shown to build from the rhs source alone.
  const ode::System system = reactor_system(mechanism, ReactorJacobian::finite_difference);
  ASSERT_TRUE(system.group_rhs);
  const auto n = static_cast<std::size_t>(system.n);
  test::expect_same_bits(test::run_group(devices, system, states, false, name),
                         test::run_generated(devices, system, states, false, name), [&](std::size_t i) {
                           return name + " state " + std::to_string(i / n) + " component " + std::to_string(i % n);
                         });
}

TEST(ChemDeviceRhs, Gri30MatchesHost) { check_device_rhs(test::gri30_yaml(), "gri30"); }

TEST(ChemDeviceRhs, H2O2MatchesHost) { check_device_rhs(read_yaml_mechanism(test::mechanisms / "h2o2.yaml"), "h2o2"); }

// The Chemkin fixture exercises what GRI 3.0 lacks: PLOG, SRI, explicit REV, FORD/RORD, named colliders.
TEST(ChemDeviceRhs, ChemkinFeatureFixtureMatchesHost) {
  check_device_rhs(read_chemkin(test::test_data / "features.inp", test::mechanisms / "gri30_thermo.dat"), "features");
}

// Group-only: rhs_group reads the species' constants and the reactions from the tables.
TEST(ChemDeviceRhs, DodecaneReitzMatchesHost) { check_device_rhs(test::dodecane_reitz(), "dodecane_reitz"); }

TEST(ChemDeviceRhs, HexaneNuigMatchesHost) { check_device_rhs(test::hexane_nuig(), "hexane_nuig"); }

TEST(ChemLanesRhs, Gri30MatchesHost) { check_lanes_rhs(test::gri30_yaml(), "gri30"); }

TEST(ChemLanesRhs, H2O2MatchesHost) { check_lanes_rhs(read_yaml_mechanism(test::mechanisms / "h2o2.yaml"), "h2o2"); }

TEST(ChemLanesRhs, ChemkinFeatureFixtureMatchesHost) {
  check_lanes_rhs(read_chemkin(test::test_data / "features.inp", test::mechanisms / "gri30_thermo.dat"), "features");
}

TEST(ChemGroupRhs, Gri30GivesRhsBits) { check_group_rhs(test::gri30_yaml(), "gri30"); }

TEST(ChemGroupRhs, H2O2GivesRhsBits) { check_group_rhs(read_yaml_mechanism(test::mechanisms / "h2o2.yaml"), "h2o2"); }

TEST(ChemGroupRhs, ChemkinFeatureFixtureGivesRhsBits) {
  check_group_rhs(read_chemkin(test::test_data / "features.inp", test::mechanisms / "gri30_thermo.dat"), "features");
}

}  // namespace
}  // namespace hetflow::chem
