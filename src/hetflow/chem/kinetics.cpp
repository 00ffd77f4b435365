#include "hetflow/chem/kinetics.hpp"

#include <cmath>

#include "hetflow/chem/kinetics_parts.hpp"
#include "hetflow/chem/thermo.hpp"

namespace hetflow::chem {

double arrhenius(const Arrhenius& k, double T) {
  return k.a * std::exp(k.b * std::log(T) - k.ea / (gas_constant * T));
}

double arrhenius_log_slope(const Arrhenius& k, double T) { return (k.b + k.ea / (gas_constant * T)) / T; }

Kinetics::Kinetics(Mechanism mechanism) : m_(std::move(mechanism)) {
  prepared_.reserve(m_.reactions.size());
  for (const Reaction& r : m_.reactions) {
    Prepared p;
    p.forward = r.forward_exponents();
    p.reverse = r.reverse_exponents();
    p.delta_nu = parts::total(r.products) - parts::total(r.reactants);
    parts::PlogTable table = parts::plog_table(r);
    p.plog_pressures = std::move(table.pressures);
    p.plog_rates = std::move(table.rates);
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
    case RateKind::chemically_activated:
      return parts::falloff(r, T, m).k;
    case RateKind::plog: {
      const Prepared& q = prepared_[j];
      const parts::PlogBracket b = parts::plog_bracket(q.plog_pressures, p);
      return parts::plog_interpolate(b, parts::plog_sum(q.plog_rates[b.lo], T), parts::plog_sum(q.plog_rates[b.hi], T));
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
    const double m = r.uses_third_body() ? parts::third_body_concentration(r.third_body, c) : 1.0;
    out.kf[j] = forward_constant(j, T, p, m);
    if (r.reverse) {
      out.kr[j] = arrhenius(*r.reverse, T);
    } else if (r.reversible) {
      out.kr[j] = out.kf[j] * parts::inverse_equilibrium_constant(r, thermo, T, log_standard_concentration, q.delta_nu);
    }
    // [M] multiplies three-body rates; in falloff rates it is already inside k.
    const double scale = r.kind == RateKind::three_body ? m : 1.0;
    out.qf[j] = scale * out.kf[j] * parts::concentration_product(q.forward, c);
    out.qr[j] = r.reversible ? scale * out.kr[j] * parts::concentration_product(q.reverse, c) : 0.0;
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
