// Equilibrium of the constant-pressure adiabatic reactor (docs/chem.md, Validation): integrated by ode::Radau5 until
// nothing changes, the mixture must reach the HP equilibrium that Cantera's Gibbs minimiser finds for
// the same enthalpy, pressure and elements (scripts/chem_reference.py, equilibrium), and every
// reversible reaction must be balanced there (q_f = q_r).
//
// Cases, stoichiometric at 1 atm, for H2/air (h2o2.yaml) and CH4/air (GRI 3.0):
//  - preheated: the fresh mixture at 1200 K (H2) or 1400 K (CH4), which ignites by itself;
//  - flame: the adiabatic flame temperature, the HP equilibrium of the fresh mixture at
//    300 K. The reactor cannot get there from 300 K: nothing reacts at that temperature in any time we
//    could integrate. It starts instead from half fresh mixture, half burnt, at the temperature that
//    gives the fresh mixture's enthalpy (about 1400 K). That state has the same enthalpy, pressure and
//    element mass fractions as the fresh mixture at 300 K, and those three fix the HP equilibrium, so the
//    reactor must end at the 300 K mixture's adiabatic flame temperature. The test checks with its own
//    thermo that the start state has the fresh mixture's enthalpy and elements.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "hetflow/chem/kinetics.hpp"
#include "reactor_test_util.hpp"
#include "test_devices.hpp"

