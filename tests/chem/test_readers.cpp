// Reader behaviour: GRI 3.0 counts, Chemkin and YAML agreement, units, well-known thermo values.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "chem_test_util.hpp"
#include "hetflow/chem/kinetics.hpp"
#include "hetflow/chem/reactor.hpp"
#include "hetflow/chem/thermo.hpp"

namespace hetflow::chem {
namespace {

int count(const Mechanism& m, RateKind kind) {
  int n = 0;
  for (const Reaction& r : m.reactions) n += r.kind == kind;
  return n;
}

TEST(ChemReaders, Gri30HasTheExpectedCounts) {
  for (const Mechanism& m : {test::gri30_yaml(), test::gri30_chemkin()}) {
    EXPECT_EQ(m.elements.size(), 5u);
    EXPECT_EQ(m.species.size(), 53u);
    EXPECT_EQ(m.reactions.size(), 325u);
    // Table 4 of the paper: 29 falloff and 41 third-body, i.e. 12 "+M" reactions plus the 29 "(+M)"
    // ones. (Cantera reports 21 three-body reactions: it also counts 9 with an explicit collider
    // such as "H + O2 + O2 <=> HO2 + O2", which are elementary here and in Chemkin.)
    EXPECT_EQ(count(m, RateKind::falloff), 29);
    EXPECT_EQ(count(m, RateKind::three_body), 12);
    EXPECT_EQ(count(m, RateKind::three_body) + count(m, RateKind::falloff), 41);
    int troe = 0;
    for (const Reaction& r : m.reactions) troe += r.kind == RateKind::falloff && r.falloff == FalloffForm::troe;
    EXPECT_EQ(troe, 26);
  }
}

void expect_same_arrhenius(const Arrhenius& a, const Arrhenius& b, const std::string& what) {
  // yaml2ck writes A after a round trip through SI units, one unit in the last place off.
  EXPECT_NEAR(a.a, b.a, 1e-14 * std::abs(b.a)) << what;
  EXPECT_EQ(a.b, b.b) << what;
  EXPECT_NEAR(a.ea, b.ea, 1e-14 * std::abs(b.ea)) << what;
}

TEST(ChemReaders, ChemkinAndYamlGiveTheSameGri30) {
  const Mechanism y = test::gri30_yaml();
  const Mechanism c = test::gri30_chemkin();
  ASSERT_EQ(y.elements.size(), c.elements.size());
  for (std::size_t e = 0; e < y.elements.size(); ++e) {
    EXPECT_EQ(y.elements[e].symbol, c.elements[e].symbol);
    EXPECT_EQ(y.elements[e].weight, c.elements[e].weight);
  }
  ASSERT_EQ(y.species.size(), c.species.size());
  for (std::size_t k = 0; k < y.species.size(); ++k) {
    const Species& a = y.species[k];
    const Species& b = c.species[k];
    EXPECT_EQ(a.name, b.name);
    EXPECT_EQ(a.molecular_weight, b.molecular_weight) << a.name;
    EXPECT_EQ(a.thermo.low, b.thermo.low) << a.name;
    EXPECT_EQ(a.thermo.high, b.thermo.high) << a.name;
    EXPECT_EQ(a.thermo.t_mid, b.thermo.t_mid) << a.name;
  }
  ASSERT_EQ(y.reactions.size(), c.reactions.size());
  for (std::size_t j = 0; j < y.reactions.size(); ++j) {
    const Reaction& a = y.reactions[j];
    const Reaction& b = c.reactions[j];
    const std::string what = a.equation + " / " + b.equation;
    auto sorted = [](std::vector<Term> t) {
      std::sort(t.begin(), t.end(), [](const Term& p, const Term& q) { return p.species < q.species; });
      return t;
    };
    EXPECT_EQ(sorted(a.reactants), sorted(b.reactants)) << what;
    EXPECT_EQ(sorted(a.products), sorted(b.products)) << what;
    EXPECT_EQ(a.reversible, b.reversible) << what;
    EXPECT_EQ(a.duplicate, b.duplicate) << what;
    ASSERT_EQ(a.kind, b.kind) << what;
    if (a.kind == RateKind::falloff) {
      expect_same_arrhenius(a.low, b.low, what);
      expect_same_arrhenius(a.high, b.high, what);
      EXPECT_EQ(a.falloff, b.falloff) << what;
      EXPECT_EQ(a.troe.a, b.troe.a) << what;
      EXPECT_EQ(a.troe.t3, b.troe.t3) << what;
      EXPECT_EQ(a.troe.t1, b.troe.t1) << what;
      EXPECT_EQ(a.troe.t2, b.troe.t2) << what;
    } else {
      expect_same_arrhenius(a.rate, b.rate, what);
    }
    auto effs = [](std::vector<std::pair<int, double>> e) {
      std::sort(e.begin(), e.end());
      return e;
    };
    EXPECT_EQ(effs(a.third_body.efficiencies), effs(b.third_body.efficiencies)) << what;
  }
}

TEST(ChemReaders, WellKnownThermoValues) {
  const Mechanism m = test::gri30_yaml();
  const SpeciesThermo t = species_thermo(m, 298.15);
  auto at = [&](const std::vector<double>& v, const char* name) { return v[static_cast<std::size_t>(m.species_index(name))]; };
  for (const char* s : {"N2", "O2", "H2"}) EXPECT_NEAR(at(t.h, s), 0.0, 10.0) << s;  // J/mol
  const double dfh_h2o = at(t.h, "H2O") - at(t.h, "H2") - 0.5 * at(t.h, "O2");
  EXPECT_NEAR(dfh_h2o, -241.83e3, 0.005 * 241.83e3);
  EXPECT_NEAR(at(t.h, "CO2") - at(t.h, "O2"), -393.5e3, 0.005 * 393.5e3);
  EXPECT_NEAR(at(t.cp, "N2"), 29.1, 0.005 * 29.1);
}

TEST(ChemReaders, NasaPolynomialsAreContinuousAtTCommon) {
  const Mechanism m = test::gri30_yaml();
  double worst = 0.0;
  for (const Species& s : m.species) {
    Nasa7 below = s.thermo, above = s.thermo;
    below.high = below.low;  // evaluate each range at T_common itself
    above.low = above.high;
    const double t = s.thermo.t_mid;
    // Coefficients have 8 significant digits, so ranges meet to about 1e-6 relative in c_p and s;
    // h/RT is compared against its magnitude at T_common plus one, as it can cross zero there.
    EXPECT_NEAR(cp_over_r(below, t), cp_over_r(above, t), 1e-5 * cp_over_r(above, t)) << s.name;
    EXPECT_NEAR(h_over_rt(below, t), h_over_rt(above, t), 1e-5 * (1.0 + std::abs(h_over_rt(above, t)))) << s.name;
    EXPECT_NEAR(s_over_r(below, t), s_over_r(above, t), 1e-5 * s_over_r(above, t)) << s.name;
    worst = std::max(worst, std::abs(cp_over_r(below, t) - cp_over_r(above, t)) / cp_over_r(above, t));
  }
  std::printf("largest c_p jump at T_common: %.2e relative\n", worst);
}

TEST(ChemReaders, ReactionsAndReactorRhsConserveElements) {
  const Mechanism m = test::gri30_yaml();
  for (const Reaction& r : m.reactions)
    for (double d : element_imbalance(m, r)) EXPECT_EQ(d, 0.0) << r.equation;
  const Kinetics kinetics(m);
  const ConstantPressureReactor reactor(kinetics, one_atm);
  std::vector<double> y(m.species.size(), 1e-3);
  y[static_cast<std::size_t>(m.species_index("N2"))] = 0.7;
  y[static_cast<std::size_t>(m.species_index("O2"))] = 0.2;
  y[static_cast<std::size_t>(m.species_index("CH4"))] = 0.05;
  y.push_back(1800.0);
  std::vector<double> dydt(reactor.size());
  reactor.rhs(y, dydt);
  double sum = 0.0, scale = 0.0;
  std::vector<double> element_rate(m.elements.size(), 0.0), element_scale(m.elements.size(), 0.0);
  for (std::size_t k = 0; k < m.species.size(); ++k) {
    sum += dydt[k];
    scale = std::max(scale, std::abs(dydt[k]));
    for (const auto& [e, n] : m.species[k].composition) {
      const double rate = n * m.elements[static_cast<std::size_t>(e)].weight / m.species[k].molecular_weight * dydt[k];
      element_rate[static_cast<std::size_t>(e)] += rate;
      element_scale[static_cast<std::size_t>(e)] = std::max(element_scale[static_cast<std::size_t>(e)], std::abs(rate));
    }
  }
  EXPECT_LE(std::abs(sum), 1e-12 * scale);
  for (std::size_t e = 0; e < m.elements.size(); ++e)
    EXPECT_LE(std::abs(element_rate[e]), 1e-12 * element_scale[e] + 1e-300) << m.elements[e].symbol;
}

std::string one_reaction(const std::string& units, const std::string& reaction) {
  return "ELEMENTS H O END\nSPECIES H2 O2 H O OH H2O END\nREACTIONS " + units + "\n" + reaction + "\nEND\n";
}

Reaction only_reaction(const std::string& text) {
  return parse_chemkin(text, "units.inp", test::gri_thermo(), "gri30_thermo.dat").reactions.at(0);
}

TEST(ChemReaders, ChemkinUnitKeywordsConvertToSi) {
  const std::string bimolecular = "H2 + O <=> H + OH  1.0E+12 0.5 ";
  EXPECT_DOUBLE_EQ(only_reaction(one_reaction("", bimolecular + "1000.")).rate.ea, 4184.0);
  EXPECT_DOUBLE_EQ(only_reaction(one_reaction("CAL/MOLE", bimolecular + "1000.")).rate.ea, 4184.0);
  EXPECT_DOUBLE_EQ(only_reaction(one_reaction("KCAL/MOLE", bimolecular + "1.")).rate.ea, 4184.0);
  EXPECT_DOUBLE_EQ(only_reaction(one_reaction("JOULES/MOLE", bimolecular + "4184.")).rate.ea, 4184.0);
  EXPECT_DOUBLE_EQ(only_reaction(one_reaction("KJOULES/MOLE", bimolecular + "4.184")).rate.ea, 4184.0);
  EXPECT_DOUBLE_EQ(only_reaction(one_reaction("KELVINS", bimolecular + "500.")).rate.ea, 500.0 * gas_constant);
  EXPECT_DOUBLE_EQ(only_reaction(one_reaction("EVOLTS", bimolecular + "1.")).rate.ea, electron_volt * avogadro);
  // A in cm^3/(mol s) -> m^3/(mol s); in cm^3/(molecule s) the amount is scaled by Avogadro's number.
  EXPECT_DOUBLE_EQ(only_reaction(one_reaction("MOLES", bimolecular + "0.")).rate.a, 1e6);
  EXPECT_DOUBLE_EQ(only_reaction(one_reaction("KCAL/MOLE MOLECULES", bimolecular + "0.")).rate.a, 1e6 * avogadro);
  // A three-body rate has one order more: cm^6/(mol^2 s) -> m^6/(mol^2 s).
  EXPECT_DOUBLE_EQ(only_reaction(one_reaction("", "2O + M <=> O2 + M  1.0E+12 0. 0.")).rate.a, 1.0);
}

TEST(ChemReaders, ReverseOrdersApplyToTheReverseRate) {
  const std::string text = one_reaction("", "H2 + O <=> H + OH  1.0E+12 0. 0.\nRORD /OH 0.5/");
  const Kinetics kinetics(parse_chemkin(text, "rord.inp", test::gri_thermo(), "gri30_thermo.dat"));
  const Mechanism& m = kinetics.mechanism();
  std::vector<double> c(m.species.size(), 2.0);
  c[static_cast<std::size_t>(m.species_index("OH"))] = 9.0;
  const ReactionRates r = kinetics.rates(1500.0, one_atm, c);
  EXPECT_DOUBLE_EQ(r.qr[0], r.kr[0] * 2.0 * 3.0);  // [H]^1 [OH]^0.5
  EXPECT_DOUBLE_EQ(r.qf[0], r.kf[0] * 2.0 * 2.0);
}

}  // namespace
}  // namespace hetflow::chem
