// OpenCL C for the reactor's analytic Jacobian: the generated twin of kinetics_derivatives.cpp and
// reactor_jacobian.cpp. Every formula keeps the host's order of operations, so that device and host
// agree to the last bits that the devices' exp, log and pow leave.
#include <numbers>
#include <string_view>

#include "hetflow/chem/kinetics_parts.hpp"
#include "hetflow/chem/reactor_source.hpp"
#include "hetflow/chem/reactor_source_parts.hpp"

namespace hetflow::chem {
namespace {

using namespace source;

// Fixed helpers, each the twin of a host function: chem_troe_slopes troe_slopes() after F_cent',
// chem_sri_slopes sri_slopes(), chem_plog_slope and chem_plog_pressure_slope the PLOG case of
// Kinetics::forward_slopes (d ln k/dT, d ln k/d ln p),
// chem_nasa_cp_slope cp_over_r_slope() from a species' 7 coefficients. Arrhenius slopes are written out
// (slope_call).
constexpr std::string_view helpers = R"(
void chem_troe_slopes(double fcent, double dfcent, double log10_pr, double* dx, double* dT) {
  const int clamped = fcent < CHEM_TINY;
  const double log_fcent = log10(clamped ? CHEM_TINY : fcent);
  const double c = -0.4 - 0.67 * log_fcent;
  const double n = 0.75 - 1.27 * log_fcent;
  const double u = log10_pr + c;
  const double d = n - 0.14 * u;
  const double f1 = u / d;
  const double den = 1.0 + f1 * f1;
  const double df1_dx = n / (d * d);
  const double df1_dl = (1.1762 * u - 0.67 * d) / (d * d);
  const double s = 2.0 * log_fcent * f1 / (den * den);
  const double dlogf_dx = -s * df1_dx;
  const double dlogf_dl = 1.0 / den - s * df1_dl;
  *dx = CHEM_LN10 * dlogf_dx;
  *dT = clamped ? 0.0 : dlogf_dl * dfcent / fcent;
}

void chem_sri_slopes(double T, double log10_pr, double a, double b, double c, double e, double* dx, double* dT) {
  const double x = 1.0 / (1.0 + log10_pr * log10_pr);
  const double ea = a * exp(-b / T);
  const double ec = exp(-T / c);
  const double base = ea + ec;
  *dx = -2.0 * log10_pr * x * x * log(base);
  *dT = x * (ea * b / (T * T) - ec / c) / base + e / T;
}

double chem_plog_slope(double P, int n, const double* pp, const double* kp, const double* dkp) {
  if (P <= pp[0]) return dkp[0] / kp[0];
  if (P >= pp[n - 1]) return dkp[n - 1] / kp[n - 1];
  int i = 0;
  while (!(P < pp[i + 1])) ++i;
  const double w = log(P / pp[i]) / log(pp[i + 1] / pp[i]);
  const double lo = dkp[i] / kp[i];
  const double hi = dkp[i + 1] / kp[i + 1];
  return lo + w * (hi - lo);
}

double chem_plog_pressure_slope(double P, int n, const double* pp, const double* kp) {
  if (P <= pp[0] || P >= pp[n - 1]) return 0.0;
  int i = 0;
  while (!(P < pp[i + 1])) ++i;
  return (log(kp[i + 1]) - log(kp[i])) / log(pp[i + 1] / pp[i]);
}

double chem_nasa_cp_slope(double T, const double* a) { return a[1] + T * (2 * a[2] + T * (3 * a[3] + T * 4 * a[4])); }
)";

// d ln k/dT = (b + E_a / RT) / T (arrhenius_log_slope) with the caller's RT, as arrhenius_call writes k.
std::string slope_call(const Arrhenius& k) { return "((" + literal(k.b) + " + " + literal(k.ea) + " / RT) / T)"; }

// dkf_dT and dkf_dm (Kinetics::forward_slopes), after forward_constant's statements.
std::string forward_slopes(const Reaction& r) {
  switch (r.kind) {
    case RateKind::elementary:
    case RateKind::three_body:
      return "    const double dkf_dT = kf * " + slope_call(r.rate) + ";\n    const double dkf_dm = 0.0;\n";
    case RateKind::plog: {
      std::vector<std::string> sums;
      for (const std::vector<Arrhenius>& rates : parts::plog_table(r).rates) {
        std::string sum = "0.0";
        for (const Arrhenius& a : rates) sum = "(" + sum + " + " + arrhenius_call(a) + " * " + slope_call(a) + ")";
        sums.push_back(sum);
      }
      const std::string n = std::to_string(sums.size());
      return "    const double dkp[" + n + "] = {" + join(sums, ",\n        ") + "};\n" +
             "    const double dkf_dT = kf * chem_plog_slope(P, " + n + ", pp, kp, dkp);\n    const double dkf_dm = 0.0;\n" +
             "#if CHEM_CONSTANT_VOLUME\n    const double dkf_dlnp = kf * chem_plog_pressure_slope(P, " + n +
             ", pp, kp);\n#endif\n";
    }
    case RateKind::falloff:
    case RateKind::chemically_activated:
      break;
  }
  std::string s = "    double bx = 0.0, bT = 0.0;\n";
  if (r.falloff == FalloffForm::troe) {
    const Troe& t = r.troe;
    s += "    double dfcent = 0.0;\n";
    if (t.t3 != 0.0)
      s += "    dfcent -= " + literal(1.0 - t.a) + " * exp(-T / " + literal(t.t3) + ") / " + literal(t.t3) + ";\n";
    if (t.t1 != 0.0) s += "    dfcent -= " + literal(t.a) + " * exp(-T / " + literal(t.t1) + ") / " + literal(t.t1) + ";\n";
    if (t.t2) s += "    dfcent += " + literal(*t.t2) + " * exp(" + literal(-*t.t2) + " / T) / (T * T);\n";
    s += "    chem_troe_slopes(fcent, dfcent, log10_pr, &bx, &bT);\n";
  }
  if (r.falloff == FalloffForm::sri)
    s += "    chem_sri_slopes(T, log10_pr, " + literal(r.sri.a) + ", " + literal(r.sri.b) + ", " + literal(r.sri.c) +
         ", " + literal(r.sri.e) + ", &bx, &bT);\n";
  s += "    const int live = !(pr < CHEM_TINY);\n";
  s += "    const double a0 = " + slope_call(r.low) + ";\n";
  s += "    const double ainf = " + slope_call(r.high) + ";\n";
  s += "    const double dlnf_dT = bT + (live ? bx / CHEM_LN10 * (a0 - ainf) : 0.0);\n";
  s += "    const double dlnf_dm = live ? bx / (CHEM_LN10 * m) : 0.0;\n";
  s += "    const double blend = k0 * f / ((1.0 + pr) * (1.0 + pr));\n";
  if (r.kind == RateKind::falloff)
    return s + "    const double dkf_dT = kf * (ainf + (a0 - ainf) / (1.0 + pr) + dlnf_dT);\n" +
           "    const double dkf_dm = blend + kf * dlnf_dm;\n";
  return s + "    const double dkf_dT = kf * (a0 - (a0 - ainf) * pr / (1.0 + pr) + dlnf_dT);\n" +
         "    const double dkf_dm = -blend * (k0 / kinf) + kf * dlnf_dm;\n";
}

// dkr_dT and dkr_dm after reverse_constant's statements.
std::string reverse_slopes(const Reaction& r) {
  if (r.reverse) return "    const double dkr_dT = kr * " + slope_call(*r.reverse) + ";\n    const double dkr_dm = 0.0;\n";
  std::string s = reaction_change(r, "dh", "h");
  s += "    const double dkr_dT = dkf_dT * ratio + kr * (" + literal(parts::total(r.products) - parts::total(r.reactants)) +
       " / T - dh / (RT * T));\n";
  return s + "    const double dkr_dm = dkf_dm * ratio;\n";
}

// parts::factor_derivative as an expression.
std::string factor_derivative(const std::string& x, double order) {
  if (order == 1.0) return "1.0";
  if (order == 2.0) return "2.0 * " + x;
  if (order == 3.0) return "3.0 * (" + x + " * " + x + ")";
  return "(" + x + " > 0.0 ? " + literal(order) + " * pow(" + x + ", " + literal(order - 1.0) + ") : 0.0)";
}

// ∂(product)/∂c of the exponent `which` (parts::concentration_product_derivative) as an expression
// evaluated left to right from 1.0.
std::string product_derivative(const std::vector<Term>& exponents, std::size_t which) {
  std::string s = "1.0";
  for (std::size_t u = 0; u < exponents.size(); ++u) {
    const std::string x = "c[" + num(exponents[u].species) + "]";
    const double order = exponents[u].coefficient;
    s = "(" + s + " * (" + (u == which ? factor_derivative(x, order) : factor(x, order)) + "))";
  }
  return s;
}

// One reaction's contributions to w, to J = ∂ω̇/∂c (stride CHEM_N) and to wT = ∂ω̇/∂T
// (Kinetics::production_rate_jacobian).
std::string reaction(const Reaction& r, std::size_t j, std::size_t species) {
  const std::string scale = rate_scale(r);
  const bool three_body = r.kind == RateKind::three_body;
  const std::string multiplier = three_body ? "m" : "1.0";  // the host's `scale`
  std::string s = "  {  // " + std::to_string(j) + ": " + r.equation + "\n";
  s += forward_constant(r) + forward_slopes(r);
  s += concentration_product("forward_product", r.forward_exponents());
  s += "    const double qf = " + scale + "kf * forward_product;\n";
  std::string dq_dm = "dkf_dm * forward_product";
  if (r.reversible) {
    s += reverse_constant(r) + reverse_slopes(r);
    s += concentration_product("reverse_product", r.reverse_exponents());
    s += "    const double q = qf - " + scale + "kr * reverse_product;\n";
    s += "    const double dq_dT = " + multiplier + " * (dkf_dT * forward_product - dkr_dT * reverse_product);\n";
    dq_dm = three_body ? "kf * forward_product - kr * reverse_product"
                       : "dkf_dm * forward_product - dkr_dm * reverse_product";
  } else {
    s += "    const double q = qf;\n";
    s += "    const double dq_dT = " + multiplier + " * (dkf_dT * forward_product);\n";
    if (three_body) dq_dm = "kf * forward_product";
  }
  if (r.uses_third_body()) s += "    const double dq_dm = " + dq_dm + ";\n";
  // A PLOG rate moves with the pressure, which at constant volume follows the state: dq/d ln p
  // (Kinetics::production_rate_jacobian's dq_dlnp), collected in J's T column, which jac() fills last.
  const bool plog = r.kind == RateKind::plog;
  if (plog)
    s += "#if CHEM_CONSTANT_VOLUME\n    const double dq_dlnp = dkf_dlnp * forward_product" +
         std::string(r.reversible && !r.reverse ? " - dkf_dlnp * ratio * reverse_product" : "") + ";\n#endif\n";

  // ∂q/∂c_s through the concentration products.
  std::vector<std::pair<int, std::string>> dq_dc;
  const std::vector<Term> forward = r.forward_exponents(), reverse = r.reverse_exponents();
  for (std::size_t u = 0; u < forward.size(); ++u)
    dq_dc.emplace_back(forward[u].species, multiplier + " * kf * " + product_derivative(forward, u));
  if (r.reversible)
    for (std::size_t u = 0; u < reverse.size(); ++u)
      dq_dc.emplace_back(reverse[u].species, "-(" + multiplier + " * kr * " + product_derivative(reverse, u) + ")");
  for (std::size_t u = 0; u < dq_dc.size(); ++u)
    s += "    const double dq_dc" + std::to_string(u) + " = " + dq_dc[u].second + ";\n";

  s += production(r);
  auto scatter = [&](const Term& t, double nu) {
    const std::size_t k = static_cast<std::size_t>(t.species);
    const std::string n = literal(nu);
    std::string out = "    wT[" + num(t.species) + "] += " + n + " * dq_dT;\n";
    if (plog)
      out += "#if CHEM_CONSTANT_VOLUME\n    J[" + std::to_string(k + species * (species + 1)) + "] += " + n +
             " * dq_dlnp;\n#endif\n";
    for (std::size_t u = 0; u < dq_dc.size(); ++u)
      out += "    J[" + std::to_string(k + static_cast<std::size_t>(dq_dc[u].first) * (species + 1)) + "] += " + n +
             " * dq_dc" + std::to_string(u) + ";\n";
    if (!r.uses_third_body()) return out;
    const ThirdBody& tb = r.third_body;
    if (tb.collider >= 0)
      return out + "    J[" + std::to_string(k + static_cast<std::size_t>(tb.collider) * (species + 1)) + "] += " + n +
             " * dq_dm;\n";
    out += "    dwdm[" + std::to_string(k) + "] += " + n + " * (dq_dm * " + literal(tb.default_efficiency) + ");\n";
    for (const auto& [sp, eff] : tb.efficiencies)
      out += "    J[" + std::to_string(k + static_cast<std::size_t>(sp) * (species + 1)) + "] += " + n + " * (dq_dm * " +
             literal(eff - tb.default_efficiency) + ");\n";
    return out;
  };
  for (const Term& t : r.reactants) s += scatter(t, -t.coefficient);
  for (const Term& t : r.products) s += scatter(t, t.coefficient);
  return s + "  }\n";
}

}  // namespace

