#include "hetflow/chem/mechanism_check.hpp"

#include <algorithm>
#include <cmath>

#include "hetflow/chem/mechanism_error.hpp"

namespace hetflow::chem {
namespace {

void compute_molecular_weights(Mechanism& m) {
  for (Species& s : m.species) {
    s.molecular_weight = 0.0;
    for (const auto& [e, n] : s.composition) s.molecular_weight += n * m.elements[static_cast<std::size_t>(e)].weight;
  }
}

void check_balance(const Mechanism& m, const Reaction& r, const std::string& file) {
  std::vector<double> d = element_imbalance(m, r);
  // Real stoichiometric coefficients are written with a few digits; an imbalance below 1e-6 atoms is
  // rounding in the input, not a mistake.
  bool balanced = true;
  for (double& x : d) {
    if (std::abs(x) < 1e-6)
      x = 0.0;
    else
      balanced = false;
  }
  if (!balanced)
    throw MechanismError(file, r.line, "reaction '" + r.equation + "' is not balanced in elements (products minus reactants: " +
                                           describe_imbalance(m, d) + ")");
}

// Reactions compete for the same duplicate slot when they have the same species with the same
// coefficients and the same third-body form.
struct DuplicateKey {
  std::vector<Term> reactants, products;
  int third_body_form = 0;  // 0 none, 1 "+M", 2 "(+M)"
  int collider = -1;
  bool reversible = false;
  bool operator==(const DuplicateKey&) const = default;
};

std::vector<Term> sorted(std::vector<Term> side) {
  std::sort(side.begin(), side.end(), [](const Term& a, const Term& b) { return a.species < b.species; });
  return side;
}

DuplicateKey key_of(const Reaction& r) {
  DuplicateKey k{sorted(r.reactants), sorted(r.products), 0, r.third_body.collider, r.reversible};
  if (r.kind == RateKind::three_body) k.third_body_form = 1;
  if (r.kind == RateKind::falloff || r.kind == RateKind::chemically_activated) k.third_body_form = 2;
  return k;
}

bool same_reaction(const DuplicateKey& a, const DuplicateKey& b) {
  if (a.third_body_form != b.third_body_form || a.collider != b.collider) return false;
  if (a.reactants == b.reactants && a.products == b.products) return true;
  // Reversed stoichiometry is the same reaction unless both only run forward.
  return (a.reversible || b.reversible) && a.reactants == b.products && a.products == b.reactants;
}

void check_duplicates(const Mechanism& m, const std::string& file) {
  std::vector<DuplicateKey> keys;
  keys.reserve(m.reactions.size());
  for (const Reaction& r : m.reactions) keys.push_back(key_of(r));
  std::vector<bool> has_partner(m.reactions.size(), false);
  for (std::size_t j = 0; j < keys.size(); ++j) {
    for (std::size_t i = 0; i < j; ++i) {
      if (!same_reaction(keys[i], keys[j])) continue;
      const Reaction& a = m.reactions[i];
      const Reaction& b = m.reactions[j];
      if (!a.duplicate || !b.duplicate)
        throw MechanismError(file, b.line, "reaction '" + b.equation + "' repeats reaction '" + a.equation + "' (line " +
                                               std::to_string(a.line) + ") but both are not marked DUPLICATE");
      has_partner[i] = has_partner[j] = true;
    }
  }
  for (std::size_t j = 0; j < keys.size(); ++j)
    if (m.reactions[j].duplicate && !has_partner[j])
      throw MechanismError(file, m.reactions[j].line,
                           "reaction '" + m.reactions[j].equation + "' is marked DUPLICATE but no other reaction repeats it");
}

}  // namespace

void finish_mechanism(Mechanism& m, const std::string& file) {
  compute_molecular_weights(m);
  for (const Reaction& r : m.reactions) check_balance(m, r, file);
  check_duplicates(m, file);
}

}  // namespace hetflow::chem
