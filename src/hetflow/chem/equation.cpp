#include "hetflow/chem/equation.hpp"

#include <cctype>
#include <optional>

#include "hetflow/chem/mechanism_error.hpp"
#include "hetflow/chem/parse_text.hpp"

namespace hetflow::chem {
namespace {

struct Side {
  std::vector<Term> terms;
  bool plus_m = false;
  bool falloff = false;
  std::string collider;
};

bool is_m(std::string_view s) { return s == "M" || s == "m"; }

// "2O2", "2 O2", "0.5 H2" or "O2": a species with an optional leading coefficient.
std::optional<Term> resolve(std::string_view token, const Mechanism& m) {
  token = trim(token);
  if (const int k = m.species_index(token); k >= 0) return Term{k, 1.0};
  std::size_t n = 0;
  while (n < token.size() && (std::isdigit(static_cast<unsigned char>(token[n])) || token[n] == '.')) ++n;
  if (n == 0) return std::nullopt;
  const auto coefficient = parse_real(token.substr(0, n));
  const int k = m.species_index(trim(token.substr(n)));
  if (!coefficient || *coefficient <= 0.0 || k < 0) return std::nullopt;
  return Term{k, *coefficient};
}

void add_term(std::vector<Term>& terms, Term t) {
  for (Term& u : terms)
    if (u.species == t.species) {
      u.coefficient += t.coefficient;
      return;
    }
  terms.push_back(t);
}

Side parse_side(std::string_view text, const Mechanism& m, std::string_view equation, const std::string& file, int line) {
  Side side;
  std::string rest(text);
  // "(+M)" or "(+AR)": found before splitting on '+', since its '+' is not a separator.
  if (const auto open = rest.find("(+"); open != std::string::npos) {
    const auto close = rest.find(')', open);
    if (close == std::string::npos)
      throw MechanismError(file, line, "malformed reaction equation '" + std::string(equation) + "': unclosed '(+'");
    side.falloff = true;
    side.collider = std::string(trim(std::string_view(rest).substr(open + 2, close - open - 2)));
    rest.erase(open, close - open + 1);
  }
  std::vector<std::string> pieces{""};
  for (char c : rest) {
    if (c == '+')
      pieces.emplace_back();
    else
      pieces.back() += c;
  }
  // A piece that names nothing may be the start of a name holding '+' (ions such as "H3O+").
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    std::string token = pieces[i];
    std::optional<Term> term;
    bool third = false;
    for (;;) {
      third = is_m(trim(token));
      if (!third) term = resolve(token, m);
      if (third || term || i + 1 >= pieces.size()) break;
      token += "+" + pieces[++i];
    }
    if (third) {
      side.plus_m = true;
    } else if (term) {
      add_term(side.terms, *term);
    } else if (trim(token).empty()) {
      throw MechanismError(file, line, "malformed reaction equation '" + std::string(equation) + "': empty species term");
    } else {
      throw MechanismError(file, line, "undeclared species '" + std::string(trim(pieces[i])) + "' in reaction '" +
                                           std::string(equation) + "'");
    }
  }
  return side;
}

}  // namespace

ParsedEquation parse_equation(std::string_view text, const Mechanism& m, const std::string& file, int line) {
  ParsedEquation eq;
  std::size_t at = text.find("<=>");
  std::size_t width = 3;
  if (at == std::string_view::npos) {
    at = text.find("=>");
    width = 2;
    eq.reversible = false;
  }
  if (at == std::string_view::npos) {
    at = text.find('=');
    width = 1;
    eq.reversible = true;
  }
  const std::string shown(trim(text));
  if (at == std::string_view::npos || (width == 1 && at > 0 && text[at - 1] == '<'))
    throw MechanismError(file, line, "malformed reaction equation '" + shown + "': expected '=', '=>' or '<=>'");
  const Side left = parse_side(text.substr(0, at), m, shown, file, line);
  const Side right = parse_side(text.substr(at + width), m, shown, file, line);
  if (left.plus_m != right.plus_m || left.falloff != right.falloff || upper(left.collider) != upper(right.collider))
    throw MechanismError(file, line, "malformed reaction equation '" + shown + "': third body differs between the sides");
  if (left.terms.empty() || right.terms.empty())
    throw MechanismError(file, line, "malformed reaction equation '" + shown + "': a side has no species");
  eq.reactants = left.terms;
  eq.products = right.terms;
  if (left.plus_m) eq.third_body = ThirdBodyMark::plus_m;
  if (left.falloff) {
    eq.third_body = ThirdBodyMark::falloff;
    if (!is_m(left.collider)) {
      eq.collider = m.species_index(left.collider);
      if (eq.collider < 0)
        throw MechanismError(file, line, "undeclared species '" + left.collider + "' in reaction '" + shown + "'");
    }
  }
  return eq;
}

}  // namespace hetflow::chem
