// Rates at negative concentrations (parts::bounded): an integer-order factor takes C / (1 - C/ε) below
// zero, so negative radicals barely react, where taken as they stand they would react as if present.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "chem_test_util.hpp"
#include "hetflow/chem/kinetics.hpp"
#include "hetflow/chem/kinetics_parts.hpp"

namespace hetflow::chem {
namespace {

// GRI-Mech 3.0 at 1500 K, 1 atm: a lean CH4/air mixture with its radicals (H, O, OH, HO2, CH3) set to
// -δ, 0 and +δ mol/m^3. Moving them from 0 to +δ changes the production rates at first order in δ; from 0
// to -δ by no more than about ε/δ of that (here 1e-9): below zero the factors bend to -ε instead of
// following C down.
TEST(ChemNegativeConcentrations, NegativeRadicalsBarelyReact) {
  const Mechanism m = test::gri30_yaml();
  const Kinetics kinetics(m);
  const double T = 1500.0, p = one_atm, total = p / (gas_constant * T);
  std::vector<double> c(m.species.size(), 0.0);
  c[m.species_index("CH4")] = 0.05 * total;
  c[m.species_index("O2")] = 0.20 * total;
  c[m.species_index("N2")] = 0.75 * total;
  const double delta = 1e-3;
  auto with_radicals = [&](double value) {
    std::vector<double> x = c;
    for (const char* name : {"H", "O", "OH", "HO2", "CH3"}) x[m.species_index(name)] = value;
    return kinetics.production_rates(T, p, x);
  };
  const std::vector<double> zero = with_radicals(0.0), above = with_radicals(delta), below = with_radicals(-delta);
  double change_above = 0.0, change_below = 0.0;
  for (std::size_t k = 0; k < zero.size(); ++k) {
    change_above = std::max(change_above, std::abs(above[k] - zero[k]));
    change_below = std::max(change_below, std::abs(below[k] - zero[k]));
  }
  ASSERT_GT(change_above, 1.0);  // mol/m^3/s: the radicals matter at +δ
  EXPECT_LE(change_below, 1e-6 * change_above) << "above " << change_above << ", below " << change_below;
}

// The bound's value and slope run on from zero: both sides agree at C = 0 to first order, and far below
// zero the value approaches -ε.
TEST(ChemNegativeConcentrations, TheBoundIsSmoothAtZero) {
  const double eps = parts::negative_concentration_scale;
  EXPECT_EQ(parts::bounded(0.0), 0.0);
  EXPECT_EQ(parts::bounded(2.5), 2.5);
  EXPECT_EQ(parts::bounded_slope(3.0), 1.0);
  EXPECT_NEAR(parts::bounded(-1e-6 * eps), -1e-6 * eps, 2e-12 * eps);  // second order: 1e-12 eps
  EXPECT_NEAR(parts::bounded_slope(-1e-6 * eps), 1.0, 3e-6);
  EXPECT_NEAR(parts::bounded(-1.0), -eps, 1e-11 * eps);
  EXPECT_LT(parts::bounded_slope(-1.0), 1e-20);
  // The slope is the derivative of the value: central differences at -ε.
  const double h = 1e-4 * eps;
  EXPECT_NEAR((parts::bounded(-eps + h) - parts::bounded(-eps - h)) / (2 * h), parts::bounded_slope(-eps), 1e-7);
}

}  // namespace
}  // namespace hetflow::chem
