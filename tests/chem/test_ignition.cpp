// H2/air ignition with the generated reactor RHS integrated by ode::Radau5, against the ignition
// delays of Cantera's IdealGasConstPressureReactor (scripts/chem_reference.py, h2_ignition).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "chem_test_util.hpp"
#include "ignition_delay.hpp"
#include "hetflow/chem/reactor_source.hpp"
#include "test_devices.hpp"

namespace hetflow::chem {
namespace {

TEST(ChemIgnition, H2AirDelayMatchesCantera) {
  const Mechanism mechanism = read_yaml_mechanism(test::mechanisms / "h2o2.yaml");
  const nlohmann::json ref = test::reference("h2_ignition");
  const auto names = ref["species"].get<std::vector<std::string>>();
  ode::Options options;
  options.rtol = {1e-10};
  options.atol = {1e-14};
  options.h0 = 1e-10;
  const core::DeviceSet devices = hetflow::test::test_device();
  const ode::Radau5 solver(devices, reactor_system(mechanism), options);
  for (const auto& c : ref["cases"]) {
    std::vector<double> y0 = test::in_mechanism_order(mechanism, names, c["Y"].get<std::vector<double>>());
    const double T0 = c["T0"].get<double>();
    y0.push_back(T0);
    const test::Ignition ignition{solver, y0, c["p"].get<double>(), T0 + ref["rise"].get<double>()};
    const double delay = ignition.delay();
    const double want = c["delay"].get<double>();
    std::printf("H2/air T0 = %.0f K: ignition delay %.9e s, Cantera %.9e s, relative difference %.2e\n", T0, delay,
                want, std::abs(delay - want) / want);
    EXPECT_NEAR(delay, want, 0.01 * want) << "T0 = " << T0;
  }
}

}  // namespace
}  // namespace hetflow::chem
