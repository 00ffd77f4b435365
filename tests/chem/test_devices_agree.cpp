// One reactor batch integrated on each device of HETFLOW_TEST_DEVICES alone, each picking its own RADAU5
// mapping: in CI two PoCL CPU devices, on the GPU machine its NVIDIA GPU and PoCL's CPU (the gpu preset).
// Devices of one platform run the same code and must give the same bits and step counters. Across
// platforms the devices' exp, log and pow differ in their last bits, and RADAU5 carries such differences
// like any other rounding; integrated to rtol 1e-12 until the states are close to rest, where the
// chemistry damps them, they must agree within 1e-10.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "chem_test_util.hpp"
#include "hetflow/chem/reactor_source.hpp"
#include "hetflow/ode/radau5.hpp"
#include "jacobian_test_util.hpp"
#include "test_devices.hpp"
#include "validation_output.hpp"

namespace hetflow::chem {
namespace {

// T relative; mass fractions above 1e-8 relative, below it absolute on the 1e-8 scale.
constexpr double agreement = 1e-10;
constexpr double species_floor = 1e-8;

TEST(ChemDevicesAgree, OneBatchEndsInTheSameStatesOnEveryDevice) {
  const Mechanism mechanism = read_yaml_mechanism(test::mechanisms / "h2o2.yaml");
  const test::StackedStates states = test::stacked_reference_states(mechanism, "h2o2");
  const ode::System system = reactor_system(mechanism);
  const ode::Batch batch{states.y, states.pressures, {0.0}, {1e-2}};
  ode::Options options;
  options.rtol = {1e-12};
  options.atol = {1e-20};
  options.h0 = 1e-10;
  const core::DeviceSet devices = hetflow::test::test_devices();
  ASSERT_GE(devices.size(), 2u) << "HETFLOW_TEST_DEVICES names one device";
  std::vector<ode::Result> results;
  for (std::size_t k = 0; k < devices.size(); ++k) {
    const core::DeviceSet alone(std::vector<core::Device>{devices.device(k)});
    results.push_back(ode::Radau5(alone, system, options).integrate(batch));
    ASSERT_EQ(results.back().failures(), 0u) << devices.device(k).label() << ": " << results.back().report();
  }
  const std::size_t n = mechanism.species.size() + 1;
  double worst = 0;
  for (std::size_t k = 1; k < devices.size(); ++k) {
    const std::string pair = devices.device(0).label() + " against " + devices.device(k).label();
    const ode::Result &a = results[0], &b = results[k];
    ASSERT_EQ(b.y.size(), a.y.size());
    const bool same_platform = devices.device(k).info.platform == devices.device(0).info.platform;
    for (std::size_t s = 0; s < a.statistics.size(); ++s) {
      if (!same_platform) break;
      EXPECT_EQ(b.statistics[s].nstep, a.statistics[s].nstep) << pair << ", system " << s;
      EXPECT_EQ(b.statistics[s].njac, a.statistics[s].njac) << pair << ", system " << s;
    }
    for (std::size_t i = 0; i < a.y.size(); ++i) {
      if (same_platform) {
        EXPECT_EQ(std::memcmp(&a.y[i], &b.y[i], sizeof(double)), 0) << pair << ", y[" << i << "]";
        continue;
      }
      const bool temperature = i % n == n - 1;
      const double scale = temperature ? std::abs(a.y[i]) : std::max(std::abs(a.y[i]), species_floor);
      const double error = std::abs(a.y[i] - b.y[i]) / scale;
      worst = std::max(worst, error);
      EXPECT_LE(error, agreement) << pair << ", system " << i / n << (temperature ? " T" : " Y") << ": " << a.y[i]
                                  << " against " << b.y[i];
    }
  }
  RecordProperty("worst_across_platforms", hetflow::test::sci(worst));
}

}  // namespace
}  // namespace hetflow::chem
