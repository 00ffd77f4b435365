#include "hetflow/chem/yaml_mechanism.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <fstream>
#include <sstream>

#include "hetflow/chem/equation.hpp"
#include "hetflow/chem/mechanism_check.hpp"
#include "hetflow/chem/mechanism_error.hpp"
#include "hetflow/chem/parse_text.hpp"
#include "hetflow/chem/yaml_units.hpp"

namespace hetflow::chem {
namespace {

int line_of(const YAML::Node& n) { return n.Mark().line + 1; }

// Factors from the file's `units` block to SI; Cantera's defaults are SI with the kilomole.
struct Units {
  double length = 1.0, quantity = 1e3, time = 1.0, energy = 1e-3, pressure = 1.0;
};

class Reader {
 public:
  explicit Reader(std::string source) : source_(std::move(source)) {}

  [[noreturn]] void fail(const YAML::Node& at, const std::string& problem) const {
    throw MechanismError(source_, line_of(at), problem);
  }

  YAML::Node require(const YAML::Node& map, const char* key, const YAML::Node& owner) const {
    const YAML::Node found = map[key];
    if (!found) fail(owner, "missing key '" + std::string(key) + "'");
    return found;
  }

  std::string text(const YAML::Node& n) const {
    if (!n.IsScalar()) fail(n, "expected a scalar");
    return n.Scalar();
  }

  // A number, or "number unit-expression"; a bare number takes `default_factor`.
  double quantity(const YAML::Node& n, double default_factor) const {
    const std::string s = text(n);
    if (const auto v = parse_real(s)) return *v * default_factor;
    const auto words = split_whitespace(s);
    const auto v = words.empty() ? std::nullopt : parse_real(words[0]);
    if (!v) fail(n, "malformed number '" + s + "'");
    const auto f = unit_factor(std::string_view(s).substr(static_cast<std::size_t>(words[1 % words.size()].data() - s.data())));
    if (words.size() < 2 || !f) fail(n, "unknown units in '" + s + "'");
    return *v * *f;
  }

  void read_units(const YAML::Node& root) {
    const YAML::Node u = root["units"];
    if (!u) return;
    auto factor = [&](const char* key, double& out) {
      if (const YAML::Node n = u[key]) {
        const auto f = unit_factor(text(n));
        if (!f) fail(n, "unknown unit '" + text(n) + "' for " + key);
        out = *f;
      }
    };
    factor("length", units_.length);
    factor("quantity", units_.quantity);
    factor("time", units_.time);
    factor("activation-energy", units_.energy);
    factor("pressure", units_.pressure);
  }

  Arrhenius rate(const YAML::Node& n, double order) const {
    if (!n.IsMap()) fail(n, "expected a rate constant {A: ..., b: ..., Ea: ...}");
    const double per_order = std::pow(units_.length, 3) / units_.quantity;
    return {quantity(require(n, "A", n), std::pow(per_order, order - 1.0) / units_.time),
            quantity(require(n, "b", n), 1.0), quantity(require(n, "Ea", n), units_.energy)};
  }

  void read_elements(const YAML::Node& root, const YAML::Node& phase, Mechanism& m) const {
    const YAML::Node custom = root["elements"];
    for (const YAML::Node& e : require(phase, "elements", phase)) {
      const std::string symbol = text(e);
      std::optional<double> weight = standard_atomic_weight(symbol);
      if (custom)
        for (const YAML::Node& c : custom)
          if (c["symbol"] && text(c["symbol"]) == symbol) weight = quantity(require(c, "atomic-weight", c), 1e-3);
      if (!weight) fail(e, "element '" + symbol + "' has no standard atomic weight and no entry under 'elements'");
      m.elements.push_back({symbol, *weight});
    }
  }

  Nasa7 thermo(const YAML::Node& n, const std::string& name) const {
    const std::string model = text(require(n, "model", n));
    if (model != "NASA7") fail(n, "species '" + name + "': unsupported thermo model '" + model + "' (only NASA7)");
    const YAML::Node ranges = require(n, "temperature-ranges", n);
    const YAML::Node data = require(n, "data", n);
    if (!ranges.IsSequence() || ranges.size() < 2 || ranges.size() > 3 || !data.IsSequence() || data.size() + 1 != ranges.size())
      fail(n, "species '" + name + "': NASA7 needs 2 or 3 temperatures and one 7-coefficient list per range");
    auto coefficients = [&](const YAML::Node& list) {
      if (!list.IsSequence() || list.size() != 7) fail(list, "species '" + name + "': a NASA7 range needs 7 coefficients");
      std::array<double, 7> a{};
      for (std::size_t k = 0; k < 7; ++k) a[k] = quantity(list[k], 1.0);
      return a;
    };
    Nasa7 t;
    t.t_low = quantity(ranges[0], 1.0);
    t.t_high = quantity(ranges[ranges.size() - 1], 1.0);
    t.low = coefficients(data[0]);
    t.high = data.size() == 2 ? coefficients(data[1]) : t.low;
    t.t_mid = ranges.size() == 3 ? quantity(ranges[1], 1.0) : t.t_high;
    return t;
  }

