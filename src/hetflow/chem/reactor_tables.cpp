// The mechanism as the table that reactor_group.cl reads (its comments name every field). Indices and
// counts are stored as doubles, exact far beyond any mechanism's size, so the table is one array.
#include <algorithm>

#include "hetflow/chem/kinetics_parts.hpp"
#include "hetflow/chem/reactor_source.hpp"

namespace hetflow::chem {
namespace {

// reactor_group.cl's H_ and O_ fields.
enum Field : std::size_t {
  kind,
  form,
  reversible,
  third_body,
  reactant_count,
  product_count,
  forward_count,
  reverse_count,
  delta_nu,
  rate_part,
  reverse_part,
  third_body_part,
  reactants_part,
  products_part,
  forward_part,
  reverse_orders_part,
  header_size
};

void arrhenius(std::vector<double>& t, const Arrhenius& k) { t.insert(t.end(), {k.a, k.b, k.ea}); }

void terms(std::vector<double>& t, const std::vector<Term>& list) {
  for (const Term& x : list) t.insert(t.end(), {static_cast<double>(x.species), x.coefficient});
}

// PLOG: the count of pressures, then per pressure (p, rates, offset of its rates in the record), then
// the rates as Arrhenius triples.
void plog(std::vector<double>& rec, const Reaction& r) {
  const parts::PlogTable table = parts::plog_table(r);
  const std::size_t start = rec.size();
  rec.resize(start + 1 + 3 * table.pressures.size());
  rec[start] = static_cast<double>(table.pressures.size());
  for (std::size_t i = 0; i < table.pressures.size(); ++i) {
    rec[start + 1 + 3 * i] = table.pressures[i];
    rec[start + 2 + 3 * i] = static_cast<double>(table.rates[i].size());
    rec[start + 3 + 3 * i] = static_cast<double>(rec.size());
    for (const Arrhenius& a : table.rates[i]) arrhenius(rec, a);
  }
}

void rate(std::vector<double>& rec, const Reaction& r) {
  switch (r.kind) {
    case RateKind::elementary:
    case RateKind::three_body:
      arrhenius(rec, r.rate);
      return;
    case RateKind::plog:
      plog(rec, r);
      return;
    case RateKind::falloff:
    case RateKind::chemically_activated:
      break;
  }
  arrhenius(rec, r.low);
  arrhenius(rec, r.high);
  if (r.falloff == FalloffForm::troe) {
    const Troe& t = r.troe;
    rec.insert(rec.end(), {1.0 - t.a, t.t3, t.a, t.t1, t.t2 ? 1.0 : 0.0, -t.t2.value_or(0.0)});
  }
  if (r.falloff == FalloffForm::sri) rec.insert(rec.end(), {r.sri.a, r.sri.b, r.sri.c, r.sri.d, r.sri.e});
}

std::vector<double> record(const Reaction& r) {
  std::vector<double> rec(header_size, 0.0);
  const std::vector<Term> forward = r.forward_exponents(), reverse = r.reverse_exponents();
  rec[kind] = static_cast<double>(r.kind);
  rec[form] = static_cast<double>(r.falloff);
  rec[reversible] = !r.reversible ? 0.0 : r.reverse ? 2.0 : 1.0;
  rec[reactant_count] = static_cast<double>(r.reactants.size());
  rec[product_count] = static_cast<double>(r.products.size());
  rec[forward_count] = static_cast<double>(forward.size());
  rec[reverse_count] = static_cast<double>(reverse.size());
  rec[delta_nu] = parts::total(r.products) - parts::total(r.reactants);
  const auto part = [&rec](Field f) { rec[f] = static_cast<double>(rec.size()); };
  part(rate_part);
  rate(rec, r);
  part(reverse_part);
  if (r.reverse) arrhenius(rec, *r.reverse);
  part(third_body_part);
  if (r.uses_third_body()) {
    const ThirdBody& tb = r.third_body;
    rec[third_body] = tb.collider >= 0 ? 1.0 : 2.0;
    if (tb.collider >= 0) {
      rec.push_back(static_cast<double>(tb.collider));
    } else {
      rec.insert(rec.end(), {tb.default_efficiency, static_cast<double>(tb.efficiencies.size())});
      for (const auto& [k, eff] : tb.efficiencies) rec.insert(rec.end(), {static_cast<double>(k), eff - tb.default_efficiency});
    }
  }
  part(reactants_part);
  terms(rec, r.reactants);
  part(products_part);
  terms(rec, r.products);
  part(forward_part);
  terms(rec, forward);
  part(reverse_orders_part);
  terms(rec, reverse);
  return rec;
}

}  // namespace

std::vector<double> reactor_tables(const Mechanism& m) {
  const std::size_t reactions = m.reactions.size(), species = m.species.size();
  std::vector<double> t(reactions + species + 2);
  // Each species' (reaction, ν) pairs in the order the generated rhs() updates ω̇: by reaction, and
  // within one its reactants before its products.
  std::vector<std::vector<double>> production(species);
  for (std::size_t j = 0; j < reactions; ++j) {
    const Reaction& r = m.reactions[j];
    t[j] = static_cast<double>(t.size());
    const std::vector<double> rec = record(r);
    t.insert(t.end(), rec.begin(), rec.end());
    for (const Term& x : r.reactants) production[x.species].insert(production[x.species].end(), {double(j), -x.coefficient});
    for (const Term& x : r.products) production[x.species].insert(production[x.species].end(), {double(j), x.coefficient});
  }
  for (std::size_t k = 0; k < species; ++k) {
    t[reactions + k] = static_cast<double>(t.size());
    t.insert(t.end(), production[k].begin(), production[k].end());
  }
  t[reactions + species] = static_cast<double>(t.size());
  // Each species' molecular weight, T_mid, and its lower and upper coefficients (CHEM_SPECIES_STRIDE).
  t[reactions + species + 1] = static_cast<double>(t.size());
  for (const Species& sp : m.species) {
    t.insert(t.end(), {sp.molecular_weight, sp.thermo.t_mid});
    t.insert(t.end(), sp.thermo.low.begin(), sp.thermo.low.end());
    t.insert(t.end(), sp.thermo.high.begin(), sp.thermo.high.end());
  }
  return t;
}

}  // namespace hetflow::chem
