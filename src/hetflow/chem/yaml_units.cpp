#include "hetflow/chem/yaml_units.hpp"

#include <cmath>
#include <string>

#include "hetflow/chem/mechanism.hpp"
#include "hetflow/chem/parse_text.hpp"

namespace hetflow::chem {
namespace {

struct Unit {
  const char* name;
  double si;
};

constexpr Unit units[] = {
    {"m", 1.0},         {"cm", 1e-2},         {"mm", 1e-3},           {"mol", 1.0},         {"kmol", 1e3},
    {"molec", 1.0 / avogadro}, {"s", 1.0},    {"ms", 1e-3},           {"min", 60.0},        {"h", 3600.0},
    {"J", 1.0},         {"kJ", 1e3},          {"cal", calorie},       {"kcal", 1e3 * calorie}, {"erg", 1e-7},
    {"Pa", 1.0},        {"kPa", 1e3},         {"MPa", 1e6},           {"bar", 1e5},         {"atm", one_atm},
    {"torr", one_atm / 760.0}, {"kg", 1.0},   {"g", 1e-3},            {"dyn", 1e-5},
};

std::optional<double> single(std::string_view token) {
  token = trim(token);
  double exponent = 1.0;
  if (const auto caret = token.find('^'); caret != std::string_view::npos) {
    const auto e = parse_real(token.substr(caret + 1));
    if (!e) return std::nullopt;
    exponent = *e;
    token = token.substr(0, caret);
  }
  if (token == "1") return 1.0;
  for (const Unit& u : units)
    if (token == u.name) return std::pow(u.si, exponent);
  return std::nullopt;
}

}  // namespace

std::optional<double> unit_factor(std::string_view expression) {
  expression = trim(expression);
  if (expression == "K") return gas_constant;
  if (expression == "eV") return electron_volt * avogadro;
  double factor = 1.0;
  bool divide = false;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= expression.size(); ++i) {
    if (i < expression.size() && expression[i] != '/' && expression[i] != '*' && expression[i] != ' ') continue;
    const std::string_view token = expression.substr(start, i - start);
    if (!trim(token).empty()) {
      const auto f = single(token);
      if (!f) return std::nullopt;
      factor = divide ? factor / *f : factor * *f;
    }
    if (i < expression.size() && expression[i] != ' ') divide = expression[i] == '/';
    start = i + 1;
  }
  return factor;
}

}  // namespace hetflow::chem