  void read_species(const YAML::Node& root, const YAML::Node& phase, Mechanism& m) const {
    const YAML::Node all = require(root, "species", root);
    const YAML::Node wanted = require(phase, "species", phase);
    auto find = [&](const std::string& name) -> std::optional<YAML::Node> {
      for (const YAML::Node& s : all)
        if (s["name"] && text(s["name"]) == name) return s;
      return std::nullopt;
    };
    std::vector<std::string> names;
    if (wanted.IsScalar() && text(wanted) == "all") {
      for (const YAML::Node& s : all) names.push_back(text(require(s, "name", s)));
    } else if (wanted.IsSequence()) {
      for (const YAML::Node& w : wanted) {
        if (!w.IsScalar()) fail(w, "species lists from other files or sections are not supported");
        names.push_back(text(w));
      }
    } else {
      fail(wanted, "expected a list of species names or 'all'");
    }
    for (std::size_t i = 0; i < names.size(); ++i) {
      const std::optional<YAML::Node> found = find(names[i]);
      if (!found) fail(wanted.IsSequence() ? wanted[i] : wanted, "species '" + names[i] + "' is not defined under 'species'");
      const YAML::Node& s = *found;
      Species sp{names[i], {}, 0.0, {}};
      for (const auto& kv : require(s, "composition", s)) {
        const std::string symbol = text(kv.first);
        const int e = m.element_index(symbol);
        if (e < 0) fail(kv.first, "species '" + names[i] + "' contains element '" + symbol + "', which the phase does not declare");
        sp.composition.emplace_back(e, quantity(kv.second, 1.0));
      }
      sp.thermo = thermo(require(s, "thermo", s), names[i]);
      m.species.push_back(std::move(sp));
    }
  }

  std::vector<std::pair<int, double>> species_values(const YAML::Node& map, const Mechanism& m, const std::string& what) const {
    if (!map.IsMap()) fail(map, "expected a map of species to " + what);
    std::vector<std::pair<int, double>> out;
    for (const auto& kv : map) {
      const int k = m.species_index(text(kv.first));
      if (k < 0) fail(kv.first, "undeclared species '" + text(kv.first) + "' in " + what);
      out.emplace_back(k, quantity(kv.second, 1.0));
    }
    return out;
  }

  Reaction reaction(const YAML::Node& n, const Mechanism& m) const {
    static const char* known[] = {"equation", "type", "rate-constant", "low-P-rate-constant", "high-P-rate-constant", "Troe",
                                  "SRI", "efficiencies", "default-efficiency", "duplicate", "orders", "rate-constants",
                                  "negative-A", "negative-orders", "nonreactant-orders", "note", "id"};
    for (const auto& kv : n) {
      const std::string key = text(kv.first);
      if (std::none_of(std::begin(known), std::end(known), [&](const char* k) { return key == k; }))
        fail(kv.first, "unknown reaction key '" + key + "'");
    }
    Reaction r;
    r.line = line_of(n);
    r.equation = text(require(n, "equation", n));
    const ParsedEquation eq = parse_equation(r.equation, m, source_, r.line);
    r.reactants = eq.reactants;
    r.products = eq.products;
    r.reversible = eq.reversible;
    r.third_body.collider = eq.collider;
    std::string type = n["type"] ? text(n["type"]) : "elementary";
    if (!n["type"] && eq.third_body == ThirdBodyMark::plus_m) type = "three-body";
    if (!n["type"] && eq.third_body == ThirdBodyMark::falloff) type = "falloff";
    if (n["duplicate"]) r.duplicate = n["duplicate"].as<bool>(false);
    if (n["orders"]) {
      for (const auto& [k, order] : species_values(n["orders"], m, "orders")) r.forward_orders.push_back({k, order});
    }
    const bool pdep = type == "falloff" || type == "chemically-activated";
    if ((eq.third_body == ThirdBodyMark::falloff) != pdep || (eq.third_body == ThirdBodyMark::plus_m) != (type == "three-body"))
      fail(n, "reaction '" + r.equation + "': type '" + type + "' does not match the third body in its equation");
    double n_f = 0.0;
    for (const Term& t : r.forward_exponents()) n_f += t.coefficient;
    if (type == "elementary" || type == "three-body") {
      r.kind = type == "elementary" ? RateKind::elementary : RateKind::three_body;
      r.rate = rate(require(n, "rate-constant", n), n_f + (r.kind == RateKind::three_body ? 1.0 : 0.0));
    } else if (pdep) {
      r.kind = type == "falloff" ? RateKind::falloff : RateKind::chemically_activated;
      // k0 has one order more than k_inf (Pr = k0 [M]/k_inf); see the Chemkin reader.
      const double high_order = r.kind == RateKind::falloff ? n_f : n_f - 1.0;
      r.low = rate(require(n, "low-P-rate-constant", n), high_order + 1.0);
      r.high = rate(require(n, "high-P-rate-constant", n), high_order);
      if (const YAML::Node t = n["Troe"]) {
        r.falloff = FalloffForm::troe;
        r.troe = {quantity(require(t, "A", t), 1.0), quantity(require(t, "T3", t), 1.0), quantity(require(t, "T1", t), 1.0),
                  std::nullopt};
        if (t["T2"]) r.troe.t2 = quantity(t["T2"], 1.0);
      } else if (const YAML::Node s = n["SRI"]) {
        r.falloff = FalloffForm::sri;
        r.sri = {quantity(require(s, "A", s), 1.0), quantity(require(s, "B", s), 1.0), quantity(require(s, "C", s), 1.0),
                 s["D"] ? quantity(s["D"], 1.0) : 1.0, s["E"] ? quantity(s["E"], 1.0) : 0.0};
      }
    } else if (type == "pressure-dependent-Arrhenius") {
      r.kind = RateKind::plog;
      for (const YAML::Node& p : require(n, "rate-constants", n))
        r.plog.push_back({quantity(require(p, "P", p), units_.pressure), rate(p, n_f)});
      std::stable_sort(r.plog.begin(), r.plog.end(), [](const PlogRate& a, const PlogRate& b) { return a.pressure < b.pressure; });
    } else {
      fail(n, "reaction '" + r.equation + "': unsupported type '" + type + "'");
    }
    if (n["efficiencies"]) {
      if (!r.uses_third_body() || r.third_body.collider >= 0)
        fail(n["efficiencies"], "reaction '" + r.equation + "' has efficiencies but no '+M' or '(+M)'");
      r.third_body.efficiencies = species_values(n["efficiencies"], m, "efficiencies");
    }
    if (n["default-efficiency"]) r.third_body.default_efficiency = quantity(n["default-efficiency"], 1.0);
    return r;
  }

