// Thermo, rates and the reactor RHS against Cantera's tables (scripts/chem_reference.py).
#include <gtest/gtest.h>

#include <cstdio>

#include "chem_test_util.hpp"
#include "hetflow/chem/kinetics.hpp"
#include "hetflow/chem/reactor.hpp"
#include "hetflow/chem/thermo.hpp"

namespace hetflow::chem {
namespace {

constexpr double rtol = 1e-10;

std::vector<double> numbers(const nlohmann::json& j) { return j.get<std::vector<double>>(); }

// Checks every state of a reference table; species are matched by name.
void check_against_reference(const Mechanism& mechanism, const std::string& name) {
  const nlohmann::json ref = test::reference(name);
  const auto names = ref["species"].get<std::vector<std::string>>();
  ASSERT_EQ(names.size(), mechanism.species.size());
  ASSERT_EQ(ref["reactions"].size(), mechanism.reactions.size());
  std::vector<std::size_t> index;  // reference position -> mechanism position
  for (const std::string& n : names) {
    const int k = mechanism.species_index(n);
    ASSERT_GE(k, 0) << n;
    index.push_back(static_cast<std::size_t>(k));
  }
  auto reorder = [&](const std::vector<double>& v) {
    std::vector<double> out(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) out[i] = v[index[i]];
    return out;
  };
  const Kinetics kinetics(mechanism);
  double worst_thermo = 0.0, worst_k = 0.0, worst_wdot = 0.0, worst_rhs = 0.0;
  for (const auto& state : ref["states"]) {
    const double T = state["T"].get<double>();
    const double p = state["p"].get<double>();
    std::vector<double> y(mechanism.species.size());
    const auto ref_y = numbers(state["Y"]);
    for (std::size_t i = 0; i < names.size(); ++i) y[index[i]] = ref_y[i];
    const std::string at = name + " T=" + std::to_string(T) + " p=" + std::to_string(p);

    const SpeciesThermo thermo = species_thermo(mechanism, T);
    for (const char* key : {"cp", "h", "s"}) {
      const auto want = numbers(state[key]);
      const auto& got = std::string(key) == "cp" ? thermo.cp : std::string(key) == "h" ? thermo.h : thermo.s;
      // h crosses zero for species near their formation reference; below 1e-10 of the largest |h|
      // the comparison is absolute.
      worst_thermo = std::max(worst_thermo, test::expect_close(at + " " + key, reorder(got), want, rtol, 1e-10 * test::largest(want)));
    }

    const auto c = concentrations(T, p, y, mechanism.molecular_weights());
    const ReactionRates rates = kinetics.rates(T, p, c);
    worst_k = std::max(worst_k, test::expect_close(at + " kf", rates.kf, numbers(state["kf"]), rtol));
    worst_k = std::max(worst_k, test::expect_close(at + " kr", rates.kr, numbers(state["kr"]), rtol));
    worst_k = std::max(worst_k, test::expect_close(at + " qf", rates.qf, numbers(state["qf"]), rtol));
    worst_k = std::max(worst_k, test::expect_close(at + " qr", rates.qr, numbers(state["qr"]), rtol));
    // A net rate is a sum of rates of progress of both signs; where they cancel, the floor is 1e-10 of
    // the largest rate of progress, the rounding such a sum carries.
    const double q_scale = std::max(test::largest(numbers(state["qf"])), test::largest(numbers(state["qr"])));
    worst_wdot = std::max(worst_wdot, test::expect_close(at + " wdot", reorder(kinetics.production_rates(rates)),
                                                         numbers(state["wdot"]), rtol, 1e-10 * q_scale));

    const ConstantPressureReactor reactor(kinetics, p);
    std::vector<double> state_vector = y;
    state_vector.push_back(T);
    std::vector<double> dydt(reactor.size());
    reactor.rhs(state_vector, dydt);
    const double dtdt = dydt.back();
    dydt.pop_back();
    const auto want_dydt = numbers(state["dYdt"]);
    worst_rhs = std::max(worst_rhs, test::expect_close(at + " dY/dt", reorder(dydt), want_dydt, rtol, 1e-10 * test::largest(want_dydt)));
    worst_rhs = std::max(worst_rhs, test::expect_close(at + " dT/dt", {dtdt}, {state["dTdt"].get<double>()}, rtol));
  }
  std::printf("%s: worst relative error thermo %.2e, rate constants/rates %.2e, wdot %.2e, reactor RHS %.2e\n", name.c_str(),
              worst_thermo, worst_k, worst_wdot, worst_rhs);
}

TEST(ChemReference, Gri30YamlMatchesCantera) { check_against_reference(test::gri30_yaml(), "gri30"); }

TEST(ChemReference, Gri30ChemkinMatchesCantera) { check_against_reference(test::gri30_chemkin(), "gri30"); }

TEST(ChemReference, H2O2YamlAndChemkinMatchCantera) {
  check_against_reference(read_yaml_mechanism(test::mechanisms / "h2o2.yaml"), "h2o2");
  check_against_reference(read_chemkin(test::mechanisms / "h2o2.inp"), "h2o2");
}

TEST(ChemReference, ChemkinFeatureFixtureMatchesCantera) {
  check_against_reference(read_chemkin(test::test_data / "features.inp", test::mechanisms / "gri30_thermo.dat"), "features");
}

TEST(ChemReference, DodecaneReitzMatchesCantera) { check_against_reference(test::dodecane_reitz(), "dodecane_reitz"); }

TEST(ChemReference, HexaneNuigMatchesCantera) { check_against_reference(test::hexane_nuig(), "hexane_nuig"); }

}  // namespace
}  // namespace hetflow::chem
