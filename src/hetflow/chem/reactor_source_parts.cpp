#include "hetflow/chem/reactor_source_parts.hpp"

#include "hetflow/chem/kinetics_parts.hpp"
#include "hetflow/core/number_text.hpp"

namespace hetflow::chem::source {
namespace {

// [M] (third_body_concentration): the named collider alone, or the default efficiency times the
// total plus the listed species' excess efficiencies.
std::string third_body(const ThirdBody& tb) {
  if (tb.collider >= 0) return "    const REAL m = c[" + num(tb.collider) + "];\n";
  std::string s = "    REAL m = " + literal(tb.default_efficiency) + " * c_total;\n";
  for (const auto& [k, eff] : tb.efficiencies)
    s += "    m += " + literal(eff - tb.default_efficiency) + " * c[" + num(k) + "];\n";
  return s;
}

// parts::falloff: k0, kinf, pr, log10_pr, [fcent,] f and kf.
std::string falloff_constant(const Reaction& r) {
  std::string s = "    const REAL k0 = " + arrhenius_call(r.low) + ";\n";
  s += "    const REAL kinf = " + arrhenius_call(r.high) + ";\n";
  s += "    const REAL pr = k0 * m / kinf;\n";
  s += "    const REAL log10_pr = log10(LANES(chem_floor)(pr, CHEM_TINY));\n";
  switch (r.falloff) {
    case FalloffForm::lindemann:
      s += "    const REAL f = 1.0;\n";
      break;
    case FalloffForm::troe:
      // F_cent keeps only the terms the host adds: zero T*** or T* drop theirs, T** is optional.
      s += "    REAL fcent = 0.0;\n";
      if (r.troe.t3 != 0.0) s += "    fcent += " + literal(1.0 - r.troe.a) + " * exp(-T / " + literal(r.troe.t3) + ");\n";
      if (r.troe.t1 != 0.0) s += "    fcent += " + literal(r.troe.a) + " * exp(-T / " + literal(r.troe.t1) + ");\n";
      if (r.troe.t2) s += "    fcent += exp(" + literal(-*r.troe.t2) + " / T);\n";
      s += "    const REAL f = LANES(chem_troe)(fcent, log10_pr);\n";
      break;
    case FalloffForm::sri:
      s += "    const REAL f = LANES(chem_sri)(T, log10_pr, " + literal(r.sri.a) + ", " + literal(r.sri.b) + ", " +
           literal(r.sri.c) + ", " + literal(r.sri.d) + ", " + literal(r.sri.e) + ");\n";
      break;
  }
  s += r.kind == RateKind::falloff ? "    const REAL kf = kinf * pr / (1.0 + pr) * f;\n"
                                   : "    const REAL kf = k0 / (1.0 + pr) * f;\n";
  return s;
}

// PLOG: chem_plog_rate interpolates between the per-pressure sums.
std::string plog_constant(const Reaction& r) {
  const parts::PlogTable table = parts::plog_table(r);
  std::vector<std::string> pressures, sums;
  for (const double p : table.pressures) pressures.push_back(literal(p));
  for (const std::vector<Arrhenius>& rates : table.rates) {
    std::string sum = "0.0";
    for (const Arrhenius& a : rates) sum = "(" + sum + " + " + arrhenius_call(a) + ")";
    sums.push_back(sum);
  }
  const std::string n = std::to_string(pressures.size());
  return "    const double pp[" + n + "] = {" + join(pressures, ", ") + "};\n" + "    const REAL kp[" + n + "] = {" +
         join(sums, ",\n        ") + "};\n" + "    const REAL kf = LANES(chem_plog_rate)(P, " + n + ", pp, kp);\n";
}

}  // namespace

// 17 significant digits, and a decimal point where %g leaves an integer (which C would read as an int).
std::string literal(double v) {
  std::string s = core::number_text(v);
  if (s.find_first_of(".eEni") == std::string::npos) s += ".0";
  return s;
}

std::string num(int k) { return std::to_string(k); }

std::string join(const std::vector<std::string>& items, const std::string& separator) {
  std::string s;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) s += separator;
    s += items[i];
  }
  return s;
}

