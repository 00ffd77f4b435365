#include "hetflow/chem/kinetics_parts.hpp"

#include <algorithm>
#include <cmath>

#include "hetflow/chem/kinetics.hpp"

namespace hetflow::chem::parts {

double factor(double x, double order) {
  // Integer orders multiply, which stays smooth through small negative concentrations that an
  // integrator may produce; other orders need a non-negative base.
  if (order == 1.0) return x;
  if (order == 2.0) return x * x;
  if (order == 3.0) return x * x * x;
  return std::pow(std::max(x, 0.0), order);
}

double factor_derivative(double x, double order) {
  if (order == 1.0) return 1.0;
  if (order == 2.0) return 2.0 * x;
  if (order == 3.0) return 3.0 * (x * x);
  // The clamped base makes the factor flat below zero; at zero an order below 1 has an infinite
  // slope, which a Newton matrix cannot use, so zero stands for the one-sided derivative there.
  return x > 0.0 ? order * std::pow(x, order - 1.0) : 0.0;
}

double concentration_product(const std::vector<Term>& exponents, std::span<const double> c) {
  double product = 1.0;
  for (const Term& t : exponents) product *= factor(c[static_cast<std::size_t>(t.species)], t.coefficient);
  return product;
}

double concentration_product_derivative(const std::vector<Term>& exponents, std::size_t which,
                                        std::span<const double> c) {
  double product = 1.0;
  for (std::size_t u = 0; u < exponents.size(); ++u) {
    const double x = c[static_cast<std::size_t>(exponents[u].species)];
    product *= u == which ? factor_derivative(x, exponents[u].coefficient) : factor(x, exponents[u].coefficient);
  }
  return product;
}

double third_body_concentration(const ThirdBody& tb, std::span<const double> c) {
  if (tb.collider >= 0) return c[static_cast<std::size_t>(tb.collider)];
  double total = 0.0;
  for (double x : c) total += x;
  double m = tb.default_efficiency * total;
  for (const auto& [k, eff] : tb.efficiencies) m += (eff - tb.default_efficiency) * c[static_cast<std::size_t>(k)];
  return m;
}

double troe_fcent(const Troe& troe, double T) {
  double fcent = 0.0;
  if (troe.t3 != 0.0) fcent += (1.0 - troe.a) * std::exp(-T / troe.t3);
  if (troe.t1 != 0.0) fcent += troe.a * std::exp(-T / troe.t1);
  if (troe.t2) fcent += std::exp(-*troe.t2 / T);
  return fcent;
}

double troe_factor(double fcent, double log10_pr) {
  const double log_fcent = std::log10(std::max(fcent, tiny));
  const double c = -0.4 - 0.67 * log_fcent;
  const double n = 0.75 - 1.27 * log_fcent;
  const double f1 = (log10_pr + c) / (n - 0.14 * (log10_pr + c));
  return std::pow(10.0, log_fcent / (1.0 + f1 * f1));
}

double sri_factor(const Sri& s, double T, double log10_pr) {
  const double x = 1.0 / (1.0 + log10_pr * log10_pr);
  return s.d * std::pow(s.a * std::exp(-s.b / T) + std::exp(-T / s.c), x) * std::pow(T, s.e);
}

Falloff falloff(const Reaction& r, double T, double m) {
  Falloff f;
  f.k0 = arrhenius(r.low, T);
  f.kinf = arrhenius(r.high, T);
  f.pr = f.k0 * m / f.kinf;
  f.log10_pr = std::log10(std::max(f.pr, tiny));
  if (r.falloff == FalloffForm::troe) {
    f.fcent = troe_fcent(r.troe, T);
    f.f = troe_factor(f.fcent, f.log10_pr);
  }
  if (r.falloff == FalloffForm::sri) f.f = sri_factor(r.sri, T, f.log10_pr);
  f.k = r.kind == RateKind::falloff ? f.kinf * f.pr / (1.0 + f.pr) * f.f : f.k0 / (1.0 + f.pr) * f.f;
  return f;
}

double total(const std::vector<Term>& terms) {
  double n = 0.0;
  for (const Term& t : terms) n += t.coefficient;
  return n;
}

PlogTable plog_table(const Reaction& r) {
  PlogTable table;
  for (const PlogRate& q : r.plog) {
    if (table.pressures.empty() || table.pressures.back() != q.pressure) {
      table.pressures.push_back(q.pressure);
      table.rates.emplace_back();
    }
    table.rates.back().push_back(q.rate);
  }
  return table;
}

PlogBracket plog_bracket(const std::vector<double>& pressures, double p) {
  const std::size_t last = pressures.size() - 1;
  if (p <= pressures.front()) return {0, 0, 0.0};
  if (p >= pressures.back()) return {last, last, 0.0};
  const std::size_t i =
      static_cast<std::size_t>(std::upper_bound(pressures.begin(), pressures.end(), p) - pressures.begin() - 1);
  return {i, i + 1, std::log(p / pressures[i]) / std::log(pressures[i + 1] / pressures[i])};
}

double plog_sum(const std::vector<Arrhenius>& rates, double T) {
  double k = 0.0;
  for (const Arrhenius& a : rates) k += arrhenius(a, T);
  return k;
}

double plog_interpolate(const PlogBracket& b, double k_lo, double k_hi) {
  if (b.lo == b.hi) return k_lo;
  return std::exp(std::log(k_lo) + b.w * (std::log(k_hi) - std::log(k_lo)));
}

double inverse_equilibrium_constant(const Reaction& r, const SpeciesThermo& thermo, double T,
                                    double log_standard_concentration, double delta_nu) {
  // K_c = exp(-ΔG°/RT) (p_atm/RT)^Δν
  double delta_g = 0.0;
  for (const Term& t : r.products) delta_g += t.coefficient * thermo.g[static_cast<std::size_t>(t.species)];
  for (const Term& t : r.reactants) delta_g -= t.coefficient * thermo.g[static_cast<std::size_t>(t.species)];
  return std::exp(delta_g / (gas_constant * T) - delta_nu * log_standard_concentration);
}

}  // namespace hetflow::chem::parts
