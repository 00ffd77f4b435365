// H2/air ignition with the generated reactor RHS integrated by ode::Radau5, against the ignition
// delays of Cantera's IdealGasConstPressureReactor (scripts/chem_reference.py, h2_ignition).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "chem_test_util.hpp"
#include "hetflow/chem/reactor_source.hpp"
#include "test_devices.hpp"

namespace hetflow::chem {
namespace {

// Radau5 returns the state only at t_end, so the delay is located by integrating one system per
// candidate time: a geometric grid brackets the first time T reaches T0 + rise, and each refinement
// splits the bracket evenly, shrinking it by (candidates + 1).
constexpr std::size_t candidates = 15;
constexpr int refinements = 4;

struct Ignition {
  const ode::Radau5& solver;
  std::vector<double> y0;  // mass fractions in mechanism order, then T0
  double pressure;
  double target;  // T0 + rise

  // T at each of the times, every integration starting from y0 at t = 0.
  std::vector<double> temperatures(const std::vector<double>& times) const {
    ode::Batch batch;
    for (std::size_t i = 0; i < times.size(); ++i) {
      batch.y0.insert(batch.y0.end(), y0.begin(), y0.end());
      batch.params.push_back(pressure);
    }
    batch.t_end = times;
    const ode::Result r = solver.integrate(batch);
    EXPECT_EQ(r.failures(), 0u) << r.report();
    std::vector<double> T;
    for (std::size_t i = 0; i < times.size(); ++i) T.push_back(r.y[(i + 1) * y0.size() - 1]);
    return T;
  }

  // The first time at which T reaches the target, linearly interpolated in the final bracket.
  double delay() const {
    std::vector<double> times;
    for (std::size_t i = 0; i <= 2 * candidates; ++i)
      times.push_back(1e-7 * std::pow(1e5, static_cast<double>(i) / (2 * candidates)));  // 0.1 µs .. 10 ms
    double lo = 0.0, hi = 0.0, t_lo = y0.back(), t_hi = 0.0;
    for (int round = 0; round <= refinements; ++round) {
      const std::vector<double> T = temperatures(times);
      std::size_t i = 0;
      while (i < T.size() && T[i] < target) ++i;
      if (round == 0 && i == T.size()) {
        ADD_FAILURE() << "no ignition by t = " << times.back() << " s";
        return 0.0;
      }
      // Refinement candidates lie strictly inside the bracket: none reaching the target leaves hi.
      if (i > 0) {
        lo = times[i - 1];
        t_lo = T[i - 1];
      }
      if (i < T.size()) {
        hi = times[i];
        t_hi = T[i];
      }
      times.clear();
      for (std::size_t k = 1; k <= candidates; ++k)
        times.push_back(lo + (hi - lo) * static_cast<double>(k) / (candidates + 1));
    }
    return lo + (hi - lo) * (target - t_lo) / (t_hi - t_lo);
  }
};

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
    const Ignition ignition{solver, y0, c["p"].get<double>(), T0 + ref["rise"].get<double>()};
    const double delay = ignition.delay();
    const double want = c["delay"].get<double>();
    std::printf("H2/air T0 = %.0f K: ignition delay %.9e s, Cantera %.9e s, relative difference %.2e\n", T0, delay,
                want, std::abs(delay - want) / want);
    EXPECT_NEAR(delay, want, 0.01 * want) << "T0 = " << T0;
  }
}

}  // namespace
}  // namespace hetflow::chem