// arrhenius() written out as A exp(b log T - E_a / RT) with the caller's log_T = log(T) and RT = CHEM_R T,
// so the bits stay the host's. A zero b or E_a drops its term, which only ever added a zero (0 log T - x
// is -x, x - 0 / RT is x, exp(0) is 1); at b = E_a = 0 k is A. Written out, it spares the log and the
// division per reaction that NVIDIA's compiler keeps in a helper function taking T.
std::string arrhenius_call(const Arrhenius& k) {
  const std::string a = literal(k.a), b = literal(k.b), ea = literal(k.ea);
  if (k.b == 0.0 && k.ea == 0.0) return a;
  if (k.b == 0.0) return "(" + a + " * exp(-(" + ea + " / RT)))";
  if (k.ea == 0.0) return "(" + a + " * exp(" + b + " * log_T))";
  return "(" + a + " * exp(" + b + " * log_T - " + ea + " / RT))";
}

std::string factor(const std::string& x, double order) {
  if (order == 1.0) return x;
  if (order == 2.0) return x + " * " + x;
  if (order == 3.0) return x + " * " + x + " * " + x;
  return "pow(LANES(chem_floor)(" + x + ", 0.0), (REAL)(" + literal(order) + "))";
}

// Integer orders multiply, so that small negative concentrations stay smooth; other orders take a
// non-negative base.
std::string concentration_product(const std::string& name, const std::vector<Term>& exponents) {
  std::string s = "    REAL " + name + " = 1.0;\n";
  for (const Term& t : exponents) s += "    " + name + " *= " + factor("c[" + num(t.species) + "]", t.coefficient) + ";\n";
  return s;
}

std::string forward_constant(const Reaction& r) {
  std::string s = r.uses_third_body() ? third_body(r.third_body) : "";
  switch (r.kind) {
    case RateKind::elementary:
    case RateKind::three_body:
      return s + "    const REAL kf = " + arrhenius_call(r.rate) + ";\n";
    case RateKind::falloff:
    case RateKind::chemically_activated:
      return s + falloff_constant(r);
    case RateKind::plog:
      return s + plog_constant(r);
  }
  return s;
}

std::string reaction_change(const Reaction& r, const std::string& name, const std::string& x) {
  std::string s = "    REAL " + name + " = 0.0;\n";
  for (const Term& t : r.products) s += "    " + name + " += " + literal(t.coefficient) + " * " + x + "[" + num(t.species) + "];\n";
  for (const Term& t : r.reactants) s += "    " + name + " -= " + literal(t.coefficient) + " * " + x + "[" + num(t.species) + "];\n";
  return s;
}

std::string reverse_constant(const Reaction& r) {
  if (r.reverse) return "    const REAL kr = " + arrhenius_call(*r.reverse) + ";\n";
  // K_c = exp(-ΔG°/RT) (p_atm/RT)^Δν (parts::inverse_equilibrium_constant)
  std::string s = reaction_change(r, "dg", "g");
  // Without a change of moles the (p_atm/RT) factor's exponent adds a zero.
  const double change = parts::total(r.products) - parts::total(r.reactants);
  s += change == 0.0 ? "    const REAL ratio = exp(dg / RT);\n"
                     : "    const REAL ratio = exp(dg / RT - " + literal(change) + " * log_c0);\n";
  return s + "    const REAL kr = kf * ratio;\n";
}

std::string rate_scale(const Reaction& r) { return r.kind == RateKind::three_body ? "m * " : ""; }

std::string production(const Reaction& r) {
  std::string s;
  for (const Term& t : r.reactants) s += "    w[" + num(t.species) + "] -= " + literal(t.coefficient) + " * q;\n";
  for (const Term& t : r.products) s += "    w[" + num(t.species) + "] += " + literal(t.coefficient) + " * q;\n";
  return s;
}

}  // namespace hetflow::chem::source
