#pragma once
// The ignition delay of one reactor state, located by integrating with ode::Radau5 (shared by
// test_ignition.cpp and test_ignition_jacobian.cpp).
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <vector>

#include "hetflow/ode/radau5.hpp"
#include "reactor_test_util.hpp"

namespace hetflow::chem::test {

// Radau5 returns the state only at t_end, so the delay is located by integrating one system per
// candidate time: a geometric grid brackets the first time T reaches T0 + rise, and each refinement
// splits the bracket evenly, shrinking it by (candidates + 1).
inline constexpr std::size_t candidates = 15;
inline constexpr int refinements = 4;

struct Ignition {
  const ode::Radau5& solver;
  std::vector<double> y0;  // mass fractions in mechanism order, then T0
  double pressure;
  double target;  // T0 + rise

  // T at each of the times, every integration starting from y0 at t = 0.
  std::vector<double> temperatures(const std::vector<double>& times) const {
    std::vector<double> T;
    for (const std::vector<double>& y : states_at(solver, y0, pressure, times)) T.push_back(y.back());
    return T;
  }

  // The first time at which T reaches the target, linearly interpolated in the final bracket.
  double delay() const {
    std::vector<double> times;
    for (std::size_t i = 0; i <= 2 * candidates; ++i)
      times.push_back(1e-7 * std::pow(1e5, static_cast<double>(i) / (2 * candidates)));  // 0.1 µs .. 10 ms
    double lo = 0.0, hi = 0.0, t_lo = y0.back(), t_hi = 0.0;
    for (int round = 0; round <= refinements; ++round) {
      const std::vector<double> T = temperatures(times);
      std::size_t i = 0;
      while (i < T.size() && T[i] < target) ++i;
      if (round == 0 && i == T.size()) {
        ADD_FAILURE() << "no ignition by t = " << times.back() << " s";
        return 0.0;
      }
      // Refinement candidates lie strictly inside the bracket: none reaching the target leaves hi.
      if (i > 0) {
        lo = times[i - 1];
        t_lo = T[i - 1];
      }
      if (i < T.size()) {
        hi = times[i];
        t_hi = T[i];
      }
      times.clear();
      for (std::size_t k = 1; k <= candidates; ++k)
        times.push_back(lo + (hi - lo) * static_cast<double>(k) / (candidates + 1));
    }
    return lo + (hi - lo) * (target - t_lo) / (t_hi - t_lo);
  }
};

}  // namespace hetflow::chem::test
