#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "hetflow/mrag/hlle_flux.hpp"
#include "hetflow/mrag/stiffened_gas.hpp"

namespace hetflow::mrag {
namespace {

FaceState state(double rho, double un, double ut, double p, const StiffenedGas& gas) {
  return {rho, un, ut, p, gas.big_gamma(), gas.big_pi()};
}

const StiffenedGas air{1.4, 0}, helium{1.67, 0}, water{4.4, 6e8};

double scale(const std::array<double, 6>& f) {
  double m = 0;
  for (double v : f) m = std::max(m, std::abs(v));
  return m;
}

const RiemannSolver solvers[] = {RiemannSolver::hlle, RiemannSolver::hllc};

TEST(MragHlleFlux, EqualSidesGiveThePhysicalFlux) {
  for (const RiemannSolver solver : solvers)
    for (const FaceState& s : {state(1.3, 0.4, -0.2, 2.0, air), state(1000, 3.0, 1.0, 1e9, water)}) {
      const FaceFlux f = face_flux(solver, s, s);
      const std::array<double, 6> exact = physical_flux(s);
      for (std::size_t k = 0; k < 6; ++k) EXPECT_NEAR(f.f[k], exact[k], 1e-15 * scale(exact)) << k;
      EXPECT_NEAR(f.u_star, s.un, 1e-15 * std::abs(s.un));
    }
}

// Both waves move right: the flux is the left side's, to the rounding of b⁺ f_L / b⁺ (HLLE; HLLC takes it
// as it is).
TEST(MragHlleFlux, SupersonicFlowTakesTheUpwindFlux) {
  const FaceState l = state(1, 5, 0, 1, air), r = state(0.5, 4.5, 0.1, 0.8, air);
  for (const RiemannSolver solver : solvers) {
    const FaceFlux f = face_flux(solver, l, r);
    const std::array<double, 6> upwind = physical_flux(l);
    for (std::size_t k = 0; k < 6; ++k) EXPECT_NEAR(f.f[k], upwind[k], 2.3e-16 * std::abs(upwind[k])) << k;
    EXPECT_NEAR(f.u_star, l.un, 2.3e-16 * l.un);
  }
}

// A contact between two phases with equal p and u: the fluxes keep the identities that carry a uniform p
// and u through the update (docs/mrag.md, Fluxes): F_ρu = u F_ρ + p, F_ρE = p F_Γ + F_Π + |u|²/2 F_ρ + p u*,
// with u* = u.
TEST(MragHlleFlux, AUniformPressureContactKeepsTheLinearIdentities) {
  const double p = 1e5, un = 30, ut = -12;
  for (const RiemannSolver solver : solvers)
    for (const auto& [l, r] : {std::pair{state(1.2, un, ut, p, air), state(0.17, un, ut, p, helium)},
                               std::pair{state(1000, un, ut, p, water), state(1.2, un, ut, p, air)}}) {
      const FaceFlux f = face_flux(solver, l, r);
      const double s = scale(f.f);
      EXPECT_NEAR(f.u_star, un, 1e-14 * un);
      EXPECT_NEAR(f.f[1], un * f.f[0] + p, 1e-14 * s);
      EXPECT_NEAR(f.f[2], ut * f.f[0], 1e-14 * s);
      EXPECT_NEAR(f.f[3], p * f.f[4] + f.f[5] + 0.5 * (un * un + ut * ut) * f.f[0] + p * f.u_star, 1e-14 * s);
    }
}

// A contact at rest between air and helium (and between water and air): HLLC's flux is the pressure alone,
// (0, p, 0, 0, 0, 0) with u* = 0, so the contact stays sharp; HLLE's carries mass across it.
TEST(MragHlleFlux, HllcKeepsAContactAtRestSharp) {
  const double p = 1e5;
  for (const auto& [l, r] : {std::pair{state(1.2, 0, 0, p, air), state(0.17, 0, 0, p, helium)},
                             std::pair{state(1000, 0, 0, p, water), state(1.2, 0, 0, p, air)}}) {
    const FaceFlux c = hllc_flux(l, r);
    const std::array<double, 6> exact = {0, p, 0, 0, 0, 0};
    for (std::size_t k = 0; k < 6; ++k) EXPECT_NEAR(c.f[k], exact[k], 1e-15 * p) << k;
    EXPECT_EQ(c.u_star, 0);
    EXPECT_GT(std::abs(hlle_flux(l, r).f[0]), 1e-3 * l.rho);
  }
}

// Sound speed of the mixture closure: γ (p + p∞)/ρ for one phase.
TEST(MragHlleFlux, SoundSpeedOfAStiffenedGas) {
  EXPECT_NEAR(sound_speed(water.big_gamma(), water.big_pi(), 1000, 1e5), std::sqrt(4.4 * (1e5 + 6e8) / 1000), 1e-10);
  EXPECT_NEAR(sound_speed(air.big_gamma(), air.big_pi(), 1.2, 1e5), std::sqrt(1.4 * 1e5 / 1.2), 1e-12);
}

}  // namespace
}  // namespace hetflow::mrag
