#include "hetflow/chem/reactor_source.hpp"

#include <string_view>

#include "hetflow/core/number_text.hpp"

namespace hetflow::chem {
namespace {

// A double as an OpenCL C double literal that reads back to the same bits: 17 significant digits,
// and a decimal point where %g leaves an integer (which C would read as an int).
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

// Fixed helpers; the mechanism-specific code below calls them. Each mirrors one host function:
// chem_arrhenius arrhenius(), chem_troe troe_factor() after F_cent, chem_sri sri_factor(),
// chem_floor std::max(x, floor) (returning x unless x < floor, as std::max does).
constexpr std::string_view prelude = R"(
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF

double chem_floor(double x, double floor) { return x < floor ? floor : x; }

double chem_arrhenius(double a, double b, double ea, double T) {
  return a * exp(b * log(T) - ea / (CHEM_R * T));
}

double chem_troe(double fcent, double log10_pr) {
  const double log_fcent = log10(chem_floor(fcent, CHEM_TINY));
  const double c = -0.4 - 0.67 * log_fcent;
  const double n = 0.75 - 1.27 * log_fcent;
  const double f1 = (log10_pr + c) / (n - 0.14 * (log10_pr + c));
  return pow(10.0, log_fcent / (1.0 + f1 * f1));
}

double chem_sri(double T, double log10_pr, double a, double b, double c, double d, double e) {
  const double x = 1.0 / (1.0 + log10_pr * log10_pr);
  return d * pow(a * exp(-b / T) + exp(-T / c), x) * pow(T, e);
}

// PLOG (Kinetics::forward_constant): between tabulated pressures pp ln k is linear in ln p, outside
// them the nearest entry holds; i is the last pressure <= P, as upper_bound - 1 finds it on the host.
double chem_plog_rate(double P, int n, const double* pp, const double* kp) {
  if (P <= pp[0]) return kp[0];
  if (P >= pp[n - 1]) return kp[n - 1];
  int i = 0;
  while (!(P < pp[i + 1])) ++i;
  const double w = log(P / pp[i]) / log(pp[i + 1] / pp[i]);
  return exp(log(kp[i]) + w * (log(kp[i + 1]) - log(kp[i])));
}

// Molar c_p, h and g = h - T s of every species (thermo.cpp): the lower polynomial up to and
// including T_mid.
void chem_thermo(double T, double* cp, double* h, double* g) {
  for (int k = 0; k < CHEM_K; ++k) {
    __constant const double* a = T <= chem_t_mid[k] ? chem_nasa_low[k] : chem_nasa_high[k];
    cp[k] = CHEM_R * (a[0] + T * (a[1] + T * (a[2] + T * (a[3] + T * a[4]))));
    h[k] = CHEM_R * T * (a[0] + T * (a[1] / 2 + T * (a[2] / 3 + T * (a[3] / 4 + T * a[4] / 5))) + a[5] / T);
    const double s = CHEM_R * (a[0] * log(T) + T * (a[1] + T * (a[2] / 2 + T * (a[3] / 3 + T * a[4] / 4))) + a[6]);
    g[k] = h[k] - T * s;
  }
}
)";

std::string arrhenius_call(const Arrhenius& k) {
  return "chem_arrhenius(" + literal(k.a) + ", " + literal(k.b) + ", " + literal(k.ea) + ", T)";
}

// `name` = Π c_k^order (concentration_product): integer orders multiply, so that small negative
// concentrations stay smooth; other orders take a non-negative base.
std::string concentration_product(const std::string& name, const std::vector<Term>& exponents) {
  std::string s = "    double " + name + " = 1.0;\n";
  for (const Term& t : exponents) {
    const std::string x = "c[" + num(t.species) + "]";
    std::string factor;
    if (t.coefficient == 1.0) factor = x;
    else if (t.coefficient == 2.0) factor = x + " * " + x;
    else if (t.coefficient == 3.0) factor = x + " * " + x + " * " + x;
    else factor = "pow(chem_floor(" + x + ", 0.0), " + literal(t.coefficient) + ")";
    s += "    " + name + " *= " + factor + ";\n";
  }
  return s;
}

// [M] (third_body_concentration): the named collider alone, or the default efficiency times the
// total plus the listed species' excess efficiencies.
std::string third_body(const ThirdBody& tb) {
  if (tb.collider >= 0) return "    const double m = c[" + num(tb.collider) + "];\n";
  std::string s = "    double m = " + literal(tb.default_efficiency) + " * c_total;\n";
  for (const auto& [k, eff] : tb.efficiencies)
    s += "    m += " + literal(eff - tb.default_efficiency) + " * c[" + num(k) + "];\n";
  return s;
}

std::string falloff_constant(const Reaction& r) {
  std::string s = "    const double k0 = " + arrhenius_call(r.low) + ";\n";
  s += "    const double kinf = " + arrhenius_call(r.high) + ";\n";
  s += "    const double pr = k0 * m / kinf;\n";
  s += "    const double log10_pr = log10(chem_floor(pr, CHEM_TINY));\n";
  switch (r.falloff) {
    case FalloffForm::lindemann:
      s += "    const double f = 1.0;\n";
      break;
    case FalloffForm::troe:
      // F_cent keeps only the terms the host adds: zero T*** or T* drop theirs, T** is optional.
      s += "    double fcent = 0.0;\n";
      if (r.troe.t3 != 0.0) s += "    fcent += " + literal(1.0 - r.troe.a) + " * exp(-T / " + literal(r.troe.t3) + ");\n";
      if (r.troe.t1 != 0.0) s += "    fcent += " + literal(r.troe.a) + " * exp(-T / " + literal(r.troe.t1) + ");\n";
      if (r.troe.t2) s += "    fcent += exp(" + literal(-*r.troe.t2) + " / T);\n";
      s += "    const double f = chem_troe(fcent, log10_pr);\n";
      break;
    case FalloffForm::sri:
      s += "    const double f = chem_sri(T, log10_pr, " + literal(r.sri.a) + ", " + literal(r.sri.b) + ", " +
           literal(r.sri.c) + ", " + literal(r.sri.d) + ", " + literal(r.sri.e) + ");\n";
      break;
  }
  s += r.kind == RateKind::falloff ? "    const double kf = kinf * pr / (1.0 + pr) * f;\n"
                                   : "    const double kf = k0 / (1.0 + pr) * f;\n";
  return s;
}

// PLOG: rates given twice at one pressure add (chem_plog_rate interpolates between the sums).
std::string plog_constant(const Reaction& r) {
  std::vector<double> pressures;
  std::vector<std::string> sums;
  for (const PlogRate& q : r.plog) {
    if (pressures.empty() || pressures.back() != q.pressure) {
      pressures.push_back(q.pressure);
      sums.push_back("0.0");
    }
    sums.back() = "(" + sums.back() + " + " + arrhenius_call(q.rate) + ")";
  }
  const std::string n = std::to_string(pressures.size());
  std::vector<std::string> pressure_text;
  for (double p : pressures) pressure_text.push_back(literal(p));
  return "    const double pp[" + n + "] = {" + join(pressure_text, ", ") + "};\n" + "    const double kp[" + n +
         "] = {" + join(sums, ",\n        ") + "};\n" + "    const double kf = chem_plog_rate(P, " + n + ", pp, kp);\n";
}

double total(const std::vector<Term>& terms) {
  double n = 0.0;
  for (const Term& t : terms) n += t.coefficient;
  return n;
}

// One reaction's contribution to w = ω̇ (Kinetics::rates and production_rates).
std::string reaction(const Reaction& r, std::size_t j) {
  std::string s = "  {  // " + std::to_string(j) + ": " + r.equation + "\n";
  if (r.uses_third_body()) s += third_body(r.third_body);
  switch (r.kind) {
    case RateKind::elementary:
    case RateKind::three_body:
      s += "    const double kf = " + arrhenius_call(r.rate) + ";\n";
      break;
    case RateKind::falloff:
    case RateKind::chemically_activated:
      s += falloff_constant(r);
      break;
    case RateKind::plog:
      s += plog_constant(r);
      break;
  }
  // [M] multiplies three-body rates; in falloff rates it is already inside kf.
  const std::string scale = r.kind == RateKind::three_body ? "m * " : "";
  s += concentration_product("forward_product", r.forward_exponents());
  s += "    const double qf = " + scale + "kf * forward_product;\n";
  if (r.reversible) {
    if (r.reverse) {
      s += "    const double kr = " + arrhenius_call(*r.reverse) + ";\n";
    } else {
      // K_c = exp(-ΔG°/RT) (p_atm/RT)^Δν
      s += "    double dg = 0.0;\n";
      for (const Term& t : r.products) s += "    dg += " + literal(t.coefficient) + " * g[" + num(t.species) + "];\n";
      for (const Term& t : r.reactants) s += "    dg -= " + literal(t.coefficient) + " * g[" + num(t.species) + "];\n";
      s += "    const double kr = kf * exp(dg / (CHEM_R * T) - " + literal(total(r.products) - total(r.reactants)) +
           " * log_c0);\n";
    }
    s += concentration_product("reverse_product", r.reverse_exponents());
    s += "    const double q = qf - " + scale + "kr * reverse_product;\n";
  } else {
    s += "    const double q = qf;\n";
  }
  for (const Term& t : r.reactants) s += "    w[" + num(t.species) + "] -= " + literal(t.coefficient) + " * q;\n";
  for (const Term& t : r.products) s += "    w[" + num(t.species) + "] += " + literal(t.coefficient) + " * q;\n";
  return s + "  }\n";
}

std::string table(const std::string& name, const std::vector<std::string>& rows) {
  return "__constant double " + name + " = {\n    " + join(rows, ",\n    ") + "};\n";
}

std::string coefficients(const std::array<double, 7>& a) {
  std::vector<std::string> text;
  for (double x : a) text.push_back(literal(x));
  // Appended rather than "{" + join(...), which GCC 12 misreads as an overlapping copy (-Wrestrict).
  std::string s = "{";
  s += join(text, ", ");
  return s + "}";
}

}  // namespace