namespace source {

std::string jacobian_helpers() {
  std::string s = "\n// The reactor's analytic Jacobian, generated by hetflow::chem.\n";
  s += "#define CHEM_N (CHEM_K + 1)\n";
  s += "#define CHEM_LN10 " + literal(std::numbers::ln10) + "\n";
  return s + std::string(helpers);
}

}  // namespace source

std::string reactor_jacobian_source(const Mechanism& m) {
  std::string s = jacobian_helpers();
  s += R"(
double chem_cp_slope(double T, int k) {
  double a[7];
  chem_coefficients(T, k, a);
  return chem_nasa_cp_slope(T, a);
}

// w = ω̇, J[k + i CHEM_N] += ∂ω̇_k/∂c_i and wT = ∂ω̇/∂T at fixed c (J zeroed by the caller). dwdm gathers
// ∂ω̇_k/∂[M] at the default third-body efficiencies, which every column of row k gains after the reactions.
void chem_production_jacobian(double T, double P, const double* c, const double* g, const double* h, double* w,
                              double* J, double* wT) {
  const double log_T = log(T), RT = CHEM_R * T;
  const double log_c0 = log(CHEM_ONE_ATM / RT);
  double c_total = 0.0, dwdm[CHEM_K];
  for (int k = 0; k < CHEM_K; ++k) c_total += c[k];
  for (int k = 0; k < CHEM_K; ++k) {
    w[k] = 0.0;
    wT[k] = 0.0;
    dwdm[k] = 0.0;
  }
)";
  for (std::size_t j = 0; j < m.reactions.size(); ++j) s += reaction(m.reactions[j], j, m.species.size());
  s += "  for (int i = 0; i < CHEM_K; ++i)\n    for (int k = 0; k < CHEM_K; ++k) J[k + i * CHEM_N] += dwdm[k];\n}\n";

  // ConstantPressureReactor::jacobian and ConstantVolumeReactor::jacobian (reactor_jacobian.cpp).
  s += R"(
void jac(double t, const double* y, double* dfdy, __global const double* p) {
  const double T = y[CHEM_K];
  const double RT = CHEM_R * T;
  double rho, P, c[CHEM_K], cp[CHEM_K], h[CHEM_K], g[CHEM_K], w[CHEM_K], wT[CHEM_K], f[CHEM_K], a[CHEM_K];
  chem_state(y, p[0], &rho, &P, c);
  chem_thermo(T, cp, h, g);
  for (int i = 0; i < CHEM_N * CHEM_N; ++i) dfdy[i] = 0.0;
  chem_production_jacobian(T, P, c, g, h, w, dfdy, wT);
  double cp_mass = 0.0, heat_release = 0.0, dcp_mass = 0.0;
  for (int k = 0; k < CHEM_K; ++k) {
    cp_mass += y[k] * CHEM_CAPACITY(cp[k]) / chem_weight[k];
    heat_release += CHEM_ENERGY(h[k], RT) * w[k];
    f[k] = chem_weight[k] * w[k] / rho;
  }
  for (int k = 0; k < CHEM_K; ++k) dcp_mass += y[k] * (CHEM_R * chem_cp_slope(T, k)) / chem_weight[k];
  const double f_T = -heat_release / (rho * cp_mass);
#if CHEM_CONSTANT_VOLUME
  // a: ∂ω̇/∂ln p / Σ c, from the T column where chem_production_jacobian left ∂ω̇/∂ln p.
  double c_total = 0.0;
  for (int k = 0; k < CHEM_K; ++k) c_total += c[k];
  for (int k = 0; k < CHEM_K; ++k) {
    a[k] = dfdy[k + CHEM_K * CHEM_N] / c_total;
    wT[k] = wT[k] + dfdy[k + CHEM_K * CHEM_N] / T;
  }
  for (int j = 0; j < CHEM_K; ++j) {
    double dheat = 0.0;
    for (int k = 0; k < CHEM_K; ++k) {
      const double dwdy = rho / chem_weight[j] * (dfdy[k + j * CHEM_N] + a[k]);
      dheat += CHEM_ENERGY(h[k], RT) * dwdy;
      dfdy[k + j * CHEM_N] = chem_weight[k] * dwdy / rho;
    }
    dfdy[CHEM_K + j * CHEM_N] = -dheat / (rho * cp_mass) - f_T * (CHEM_CAPACITY(cp[j]) / (chem_weight[j] * cp_mass));
  }
  double dheat = 0.0;
  for (int k = 0; k < CHEM_K; ++k) {
    dheat += CHEM_CAPACITY(cp[k]) * w[k] + CHEM_ENERGY(h[k], RT) * wT[k];
    dfdy[k + CHEM_K * CHEM_N] = chem_weight[k] * wT[k] / rho;
  }
  dfdy[CHEM_K + CHEM_K * CHEM_N] = -dheat / (rho * cp_mass) - f_T * (dcp_mass / cp_mass);
#else
  double inverse_weight = 0.0;
  for (int k = 0; k < CHEM_K; ++k) inverse_weight += y[k] / chem_weight[k];
  const double wbar = 1.0 / inverse_weight;
  for (int k = 0; k < CHEM_K; ++k) {
    a[k] = 0.0;
    for (int i = 0; i < CHEM_K; ++i) a[k] += dfdy[k + i * CHEM_N] * c[i];
    wT[k] = wT[k] - a[k] / T;
  }
  for (int j = 0; j < CHEM_K; ++j) {
    double dheat = 0.0;
    for (int k = 0; k < CHEM_K; ++k) {
      const double dwdy = rho / chem_weight[j] * dfdy[k + j * CHEM_N] - wbar / chem_weight[j] * a[k];
      dheat += h[k] * dwdy;
      dfdy[k + j * CHEM_N] = chem_weight[k] * dwdy / rho + f[k] * wbar / chem_weight[j];
    }
    dfdy[CHEM_K + j * CHEM_N] =
        -dheat / (rho * cp_mass) - f_T * (cp[j] / (chem_weight[j] * cp_mass) - wbar / chem_weight[j]);
  }
  double dheat = 0.0;
  for (int k = 0; k < CHEM_K; ++k) {
    dheat += cp[k] * w[k] + h[k] * wT[k];
    dfdy[k + CHEM_K * CHEM_N] = chem_weight[k] * wT[k] / rho + f[k] / T;
  }
  dfdy[CHEM_K + CHEM_K * CHEM_N] = -dheat / (rho * cp_mass) - f_T * (dcp_mass / cp_mass - 1.0 / T);
#endif
}
)";
  return s;
}

}  // namespace hetflow::chem
