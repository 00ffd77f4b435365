#include "hetflow/chem/reactor_source.hpp"

#include <algorithm>
#include <array>
#include <string_view>

#include "hetflow/chem/kinetics_parts.hpp"
#include "hetflow/chem/reactor_source_parts.hpp"
#include "hetflow/core/registry.hpp"

namespace hetflow::chem {
namespace {

using namespace source;

// Fixed helpers; the mechanism-specific code below calls them. Each mirrors one host function:
// chem_troe troe_factor() after F_cent, chem_sri sri_factor(), chem_floor std::max(x, floor) (returning
// x unless x < floor, as std::max does), chem_nasa species_thermo() from a species' 7 coefficients.
// Arrhenius rates are written out (arrhenius_call). The rhs path is written over the type REAL and
// names LANES(f): REAL is double and LANES(f) is f, except in the lanes copy (reactor_rhs_source).
constexpr std::string_view prelude = R"(
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
#define REAL double
#define LANES(name) name

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
)";

// The helpers over REAL, element by element where REAL is a vector: the ternary selects per lane.
constexpr std::string_view real_helpers = R"(
REAL LANES(chem_floor)(REAL x, double floor) { return x < floor ? floor : x; }

REAL LANES(chem_troe)(REAL fcent, REAL log10_pr) {
  const REAL log_fcent = log10(LANES(chem_floor)(fcent, CHEM_TINY));
  const REAL c = -0.4 - 0.67 * log_fcent;
  const REAL n = 0.75 - 1.27 * log_fcent;
  const REAL f1 = (log10_pr + c) / (n - 0.14 * (log10_pr + c));
  return pow((REAL)(10.0), log_fcent / (1.0 + f1 * f1));
}

REAL LANES(chem_sri)(REAL T, REAL log10_pr, double a, double b, double c, double d, double e) {
  const REAL x = 1.0 / (1.0 + log10_pr * log10_pr);
  return d * pow(a * exp(-b / T) + exp(-T / c), x) * pow(T, (REAL)(e));
}

// Molar c_p, h and g = h - T s (thermo.cpp) at T, log_T = log(T), from the 7 coefficients of the
// polynomial that holds at T.
void LANES(chem_nasa)(REAL T, REAL log_T, const REAL* a, REAL* cp, REAL* h, REAL* g) {
  *cp = CHEM_R * (a[0] + T * (a[1] + T * (a[2] + T * (a[3] + T * a[4]))));
  *h = CHEM_R * T * (a[0] + T * (a[1] / 2 + T * (a[2] / 3 + T * (a[3] / 4 + T * a[4] / 5))) + a[5] / T);
  const REAL s = CHEM_R * (a[0] * log_T + T * (a[1] + T * (a[2] / 2 + T * (a[3] / 3 + T * a[4] / 4))) + a[6]);
  *g = *h - T * s;
}
)";

// The species' constants as __constant arrays, for the generated rhs() and jac(); the group functions
// read them from the tables instead (reactor_tables.cpp).
constexpr std::string_view constant_thermo = R"(
// The coefficients of species k's polynomial for T: the lower one up to and including T_mid.
void LANES(chem_coefficients)(REAL T, int k, REAL* a) {
  for (int i = 0; i < 7; ++i) a[i] = T <= chem_t_mid[k] ? (REAL)(chem_nasa_low[k][i]) : (REAL)(chem_nasa_high[k][i]);
}

void LANES(chem_thermo)(REAL T, REAL* cp, REAL* h, REAL* g) {
  const REAL log_T = log(T);
  REAL a[7];
  for (int k = 0; k < CHEM_K; ++k) {
    LANES(chem_coefficients)(T, k, a);
    LANES(chem_nasa)(T, log_T, a, cp + k, h + k, g + k);
  }
}
)";

// CPUs' RADAU5 evaluates the three Newton stages of a step at once (ode::System::stage_lanes): the rhs
// path again over double4, one state per lane, which PoCL runs in SIMD registers with vector exp and log.
// chem_plog_rate, whose branches depend on the pressure, runs lane by lane.
constexpr std::string_view lanes_plog = R"(
double4 chem_plog_rate_lanes(double4 P, int n, const double* pp, const double4* kp) {
  double4 k;
  for (int l = 0; l < 4; ++l) {
    double kl[CHEM_MAX_PRESSURES];
    for (int i = 0; i < n; ++i) kl[i] = kp[i][l];
    k[l] = chem_plog_rate(P[l], n, pp, kl);
  }
  return k;
}
)";

// The energy equation's species terms, dT/dt = -Σ e_k ω̇_k / (ρ Σ Y_k c_k / W_k): e_k and c_k from the
// molar h, c_p and R T (ConstantPressureReactor, ConstantVolumeReactor::energies).
constexpr std::string_view constant_pressure_energy = R"(#define CHEM_ENERGY(h, RT) (h)
#define CHEM_CAPACITY(cp) (cp)
)";
constexpr std::string_view constant_volume_energy = R"(#define CHEM_ENERGY(h, RT) ((h) - (RT))
#define CHEM_CAPACITY(cp) ((cp) - CHEM_R)
)";