std::string reactor_rhs_source(const Mechanism& m) {
  const std::string k = std::to_string(m.species.size());
  std::string s = "// The constant-pressure adiabatic reactor of a " + k + "-species, " +
                  std::to_string(m.reactions.size()) +
                  "-reaction mechanism, generated by hetflow::chem::reactor_rhs_source.\n";
  s += "#define CHEM_K " + k + "\n";
  s += "#define CHEM_R " + literal(gas_constant) + "\n";
  s += "#define CHEM_ONE_ATM " + literal(one_atm) + "\n";
  // Keeps log10 finite when a falloff pressure ratio or F_cent underflows to zero.
  s += "#define CHEM_TINY 1e-300\n";
  std::vector<std::string> weights, t_mid, low, high;
  for (const Species& sp : m.species) {
    weights.push_back(literal(sp.molecular_weight));
    t_mid.push_back(literal(sp.thermo.t_mid));
    low.push_back(coefficients(sp.thermo.low));
    high.push_back(coefficients(sp.thermo.high));
  }
  s += table("chem_weight[CHEM_K]", weights);
  s += table("chem_t_mid[CHEM_K]", t_mid);
  s += table("chem_nasa_low[CHEM_K][7]", low);
  s += table("chem_nasa_high[CHEM_K][7]", high);
  s += prelude;

  s += R"(
// Net molar production rates w [mol/(m^3 s)] from the concentrations c and the species' g.
void chem_production_rates(double T, double P, const double* c, const double* g, double* w) {
  const double log_c0 = log(CHEM_ONE_ATM / (CHEM_R * T));
  double c_total = 0.0;
  for (int k = 0; k < CHEM_K; ++k) c_total += c[k];
  for (int k = 0; k < CHEM_K; ++k) w[k] = 0.0;
)";
  for (std::size_t j = 0; j < m.reactions.size(); ++j) s += reaction(m.reactions[j], j);
  s += "}\n";

  // ConstantPressureReactor::rhs: dY_k/dt = W_k ω̇_k / ρ, dT/dt = -Σ h_k ω̇_k / (ρ c̄_p).
  s += R"(
void rhs(double t, const double* y, double* f, __global const double* p) {
  const double P = p[0];
  const double T = y[CHEM_K];
  double inverse_weight = 0.0;
  for (int k = 0; k < CHEM_K; ++k) inverse_weight += y[k] / chem_weight[k];
  const double rho = P * (1.0 / inverse_weight) / (CHEM_R * T);
  double c[CHEM_K], cp[CHEM_K], h[CHEM_K], g[CHEM_K], w[CHEM_K];
  for (int k = 0; k < CHEM_K; ++k) c[k] = rho * y[k] / chem_weight[k];
  chem_thermo(T, cp, h, g);
  chem_production_rates(T, P, c, g, w);
  double cp_mass = 0.0;
  double heat_release = 0.0;
  for (int k = 0; k < CHEM_K; ++k) {
    cp_mass += y[k] * cp[k] / chem_weight[k];
    heat_release += h[k] * w[k];
    f[k] = chem_weight[k] * w[k] / rho;
  }
  f[CHEM_K] = -heat_release / (rho * cp_mass);
}
)";
  return s;
}

ode::System reactor_system(const Mechanism& m) {
  return ode::System{static_cast<int>(m.species.size()) + 1, reactor_rhs_source(m), false, 1};
}

}  // namespace hetflow::chem
