#pragma once
#include <array>
#include <cmath>
#include <vector>

#include "hetflow/ftle/analytic_flow.hpp"
#include "hetflow/ftle/seed_grid.hpp"

namespace hetflow::ftle::reference {

// The double gyre's velocity in double precision, written from Shadden et al. (2005) independently of
// ftle.cl.
inline std::array<double, 3> double_gyre_velocity(const DoubleGyre& g, const std::array<double, 3>& x, double t) {
  const double a = g.epsilon * std::sin(g.omega * t);
  const double b = 1.0 - 2.0 * a;
  const double f = a * x[0] * x[0] + b * x[0];
  const double dfdx = 2.0 * a * x[0] + b;
  return {-M_PI * g.a * std::sin(M_PI * f) * std::cos(M_PI * x[1]),
          M_PI * g.a * std::cos(M_PI * f) * std::sin(M_PI * x[1]) * dfdx, 0.0};
}

// Final positions of every seed after classic RK4 with `steps` steps over [t0, t0 + duration]: the host
// reference the kernels' flow maps converge to.
inline std::vector<double> double_gyre_flow_map(const DoubleGyre& g, const SeedGrid& seeds, double t0, double duration,
                                                long steps) {
  const double dt = duration / static_cast<double>(steps);
  std::vector<double> out;
  for (std::size_t j = 0; j < seeds.counts[1]; ++j) {
    for (std::size_t i = 0; i < seeds.counts[0]; ++i) {
      std::array<double, 3> x{seeds.position(0, i), seeds.position(1, j), 0.0};
      for (long s = 0; s < steps; ++s) {
        const double t = t0 + static_cast<double>(s) * dt;
        const auto stage = [&](const std::array<double, 3>& k, double c) {
          return std::array<double, 3>{x[0] + c * k[0], x[1] + c * k[1], 0.0};
        };
        const auto k1 = double_gyre_velocity(g, x, t);
        const auto k2 = double_gyre_velocity(g, stage(k1, dt / 2), t + dt / 2);
        const auto k3 = double_gyre_velocity(g, stage(k2, dt / 2), t + dt / 2);
        const auto k4 = double_gyre_velocity(g, stage(k3, dt), t + dt);
        for (int d = 0; d < 2; ++d) x[d] += dt / 6 * (k1[d] + 2 * k2[d] + 2 * k3[d] + k4[d]);
      }
      out.insert(out.end(), {x[0], x[1]});
    }
  }
  return out;
}

}  // namespace hetflow::ftle::reference
