// RADAU5 on the H2/air ignition cases of test_ignition.cpp with the reactor's analytic Jacobian
// (reactor_jacobian_source.cpp) against the same integration with RADAU5's forward differences.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "chem_test_util.hpp"
#include "hetflow/chem/reactor_source.hpp"
#include "ignition_delay.hpp"
#include "test_devices.hpp"

namespace hetflow::chem {
namespace {

// The Jacobian only steers the Newton iterations and the step sizes: both runs solve the same ODE to
// rtol 1e-10, so their delays agree to far better than 1e-6 relative (the located delay's own
// resolution is ~1e-7 of the delay: 4 refinements of a 1.47x bracket by 16, then linear interpolation).
constexpr double tolerance = 1e-6;

TEST(ChemIgnitionJacobian, AnalyticJacobianGivesTheFiniteDifferenceDelay) {
  const Mechanism mechanism = read_yaml_mechanism(test::mechanisms / "h2o2.yaml");
  const nlohmann::json ref = test::reference("h2_ignition");
  const auto names = ref["species"].get<std::vector<std::string>>();
  ode::Options options;
  options.rtol = {1e-10};
  options.atol = {1e-14};
  options.h0 = 1e-10;
  const core::DeviceSet devices = hetflow::test::test_device();
  const ode::Radau5 analytic(devices, reactor_system(mechanism, ReactorJacobian::analytic), options);
  const ode::Radau5 differences(devices, reactor_system(mechanism, ReactorJacobian::finite_difference), options);
  ASSERT_TRUE(analytic.system().analytic_jacobian);
  ASSERT_FALSE(differences.system().analytic_jacobian);
  for (const auto& c : ref["cases"]) {
    std::vector<double> y0 = test::in_mechanism_order(mechanism, names, c["Y"].get<std::vector<double>>());
    const double T0 = c["T0"].get<double>();
    y0.push_back(T0);
    const double target = T0 + ref["rise"].get<double>();
    const double with_jac = test::Ignition{analytic, y0, c["p"].get<double>(), target}.delay();
    const double with_fd = test::Ignition{differences, y0, c["p"].get<double>(), target}.delay();
    const double diff = std::abs(with_jac - with_fd) / with_fd;
    std::printf("H2/air T0 = %.0f K: delay %.12e s (analytic Jacobian), %.12e s (differences), relative %.2e\n", T0,
                with_jac, with_fd, diff);
    EXPECT_LE(diff, tolerance) << "T0 = " << T0;
  }
}

}  // namespace
}  // namespace hetflow::chem
