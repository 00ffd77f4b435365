#include "hetflow/chem/equilibrium.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "hetflow/chem/thermo.hpp"
#include "hetflow/core/number_text.hpp"

namespace hetflow::chem {
namespace {

// Gordon & McBride's trace species: mole fraction below 1e-8. A trace species may not climb past 1e-4 of
// the moles in one step, so that a species far from its value cannot swamp the step of the others.
constexpr double trace_ln = -18.420680743952367;     // ln 1e-8
constexpr double trace_ceiling = 9.210340371976184;  // −ln 1e-4

// HP and UV iterations start at Gordon & McBride's starting temperature, or at the start state's when
// that is higher.
constexpr double hot_start = 3800.0;

// The elements must balance to this share of the tolerance on the corrections, or to the rounding of
// their sums over the species (a few ulp per species) where that is larger.
constexpr double element_share = 1e-2;
constexpr double ulps_per_species = 16;

std::string number(double x) { return core::number_text(x, 6); }

void check_start(const Mechanism& m, const MixtureState& s) {
  if (!(s.temperature > 0) || !std::isfinite(s.temperature))
    throw EquilibriumError("equilibrium: the temperature must be positive and finite, got " + number(s.temperature));
  if (!(s.pressure > 0) || !std::isfinite(s.pressure))
    throw EquilibriumError("equilibrium: the pressure must be positive and finite, got " + number(s.pressure));
  if (s.mass_fractions.size() != m.species.size())
    throw EquilibriumError("equilibrium: " + std::to_string(s.mass_fractions.size()) + " mass fractions for " +
                           std::to_string(m.species.size()) + " species");
  double sum = 0;
  for (std::size_t k = 0; k < s.mass_fractions.size(); ++k) {
    const double y = s.mass_fractions[k];
    if (!(y >= 0) || !std::isfinite(y))
      throw EquilibriumError("equilibrium: the mass fraction of " + m.species[k].name +
                             " must be non-negative and finite, got " + number(y));
    sum += y;
  }
  if (std::abs(sum - 1) > 1e-6)
    throw EquilibriumError("equilibrium: the mass fractions add up to " + core::number_text(sum, 10) +
                           ", not 1 (within 1e-6)");
}

// The species the mixture can form: those made only of elements it holds. Atoms are per active species
// and active element; b are the active elements' moles per kilogram.
struct Active {
  std::vector<std::size_t> species, elements;
  std::vector<std::vector<double>> atoms;
  std::vector<double> b;
};

Active active_problem(const Mechanism& m, const std::vector<double>& y) {
  const std::vector<double> moles = element_moles(m, y);
  Active a;
  std::vector<int> column(m.elements.size(), -1);
  for (std::size_t e = 0; e < moles.size(); ++e)
    if (moles[e] > 0) {
      column[e] = static_cast<int>(a.elements.size());
      a.elements.push_back(e);
      a.b.push_back(moles[e]);
    }
  for (std::size_t k = 0; k < m.species.size(); ++k) {
    std::vector<double> row(a.elements.size(), 0.0);
    bool formable = true;
    for (const auto& [e, count] : m.species[k].composition) {
      if (count == 0) continue;
      const int c = column[static_cast<std::size_t>(e)];
      if (c < 0) {
        formable = false;
        break;
      }
      row[static_cast<std::size_t>(c)] += count;
    }
    if (formable) {
      a.species.push_back(k);
      a.atoms.push_back(std::move(row));
    }
  }
  return a;
}

// Solves the dense system a x = rhs (row-major, n × n) by elimination with partial pivoting; false when a
// pivot vanishes.
bool solve_dense(std::vector<double>& a, std::vector<double>& rhs, std::size_t n) {
  for (std::size_t c = 0; c < n; ++c) {
    std::size_t pivot = c;
    for (std::size_t r = c + 1; r < n; ++r)
      if (std::abs(a[r * n + c]) > std::abs(a[pivot * n + c])) pivot = r;
    if (!(std::abs(a[pivot * n + c]) > 0)) return false;
    if (pivot != c) {
      for (std::size_t k = 0; k < n; ++k) std::swap(a[c * n + k], a[pivot * n + k]);
      std::swap(rhs[c], rhs[pivot]);
    }
    for (std::size_t r = c + 1; r < n; ++r) {
      const double f = a[r * n + c] / a[c * n + c];
      if (f == 0) continue;
      for (std::size_t k = c; k < n; ++k) a[r * n + k] -= f * a[c * n + k];
      rhs[r] -= f * rhs[c];
    }
  }
  for (std::size_t c = n; c-- > 0;) {
    double sum = rhs[c];
    for (std::size_t k = c + 1; k < n; ++k) sum -= a[c * n + k] * rhs[k];
    rhs[c] = sum / a[c * n + c];
  }
  return true;
}

}  // namespace

const char* hold_name(EquilibriumHold hold) {
  switch (hold) {
    case EquilibriumHold::tp:
      return "TP";
    case EquilibriumHold::hp:
      return "HP";
    case EquilibriumHold::uv:
      return "UV";
  }
  return "?";
}

std::vector<double> element_moles(const Mechanism& m, const std::vector<double>& y) {
  std::vector<double> moles(m.elements.size(), 0.0);
  for (std::size_t k = 0; k < m.species.size(); ++k)
    for (const auto& [e, count] : m.species[k].composition)
      moles[static_cast<std::size_t>(e)] += count * y[k] / m.species[k].molecular_weight;
  return moles;
}

double moles_per_kilogram(const Mechanism& m, const std::vector<double>& y) {
  double n = 0;
  for (std::size_t k = 0; k < m.species.size(); ++k) n += y[k] / m.species[k].molecular_weight;
  return n;
}

double mixture_enthalpy(const Mechanism& m, const MixtureState& s) {
  double h = 0;
  for (std::size_t k = 0; k < m.species.size(); ++k)
    h += s.mass_fractions[k] / m.species[k].molecular_weight * h_over_rt(m.species[k].thermo, s.temperature);
  return h * gas_constant * s.temperature;
}

double mixture_internal_energy(const Mechanism& m, const MixtureState& s) {
  return mixture_enthalpy(m, s) - gas_constant * s.temperature * moles_per_kilogram(m, s.mass_fractions);
}

// Unknowns of each Newton step (Gordon & McBride 1994, §2.3): the element potentials π, then Δln N where
// the pressure is held (N the moles per kilogram), then Δln T where an energy is held. Species' moles
// follow as Δln n_k = −μ_k/RT + Σ_j a_kj π_j + Δln N + e_k Δln T, with e_k = H_k/RT (HP) or U_k/RT (UV).
Equilibrium equilibrate(const Mechanism& m, const MixtureState& start, EquilibriumHold hold,
                        const EquilibriumOptions& options) {
  check_start(m, start);
  const Active a = active_problem(m, start.mass_fractions);
  if (a.elements.empty()) throw EquilibriumError("equilibrium: the mixture holds no element");
  const std::size_t ns = a.species.size(), ne = a.elements.size();
  const bool holds_p = hold != EquilibriumHold::uv, holds_energy = hold != EquilibriumHold::tp;
  const std::size_t at_n = ne, at_t = ne + (holds_p ? 1 : 0), size = at_t + (holds_energy ? 1 : 0);

  const double n0 = moles_per_kilogram(m, start.mass_fractions);
  const double volume = gas_constant * start.temperature * n0 / start.pressure;  // m³/kg, held in UV
  const double energy = hold == EquilibriumHold::hp   ? mixture_enthalpy(m, start)
                        : hold == EquilibriumHold::uv ? mixture_internal_energy(m, start)
                                                      : 0.0;
  std::vector<double> ln_n(ns, std::log(n0 / static_cast<double>(ns)));
  double ln_total = std::log(n0);
  double ln_t = std::log(holds_energy ? std::max(start.temperature, hot_start) : start.temperature);

  const double balanced = std::max(element_share * options.tolerance,
                                   ulps_per_species * static_cast<double>(ns) * std::numeric_limits<double>::epsilon());
  std::vector<double> mu(ns), e(ns), c(ns), n(ns), x(size), matrix(size * size), step(ns);
  bool settling = false;
  for (int iteration = 1; iteration <= options.max_iterations; ++iteration) {
    const double t = std::exp(ln_t);
    double moles = 0;
    for (std::size_t s = 0; s < ns; ++s) moles += n[s] = std::exp(ln_n[s]);
    // ln of the partial pressure over the standard pressure, less ln n_k.
    const double ln_scale =
        holds_p ? std::log(start.pressure / one_atm) - ln_total : std::log(gas_constant * t / (volume * one_atm));
    for (std::size_t s = 0; s < ns; ++s) {
      const Nasa7& thermo = m.species[a.species[s]].thermo;
      const double h = h_over_rt(thermo, t), cp = cp_over_r(thermo, t);
      mu[s] = h - s_over_r(thermo, t) + ln_n[s] + ln_scale;
      e[s] = holds_p ? h : h - 1;
      c[s] = holds_p ? cp : cp - 1;
    }

    // The elements' relative imbalance, part of the convergence test: near a stoichiometric mixture the
    // reactants head for nothing, and the system's balances, which take a species' moles as
    // n_k (1 + Δln n_k), let them fall by only 1/e per step, so their weighted corrections can be small
    // while the elements still miss by as much as the reactants hold.
    double imbalance = 0;
    for (std::size_t j = 0; j < ne; ++j) {
      double held = 0;
      for (std::size_t s = 0; s < ns; ++s) held += a.atoms[s][j] * n[s];
      imbalance = std::max(imbalance, std::abs(held - a.b[j]) / a.b[j]);
    }

    std::fill(matrix.begin(), matrix.end(), 0.0);
    std::fill(x.begin(), x.end(), 0.0);
    for (std::size_t j = 0; j < ne; ++j) x[j] = a.b[j];
    if (holds_p) x[at_n] = std::exp(ln_total);
    if (holds_energy) x[at_t] = energy / (gas_constant * t);
    for (std::size_t s = 0; s < ns; ++s) {
      const std::vector<double>& row = a.atoms[s];
      for (std::size_t j = 0; j < ne; ++j) {
        if (row[j] == 0) continue;
        const double w = row[j] * n[s];
        for (std::size_t i = 0; i < ne; ++i) matrix[j * size + i] += w * row[i];
        if (holds_p) {
          matrix[j * size + at_n] += w;
          matrix[at_n * size + j] += w;
        }
        if (holds_energy) {
          matrix[j * size + at_t] += w * e[s];
          matrix[at_t * size + j] += w * e[s];
        }
        x[j] += w * (mu[s] - 1);
      }
      if (holds_p) {
        matrix[at_n * size + at_n] += n[s];
        x[at_n] += n[s] * (mu[s] - 1);
        if (holds_energy) {
          matrix[at_n * size + at_t] += n[s] * e[s];
          matrix[at_t * size + at_n] += n[s] * e[s];
        }
      }
      if (holds_energy) {
        matrix[at_t * size + at_t] += n[s] * (c[s] + e[s] * e[s]);
        x[at_t] += n[s] * e[s] * (mu[s] - 1);
      }
    }
    if (holds_p) matrix[at_n * size + at_n] -= std::exp(ln_total);
    if (!solve_dense(matrix, x, size))
      throw EquilibriumError(std::string("equilibrium (") + hold_name(hold) +
                             "): singular Newton system at iteration " + std::to_string(iteration) +
                             ", T = " + number(t) + " K");

    const double d_total = holds_p ? x[at_n] : 0.0, d_t = holds_energy ? x[at_t] : 0.0;
    const double ln_moles = holds_p ? ln_total : std::log(moles);
    double change = std::max(std::abs(d_total), std::abs(d_t));
    double largest = 5 * change;  // Gordon & McBride's λ1: N and T move at most 0.4 in ln per step
    double ceiling = 1.0;         // and λ2, for trace species climbing
    for (std::size_t s = 0; s < ns; ++s) {
      double d = -mu[s] + d_total + e[s] * d_t;
      for (std::size_t j = 0; j < ne; ++j) d += a.atoms[s][j] * x[j];
      step[s] = d;
      const double ln_x = ln_n[s] - ln_moles;
      change = std::max(change, std::exp(ln_x) * std::abs(d));
      if (ln_x > trace_ln) {
        if (d > 0) largest = std::max(largest, d);
      } else if (d >= 0 && d - d_total > 0) {
        ceiling = std::min(ceiling, std::abs((-ln_x - trace_ceiling) / (d - d_total)));
      }
    }
    if (!std::isfinite(change))
      throw EquilibriumError(std::string("equilibrium (") + hold_name(hold) +
                             "): the Newton step is not finite at iteration " + std::to_string(iteration) +
                             ", T = " + number(t) + " K");
    const double lambda = std::min({1.0, largest > 0 ? 2 / largest : 1.0, ceiling});
    for (std::size_t s = 0; s < ns; ++s) ln_n[s] += lambda * step[s];
    ln_total += lambda * d_total;
    ln_t += lambda * d_t;

    if (settling) {
      Equilibrium out;
      out.iterations = iteration;
      out.state.temperature = holds_energy ? std::exp(ln_t) : start.temperature;
      double total = 0, mass = 0;
      for (std::size_t s = 0; s < ns; ++s) {
        total += std::exp(ln_n[s]);
        mass += std::exp(ln_n[s]) * m.species[a.species[s]].molecular_weight;
      }
      out.state.pressure = holds_p ? start.pressure : total * gas_constant * out.state.temperature / volume;
      out.state.mass_fractions.assign(m.species.size(), 0.0);
      for (std::size_t s = 0; s < ns; ++s)
        out.state.mass_fractions[a.species[s]] = std::exp(ln_n[s]) * m.species[a.species[s]].molecular_weight / mass;
      out.element_potentials.assign(m.elements.size(), 0.0);
      for (std::size_t j = 0; j < ne; ++j) out.element_potentials[a.elements[j]] = x[j];
      return out;
    }
    settling = lambda == 1 && change <= options.tolerance && imbalance <= balanced;
  }
  throw EquilibriumError(std::string("equilibrium (") + hold_name(hold) + "): no convergence in " +
                         std::to_string(options.max_iterations) + " Newton iterations");
}

}  // namespace hetflow::chem
