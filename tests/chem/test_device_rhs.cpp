// The generated OpenCL reactor RHS (reactor_source.cpp) against the host reactor at the states of
// the Cantera reference tables.
#include <gtest/gtest.h>

#include <cstdio>

#include "chem_test_util.hpp"
#include "hetflow/chem/reactor.hpp"
#include "hetflow/chem/reactor_source.hpp"
#include "hetflow/core/buffer.hpp"
#include "hetflow/core/program.hpp"
#include "test_devices.hpp"

namespace hetflow::chem {
namespace {

// The host and device differ only in the last bits of exp, log and pow.
constexpr double rtol = 1e-11;

// Evaluates rhs() once per work-item: state i is y[i*n..], its pressure p[i].
constexpr const char* wrapper = R"(
__kernel void reactor_rhs(__global const double* y, __global double* f, __global const double* p) {
  const size_t i = get_global_id(0);
  double yi[CHEM_K + 1], fi[CHEM_K + 1];
  for (int k = 0; k <= CHEM_K; ++k) yi[k] = y[i * (CHEM_K + 1) + k];
  rhs(0.0, yi, fi, p + i);
  for (int k = 0; k <= CHEM_K; ++k) f[i * (CHEM_K + 1) + k] = fi[k];
}
)";

void check_device_rhs(const Mechanism& mechanism, const std::string& name) {
  const nlohmann::json ref = test::reference(name);
  const auto names = ref["species"].get<std::vector<std::string>>();
  const std::size_t n = mechanism.species.size() + 1;
  ASSERT_EQ(names.size() + 1, n);
  // States in the mechanism's species order, T last, as the reactor wants them.
  std::vector<double> y, pressures;
  for (const auto& state : ref["states"]) {
    const std::vector<double> mass_fractions =
        test::in_mechanism_order(mechanism, names, state["Y"].get<std::vector<double>>());
    y.insert(y.end(), mass_fractions.begin(), mass_fractions.end());
    y.push_back(state["T"].get<double>());
    pressures.push_back(state["p"].get<double>());
  }
  const std::size_t count = pressures.size();

  const core::DeviceSet devices = hetflow::test::test_device();
  const core::Context& ctx = devices.context(0);
  const core::Queue& q = devices.compute(0);
  const core::Program program =
      core::build_program(ctx, "chem reactor rhs " + name, reactor_rhs_source(mechanism) + wrapper, "");
  core::Kernel kernel = program.kernel("reactor_rhs");
  core::Buffer<double> y_dev(ctx, y.size()), f_dev(ctx, y.size()), p_dev(ctx, count);
  y_dev.write(q, y);
  p_dev.write(q, pressures);
  kernel.args(y_dev, f_dev, p_dev);
  kernel.launch(q, count);
  std::vector<double> device(y.size());
  f_dev.read(q, device);

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

TEST(ChemDeviceRhs, Gri30MatchesHost) { check_device_rhs(test::gri30_yaml(), "gri30"); }

TEST(ChemDeviceRhs, H2O2MatchesHost) { check_device_rhs(read_yaml_mechanism(test::mechanisms / "h2o2.yaml"), "h2o2"); }

// The Chemkin fixture exercises what GRI 3.0 lacks: PLOG, SRI, explicit REV, FORD/RORD, named colliders.
TEST(ChemDeviceRhs, ChemkinFeatureFixtureMatchesHost) {
  check_device_rhs(read_chemkin(test::test_data / "features.inp", test::mechanisms / "gri30_thermo.dat"), "features");
}

}  // namespace
}  // namespace hetflow::chem