// Above this many equations the reactor is an ode::System::group_only system: RADAU5's mapping 1 keeps
// its matrices private only up to n = 64 (ode::Mapping), and for larger mechanisms the generated rhs()
// and jac(), one block of code per reaction, take long to compile while their species constants outgrow
// a GPU's 64 KiB of __constant memory.
constexpr std::size_t generated_max_n = 64;

// One reaction's contribution to w = ω̇ (Kinetics::rates and production_rates).
std::string reaction(const Reaction& r, std::size_t j) {
  std::string s = "  {  // " + std::to_string(j) + ": " + r.equation + "\n";
  s += forward_constant(r);
  // [M] multiplies three-body rates; in falloff rates it is already inside kf.
  s += concentration_product("forward_product", r.forward_exponents());
  s += "    const REAL qf = " + rate_scale(r) + "kf * forward_product;\n";
  if (r.reversible) {
    s += reverse_constant(r);
    s += concentration_product("reverse_product", r.reverse_exponents());
    s += "    const REAL q = qf - " + rate_scale(r) + "kr * reverse_product;\n";
  } else {
    s += "    const REAL q = qf;\n";
  }
  return s + production(r) + "  }\n";
}

// The most concentration exponents of one reaction, forward and reverse together (at least 1).
std::size_t max_exponents(const Mechanism& m) {
  std::size_t most = 1;
  for (const Reaction& r : m.reactions) most = std::max(most, r.forward_exponents().size() + r.reverse_exponents().size());
  return most;
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

namespace source {

std::string rhs_helpers(const Mechanism& m, ReactorKind kind) {
  const std::string k = std::to_string(m.species.size());
  const bool volume = kind == ReactorKind::constant_volume;
  std::string s = std::string("// The constant-") + (volume ? "volume" : "pressure") + " adiabatic reactor of a " + k +
                  "-species, " + std::to_string(m.reactions.size()) +
                  "-reaction mechanism, generated by hetflow::chem.\n";
  s += std::string("#define CHEM_CONSTANT_VOLUME ") + (volume ? "1" : "0") + "\n";
  s += std::string(volume ? constant_volume_energy : constant_pressure_energy);
  s += "#define CHEM_K " + k + "\n";
  s += "#define CHEM_REACTIONS " + std::to_string(m.reactions.size()) + "\n";
  std::size_t pressures = 1;
  for (const Reaction& r : m.reactions)
    if (r.kind == RateKind::plog) pressures = std::max(pressures, parts::plog_table(r).pressures.size());
  s += "#define CHEM_MAX_PRESSURES " + std::to_string(pressures) + "\n";
  s += "#define CHEM_MAX_EXPONENTS " + std::to_string(max_exponents(m)) + "\n";
  s += "#define CHEM_R " + literal(gas_constant) + "\n";
  s += "#define CHEM_ONE_ATM " + literal(one_atm) + "\n";
  // Keeps log10 finite when a falloff pressure ratio or F_cent underflows to zero.
  s += "#define CHEM_TINY 1e-300\n";
  return s + std::string(prelude) + std::string(real_helpers);
}

}  // namespace source

std::string reactor_rhs_source(const Mechanism& m, ReactorKind kind) {
  std::string s = rhs_helpers(m, kind);
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

  // The rhs path over REAL: the species' thermo, the production rates, the state and rhs() itself.
  std::string path(constant_thermo);
  path += R"(
// Net molar production rates w [mol/(m^3 s)] from the concentrations c and the species' g.
void LANES(chem_production_rates)(REAL T, REAL P, const REAL* c, const REAL* g, REAL* w) {
  const REAL log_T = log(T), RT = CHEM_R * T;
  const REAL log_c0 = log(CHEM_ONE_ATM / RT);
  REAL c_total = 0.0;
  for (int k = 0; k < CHEM_K; ++k) c_total += c[k];
  for (int k = 0; k < CHEM_K; ++k) w[k] = 0.0;
)";
  for (std::size_t j = 0; j < m.reactions.size(); ++j) path += reaction(m.reactions[j], j);
  path += "}\n";

  // ConstantPressureReactor::rhs: dY_k/dt = W_k ω̇_k / ρ, dT/dt = -Σ h_k ω̇_k / (ρ c̄_p);
  // ConstantVolumeReactor::rhs: ρ given, p = R T Σ C_k, dT/dt = -Σ u_k ω̇_k / (ρ c̄_v).
  path += R"(
// The density, the pressure and the concentrations of state y, the reactor's parameter p0 the pressure or
// (at constant volume) the density.
void LANES(chem_state)(const REAL* y, double p0, REAL* rho, REAL* P, REAL* c) {
  const REAL T = y[CHEM_K];
#if CHEM_CONSTANT_VOLUME
  *rho = p0;
  REAL c_total = 0.0;
  for (int k = 0; k < CHEM_K; ++k) {
    c[k] = p0 * y[k] / chem_weight[k];
    c_total += c[k];
  }
  *P = CHEM_R * T * c_total;
#else
  REAL inverse_weight = 0.0;
  for (int k = 0; k < CHEM_K; ++k) inverse_weight += y[k] / chem_weight[k];
  *rho = p0 * (1.0 / inverse_weight) / (CHEM_R * T);
  *P = p0;
  for (int k = 0; k < CHEM_K; ++k) c[k] = *rho * y[k] / chem_weight[k];
#endif
}

void LANES(rhs)(REAL t, const REAL* y, REAL* f, __global const double* p) {
  const REAL T = y[CHEM_K];
  const REAL RT = CHEM_R * T;
  REAL rho, P, c[CHEM_K], cp[CHEM_K], h[CHEM_K], g[CHEM_K], w[CHEM_K];
  LANES(chem_state)(y, p[0], &rho, &P, c);
  LANES(chem_thermo)(T, cp, h, g);
  LANES(chem_production_rates)(T, P, c, g, w);
  REAL cp_mass = 0.0;
  REAL heat_release = 0.0;
  for (int k = 0; k < CHEM_K; ++k) {
    cp_mass += y[k] * CHEM_CAPACITY(cp[k]) / chem_weight[k];
    heat_release += CHEM_ENERGY(h[k], RT) * w[k];
    f[k] = chem_weight[k] * w[k] / rho;
  }
  f[CHEM_K] = -heat_release / (rho * cp_mass);
}
)";
  s += path;
  // The lanes copy (lanes_plog), compiled where RADAU5 asks for it; REAL and LANES mean the scalar
  // path again after it, for jac() and the group functions.
  s += "#if ODE_STAGE_LANES\n#undef REAL\n#undef LANES\n#define REAL double4\n#define LANES(name) name##_lanes\n";
  s += std::string(real_helpers) + std::string(lanes_plog) + path;
  s += "#undef REAL\n#undef LANES\n#define REAL double\n#define LANES(name) name\n#endif\n";
  return s;
}

