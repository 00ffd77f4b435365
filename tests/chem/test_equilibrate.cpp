// The equilibrium solver (docs/chem.md, Equilibrium) against Cantera's equilibrate from the same start
// states (scripts/chem_reference.py equilibrium_holds): TP, HP and UV for H2/air (h2o2.yaml) and CH4/air
// (GRI 3.0), and TP for air alone; and the conditions that define an equilibrium, checked on our own.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "chem_test_util.hpp"
#include "hetflow/chem/equilibrium.hpp"
#include "hetflow/chem/thermo.hpp"
#include "validation_output.hpp"

namespace hetflow::chem {
namespace {

// Both solvers use the same NASA-7 data, so they differ by how far each gets to the minimum. Cantera's
// references are converged to rtol 1e-12 to 1e-14 (per case) and ours to corrections of 1e-12.
// Temperature: 1e-11 relative (measured at most 1.8e-14); the pressure of UV the same.
constexpr double temperature_tolerance = 1e-11;
// Species above 1e-10 in mass fraction: 1e-7 relative; below, 1e-17 absolute. Cantera's minor species are
// the looser side: in its h2o2 TP state at 3200 K and 0.1 atm the HO2 reactions keep Δg/RT of 3.6e-8, and
// HO2 there is where the two solvers differ most (3.1e-8 relative); ours meets μ_k/RT = Σ_j a_kj λ_j to
// 1e-9 (EveryFormableSpeciesHasTheElementsPotential).
constexpr double species_floor = 1e-10;
constexpr double species_tolerance = 1e-7;
constexpr double species_absolute = 1e-17;

const Mechanism& mechanism(const std::string& file) {
  static std::map<std::string, Mechanism> cache;
  auto it = cache.find(file);
  if (it == cache.end()) it = cache.emplace(file, read_yaml_mechanism(test::mechanisms / file)).first;
  return it->second;
}

EquilibriumHold hold_of(const std::string& name) {
  if (name == "TP") return EquilibriumHold::tp;
  if (name == "HP") return EquilibriumHold::hp;
  return EquilibriumHold::uv;
}

TEST(ChemEquilibrate, MatchesCanteraInEveryHold) {
  const nlohmann::json doc = test::reference("equilibrium_holds");
  ASSERT_GE(doc["cases"].size(), 13u);
  double worst_t = 0, worst_y = 0;
  for (const auto& c : doc["cases"]) {
    const Mechanism& m = mechanism(c["mechanism"].get<std::string>());
    const auto names = c["species"].get<std::vector<std::string>>();
    const std::string hold = c["hold"].get<std::string>();
    const std::string label =
        c["mechanism"].get<std::string>() + " " + hold + " from T = " + std::to_string(c["start"]["T"].get<double>());
    MixtureState start;
    start.temperature = c["start"]["T"].get<double>();
    start.pressure = c["start"]["p"].get<double>();
    start.mass_fractions = test::in_mechanism_order(m, names, c["start"]["Y"].get<std::vector<double>>());
    const Equilibrium eq = equilibrate(m, start, hold_of(hold));
    const double t = c["T"].get<double>(), p = c["p"].get<double>();
    EXPECT_NEAR(eq.state.temperature, t, temperature_tolerance * t) << label;
    EXPECT_NEAR(eq.state.pressure, p, temperature_tolerance * p) << label;
    worst_t = std::max(worst_t, std::abs(eq.state.temperature - t) / t);
    const std::vector<double> y = test::in_mechanism_order(m, names, c["Y"].get<std::vector<double>>());
    for (std::size_t k = 0; k < y.size(); ++k) {
      if (y[k] >= species_floor) {
        EXPECT_NEAR(eq.state.mass_fractions[k], y[k], species_tolerance * y[k]) << label << ": " << m.species[k].name;
        worst_y = std::max(worst_y, std::abs(eq.state.mass_fractions[k] - y[k]) / y[k]);
      } else {
        EXPECT_NEAR(eq.state.mass_fractions[k], y[k], species_absolute) << label << ": " << m.species[k].name;
      }
    }
  }
  RecordProperty("worst_temperature", hetflow::test::sci(worst_t));
  RecordProperty("worst_species", hetflow::test::sci(worst_y));
}

// The start state of a reference case, in the mechanism's species order.
MixtureState start_of(const Mechanism& m, const nlohmann::json& c) {
  MixtureState start;
  start.temperature = c["start"]["T"].get<double>();
  start.pressure = c["start"]["p"].get<double>();
  start.mass_fractions = test::in_mechanism_order(m, c["species"].get<std::vector<std::string>>(),
                                                  c["start"]["Y"].get<std::vector<double>>());
  return start;
}

// What defines the equilibrium, without Cantera: every species the elements can form has the chemical
// potential its elements' potentials give, μ_k/RT = ln(x_k p/p°) + g°_k/RT = Σ_j a_kj λ_j (to 1e-11: the
// last Newton correction is below 1e-12; measured at most 2.8e-14); the elements are those of the start
// to 1e-12 relative (measured at most 1.2e-13: in stoichiometric H2/O2 at 300 K the excess reactant is
// set by the rounding of the element balance, O2 near 1e-14, and changes by factors up to e^4 from one
// step to the next); and the held energy and volume are kept, the energy to
// 1e-12 of RT per mole (an enthalpy near zero, as of H2/air from 300 K, has no relative scale of its own),
// the volume to 1e-12 relative. Returns the largest |μ_k/RT − Σ_j a_kj λ_j|.
double expect_equilibrium(const Mechanism& m, const MixtureState& start, EquilibriumHold hold, const Equilibrium& eq,
                          const std::string& label) {
  const MixtureState& s = eq.state;
  const std::vector<double> b0 = element_moles(m, start.mass_fractions), b = element_moles(m, s.mass_fractions);
  const double scale = *std::max_element(b0.begin(), b0.end());
  for (std::size_t j = 0; j < b.size(); ++j) EXPECT_NEAR(b[j], b0[j], 1e-12 * scale) << label << ": element " << j;

  const double total = moles_per_kilogram(m, s.mass_fractions);
  double worst = 0;
  for (std::size_t k = 0; k < m.species.size(); ++k) {
    if (s.mass_fractions[k] == 0) continue;
    const Species& sp = m.species[k];
    const double x = s.mass_fractions[k] / sp.molecular_weight / total;
    const double mu =
        h_over_rt(sp.thermo, s.temperature) - s_over_r(sp.thermo, s.temperature) + std::log(x * s.pressure / one_atm);
    double potential = 0;
    for (const auto& [e, count] : sp.composition)
      potential += count * eq.element_potentials[static_cast<std::size_t>(e)];
    EXPECT_NEAR(mu, potential, 1e-11) << label << ": " << sp.name;
    worst = std::max(worst, std::abs(mu - potential));
  }

  const double energy_scale = gas_constant * s.temperature * total;
  switch (hold) {
    case EquilibriumHold::tp:
      EXPECT_EQ(s.temperature, start.temperature) << label;
      EXPECT_EQ(s.pressure, start.pressure) << label;
      break;
    case EquilibriumHold::hp:
      EXPECT_NEAR(mixture_enthalpy(m, s), mixture_enthalpy(m, start), 1e-12 * energy_scale) << label;
      EXPECT_EQ(s.pressure, start.pressure) << label;
      break;
    case EquilibriumHold::uv: {
      EXPECT_NEAR(mixture_internal_energy(m, s), mixture_internal_energy(m, start), 1e-12 * energy_scale) << label;
      const auto volume = [&](const MixtureState& z) {
        return gas_constant * z.temperature * moles_per_kilogram(m, z.mass_fractions) / z.pressure;
      };
      EXPECT_NEAR(volume(s), volume(start), 1e-12 * volume(start)) << label;
      break;
    }
  }
  return worst;
}

TEST(ChemEquilibrate, EveryFormableSpeciesHasTheElementsPotential) {
  const nlohmann::json doc = test::reference("equilibrium_holds");
  ASSERT_GE(doc["cases"].size(), 13u);
  double worst = 0;
  for (const auto& c : doc["cases"]) {
    const Mechanism& m = mechanism(c["mechanism"].get<std::string>());
    const EquilibriumHold hold = hold_of(c["hold"].get<std::string>());
    const MixtureState start = start_of(m, c);
    worst = std::max(worst, expect_equilibrium(m, start, hold, equilibrate(m, start, hold),
                                               c["mechanism"].get<std::string>() + " " + hold_name(hold)));
  }
  RecordProperty("worst_potential", hetflow::test::sci(worst));
}

// States far from the references' converge to an equilibrium as well: a cold stoichiometric H2/O2 mixture
// (all water, H atoms near 1e-40), air heated to 6000 K (mostly atoms), CH4/air four times too rich at
// 1000 K, pure N2, and HP and UV from 250 K.
TEST(ChemEquilibrate, ConvergesFromStatesFarFromTheReferences) {
  const Mechanism& gri = mechanism("gri30.yaml");
  const Mechanism& h2 = mechanism("h2o2.yaml");
  const auto mixture = [](const Mechanism& m, double t, double p, const std::map<std::string, double>& moles) {
    MixtureState s;
    s.temperature = t;
    s.pressure = p;
    s.mass_fractions.assign(m.species.size(), 0.0);
    double mass = 0;
    for (const auto& [name, x] : moles) {
      const auto k = static_cast<std::size_t>(m.species_index(name));
      s.mass_fractions[k] = x * m.species[k].molecular_weight;
      mass += s.mass_fractions[k];
    }
    for (double& y : s.mass_fractions) y /= mass;
    return s;
  };
  struct Case {
    const Mechanism* m;
    MixtureState start;
    EquilibriumHold hold;
    std::string label;
  };
  const std::vector<Case> cases = {
      {&h2, mixture(h2, 300, one_atm, {{"H2", 2}, {"O2", 1}}), EquilibriumHold::tp, "cold H2/O2"},
      {&gri, mixture(gri, 6000, one_atm, {{"O2", 1}, {"N2", 3.76}}), EquilibriumHold::tp, "air at 6000 K"},
      {&gri, mixture(gri, 1000, one_atm, {{"CH4", 4}, {"O2", 2}, {"N2", 7.52}}), EquilibriumHold::tp, "rich CH4"},
      {&gri, mixture(gri, 2000, 10 * one_atm, {{"N2", 1}}), EquilibriumHold::tp, "pure N2"},
      {&gri, mixture(gri, 250, one_atm, {{"CH4", 1}, {"O2", 2}, {"N2", 7.52}}), EquilibriumHold::hp, "HP from 250 K"},
      {&h2, mixture(h2, 250, one_atm, {{"H2", 2}, {"O2", 1}, {"AR", 3}}), EquilibriumHold::uv, "UV from 250 K"},
  };
  for (const Case& c : cases) {
    const Equilibrium eq = equilibrate(*c.m, c.start, c.hold);
    expect_equilibrium(*c.m, c.start, c.hold, eq, c.label);
    RecordProperty("iterations_" + std::to_string(&c - cases.data()), std::to_string(eq.iterations));
  }
}

// A sweep as `type: equilibrium` runs it: CH4/air and H2/air from 300 K, φ from 0.3 to 3 in steps of 0.1, at
// 1, 10 and 50 atm, holding HP and UV; every state converges to an equilibrium (rich CH4/air at φ 1.3 once
// stopped short of it, its elements balanced to their rounding, 3e-14, but not to 1e-14).
TEST(ChemEquilibrate, ConvergesOverFlameSweeps) {
  for (const auto& [file, fuel] : {std::pair<std::string, std::string>{"gri30.yaml", "CH4"}, {"h2o2.yaml", "H2"}}) {
    const Mechanism& m = mechanism(file);
    const double demand = fuel == "CH4" ? 2.0 : 0.5;  // O2 per fuel molecule at φ = 1
    for (const double p : {1.0, 10.0, 50.0})
      for (int tenths = 3; tenths <= 30; ++tenths) {
        const double phi = tenths / 10.0;
        MixtureState s;
        s.temperature = 300;
        s.pressure = p * one_atm;
        s.mass_fractions.assign(m.species.size(), 0.0);
        const std::pair<const char*, double> moles[] = {
            {fuel.c_str(), 1.0}, {"O2", demand / phi}, {"N2", 3.76 * demand / phi}};
        double mass = 0;
        for (const auto& [name, amount] : moles) {
          const auto k = static_cast<std::size_t>(m.species_index(name));
          mass += s.mass_fractions[k] = amount * m.species[k].molecular_weight;
        }
        for (double& y : s.mass_fractions) y /= mass;
        for (const EquilibriumHold hold : {EquilibriumHold::hp, EquilibriumHold::uv}) {
          const std::string label =
              file + " " + hold_name(hold) + " phi " + std::to_string(phi) + " at " + std::to_string(p) + " atm";
          try {
            expect_equilibrium(m, s, hold, equilibrate(m, s, hold), label);
          } catch (const EquilibriumError& e) {
            ADD_FAILURE() << label << ": " << e.what();
          }
        }
      }
  }
}

// The adiabatic flame temperatures of the reactor's equilibrium test (equilibrium_reference.json, Cantera's
// HP equilibrium of the fresh mixtures, at its default tolerance 1e-9): the same within 1e-9 relative.
TEST(ChemEquilibrate, GivesTheReactorTestsFlameTemperatures) {
  const nlohmann::json doc = test::reference("equilibrium");
  ASSERT_EQ(doc["cases"].size(), 4u);
  for (const auto& c : doc["cases"]) {
    const Mechanism& m = mechanism(c["mechanism"].get<std::string>());
    MixtureState fresh;
    fresh.temperature = c["T0"].get<double>();
    fresh.pressure = c["p"].get<double>();
    fresh.mass_fractions =
        test::in_mechanism_order(m, c["species"].get<std::vector<std::string>>(), c["Y0"].get<std::vector<double>>());
    const double t = c["T_eq"].get<double>();
    EXPECT_NEAR(equilibrate(m, fresh, EquilibriumHold::hp).state.temperature, t, 1e-9 * t)
        << c["mechanism"].get<std::string>() << " from " << fresh.temperature << " K";
  }
}

// The holds agree with each other: the TP equilibrium at the HP equilibrium's temperature is that
// equilibrium (the composition within 1e-9 relative above 1e-12), and so is the UV equilibrium of it.
TEST(ChemEquilibrate, HoldsAgreeAtTheSameState) {
  const Mechanism& m = mechanism("gri30.yaml");
  const nlohmann::json doc = test::reference("equilibrium_holds");
  int flames = 0;
  for (const auto& c : doc["cases"]) {
    if (c["mechanism"] != "gri30.yaml" || c["hold"] != "HP") continue;
    ++flames;
    const MixtureState hp = equilibrate(m, start_of(m, c), EquilibriumHold::hp).state;
    for (const EquilibriumHold hold : {EquilibriumHold::tp, EquilibriumHold::uv}) {
      const MixtureState again = equilibrate(m, hp, hold).state;
      EXPECT_NEAR(again.temperature, hp.temperature, 1e-11 * hp.temperature) << hold_name(hold);
      for (std::size_t k = 0; k < m.species.size(); ++k)
        if (hp.mass_fractions[k] > 1e-12)
          EXPECT_NEAR(again.mass_fractions[k], hp.mass_fractions[k], 1e-9 * hp.mass_fractions[k])
              << hold_name(hold) << ": " << m.species[k].name;
    }
  }
  EXPECT_EQ(flames, 2);
}

// Each way a start state can fail to be a mixture is refused with a message that names it, and so is an
// iteration that runs out of steps.
TEST(ChemEquilibrate, RefusesStatesThatAreNotMixtures) {
  const Mechanism& m = mechanism("h2o2.yaml");
  MixtureState good;
  good.temperature = 1500;
  good.pressure = one_atm;
  good.mass_fractions.assign(m.species.size(), 0.0);
  good.mass_fractions[static_cast<std::size_t>(m.species_index("H2"))] = 0.1;
  good.mass_fractions[static_cast<std::size_t>(m.species_index("O2"))] = 0.9;
  EXPECT_NO_THROW(equilibrate(m, good, EquilibriumHold::tp));
  const auto refused = [&](MixtureState s, const std::string& words) {
    try {
      equilibrate(m, s, EquilibriumHold::hp);
      ADD_FAILURE() << "accepted; expected: " << words;
    } catch (const EquilibriumError& e) {
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    }
  };
  MixtureState s = good;
  s.temperature = -300;
  refused(s, "temperature must be positive and finite, got -300");
  s = good;
  s.pressure = std::nan("");
  refused(s, "pressure must be positive and finite, got nan");
  s = good;
  s.mass_fractions.pop_back();
  refused(s, "9 mass fractions for 10 species");
  s = good;
  s.mass_fractions[static_cast<std::size_t>(m.species_index("OH"))] = -1e-3;
  s.mass_fractions[static_cast<std::size_t>(m.species_index("O2"))] += 1e-3;
  refused(s, "mass fraction of OH must be non-negative and finite, got -0.001");
  s = good;
  s.mass_fractions[static_cast<std::size_t>(m.species_index("O2"))] = 0.8;
  refused(s, "mass fractions add up to 0.9, not 1");
  s = good;
  std::fill(s.mass_fractions.begin(), s.mass_fractions.end(), 0.0);
  refused(s, "mass fractions add up to 0, not 1");

  EquilibriumOptions few;
  few.max_iterations = 2;
  try {
    equilibrate(m, good, EquilibriumHold::hp, few);
    ADD_FAILURE() << "converged in 2 iterations from 3800 K";
  } catch (const EquilibriumError& e) {
    EXPECT_NE(std::string(e.what()).find("equilibrium (HP): no convergence in 2 Newton iterations"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace hetflow::chem
