#include "hetflow/chem/mechanism.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

namespace hetflow::chem {
namespace {

struct AtomicWeight {
  const char* symbol;
  double grams_per_mole;
};

// IUPAC conventional atomic weights (the abridged values for elements with an interval), as Cantera 3
// tabulates them; D and the electron are included because mechanisms use them.
constexpr AtomicWeight atomic_weights[] = {
    {"H", 1.008},          {"D", 2.0141017781}, {"He", 4.002602},       {"Li", 6.94},
    {"B", 10.81},          {"C", 12.011},       {"N", 14.007},          {"O", 15.999},
    {"F", 18.998403163},   {"Ne", 20.1797},     {"Na", 22.98976928},    {"Mg", 24.305},
    {"Al", 26.9815384},    {"Si", 28.085},      {"P", 30.973761998},    {"S", 32.06},
    {"Cl", 35.45},         {"Ar", 39.95},       {"K", 39.0983},         {"Ca", 40.078},
    {"Ti", 47.867},        {"Cr", 51.9961},     {"Fe", 55.845},         {"Ni", 58.6934},
    {"Cu", 63.546},        {"Zn", 65.38},       {"Br", 79.904},         {"Kr", 83.798},
    {"I", 126.90447},      {"Xe", 131.293},     {"Hg", 200.592},        {"Pb", 207.2},
    {"E", 5.485799088728283e-4},
};

bool same_symbol(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::toupper(static_cast<unsigned char>(x)) == std::toupper(static_cast<unsigned char>(y));
         });
}

std::vector<Term> with_orders(const std::vector<Term>& stoich, const std::vector<Term>& orders) {
  std::vector<Term> out = stoich;
  for (const Term& o : orders) {
    auto it = std::find_if(out.begin(), out.end(), [&](const Term& t) { return t.species == o.species; });
    if (it != out.end())
      it->coefficient = o.coefficient;
    else
      out.push_back(o);
  }
  return out;
}

}  // namespace

std::vector<Term> Reaction::forward_exponents() const { return with_orders(reactants, forward_orders); }
std::vector<Term> Reaction::reverse_exponents() const { return with_orders(products, reverse_orders); }

int Mechanism::species_index(std::string_view name) const {
  for (std::size_t k = 0; k < species.size(); ++k)
    if (same_symbol(species[k].name, name)) return static_cast<int>(k);
  return -1;
}

int Mechanism::element_index(std::string_view symbol) const {
  for (std::size_t k = 0; k < elements.size(); ++k)
    if (same_symbol(elements[k].symbol, symbol)) return static_cast<int>(k);
  return -1;
}

std::vector<double> Mechanism::molecular_weights() const {
  std::vector<double> w;
  w.reserve(species.size());
  for (const Species& s : species) w.push_back(s.molecular_weight);
  return w;
}

std::optional<double> standard_atomic_weight(std::string_view symbol) {
  for (const AtomicWeight& a : atomic_weights)
    if (same_symbol(a.symbol, symbol)) return a.grams_per_mole * 1e-3;
  return std::nullopt;
}

std::vector<double> element_imbalance(const Mechanism& m, const Reaction& r) {
  std::vector<double> d(m.elements.size(), 0.0);
  auto add = [&](const std::vector<Term>& side, double sign) {
    for (const Term& t : side)
      for (const auto& [e, n] : m.species[static_cast<std::size_t>(t.species)].composition)
        d[static_cast<std::size_t>(e)] += sign * t.coefficient * n;
  };
  add(r.products, 1.0);
  add(r.reactants, -1.0);
  return d;
}

std::string describe_imbalance(const Mechanism& m, const std::vector<double>& imbalance) {
  std::string out;
  for (std::size_t e = 0; e < imbalance.size(); ++e) {
    if (imbalance[e] == 0.0) continue;
    char buf[64];
    std::snprintf(buf, sizeof buf, "%s: %+g", m.elements[e].symbol.c_str(), imbalance[e]);
    out += (out.empty() ? "" : ", ") + std::string(buf);
  }
  return out;
}

}  // namespace hetflow::chem
