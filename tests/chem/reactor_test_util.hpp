#pragma once
// Helpers of the reactor validation tests (test_invariants.cpp, test_equilibrium.cpp,
// test_gri_ignition.cpp): mixture enthalpy and element mass fractions from a Mechanism, and
// integrations of the constant-pressure reactor with ode::Radau5 to several end times.
#include <gtest/gtest.h>

#include <cmath>
#include <span>
#include <string>
#include <vector>

#include "chem_test_util.hpp"
#include "hetflow/chem/reactor_source.hpp"
#include "hetflow/chem/thermo.hpp"
#include "hetflow/ode/radau5.hpp"

namespace hetflow::chem::test {

// Mass-specific enthalpy Σ_k Y_k h_k(T) / W_k [J/kg] of mass fractions y (mechanism order) at T.
inline double enthalpy_mass(const Mechanism& m, std::span<const double> y, double temperature) {
  const SpeciesThermo thermo = species_thermo(m, temperature);
  double h = 0.0;
  for (std::size_t k = 0; k < m.species.size(); ++k) h += y[k] * thermo.h[k] / m.species[k].molecular_weight;
  return h;
}

// Element mass fractions Z_e = Σ_k a_ek W_e Y_k / W_k, in the mechanism's element order.
inline std::vector<double> element_mass_fractions(const Mechanism& m, std::span<const double> y) {
  std::vector<double> z(m.elements.size(), 0.0);
  for (std::size_t k = 0; k < m.species.size(); ++k) {
    for (const auto& [e, atoms] : m.species[k].composition) {
      const auto ei = static_cast<std::size_t>(e);
      z[ei] += atoms * m.elements[ei].weight * y[k] / m.species[k].molecular_weight;
    }
  }
  return z;
}

// Stoichiometric fuel/air state of a reference table: mass fractions (table order) into mechanism order, T last.
inline std::vector<double> reactor_state(const Mechanism& m, const std::vector<std::string>& names,
                                         const std::vector<double>& mass_fractions, double temperature) {
  std::vector<double> y = in_mechanism_order(m, names, mass_fractions);
  y.push_back(temperature);
  return y;
}

// The reactor state at each of the times, every integration starting from y0 at t = 0 (Radau5 returns
// the state at t_end only, so one system runs per time). Fails the test if any system fails.
inline std::vector<std::vector<double>> states_at(const ode::Radau5& solver, const std::vector<double>& y0,
                                                  double pressure, const std::vector<double>& times) {
  ode::Batch batch;
  for (std::size_t i = 0; i < times.size(); ++i) {
    batch.y0.insert(batch.y0.end(), y0.begin(), y0.end());
    batch.params.push_back(pressure);
  }
  batch.t_end = times;
  const ode::Result r = solver.integrate(batch);
  EXPECT_EQ(r.failures(), 0u) << r.report();
  std::vector<std::vector<double>> out;
  for (std::size_t i = 0; i < times.size(); ++i)
    out.emplace_back(r.y.begin() + static_cast<std::ptrdiff_t>(i * y0.size()),
                     r.y.begin() + static_cast<std::ptrdiff_t>((i + 1) * y0.size()));
  return out;
}

// The first time T reaches `target`, from integrations to a batch of candidate times: a geometric grid
// over [t_min, t_max] brackets the crossing, then `rounds` times the bracket is split into `per_round`
// + 1 equal parts (one integration per inner point), and T is interpolated linearly in the last bracket.
// The bracket ends, with their T, go to `bracket` when given (lo, T_lo, hi, T_hi).
inline double first_crossing(const ode::Radau5& solver, const std::vector<double>& y0, double pressure, double target,
                             double t_min, double t_max, std::size_t per_round, int rounds,
                             std::vector<double>* bracket = nullptr) {
  std::vector<double> times;
  for (std::size_t i = 0; i <= per_round; ++i)
    times.push_back(t_min * std::pow(t_max / t_min, static_cast<double>(i) / static_cast<double>(per_round)));
  double lo = 0.0, hi = 0.0, T_lo = y0.back(), T_hi = 0.0;
  for (int round = 0; round <= rounds; ++round) {
    const auto states = states_at(solver, y0, pressure, times);
    std::size_t i = 0;
    while (i < states.size() && states[i].back() < target) ++i;
    if (round == 0 && i == states.size()) {
      ADD_FAILURE() << "T stays below " << target << " K until t = " << t_max << " s";
      return 0.0;
    }
    if (i > 0) {
      lo = times[i - 1];
      T_lo = states[i - 1].back();
    }
    if (i < states.size()) {
      hi = times[i];
      T_hi = states[i].back();
    }
    times.clear();
    for (std::size_t k = 1; k <= per_round; ++k)
      times.push_back(lo + (hi - lo) * static_cast<double>(k) / static_cast<double>(per_round + 1));
  }
  if (bracket) *bracket = {lo, T_lo, hi, T_hi};
  return lo + (hi - lo) * (target - T_lo) / (T_hi - T_lo);
}

// The first time T reaches `target` from dense output (ode::Batch::samples): one integration over
// [0, t_end] sampled at `count` + 1 even times brackets the crossing, then `passes` more integrations,
// each to the bracket's end, sample it evenly again; T is interpolated linearly in the last bracket.
// For systems too costly for first_crossing's batches of whole integrations. The bracket ends, with
// their T, go to `bracket` when given (lo, T_lo, hi, T_hi).
inline double sampled_crossing(const ode::Radau5& solver, const std::vector<double>& y0, double pressure,
                               double target, double t_end, std::size_t count, int passes,
                               std::vector<double>* bracket = nullptr) {
  const std::size_t n = y0.size();
  double lo = 0.0, hi = t_end, T_lo = y0.back(), T_hi = 0.0;
  for (int pass = 0; pass <= passes; ++pass) {
    ode::Batch batch{.y0 = y0, .params = {pressure}, .t0 = {0.0}, .t_end = {hi}};
    for (std::size_t k = 0; k <= count; ++k)
      batch.samples.push_back(lo + (hi - lo) * static_cast<double>(k) / static_cast<double>(count));
    const ode::Result r = solver.integrate(batch);
    EXPECT_EQ(r.failures(), 0u) << r.report();
    std::size_t k = 0;
    while (k <= count && r.samples[k * n + n - 1] < target) ++k;
    if (k == 0 || k > count) {
      ADD_FAILURE() << "T does not cross " << target << " K inside [" << lo << ", " << hi << "] s";
      return 0.0;
    }
    const double step = (hi - lo) / static_cast<double>(count);
    lo = lo + step * static_cast<double>(k - 1);
    hi = lo + step;
    T_lo = r.samples[(k - 1) * n + n - 1];
    T_hi = r.samples[k * n + n - 1];
  }
  if (bracket) *bracket = {lo, T_lo, hi, T_hi};
  return lo + (hi - lo) * (target - T_lo) / (T_hi - T_lo);
}

}  // namespace hetflow::chem::test
