// Invariants of the closed constant-pressure adiabatic reactor (docs/chem.md) along RADAU5
// integrations through ignition: the mixture's mass-specific enthalpy h = Σ_k Y_k h_k(T) / W_k, the
// element mass fractions Z_e = Σ_k a_ek W_e Y_k / W_k, and Σ_k Y_k = 1.
//
// Radau5 returns the state at t_end only, so every sample time is its own integration from t = 0; the
// times run geometrically from before the first radicals through ignition to burnt-out products.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "reactor_test_util.hpp"
#include "test_devices.hpp"

namespace hetflow::chem {
namespace {

constexpr double rtol = 1e-10;
constexpr double atol = 1e-14;

// Enthalpy. The reactor equations keep h constant exactly (dh/dt = c_p dT/dt + Σ h_k/W_k dY_k/dt = 0),
// but h is not linear in the state (h_k(T) is a polynomial), so the integrator conserves it only up to
// its error off the invariant's surface. The check is |h - h0| / (c_p T) <= rtol: the enthalpy error
// as the temperature error it amounts to, within the relative tolerance the integration asks for.
// RADAU5 only promises rtol' = 0.1 rtol^(2/3) = 2.2e-8 per step (Hairer & Wanner 1996, IV.8), but the error along the
// trajectory (a shift in time, which leaves h alone) dominates; the measured drift is ~1.5e-12 (printed),
// 70 times below rtol. What this test is for is a temperature equation inconsistent with the species
// equations or the host thermo (a wrong h_k or c_p in the generated kernel): an error ε there drifts
// h by about ε times the heat release, ~0.5 c_p T, so it shows for ε above ~2e-10.
constexpr double enthalpy_tolerance = rtol;

// Elements and Σ Y. Both are linear invariants of the equations (every reaction is element-balanced:
// Σ_k a_ek W_e / W_k dY_k/dt = W_e Σ_j q_j Σ_k a_ek ν_kj = 0 for every state). A Runge-Kutta method
// keeps linear invariants exactly, whatever its step size and error, and RADAU5's simplified Newton
// iteration does too: its Jacobian (analytic, or forward differences of f) has c^T J = 0 up to rounding, so every
// Newton correction stays in the invariant's null space. What remains is rounding: a sum of ~50 terms
// per step, over the ~10^3 steps of an integration, each rounding ~1e-16 relative. 1e-12 leaves room
// for that; the measured drift (printed) is below 1e-15.
constexpr double element_tolerance = 1e-12;
constexpr double sum_tolerance = 1e-12;

void check_invariants(const Mechanism& mechanism, const std::string& table, double T0, double t_min, double t_max) {
  const nlohmann::json ref = test::reference(table);
  const auto names = ref["species"].get<std::vector<std::string>>();
  const nlohmann::json* found = nullptr;
  for (const auto& c : ref["cases"])
    if (c["T0"].get<double>() == T0) found = &c;
  ASSERT_NE(found, nullptr) << "no case T0 = " << T0 << " in " << table;
  const nlohmann::json& c = *found;
  const std::vector<double> y0 = test::reactor_state(mechanism, names, c["Y"].get<std::vector<double>>(), T0);
  const double p = c["p"].get<double>();
  const double delay = c["delay"].get<double>();
  const std::size_t K = mechanism.species.size();

  ode::Options options;
  options.rtol = {rtol};
  options.atol = {atol};
  options.h0 = 1e-10;
  const core::DeviceSet devices = hetflow::test::test_device();
  const ode::Radau5 solver(devices, reactor_system(mechanism), options);
  std::vector<double> times;
  constexpr int samples = 24;
  for (int i = 0; i <= samples; ++i) times.push_back(t_min * std::pow(t_max / t_min, static_cast<double>(i) / samples));
  // Three samples just around the delay, where T and the radicals change fastest.
  for (double f : {0.99, 1.0, 1.01}) times.push_back(f * delay);
  std::sort(times.begin(), times.end());
  const auto states = test::states_at(solver, y0, p, times);

  const std::span<const double> fresh(y0.data(), K);
  const double h0 = test::enthalpy_mass(mechanism, fresh, T0);
  const std::vector<double> z0 = test::element_mass_fractions(mechanism, fresh);
  double worst_h = 0.0, worst_z = 0.0, worst_sum = 0.0, T_end = 0.0;
  for (std::size_t i = 0; i < times.size(); ++i) {
    const std::span<const double> y(states[i].data(), K);
    const double T = states[i].back();
    T_end = T;
    const SpeciesThermo thermo = species_thermo(mechanism, T);
    double cp = 0.0, sum = 0.0;
    for (std::size_t k = 0; k < K; ++k) {
      cp += y[k] * thermo.cp[k] / mechanism.species[k].molecular_weight;
      sum += y[k];
    }
    const std::string at = table + " T0 = " + std::to_string(T0) + " t = " + std::to_string(times[i]) + " s, T = " +
                           std::to_string(T) + " K";
    const double dh = std::abs(test::enthalpy_mass(mechanism, y, T) - h0) / (cp * T);
    worst_h = std::max(worst_h, dh);
    EXPECT_LE(dh, enthalpy_tolerance) << at;
    const std::vector<double> z = test::element_mass_fractions(mechanism, y);
    for (std::size_t e = 0; e < z.size(); ++e) {
      if (z0[e] == 0.0) {  // elements absent from the mixture (Ar, and C in H2/air) must stay absent
        EXPECT_EQ(z[e], 0.0) << at << " element " << mechanism.elements[e].symbol;
        continue;
      }
      worst_z = std::max(worst_z, std::abs(z[e] - z0[e]));
      EXPECT_NEAR(z[e], z0[e], element_tolerance) << at << " element " << mechanism.elements[e].symbol;
    }
    worst_sum = std::max(worst_sum, std::abs(sum - 1.0));
    EXPECT_NEAR(sum, 1.0, sum_tolerance) << at;
  }
  // The samples must actually span ignition, or the test checks nothing of interest.
  EXPECT_GT(T_end, T0 + 1000.0);
  std::printf("%s T0 = %.0f K, %zu samples to %.1e s (T %.1f K at the end): worst |h - h0|/(c_p T) %.2e (tolerance "
              "%.1e), |Z_e - Z_e0| %.2e, |sum Y - 1| %.2e (tolerances %.0e)\n",
              table.c_str(), T0, times.size(), t_max, T_end, worst_h, enthalpy_tolerance, worst_z, worst_sum,
              element_tolerance);
}

TEST(ChemInvariants, H2AirThroughIgnitionKeepsEnthalpyElementsAndMass) {
  check_invariants(read_yaml_mechanism(test::mechanisms / "h2o2.yaml"), "h2_ignition", 1200.0, 1e-7, 1e-2);
}

TEST(ChemInvariants, Gri30CH4AirThroughIgnitionKeepsEnthalpyElementsAndMass) {
  check_invariants(test::gri30_yaml(), "gri30_ignition", 1600.0, 1e-6, 1e-1);
}

}  // namespace
}  // namespace hetflow::chem
