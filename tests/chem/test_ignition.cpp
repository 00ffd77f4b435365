// H2/air ignition with the generated reactor RHS integrated by ode::Radau5: against the ignition delays
// of Cantera's IdealGasConstPressureReactor (scripts/chem_reference.py, h2_ignition), and with the
// reactor's analytic Jacobian (reactor_jacobian_source.cpp) against RADAU5's forward differences.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "chem_test_util.hpp"
#include "hetflow/chem/reactor_source.hpp"
#include "reactor_test_util.hpp"
#include "test_devices.hpp"

namespace hetflow::chem {
namespace {

// The reference cases, and the delay of each by a solver with the given Jacobian.
struct H2Ignition {
  const Mechanism mechanism = read_yaml_mechanism(test::mechanisms / "h2o2.yaml");
  const nlohmann::json ref = test::reference("h2_ignition");
  const core::DeviceSet devices = hetflow::test::test_device();

  ode::Radau5 solver(ReactorJacobian system, ode::Jacobian used) const {
    ode::Options options;
    options.rtol = {1e-10};
    options.atol = {1e-14};
    options.h0 = 1e-10;
    options.jacobian = used;
    return ode::Radau5(devices, reactor_system(mechanism, system), options);
  }
  double delay(const ode::Radau5& solver, const nlohmann::json& c) const {
    std::vector<double> y0 = test::in_mechanism_order(mechanism, ref["species"].get<std::vector<std::string>>(),
                                                      c["Y"].get<std::vector<double>>());
    y0.push_back(c["T0"].get<double>());
    // Candidates from 0.1 µs to 10 ms, the bracket then refined four times by 16.
    return test::first_crossing(solver, y0, c["p"].get<double>(), y0.back() + ref["rise"].get<double>(), 1e-7, 1e-2,
                                15, 4);
  }
};

TEST(ChemIgnition, H2AirDelayMatchesCantera) {
  const H2Ignition h2;
  const ode::Radau5 solver = h2.solver(ReactorJacobian::analytic, ode::Jacobian::analytic);
  for (const auto& c : h2.ref["cases"]) {
    const double delay = h2.delay(solver, c), want = c["delay"].get<double>();
    std::printf("H2/air T0 = %.0f K: ignition delay %.9e s, Cantera %.9e s, relative difference %.2e\n",
                c["T0"].get<double>(), delay, want, std::abs(delay - want) / want);
    EXPECT_NEAR(delay, want, 0.01 * want) << "T0 = " << c["T0"];
  }
}

// The Jacobian only steers the Newton iterations and the step sizes: both runs solve the same ODE to
// rtol 1e-10, so their delays agree to far better than 1e-6 relative (the located delay's own
// resolution is ~1e-7 of the delay: 4 refinements of a 2.15x bracket by 16, then linear interpolation).
TEST(ChemIgnition, AnalyticJacobianGivesTheFiniteDifferenceDelay) {
  const H2Ignition h2;
  const ode::Radau5 analytic = h2.solver(ReactorJacobian::analytic, ode::Jacobian::analytic);
  const ode::Radau5 differences = h2.solver(ReactorJacobian::finite_difference, ode::Jacobian::finite_difference);
  ASSERT_TRUE(analytic.analytic_jacobian());
  ASSERT_FALSE(differences.analytic_jacobian());
  for (const auto& c : h2.ref["cases"]) {
    const double with_jac = h2.delay(analytic, c), with_fd = h2.delay(differences, c);
    const double diff = std::abs(with_jac - with_fd) / with_fd;
    std::printf("H2/air T0 = %.0f K: delay %.12e s (analytic Jacobian), %.12e s (differences), relative %.2e\n",
                c["T0"].get<double>(), with_jac, with_fd, diff);
    EXPECT_LE(diff, 1e-6) << "T0 = " << c["T0"];
  }
}

}  // namespace
}  // namespace hetflow::chem