namespace {

// Where the sparse part S of jac_group's J = S + u vᵀ (reactor_group.cl, ODE_LOW_RANK) may be nonzero:
// each species of a reaction against the species its rate reads (concentration exponents, a named
// collider, efficiencies other than the default), and the temperature's row and column.
std::vector<std::array<int, 2>> jacobian_pattern(const Mechanism& m) {
  const int k = static_cast<int>(m.species.size());
  std::vector<std::array<int, 2>> pattern;
  for (const Reaction& r : m.reactions) {
    std::vector<int> reads;
    for (const Term& t : r.forward_exponents()) reads.push_back(t.species);
    if (r.reversible)
      for (const Term& t : r.reverse_exponents()) reads.push_back(t.species);
    if (r.uses_third_body()) {
      if (r.third_body.collider >= 0) reads.push_back(r.third_body.collider);
      for (const auto& [species, efficiency] : r.third_body.efficiencies) reads.push_back(species);
    }
    for (const std::vector<Term>* side : {&r.reactants, &r.products})
      for (const Term& t : *side)
        for (int j : reads) pattern.push_back({t.species, j});
  }
  for (int j = 0; j <= k; ++j) {
    pattern.push_back({k, j});
    pattern.push_back({j, k});
  }
  return pattern;
}

}  // namespace

ode::System reactor_system(const Mechanism& m, ReactorJacobian jacobian, ReactorKind kind) {
  const bool analytic = jacobian == ReactorJacobian::analytic;
  const bool group_only = analytic && m.species.size() + 1 > generated_max_n;
  std::string source = group_only ? rhs_helpers(m, kind) + jacobian_helpers() : reactor_rhs_source(m, kind);
  if (analytic && !group_only) source += reactor_jacobian_source(m);
  source += core::kernel_source("chem/reactor_group.cl");
  // reactor_group.cl's work: rhs_group's, or jac_group's (the larger: 7 K + R CHEM_DQ, CHEM_DQ =
  // 3 + CHEM_MAX_EXPONENTS + CHEM_CONSTANT_VOLUME).
  const std::size_t k = m.species.size(), r = m.reactions.size();
  const std::size_t dq = 3 + max_exponents(m) + (kind == ReactorKind::constant_volume ? 1 : 0);
  const std::size_t work = analytic ? 7 * k + r * dq : 5 * k + r;
  return ode::System{.n = static_cast<int>(k) + 1,
                     .source = std::move(source),
                     .analytic_jacobian = analytic,
                     .parameters = 1,  // the pressure or the density
                     .group_rhs = true,
                     .group_jac = analytic,
                     .group_work = work,
                     .tables = reactor_tables(m),
                     .group_only = group_only,
                     .stage_lanes = !group_only,
                     .jacobian_pattern = group_only ? jacobian_pattern(m) : std::vector<std::array<int, 2>>{},
                     .jacobian_low_rank = group_only};
}

std::vector<double> reactor_temperatures(const std::vector<double>& states, std::size_t species) {
  std::vector<double> t;
  t.reserve(states.size() / (species + 1));
  for (std::size_t at = species; at < states.size(); at += species + 1) t.push_back(states[at]);
  return t;
}

}  // namespace hetflow::chem
