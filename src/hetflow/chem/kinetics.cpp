#include "hetflow/chem/kinetics.hpp"

#include <algorithm>
#include <cmath>

#include "hetflow/chem/thermo.hpp"

namespace hetflow::chem {
namespace {

// Keeps log10 finite when a falloff pressure ratio or F_cent underflows to zero.
constexpr double tiny = 1e-300;

double concentration_product(const std::vector<Term>& exponents, std::span<const double> c) {
  double product = 1.0;
  for (const Term& t : exponents) {
    const double x = c[static_cast<std::size_t>(t.species)];
    // Integer orders multiply, which stays smooth through small negative concentrations that an
    // integrator may produce; other orders need a non-negative base.
    if (t.coefficient == 1.0) product *= x;
    else if (t.coefficient == 2.0) product *= x * x;
    else if (t.coefficient == 3.0) product *= x * x * x;
    else product *= std::pow(std::max(x, 0.0), t.coefficient);
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

double troe_factor(const Troe& troe, double T, double log10_pr) {
  double fcent = 0.0;
  if (troe.t3 != 0.0) fcent += (1.0 - troe.a) * std::exp(-T / troe.t3);
  if (troe.t1 != 0.0) fcent += troe.a * std::exp(-T / troe.t1);
  if (troe.t2) fcent += std::exp(-*troe.t2 / T);
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

double total(const std::vector<Term>& terms) {
  double n = 0.0;
  for (const Term& t : terms) n += t.coefficient;
  return n;
}

}  // namespace

double arrhenius(const Arrhenius& k, double T) {
  return k.a * std::exp(k.b * std::log(T) - k.ea / (gas_constant * T));
}

Kinetics::Kinetics(Mechanism mechanism) : m_(std::move(mechanism)) {
  prepared_.reserve(m_.reactions.size());
  for (const Reaction& r : m_.reactions) {
    Prepared p;
    p.forward = r.forward_exponents();
    p.reverse = r.reverse_exponents();
    p.delta_nu = total(r.products) - total(r.reactants);
    // Rates given twice at one pressure add up, so group them by pressure once here.
    for (const PlogRate& q : r.plog) {
      if (p.plog_pressures.empty() || p.plog_pressures.back() != q.pressure) {
        p.plog_pressures.push_back(q.pressure);
        p.plog_rates.emplace_back();
      }
      p.plog_rates.back().push_back(q.rate);
    }
    prepared_.push_back(std::move(p));
  }
}

double Kinetics::forward_constant(std::size_t j, double T, double p, double m) const {
  const Reaction& r = m_.reactions[j];
  switch (r.kind) {
    case RateKind::elementary:
    case RateKind::three_body:
      return arrhenius(r.rate, T);
    case RateKind::falloff:
    case RateKind::chemically_activated: {
      const double k0 = arrhenius(r.low, T);
      const double kinf = arrhenius(r.high, T);
      const double pr = k0 * m / kinf;
      const double log10_pr = std::log10(std::max(pr, tiny));
      double f = 1.0;
      if (r.falloff == FalloffForm::troe) f = troe_factor(r.troe, T, log10_pr);
      if (r.falloff == FalloffForm::sri) f = sri_factor(r.sri, T, log10_pr);
      return r.kind == RateKind::falloff ? kinf * pr / (1.0 + pr) * f : k0 / (1.0 + pr) * f;
    }
    case RateKind::plog: {
      const Prepared& q = prepared_[j];
      auto at = [&](std::size_t i) {
        double k = 0.0;
        for (const Arrhenius& a : q.plog_rates[i]) k += arrhenius(a, T);
        return k;
      };
      // Outside the tabulated pressures the nearest table entry holds.
      if (p <= q.plog_pressures.front()) return at(0);
      if (p >= q.plog_pressures.back()) return at(q.plog_pressures.size() - 1);
      const std::size_t i = static_cast<std::size_t>(
          std::upper_bound(q.plog_pressures.begin(), q.plog_pressures.end(), p) - q.plog_pressures.begin() - 1);
      const double w = std::log(p / q.plog_pressures[i]) / std::log(q.plog_pressures[i + 1] / q.plog_pressures[i]);
      return std::exp(std::log(at(i)) + w * (std::log(at(i + 1)) - std::log(at(i))));
    }
  }
  return 0.0;
}

ReactionRates Kinetics::rates(double T, double p, std::span<const double> c) const {
  const std::size_t nr = m_.reactions.size();
  ReactionRates out{std::vector<double>(nr), std::vector<double>(nr), std::vector<double>(nr), std::vector<double>(nr)};
  const SpeciesThermo thermo = species_thermo(m_, T);
  const double log_standard_concentration = std::log(one_atm / (gas_constant * T));
  for (std::size_t j = 0; j < nr; ++j) {
    const Reaction& r = m_.reactions[j];
    const Prepared& q = prepared_[j];
    const double m = r.uses_third_body() ? third_body_concentration(r.third_body, c) : 1.0;
    out.kf[j] = forward_constant(j, T, p, m);
    if (r.reverse) {
      out.kr[j] = arrhenius(*r.reverse, T);
    } else if (r.reversible) {
      // K_c = exp(-ΔG°/RT) (p_atm/RT)^Δν
      double delta_g = 0.0;
      for (const Term& t : r.products) delta_g += t.coefficient * thermo.g[static_cast<std::size_t>(t.species)];
      for (const Term& t : r.reactants) delta_g -= t.coefficient * thermo.g[static_cast<std::size_t>(t.species)];
      out.kr[j] = out.kf[j] * std::exp(delta_g / (gas_constant * T) - q.delta_nu * log_standard_concentration);
    }
    // [M] multiplies three-body rates; in falloff rates it is already inside k.
    const double scale = r.kind == RateKind::three_body ? m : 1.0;
    out.qf[j] = scale * out.kf[j] * concentration_product(q.forward, c);
    out.qr[j] = r.reversible ? scale * out.kr[j] * concentration_product(q.reverse, c) : 0.0;
  }
  return out;
}

std::vector<double> Kinetics::production_rates(const ReactionRates& rates) const {
  std::vector<double> wdot(m_.species.size(), 0.0);
  for (std::size_t j = 0; j < m_.reactions.size(); ++j) {
    const double q = rates.qf[j] - rates.qr[j];
    for (const Term& t : m_.reactions[j].reactants) wdot[static_cast<std::size_t>(t.species)] -= t.coefficient * q;
    for (const Term& t : m_.reactions[j].products) wdot[static_cast<std::size_t>(t.species)] += t.coefficient * q;
  }
  return wdot;
}

std::vector<double> Kinetics::production_rates(double T, double p, std::span<const double> c) const {
  return production_rates(rates(T, p, c));
}

}  // namespace hetflow::chem