namespace hetflow::chem {
namespace {

// Long enough for the slowest process to finish: NO (Zeldovich) takes of the order of seconds to reach
// equilibrium at 2200 K, and the state must settle to ~1e-10. Once it has, RADAU5's steps grow by 8x per
// step, so the extra time costs a few dozen steps.
constexpr double t_end = 1e4;

// Temperature against Cantera. At the end state the reactor's RHS vanishes, and both sides use the same
// NASA-7 data (test_reference.cpp: 1e-10), so what differs is how close each solver gets to the
// equilibrium: RADAU5's last steps are huge and L-stable, leaving the state within its Newton tolerance
// of f = 0 (~1e-12 relative per component), and Cantera's solver stops at its default rtol 1e-9.
// 1e-9 relative (2.5 µK; measured at most 2e-11) covers both; a thermo or kinetics error shows as kelvins.
constexpr double temperature_tolerance = 1e-9;
// Species with equilibrium mass fraction above 1e-4 (the major products and the radicals O, H, OH, NO
// at flame temperatures): 1e-8 relative (measured at most 3e-10, O), minor species moving more than T.
constexpr double species_floor = 1e-4;
constexpr double species_tolerance = 1e-8;
// Balance of the reversible reactions: |q_f - q_r| <= 1e-9 q_f + Q_irr. At equilibrium q_f = q_r exactly;
// a relative deviation ε of the concentrations from equilibrium unbalances a reaction by about ε times
// its molecularity, and the integrator leaves ε at its Newton tolerance, ~1e-12 (measured imbalance at
// most 4e-14). Q_irr, the sum of the irreversible reactions' rates, is there for GRI 3.0: its 16
// irreversible reactions (CH3 + O => CO + H + H2, ...) never stop, so the long-time state of its
// kinetics is a steady state, not detailed balance: the reversible reactions near CH_x, HCO and CH2O run
// net in cycles that return what the irreversible ones consume, by at most their total flux (measured:
// up to 0.46 of Q_irr, 7 % of q_f for CH reactions, where q_f is small; T and the major species still agree
// with Cantera to 1e-10). Without irreversible reactions (h2o2, and GRI 3.0 with them removed, test
// below) Q_irr = 0 and the balance is strict. Reactions with q_f below 1e-12 of the largest q_f (among
// species at concentrations of 1e-20 and less) are reported, not checked.
constexpr double balance_tolerance = 1e-9;
constexpr double balance_floor = 1e-12;

// The start state must have the fresh mixture's enthalpy (Cantera set its T from h: relative 1e-12) and
// elements. Its burnt half comes from Cantera's equilibrium solver, which conserves the element mass
// fractions to ~3e-12 (measured: GRI flame case), so the elements are checked to 1e-11.
constexpr double start_h_tolerance = 1e-12;
constexpr double start_z_tolerance = 1e-11;

// The reference cases of one mechanism integrated together, one system each, until nothing changes.
ode::Result integrate_cases(const Mechanism& mechanism, const std::vector<nlohmann::json>& cases) {
  ode::Options options;
  options.rtol = {1e-10};
  options.atol = {1e-20};  // as in Cantera's reactor runs: trace species integrated to relative accuracy too
  options.h0 = 1e-10;
  const core::DeviceSet devices = hetflow::test::test_device();
  const ode::Radau5 solver(devices, reactor_system(mechanism), options);
  ode::Batch batch;
  for (const auto& c : cases) {
    const auto names = c["species"].get<std::vector<std::string>>();
    const std::vector<double> y0 =
        test::reactor_state(mechanism, names, c["start_Y"].get<std::vector<double>>(), c["start_T"].get<double>());
    batch.y0.insert(batch.y0.end(), y0.begin(), y0.end());
    batch.params.push_back(c["p"].get<double>());
  }
  batch.t_end = {t_end};
  return solver.integrate(batch);
}

// The start state is equivalent to the fresh mixture at T0.
void expect_equivalent_start(const Mechanism& mechanism, const nlohmann::json& c, const std::string& what) {
  const auto names = c["species"].get<std::vector<std::string>>();
  const std::vector<double> fresh = test::in_mechanism_order(mechanism, names, c["Y0"].get<std::vector<double>>());
  const std::vector<double> start = test::in_mechanism_order(mechanism, names, c["start_Y"].get<std::vector<double>>());
  const double h_fresh = test::enthalpy_mass(mechanism, fresh, c["T0"].get<double>());
  const double h_start = test::enthalpy_mass(mechanism, start, c["start_T"].get<double>());
  EXPECT_NEAR(h_start, h_fresh, start_h_tolerance * std::abs(h_fresh)) << what;
  const auto z_fresh = test::element_mass_fractions(mechanism, fresh);
  const auto z_start = test::element_mass_fractions(mechanism, start);
  for (std::size_t e = 0; e < z_fresh.size(); ++e) EXPECT_NEAR(z_start[e], z_fresh[e], start_z_tolerance) << what;
}

// The largest relative error of a major species against Cantera's equilibrium, and its name.
struct WorstSpecies {
  double error = 0.0;
  std::string name;
};

WorstSpecies expect_equilibrium_species(const Mechanism& mechanism, const nlohmann::json& c, std::span<const double> y,
                                        const std::string& what) {
  const auto names = c["species"].get<std::vector<std::string>>();
  const std::vector<double> y_eq = test::in_mechanism_order(mechanism, names, c["Y_eq"].get<std::vector<double>>());
  WorstSpecies worst;
  for (std::size_t k = 0; k < y.size(); ++k) {
    if (y_eq[k] < species_floor) continue;
    const double err = std::abs(y[k] - y_eq[k]) / y_eq[k];
    if (err > worst.error) {
      worst.error = err;
      worst.name = mechanism.species[k].name;
    }
    EXPECT_LE(err, species_tolerance) << what << " " << mechanism.species[k].name << ": " << y[k] << " vs " << y_eq[k];
  }
  return worst;
}

// How far the reversible reactions are from balance at the end state, for the printed summary.
struct Balance {
  double q_max = 0.0, q_irr = 0.0;  // the largest reversible q_f, and the irreversible flux
  double worst = 0.0, worst_unchecked = 0.0, worst_net = 0.0;
  std::string worst_net_at = "-";
  std::size_t checked = 0, reversible = 0;
};

Balance expect_balanced(const Mechanism& mechanism, const ReactionRates& rates, const std::string& what) {
  Balance b;
  for (std::size_t j = 0; j < rates.qf.size(); ++j) {
    if (mechanism.reactions[j].reversible) b.q_max = std::max(b.q_max, rates.qf[j]);
    else b.q_irr += rates.qf[j];
  }
  for (std::size_t j = 0; j < rates.qf.size(); ++j) {
    if (!mechanism.reactions[j].reversible) continue;
    ++b.reversible;
    const double net = std::abs(rates.qf[j] - rates.qr[j]);
    const double imbalance = rates.qf[j] > 0.0 ? net / rates.qf[j] : 0.0;
    if (rates.qf[j] < balance_floor * b.q_max) {
      b.worst_unchecked = std::max(b.worst_unchecked, imbalance);
      continue;
    }
    ++b.checked;
    b.worst = std::max(b.worst, imbalance);
    const double bound = balance_tolerance * rates.qf[j] + b.q_irr;
    if (net / bound > b.worst_net) {
      b.worst_net = net / bound;
      b.worst_net_at = mechanism.reactions[j].equation;
    }
    EXPECT_LE(net, bound)
        << what << " reaction " << j << " " << mechanism.reactions[j].equation << ": q_f " << rates.qf[j] << ", q_r "
        << rates.qr[j] << ", irreversible flux " << b.q_irr;
  }
  return b;
}

void check_equilibrium(const std::string& mechanism_file, const Mechanism& mechanism, const std::string& label) {
  const Kinetics kinetics(mechanism);
  const nlohmann::json ref = test::reference("equilibrium");
  const std::size_t K = mechanism.species.size();
  std::vector<nlohmann::json> cases;
  for (const auto& c : ref["cases"])
    if (c["mechanism"].get<std::string>() == mechanism_file) cases.push_back(c);
  ASSERT_EQ(cases.size(), 2u) << mechanism_file;
  const ode::Result result = integrate_cases(mechanism, cases);
  ASSERT_EQ(result.failures(), 0u) << result.report();

  for (std::size_t i = 0; i < cases.size(); ++i) {
    const auto& c = cases[i];
    const std::string what = label + " " + c["fuel"].get<std::string>() + " " + c["kind"].get<std::string>();
    const double p = c["p"].get<double>();
    expect_equivalent_start(mechanism, c, what);

    const std::span<const double> y(result.y.data() + i * (K + 1), K);
    const double T = result.y[i * (K + 1) + K];
    const double T_eq = c["T_eq"].get<double>();
    EXPECT_NEAR(T, T_eq, temperature_tolerance * T_eq) << what;
    const WorstSpecies worst = expect_equilibrium_species(mechanism, c, y, what);
    const Balance b =
        expect_balanced(mechanism, kinetics.rates(T, p, concentrations(T, p, y, mechanism.molecular_weights())), what);
    std::printf("%s: start %.3f K, end %.6f K, Cantera HP equilibrium %.6f K (relative %.2e); worst major species "
                "%.2e (%s); |q_f - q_r|/q_f worst %.2e over %zu of %zu reversible reactions (%.2e among the rest); "
                "irreversible flux Q_irr %.2e of the largest q_f; |q_f - q_r| at most %.2e of its bound 1e-9 q_f + Q_irr (%s)\n",
                what.c_str(), c["start_T"].get<double>(), T, T_eq, std::abs(T - T_eq) / T_eq, worst.error,
                worst.name.c_str(), b.worst, b.checked, b.reversible, b.worst_unchecked, b.q_irr / b.q_max, b.worst_net,
                b.worst_net_at.c_str());
  }
}

TEST(ChemEquilibrium, H2AirReachesCanteraHPEquilibrium) {
  check_equilibrium("h2o2.yaml", read_yaml_mechanism(test::mechanisms / "h2o2.yaml"), "h2o2");
}

TEST(ChemEquilibrium, Gri30CH4AirReachesCanteraHPEquilibrium) {
  check_equilibrium("gri30.yaml", test::gri30_yaml(), "gri30");
}

// The equilibrium is a property of the thermo alone, so GRI 3.0 without its 16 irreversible reactions
// has the same one; its kinetics then has no steady cycles, and every reaction must balance strictly.
// Labelled `slow` (tests/CMakeLists.txt): its own GRI kernel takes PoCL long to build.
TEST(ChemEquilibriumSlow, Gri30ReversibleOnlyReachesDetailedBalance) {
  Mechanism m = test::gri30_yaml();
  std::erase_if(m.reactions, [](const Reaction& r) { return !r.reversible; });
  ASSERT_EQ(m.reactions.size(), 309u);
  check_equilibrium("gri30.yaml", m, "gri30 reversible only");
}

}  // namespace
}  // namespace hetflow::chem
