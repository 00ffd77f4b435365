#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "hetflow/core/error.hpp"
#include "hetflow/mrag/exact_riemann.hpp"

namespace hetflow::mrag {
namespace {

const StiffenedGas air{1.4, 0};

struct ToroCase {
  Primitive1d left, right;
  double p_star, u_star, rho_left, rho_right;  // Toro (2009), Table 4.3, to the digits printed there
};

// Toro's tests 1-5 (Table 4.1) and their exact star states (Table 4.3).
const ToroCase toro[] = {
    {{1, 0, 1}, {0.125, 0, 0.1}, 0.30313, 0.92745, 0.42632, 0.26557},
    {{1, -2, 0.4}, {1, 2, 0.4}, 0.00189, 0.0, 0.02185, 0.02185},
    {{1, 0, 1000}, {1, 0, 0.01}, 460.894, 19.5975, 0.57506, 5.99924},
    {{1, 0, 0.01}, {1, 0, 100}, 46.0950, -6.19633, 5.99242, 0.57511},
    {{5.99924, 19.5975, 460.894}, {5.99242, -6.19633, 46.0950}, 1691.64, 8.68975, 14.2823, 31.0426},
};

// Toro's table comes from his solver iterated to a relative pressure change of 1e-6 and printed to six
// digits: agreement within 1e-5 relative, or 5e-6 absolute for the values below 1.
TEST(MragExactRiemann, ToroStarStatesMatchThePublishedTable) {
  const auto expect = [](double got, double printed, const std::string& what) {
    EXPECT_NEAR(got, printed, std::max(1e-5 * std::abs(printed), 5e-6)) << what;
  };
  for (int t = 0; t < 5; ++t) {
    const ToroCase& c = toro[t];
    const ExactRiemann r(c.left, c.right, air, air);
    const std::string name = "Toro test " + std::to_string(t + 1);
    expect(r.star_pressure(), c.p_star, name + " p*");
    expect(r.star_velocity(), c.u_star, name + " u*");
    expect(r.star_density_left(), c.rho_left, name + " rho*L");
    expect(r.star_density_right(), c.rho_right, name + " rho*R");
  }
}

TEST(MragExactRiemann, SodSamplesFollowTheWavesInOrder) {
  const ExactRiemann r(toro[0].left, toro[0].right, air, air);
  const double c_left = std::sqrt(1.4);
  EXPECT_EQ(r.sample(-c_left - 1e-9).state.rho, 1.0);
  const ExactRiemann::Sample head = r.sample(-c_left + 1e-12);
  EXPECT_NEAR(head.state.rho, 1.0, 1e-10);
  const double c_star = std::sqrt(1.4 * r.star_pressure() / r.star_density_left());
  const ExactRiemann::Sample tail = r.sample(r.star_velocity() - c_star - 1e-12);
  EXPECT_NEAR(tail.state.rho, r.star_density_left(), 1e-10);
  EXPECT_NEAR(tail.state.p, r.star_pressure(), 1e-10);
  EXPECT_TRUE(r.sample(r.star_velocity() - 1e-9).left);
  EXPECT_FALSE(r.sample(r.star_velocity() + 1e-9).left);
  EXPECT_EQ(r.sample(r.star_velocity() + 1e-9).state.rho, r.star_density_right());
  EXPECT_EQ(r.sample(10.0).state.rho, 0.125);
}

// Water (γ 4.4, p∞ 6e8 Pa) at 1e9 Pa against air at 1e5 Pa: a shock into the air and a rarefaction into the
// water. Across the shock mass, momentum and energy fluxes match in its frame; across the fan the water's
// isentrope (p + p∞)/ρ^γ and its Riemann invariant u + 2c/(γ − 1) hold.
TEST(MragExactRiemann, StiffenedWaterAgainstAirKeepsTheJumpConditionsAndTheIsentrope) {
  const StiffenedGas water{4.4, 6e8};
  const Primitive1d left{1000, 0, 1e9}, right{50, 0, 1e5};
  const ExactRiemann r(left, right, water, air);
  const double p = r.star_pressure(), u = r.star_velocity(), rho = r.star_density_right();
  EXPECT_GT(p, right.p);
  EXPECT_LT(p, left.p);
  // The air's shock speed from the mass balance, then the momentum and energy balances.
  const double s = (rho * u - right.rho * right.u) / (rho - right.rho);
  const double m = right.rho * (right.u - s);
  EXPECT_NEAR(rho * (u - s), m, 1e-12 * std::abs(m));
  EXPECT_NEAR(m * right.u + right.p, m * u + p, 1e-12 * p);
  // Energy: the enthalpy e + p/ρ plus half the squared velocity in the shock frame.
  const double h_ahead = right.p / (0.4 * right.rho) + 0.5 * (right.u - s) * (right.u - s) + right.p / right.rho;
  const double h_behind = p / (0.4 * rho) + 0.5 * (u - s) * (u - s) + p / rho;
  EXPECT_NEAR(h_ahead, h_behind, 1e-12 * h_ahead);
  // The water's fan, sampled in its middle, and its tail state.
  const double c0 = std::sqrt(4.4 * (left.p + 6e8) / left.rho);
  const double c_star = std::sqrt(4.4 * (p + 6e8) / r.star_density_left());
  const ExactRiemann::Sample mid = r.sample(0.5 * ((-c0) + (u - c_star)));
  for (const Primitive1d& w : {mid.state, Primitive1d{r.star_density_left(), u, p}}) {
    const double c = std::sqrt(4.4 * (w.p + 6e8) / w.rho);
    EXPECT_NEAR((w.p + 6e8) / std::pow(w.rho, 4.4), (left.p + 6e8) / std::pow(left.rho, 4.4),
                1e-12 * (left.p + 6e8) / std::pow(left.rho, 4.4));
    EXPECT_NEAR(w.u + 2 * c / 3.4, left.u + 2 * c0 / 3.4, 1e-10 * c0);
  }
  EXPECT_TRUE(mid.left);
}

TEST(MragExactRiemann, RefusesAVacuumAndNonPhysicalStates) {
  const auto message = [](const Primitive1d& l, const Primitive1d& r, const StiffenedGas& gas) {
    try {
      ExactRiemann(l, r, gas, gas);
    } catch (const core::Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message({1, -10, 0.4}, {1, 10, 0.4}, air),
            "Riemann problem: the states separate fast enough to open a vacuum (u_R - u_L = 20)");
  EXPECT_EQ(message({-1, 0, 1}, {1, 0, 1}, air),
            "Riemann problem: the left state needs a positive density and p + p_inf > 0, got rho -1, p 1");
  EXPECT_EQ(message({1, 0, 1}, {1, 0, 1}, StiffenedGas{1.0, 0}), "left: gamma must be a finite number above 1, got 1");
}

}  // namespace
}  // namespace hetflow::mrag
