// The flamelet's mixture-fraction space: erfc's inverse, Peters' dissipation profile, the clustered grid
// and the stoichiometric mixture fraction of two streams, each against closed forms.
#include <gtest/gtest.h>

#include <cmath>

#include "chem_test_util.hpp"
#include "hetflow/chem/flamelet_grid.hpp"
#include "hetflow/core/error.hpp"

namespace hetflow::chem {
namespace {

TEST(FlameletGrid, InverseErfcInvertsErfc) {
  // Tabulated: erfc^-1(0.5) = 0.476936276204469873..., erfc^-1(1) = 0.
  EXPECT_NEAR(inverse_erfc(0.5), 0.4769362762044699, 1e-15);
  EXPECT_NEAR(inverse_erfc(1.0), 0.0, 1e-16);
  int checked = 0;
  for (double y = 1e-12; y < 2.0; y = y < 1e-3 ? y * 10.0 : y + 0.0371) {
    const double x = inverse_erfc(y);
    EXPECT_NEAR(std::erfc(x), y,
                4e-16 * std::max(y, 1.0) + 2.0 / std::sqrt(M_PI) * std::exp(-x * x) * 4e-16 * std::abs(x))
        << "y = " << y;
    ++checked;
  }
  EXPECT_GT(checked, 60);
  EXPECT_THROW(inverse_erfc(0.0), core::Error);
  EXPECT_THROW(inverse_erfc(2.0), core::Error);
}

TEST(FlameletGrid, DissipationRateFollowsPetersProfile) {
  const double z_st = 0.3, chi_st = 50.0;
  const std::vector<double> z = flamelet_grid(21, z_st, 2.0);
  const std::vector<double> chi = dissipation_rates(z, chi_st, z_st);
  EXPECT_EQ(chi.front(), 0.0);
  EXPECT_EQ(chi.back(), 0.0);
  // At z = 1/2, erfc^-1(1) = 0: chi = chi_st / exp(-2 erfc^-1(0.6)^2), erfc^-1(0.6) = 0.370807158593558...
  const double at_half = dissipation_rates({0.0, 0.5, z_st, 1.0}, chi_st, z_st)[1];
  EXPECT_NEAR(at_half, chi_st / std::exp(-2.0 * 0.37080715859355795 * 0.37080715859355795), 1e-13 * chi_st);
  EXPECT_NEAR(dissipation_rates({0.0, z_st, 1.0}, chi_st, z_st)[1], chi_st, 1e-13 * chi_st);
  // Symmetric about z = 1/2, since erfc^-1(2 - y) = -erfc^-1(y).
  const std::vector<double> pair = dissipation_rates({0.0, 0.1, 0.9, 1.0}, chi_st, z_st);
  EXPECT_NEAR(pair[1], pair[2], 1e-12 * pair[1]);
  for (std::size_t j = 1; j + 1 < z.size(); ++j) EXPECT_GT(chi[j], 0.0);
}

TEST(FlameletGrid, UniformAndClusteredGrids) {
  const std::vector<double> uniform = flamelet_grid(9, 0.3, 0.0);
  ASSERT_EQ(uniform.size(), 11u);
  for (std::size_t j = 0; j < uniform.size(); ++j) EXPECT_NEAR(uniform[j], 0.1 * static_cast<double>(j), 1e-15);
  const double z_c = 0.0285;
  const std::vector<double> z = flamelet_grid(31, z_c, 6.0);
  ASSERT_EQ(z.size(), 33u);
  EXPECT_EQ(z.front(), 0.0);
  EXPECT_EQ(z.back(), 1.0);
  double finest = 1.0;
  std::size_t at = 0;
  for (std::size_t j = 0; j + 1 < z.size(); ++j) {
    ASSERT_GT(z[j + 1], z[j]) << j;
    if (z[j + 1] - z[j] < finest) finest = z[j + 1] - z[j], at = j;
  }
  // The finest spacing is where z_c lies, and far below the uniform grid's 1/32.
  EXPECT_LE(z[at], z_c + finest);
  EXPECT_GE(z[at + 1], z_c - finest);
  EXPECT_LT(finest, 0.2 / 32.0);
  // The last spacing before the clamp at z = 1 is the stretching's own (z(1) = 1 by the choice of A).
  EXPECT_GT(z[31], 0.5);
  EXPECT_THROW(flamelet_grid(0, 0.3, 0.0), core::Error);
  EXPECT_THROW(flamelet_grid(5, 1.0, 1.0), core::Error);
  EXPECT_THROW(flamelet_grid(5, 0.3, -1.0), core::Error);
}

// H2 (with N2) against air: z_st = Y_O2,air / (Y_O2,air + nu Y_H2,fuel), nu = W_O2 / (2 W_H2) kilograms of
// oxygen per kilogram of hydrogen.
TEST(FlameletGrid, StoichiometricMixtureFractionOfHydrogenAndAir) {
  const Mechanism m = read_yaml_mechanism(test::mechanisms / "h2o2.yaml");
  const std::vector<double> w = m.molecular_weights();
  const auto k = [&](const char* name) { return static_cast<std::size_t>(m.species_index(name)); };
  std::vector<double> air(m.species.size(), 0.0), fuel(m.species.size(), 0.0);
  const double air_mass = w[k("O2")] + 3.76 * w[k("N2")];
  air[k("O2")] = w[k("O2")] / air_mass;
  air[k("N2")] = 3.76 * w[k("N2")] / air_mass;
  fuel[k("H2")] = w[k("H2")] / (w[k("H2")] + w[k("N2")]);
  fuel[k("N2")] = 1.0 - fuel[k("H2")];
  const double nu = w[k("O2")] / (2.0 * w[k("H2")]);
  const double want = air[k("O2")] / (air[k("O2")] + nu * fuel[k("H2")]);
  EXPECT_NEAR(stoichiometric_mixture_fraction(m, air, fuel), want, 1e-14);
  EXPECT_NEAR(want, 0.304, 0.001);
  EXPECT_THROW(stoichiometric_mixture_fraction(m, fuel, fuel), core::Error);
  EXPECT_THROW(stoichiometric_mixture_fraction(m, air, air), core::Error);
}

}  // namespace
}  // namespace hetflow::chem
