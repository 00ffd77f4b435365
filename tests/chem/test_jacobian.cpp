// The analytic Jacobian of the reactor (reactor_jacobian.cpp, kinetics_derivatives.cpp) against
// finite differences of the host RHS.
#include <gtest/gtest.h>

#include <cstdio>

#include "chem_test_util.hpp"
#include "hetflow/chem/reactor.hpp"
#include "jacobian_test_util.hpp"

namespace hetflow::chem {
namespace {

// Analytic and difference Jacobians agree to 1e-6 of each column's largest entry (of the Jacobian of
// (Y, T/T0)). The difference quotient's own error is up to ~1e-7 here (rounding, mostly in the T row,
// where the heat release is a sum of large cancelling h_k ω̇_k). Dropped terms show clearly: without
// the Troe F_cent(T) slope GRI gave 1.9e-2, without Δν/T in d ln K_c/dT every mechanism 5e-2 or more.
// A small reaction's term can hide under the column's scale, hence the one-reaction test below.
constexpr double tolerance = 1e-6;

double check(const Mechanism& mechanism, const std::vector<test::ReactorState>& states, const std::string& name) {
  const Kinetics kinetics(mechanism);
  double worst = 0.0;
  for (std::size_t s = 0; s < states.size(); ++s) {
    const ConstantPressureReactor reactor(kinetics, states[s].pressure);
    const double e = test::expect_jacobian_matches_differences(
        reactor, states[s].y, tolerance,
        name + " state " + std::to_string(s) + " (T = " + std::to_string(states[s].y.back()) +
            " K, p = " + std::to_string(states[s].pressure) + " Pa)");
    worst = std::max(worst, e);
  }
  std::printf("%s: worst analytic vs difference Jacobian entry, relative to its column's largest: %.2e\n", name.c_str(),
              worst);
  return worst;
}

// Partly burnt states at 1100-2500 K and 1-20 atm: the reference tables' compositions (every species
// present) with T moved off 1000 K, and the same with every third species removed (Y = 0).
std::vector<test::ReactorState> states(const Mechanism& m, const std::string& name, bool with_zeros) {
  const std::vector<test::ReactorState> ref = test::reference_states(m, name);
  const double temperatures[] = {1100.0, 1500.0, 2000.0, 2500.0};
  const double pressures[] = {1.0, 5.0, 20.0, 1.0};
  std::vector<test::ReactorState> out;
  for (std::size_t i = 0; i < 4; ++i) {
    test::ReactorState s = ref[(2 * i + 1) % ref.size()];
    s.y.back() = temperatures[i];
    s.pressure = pressures[i] * one_atm;
    out.push_back(s);
    if (!with_zeros) continue;
    double sum = 0.0;
    for (std::size_t k = 0; k + 1 < s.y.size(); ++k) {
      if (k % 3 == i % 3) s.y[k] = 0.0;
      sum += s.y[k];
    }
    for (std::size_t k = 0; k + 1 < s.y.size(); ++k) s.y[k] /= sum;
    out.push_back(s);
  }
  return out;
}

TEST(ChemJacobian, Gri30MatchesFiniteDifferences) {
  const Mechanism m = test::gri30_yaml();
  check(m, states(m, "gri30", true), "gri30");
}

TEST(ChemJacobian, H2O2MatchesFiniteDifferences) {
  const Mechanism m = read_yaml_mechanism(test::mechanisms / "h2o2.yaml");
  check(m, states(m, "h2o2", true), "h2o2");
}

// Troe (3 and 4 parameters), SRI (3 and 5), chemically activated, named collider, PLOG (inside and
// outside its pressure table), REV, FORD, fractional coefficients, duplicates. Fractional orders have
// no derivative at zero, so every species stays present.
TEST(ChemJacobian, ChemkinFeatureFixtureMatchesFiniteDifferences) {
  const Mechanism m = read_chemkin(test::test_data / "features.inp", test::mechanisms / "gri30_thermo.dat");
  std::vector<test::ReactorState> s = states(m, "features", false);
  // PLOG's table spans 0.01-100 atm: add one state below and one above it.
  s.push_back(s[0]);
  s.back().pressure = 0.005 * one_atm;
  s.push_back(s[1]);
  s.back().pressure = 200 * one_atm;
  check(m, s, "features");
}

// Each reaction of the fixture alone, at the kinetics level: ∂ω̇/∂C and ∂ω̇/∂T at fixed C against
// Richardson-extrapolated central differences of Kinetics::production_rates (steps 1e-2 of C_i and
// 1e-4 of T), so that every rate form is judged against its own scale, not hidden under a column's
// larger terms. Concentrations 1e-3..4 mol/m^3 at 1 atm put the falloff rates near Pr ~ 1, where F
// matters most; pressures inside and outside the PLOG table. Required: 1e-7 of the column's largest
// entry, or, where more, 100 eps (|q_f| + |q_r|) / h: far from equilibrium q = q_f - q_r loses the
// small side's digits, and its difference quotient with them (seen up to 2e-5 of the column for
// ∂q/∂C_HO2 = -k_r of H + O2 (+AR) at 800 K, 300 atm, where q_f/q_r is huge).
TEST(ChemJacobian, EveryFixtureReactionAloneMatchesFiniteDifferences) {
  const Mechanism full = read_chemkin(test::test_data / "features.inp", test::mechanisms / "gri30_thermo.dat");
  const std::size_t nk = full.species.size();
  double worst = 0.0;
  for (std::size_t j = 0; j < full.reactions.size(); ++j) {
    Mechanism one = full;
    one.reactions = {full.reactions[j]};
    const Kinetics kinetics(one);
    for (const double T : {800.0, 1300.0, 2200.0}) {
      for (const double atm : {0.005, 0.3, 1.0, 7.0, 300.0}) {
        std::vector<double> c(nk);
        for (std::size_t k = 0; k < nk; ++k)
          c[k] = atm * (1e-3 + 4.0 * static_cast<double>((k * 7 + j) % nk) / static_cast<double>(nk));
        const double p = atm * one_atm;
        const Kinetics::Jacobian exact = kinetics.production_rate_jacobian(T, p, c);
        const ReactionRates r = kinetics.rates(T, p, c);
        const double magnitude = std::abs(r.qf[0]) + std::abs(r.qr[0]);
        // Column i < nk: C_i; column nk: T.
        auto rates = [&](std::size_t i, double h) {
          std::vector<double> x = c;
          double t = T;
          (i < nk ? x[i] : t) += h;
          return kinetics.production_rates(t, p, x);
        };
        for (std::size_t i = 0; i <= nk; ++i) {
          const double h = i < nk ? 1e-2 * c[i] : 1e-4 * T;
          const auto a = rates(i, h), b = rates(i, -h), a2 = rates(i, h / 2), b2 = rates(i, -h / 2);
          std::vector<double> want(nk), got(nk);
          double scale = 0.0;
          for (std::size_t k = 0; k < nk; ++k) {
            want[k] = (4 * (a2[k] - b2[k]) / h - (a[k] - b[k]) / (2 * h)) / 3;
            got[k] = i < nk ? exact.dwdc[k + i * nk] : exact.dwdT[k];
            scale = std::max(scale, std::abs(want[k]));
          }
          for (std::size_t k = 0; k < nk; ++k) {
            const double floor = 100 * 2.2e-16 * magnitude / h;
            const double e = std::abs(got[k] - want[k]) / std::max(scale, floor / 1e-7);
            worst = std::max(worst, e);
            EXPECT_LE(e, 1e-7) << "reaction " << j << " (" << full.reactions[j].equation << "), T = " << T
                               << " K, p = " << atm << " atm, d wdot[" << k << "]/d" << (i < nk ? "C[" : "T[") << i
                               << "]: " << got[k] << " vs " << want[k];
          }
        }
      }
    }
  }
  std::printf("features, one reaction at a time: worst kinetics Jacobian entry, relative to its column's largest: %.2e\n",
              worst);
}

}  // namespace
}  // namespace hetflow::chem