  Mechanism read(std::string_view text_in, const std::string& phase_name) {
    YAML::Node root;
    try {
      root = YAML::Load(std::string(text_in));
    } catch (const YAML::Exception& e) {
      throw MechanismError(source_, e.mark.line + 1, "YAML syntax: " + e.msg);
    }
    if (!root.IsMap()) throw MechanismError(source_, 1, "a mechanism file must be a YAML map");
    read_units(root);
    const YAML::Node phases = require(root, "phases", root);
    std::optional<YAML::Node> chosen;
    for (const YAML::Node& p : phases)
      if (!chosen && (phase_name.empty() || (p["name"] && text(p["name"]) == phase_name))) chosen.emplace(p);
    if (!chosen) fail(phases, "no phase named '" + phase_name + "'");
    const YAML::Node& phase = *chosen;
    // hetflow's thermo is the ideal gas's: a real-gas phase would be read as one without a word.
    if (const YAML::Node thermo = phase["thermo"]; thermo && text(thermo) != "ideal-gas") {
      std::string others;
      for (const YAML::Node& p : phases)
        if (p["thermo"] && text(p["thermo"]) == "ideal-gas" && p["name"]) others += " '" + text(p["name"]) + "'";
      fail(thermo, "phase '" + (phase["name"] ? text(phase["name"]) : std::string()) + "' is thermo: " + text(thermo) +
                       ", and hetflow models ideal gases only" +
                       (others.empty() ? std::string() : "; this file's ideal-gas phases:" + others));
    }
    Mechanism m;
    read_elements(root, phase, m);
    read_species(root, phase, m);
    // Cantera's phase key `reactions`: a section name (or a list of one), `all` for the default section,
    // `none`; without the key the default section, where the file has one.
    std::string section = "reactions";
    const YAML::Node r = phase["reactions"];
    if (r) {
      if (r.IsSequence() && r.size() == 1) section = text(r[0]);
      else if (r.IsScalar()) section = text(r);
      else fail(r, "only one reaction section per phase is supported");
      if (section == "all") section = "reactions";
      if (section == "declared-species")
        fail(r, "reactions: declared-species (dropping reactions of undeclared species) is not supported; name "
                "the section, or use all");
    }
    if (section != "none") {
      if (root[section]) {
        for (const YAML::Node& n : root[section]) m.reactions.push_back(reaction(n, m));
      } else if (r) {
        fail(r, "the phase names the reaction section '" + section + "', which the file does not have");
      }
    }
    finish_mechanism(m, source_);
    return m;
  }

 private:
  std::string source_;
  Units units_;
};

}  // namespace

Mechanism parse_yaml_mechanism(std::string_view text, const std::string& source, const std::string& phase) {
  Reader reader(source);
  try {
    return reader.read(text, phase);
  } catch (const YAML::Exception& e) {  // a value of the wrong type, reached through as<>()
    throw MechanismError(source, e.mark.line + 1, e.msg);
  }
}

Mechanism read_yaml_mechanism(const std::filesystem::path& path, const std::string& phase) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw io::system_error("open", path, errno);
  std::ostringstream s;
  s << in.rdbuf();
  return parse_yaml_mechanism(s.str(), path.string(), phase);
}

}  // namespace hetflow::chem
