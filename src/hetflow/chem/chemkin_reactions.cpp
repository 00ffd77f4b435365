// REACTIONS sections: reaction lines, their auxiliary keyword lines, and unit conversion to SI.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <optional>

#include "hetflow/chem/chemkin_lines.hpp"
#include "hetflow/chem/equation.hpp"
#include "hetflow/chem/mechanism_error.hpp"
#include "hetflow/chem/parse_text.hpp"

namespace hetflow::chem::chemkin {
namespace {

struct Units {
  double energy = calorie;  // J/mol per input energy unit
  double per_order = 1e-6;  // (m^3/mol per input volume-per-amount unit) for each order above one
};

Units read_units(const Line& header, const std::string& file) {
  Units u;
  const auto words = split_whitespace(header.text);
  for (std::size_t k = 1; k < words.size(); ++k) {
    const std::string w = upper(words[k]);
    const std::string head = w.substr(0, 4);
    // Chemkin reads only the first four letters of an energy unit; amounts need more to tell apart.
    if (head == "CAL/") u.energy = calorie;
    else if (head == "KCAL") u.energy = 1e3 * calorie;
    else if (head == "JOUL") u.energy = 1.0;
    else if (head == "KJOU") u.energy = 1e3;
    else if (head == "KELV") u.energy = gas_constant;
    else if (head == "EVOL") u.energy = electron_volt * avogadro;
    else if (w == "MOLES" || w == "MOLE") u.per_order = 1e-6;
    else if (w.rfind("MOLECULE", 0) == 0) u.per_order = 1e-6 * avogadro;
    else
      throw MechanismError(file, header.number, "unknown unit keyword '" + std::string(words[k]) +
                                                    "' on the REACTIONS line (expected CAL/MOLE, KCAL/MOLE, JOULES/MOLE, "
                                                    "KJOULES/MOLE, KELVINS, EVOLTS, MOLES or MOLECULES)");
  }
  return u;
}

struct RawArrhenius {
  double a = 0.0, b = 0.0, e = 0.0;
};

struct RawPlog {
  double atm = 0.0;
  RawArrhenius rate;
};

// A reaction as written, before its kind is known; the kind decides the units of its rate constants.
struct Pending {
  ParsedEquation eq;
  std::string equation;
  int line = 0;
  RawArrhenius rate;
  std::optional<RawArrhenius> low, high, rev;
  std::optional<std::vector<double>> troe, sri;
  std::vector<RawPlog> plog;
  std::vector<std::pair<int, double>> efficiencies;
  std::vector<Term> ford, rord;
  bool duplicate = false;
  int aux_line = 0;  // the last auxiliary line, for errors about the combination of keywords
};

std::vector<double> numbers(std::string_view text, const Line& line, const std::string& keyword, const std::string& file) {
  std::vector<double> out;
  for (std::string_view w : split_whitespace(text)) {
    const auto v = parse_real(w);
    if (!v) throw MechanismError(file, line.number, "malformed number '" + std::string(w) + "' in " + keyword + " /" +
                                                        std::string(trim(text)) + "/");
    out.push_back(*v);
  }
  return out;
}

std::vector<double> expect_count(std::string_view text, const Line& line, const std::string& keyword,
                                 std::initializer_list<std::size_t> counts, const std::string& file) {
  std::vector<double> v = numbers(text, line, keyword, file);
  if (std::find(counts.begin(), counts.end(), v.size()) == counts.end()) {
    std::string allowed;
    for (std::size_t c : counts) allowed += (allowed.empty() ? "" : " or ") + std::to_string(c);
    throw MechanismError(file, line.number, keyword + " needs " + allowed + " numbers, got " + std::to_string(v.size()));
  }
  return v;
}

Term order_term(std::string_view text, const Line& line, const std::string& keyword, const Mechanism& m, const std::string& file) {
  const auto words = split_whitespace(text);
  if (words.size() != 2) throw MechanismError(file, line.number, keyword + " needs 'species order', got '" + std::string(trim(text)) + "'");
  const int k = m.species_index(words[0]);
  if (k < 0) throw MechanismError(file, line.number, "undeclared species '" + std::string(words[0]) + "' in " + keyword);
  const auto v = parse_real(words[1]);
  if (!v) throw MechanismError(file, line.number, "malformed number '" + std::string(words[1]) + "' in " + keyword);
  return {k, *v};
}

bool unsupported(const std::string& keyword) {
  for (const char* k : {"LT", "RLT", "HV", "TDEP", "CHEB", "TCHEB", "PCHEB", "JAN", "FIT1", "EXCI", "MOME", "XSMI", "USRPROG",
                        "UNITS", "COLLEFF", "MWON", "MWOFF"})
    if (keyword == k) return true;
  return false;
}

void read_auxiliary(const Line& line, Pending& r, const Mechanism& m, const std::string& file) {
  r.aux_line = line.number;
  const std::string_view text = line.text;
  std::size_t p = 0;
  while (p < text.size()) {
    while (p < text.size() && std::isspace(static_cast<unsigned char>(text[p]))) ++p;
    if (p >= text.size()) break;
    const std::size_t start = p;
    while (p < text.size() && !std::isspace(static_cast<unsigned char>(text[p])) && text[p] != '/') ++p;
    const std::string word(text.substr(start, p - start));
    const std::string key = upper(word);
    while (p < text.size() && std::isspace(static_cast<unsigned char>(text[p]))) ++p;
    std::optional<std::string_view> value;
    if (p < text.size() && text[p] == '/') {
      const auto close = text.find('/', p + 1);
      if (close == std::string_view::npos) throw MechanismError(file, line.number, "unclosed '/' after '" + word + "'");
      value = text.substr(p + 1, close - p - 1);
      p = close + 1;
    }
    if (word.empty()) throw MechanismError(file, line.number, "'/' without a keyword before it");
    if (key == "DUP" || key == "DUPLICATE") {
      r.duplicate = true;
      continue;
    }
    if (!value) {
      if (unsupported(key)) throw MechanismError(file, line.number, "unsupported auxiliary keyword '" + word + "'");
      throw MechanismError(file, line.number, "unknown auxiliary keyword '" + word + "'");
    }
    auto arrhenius = [&] {
      const auto v = expect_count(*value, line, key, {3}, file);
      return RawArrhenius{v[0], v[1], v[2]};
    };
    if (key == "LOW") r.low = arrhenius();
    else if (key == "HIGH") r.high = arrhenius();
    else if (key == "REV") r.rev = arrhenius();
    else if (key == "TROE") r.troe = expect_count(*value, line, key, {3, 4}, file);
    else if (key == "SRI") r.sri = expect_count(*value, line, key, {3, 5}, file);
    else if (key == "PLOG") {
      const auto v = expect_count(*value, line, key, {4}, file);
      r.plog.push_back({v[0], {v[1], v[2], v[3]}});
    } else if (key == "FORD") r.ford.push_back(order_term(*value, line, key, m, file));
    else if (key == "RORD") r.rord.push_back(order_term(*value, line, key, m, file));
    else if (const int k = m.species_index(word); k >= 0) {
      if (r.eq.third_body == ThirdBodyMark::none || r.eq.collider >= 0)
        throw MechanismError(file, line.number, "third-body efficiency for '" + word + "' given to reaction '" + r.equation +
                                                    "', which has no '+M' or '(+M)'");
      r.efficiencies.emplace_back(k, expect_count(*value, line, word, {1}, file)[0]);
    } else if (unsupported(key)) {
      throw MechanismError(file, line.number, "unsupported auxiliary keyword '" + word + "'");
    } else {
      throw MechanismError(file, line.number, "unknown auxiliary keyword '" + word + "' (neither a keyword nor a declared species)");
    }
  }
}

double total(const std::vector<Term>& terms) {
  double n = 0.0;
  for (const Term& t : terms) n += t.coefficient;
  return n;
}

Arrhenius to_si(const RawArrhenius& raw, double order, const Units& u) {
  return {raw.a * std::pow(u.per_order, order - 1.0), raw.b, raw.e * u.energy};
}

Reaction finish(const Pending& p, const Units& u, const std::string& file) {
  Reaction r;
  r.equation = p.equation;
  r.line = p.line;
  r.reactants = p.eq.reactants;
  r.products = p.eq.products;
  r.reversible = p.eq.reversible;
  r.duplicate = p.duplicate;
  r.forward_orders = p.ford;
  r.reverse_orders = p.rord;
  r.third_body.efficiencies = p.efficiencies;
  r.third_body.collider = p.eq.collider;
  auto fail = [&](const std::string& problem) { throw MechanismError(file, p.aux_line ? p.aux_line : p.line, problem); };
  const bool pdep = p.eq.third_body == ThirdBodyMark::falloff;
  if (!pdep && (p.low || p.high || p.troe || p.sri))
    fail("reaction '" + p.equation + "' has LOW, HIGH, TROE or SRI but no '(+M)'");
  if (pdep && p.low.has_value() == p.high.has_value())
    fail("falloff reaction '" + p.equation + "' needs exactly one of LOW (falloff) or HIGH (chemically activated)");
  if (p.troe && p.sri) fail("reaction '" + p.equation + "' has both TROE and SRI");
  if (!p.plog.empty() && p.eq.third_body != ThirdBodyMark::none) fail("PLOG reaction '" + p.equation + "' cannot have a third body");
  if (p.rev && !r.reversible) fail("irreversible reaction '" + p.equation + "' has REV");
  // Chemkin's pressure-dependent REV forms (its own LOW/TROE or PLOG for the reverse) are not modelled.
  if (p.rev && (pdep || !p.plog.empty())) fail("REV on falloff or PLOG reaction '" + p.equation + "' is not supported");
  if (!p.rord.empty() && !r.reversible) fail("irreversible reaction '" + p.equation + "' has RORD");

  const double n_f = total(r.forward_exponents());
  if (pdep) {
    r.kind = p.low ? RateKind::falloff : RateKind::chemically_activated;
    // The reaction line holds the limit that LOW/HIGH does not: k_inf for falloff, k_0 otherwise.
    const RawArrhenius& raw_low = p.low ? *p.low : p.rate;
    const RawArrhenius& raw_high = p.low ? p.rate : *p.high;
    // Pr = k0 [M] / k_inf is dimensionless, so k0 has one order more than k_inf; the effective rate
    // has k_inf's order in falloff and k0's order when chemically activated.
    const double high_order = r.kind == RateKind::falloff ? n_f : n_f - 1.0;
    r.low = to_si(raw_low, high_order + 1.0, u);
    r.high = to_si(raw_high, high_order, u);
    if (p.troe) {
      r.falloff = FalloffForm::troe;
      r.troe = {(*p.troe)[0], (*p.troe)[1], (*p.troe)[2], std::nullopt};
      if (p.troe->size() == 4) r.troe.t2 = (*p.troe)[3];
    } else if (p.sri) {
      r.falloff = FalloffForm::sri;
      const auto& s = *p.sri;
      r.sri = {s[0], s[1], s[2], s.size() == 5 ? s[3] : 1.0, s.size() == 5 ? s[4] : 0.0};
    }
  } else if (!p.plog.empty()) {
    r.kind = RateKind::plog;
    for (const RawPlog& q : p.plog) r.plog.push_back({q.atm * one_atm, to_si(q.rate, n_f, u)});
    std::stable_sort(r.plog.begin(), r.plog.end(), [](const PlogRate& a, const PlogRate& b) { return a.pressure < b.pressure; });
  } else {
    r.kind = p.eq.third_body == ThirdBodyMark::plus_m ? RateKind::three_body : RateKind::elementary;
    r.rate = to_si(p.rate, n_f + (r.kind == RateKind::three_body ? 1.0 : 0.0), u);
  }
  if (p.rev) r.reverse = to_si(*p.rev, total(r.reverse_exponents()) + (r.uses_third_body() ? 1.0 : 0.0), u);
  return r;
}

}  // namespace

std::size_t read_reactions(const std::vector<Line>& lines, std::size_t i, Mechanism& m, const std::string& file) {
  const Units units = read_units(lines[i], file);
  Pending pending;
  bool have_pending = false;
  auto flush = [&] {
    if (have_pending) m.reactions.push_back(finish(pending, units, file));
    have_pending = false;
  };
  for (++i; i < lines.size(); ++i) {
    const Line& line = lines[i];
    const std::string word = first_word(line);
    if (word.empty()) continue;
    if (word == "END") {
      ++i;
      break;
    }
    if (is_section_keyword(word)) break;
    if (line.text.find('=') == std::string::npos) {
      if (!have_pending) throw MechanismError(file, line.number, "auxiliary line '" + std::string(trim(line.text)) + "' before any reaction");
      read_auxiliary(line, pending, m, file);
      continue;
    }
    flush();
    const auto words = split_whitespace(line.text);
    if (words.size() < 4)
      throw MechanismError(file, line.number, "reaction line needs an equation followed by A, b and E: '" +
                                                  std::string(trim(line.text)) + "'");
    double arrhenius[3];
    for (std::size_t k = 0; k < 3; ++k) {
      const std::string_view w = words[words.size() - 3 + k];
      const auto v = parse_real(w);
      if (!v) throw MechanismError(file, line.number, "malformed number '" + std::string(w) + "' in the Arrhenius parameters");
      arrhenius[k] = *v;
    }
    const std::size_t eq_end = static_cast<std::size_t>(words[words.size() - 3].data() - line.text.data());
    Pending p{};
    p.equation = std::string(trim(std::string_view(line.text).substr(0, eq_end)));
    p.line = line.number;
    p.eq = parse_equation(p.equation, m, file, line.number);
    p.rate = {arrhenius[0], arrhenius[1], arrhenius[2]};
    pending = std::move(p);
    have_pending = true;
  }
  flush();
  return i;
}

}  // namespace hetflow::chem::chemkin
