// The benchmark's partly burnt states (chem::partly_burnt_states): fuel/air points at the equivalence
// ratios asked for, their HP equilibria, and mixtures of the two that keep each point's elements.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "chem_test_util.hpp"
#include "hetflow/chem/partly_burnt.hpp"
#include "hetflow/core/error.hpp"

namespace hetflow::chem {
namespace {

// Mass of element e per unit mass of mixture for mass fractions y (the first K entries of a state).
double element_fraction(const Mechanism& m, const double* y, int e) {
  double sum = 0;
  for (std::size_t k = 0; k < m.species.size(); ++k)
    for (const auto& [element, count] : m.species[k].composition)
      if (element == e) sum += y[k] / m.species[k].molecular_weight * count * m.elements[e].weight;
  return sum;
}

TEST(ChemPartlyBurnt, PointsSpanTheEquivalenceRatiosAndMixturesKeepTheirElements) {
  const Mechanism m = test::gri30_yaml();
  const std::size_t n = m.species.size() + 1;
  const FuelAirPoints points = fuel_air_points(m, "ch4", 12);  // matched in any case
  ASSERT_EQ(points.unburnt.size(), 12u);
  const int ch4 = m.species_index("CH4"), o2 = m.species_index("O2"), n2 = m.species_index("N2");
  for (int j = 0; j < 12; ++j) {
    const std::vector<double>& u = points.unburnt[j];
    // Moles of O2 per CH4: 2 / phi, with phi = 0.5 · 4^(j/11); N2 3.76 times the O2.
    const double phi = 0.5 * std::pow(4.0, j / 11.0);
    const double o2_per_fuel = (u[o2] / m.species[o2].molecular_weight) / (u[ch4] / m.species[ch4].molecular_weight);
    EXPECT_NEAR(o2_per_fuel, 2 / phi, 1e-12 * (2 / phi)) << "point " << j;
    EXPECT_NEAR((u[n2] / m.species[n2].molecular_weight) / (u[o2] / m.species[o2].molecular_weight), 3.76, 1e-12);
    EXPECT_EQ(u.back(), 300.0);
    // Methane/air burns at 1200–2300 K over phi 0.5–2 (adiabatic flame temperatures).
    EXPECT_GT(points.burnt[j].back(), 1200.0) << "point " << j;
    EXPECT_LT(points.burnt[j].back(), 2300.0) << "point " << j;
  }
  const std::vector<double> states = partly_burnt_states(points, 30);
  ASSERT_EQ(states.size(), 30 * n);
  for (std::size_t i = 0; i < 30; ++i) {
    const double* y = states.data() + i * n;
    const std::vector<double>& u = points.unburnt[i % 12];
    const std::vector<double>& b = points.burnt[i % 12];
    EXPECT_GE(y[n - 1], 300.0);
    EXPECT_LE(y[n - 1], b.back());
    for (std::size_t e = 0; e < m.elements.size(); ++e)
      EXPECT_NEAR(element_fraction(m, y, int(e)), element_fraction(m, u.data(), int(e)), 1e-12)
          << "state " << i << ", element " << m.elements[e].symbol;
  }
  // State 0 is point 0 at progress frac(1 / golden ratio) = 0.618...
  const double c = 0.6180339887498949;
  EXPECT_NEAR(states[n - 1], (1 - c) * 300.0 + c * points.burnt[0].back(), 1e-9);
}

TEST(ChemPartlyBurnt, NoPointsAreRefused) {
  EXPECT_THROW(fuel_air_points(test::gri30_yaml(), "CH4", 0), core::Error);
  EXPECT_THROW(partly_burnt_states(FuelAirPoints{}, 3), core::Error);
}

TEST(ChemPartlyBurnt, AFuelTheMechanismLacksIsNamed) {
  try {
    fuel_air_points(test::gri30_yaml(), "C12H26");
    FAIL() << "no error";
  } catch (const core::Error& e) {
    EXPECT_NE(std::string(e.what()).find("C12H26"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace hetflow::chem
