// The constant-pressure adiabatic reactor (ConstantPressureReactor) as an ODE system for RADAU5:
//   rhs(t, y, f, p, tables) and jac(t, y, dfdy, p, tables), y = (Y_1..Y_K, T), the pressure [Pa] in p[0],
// the mechanism in `tables` (laid out by reactor_tables.cpp). The code loops over the tables rather than
// spelling each reaction out: GRI-Mech 3.0 written out was 950 kB of source, minutes to compile on
// NVIDIA, and a GPU work-item running it alone (one work-group per system) waited on instruction fetch.
// Every formula keeps the host's order of operations (thermo.cpp, kinetics.cpp, kinetics_parts.cpp,
// kinetics_derivatives.cpp, reactor.cpp, reactor_jacobian.cpp), so device and host agree to the last
// bits that the devices' exp, log and pow leave; contraction stays off for the same reason.
// The host defines CHEM_K (species), CHEM_REACTIONS, CHEM_MAX_EXPONENTS (the most concentration
// exponents of one reaction, forward and reverse together), CHEM_R, CHEM_ONE_ATM and CHEM_LN10.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF

#define CHEM_N (CHEM_K + 1)
// Keeps log10 finite when a falloff pressure ratio or F_cent underflows to zero.
#define CHEM_TINY 1e-300

// Species k: molecular weight, T_mid, the lower then the upper NASA-7 coefficients.
#define CHEM_SPECIES_DOUBLES 16
#define CHEM_WEIGHT(k) tables[(k) * CHEM_SPECIES_DOUBLES]
// Reaction r's record starts at the offset stored after the species.
#define CHEM_RECORD(r) (tables + (int)tables[CHEM_K * CHEM_SPECIES_DOUBLES + (r)])

// A record's header; the O_ fields are offsets of its parts from the record's start.
#define H_KIND 0        // RateKind: elementary, three_body, falloff, chemically_activated, plog
#define H_FORM 1        // FalloffForm: lindemann, troe, sri
#define H_REVERSIBLE 2  // 0: irreversible, 1: equilibrium reverse rate, 2: explicit reverse Arrhenius
#define H_THIRD_BODY 3  // 0: none, 1: a named collider, 2: efficiencies
#define H_REACTANTS 4   // term counts of the four term lists
#define H_PRODUCTS 5
#define H_FORWARD 6
#define H_REVERSE 7
#define H_DELTA_NU 8  // Σ ν'' - Σ ν'
#define O_RATE 9      // Arrhenius (a, b, Ea); falloff: low, high, then Troe or SRI; PLOG: its table
#define O_REVERSE 10  // explicit reverse Arrhenius
#define O_THIRD_BODY 11  // collider species; or default efficiency, count, (species, efficiency - default)...
#define O_REACTANTS 12   // (species, coefficient) pairs
#define O_PRODUCTS 13
#define O_FORWARD 14  // (species, order) pairs of the forward and reverse concentration products
#define O_REVERSE_ORDERS 15
#define KIND_THREE_BODY 1
#define KIND_FALLOFF 2
#define KIND_ACTIVATED 3
#define KIND_PLOG 4
#define FORM_TROE 1
#define FORM_SRI 2

#define PART(rec, o) ((rec) + (int)(rec)[o])
#define COUNT(rec, h) ((int)(rec)[h])
#define SPECIES(terms, u) ((int)(terms)[2 * (u)])
#define COEFFICIENT(terms, u) ((terms)[2 * (u) + 1])

// std::max(x, floor): x unless x < floor.
double chem_floor(double x, double floor) { return x < floor ? floor : x; }

double chem_arrhenius(__global const double* k, double T) { return k[0] * exp(k[1] * log(T) - k[2] / (CHEM_R * T)); }

// d ln k / dT of an Arrhenius rate.
double chem_arrhenius_slope(__global const double* k, double T) { return (k[1] + k[2] / (CHEM_R * T)) / T; }

// Troe's F after F_cent (troe_factor).
double chem_troe(double fcent, double log10_pr) {
  const double log_fcent = log10(chem_floor(fcent, CHEM_TINY));
  const double c = -0.4 - 0.67 * log_fcent;
  const double n = 0.75 - 1.27 * log_fcent;
  const double f1 = (log10_pr + c) / (n - 0.14 * (log10_pr + c));
  return pow(10.0, log_fcent / (1.0 + f1 * f1));
}

// ∂ln F/∂ln Pr (dx, per unit ln Pr) and ∂ln F/∂T through F_cent (dT) (troe_slopes).
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

// SRI's F (sri_factor); s = (a, b, c, d, e).
double chem_sri(double T, double log10_pr, __global const double* s) {
  const double x = 1.0 / (1.0 + log10_pr * log10_pr);
  return s[3] * pow(s[0] * exp(-s[1] / T) + exp(-T / s[2]), x) * pow(T, s[4]);
}

void chem_sri_slopes(double T, double log10_pr, __global const double* s, double* dx, double* dT) {
  const double x = 1.0 / (1.0 + log10_pr * log10_pr);
  const double ea = s[0] * exp(-s[1] / T);
  const double ec = exp(-T / s[2]);
  const double base = ea + ec;
  *dx = -2.0 * log10_pr * x * x * log(base);
  *dT = x * (ea * s[1] / (T * T) - ec / s[2]) / base + s[4] / T;
}

// PLOG: table = (count, then per pressure: p, rates, offset of its rates from the record's start).
// Between tabulated pressures ln k is linear in ln p, outside them the nearest entry holds; lo is the
// last pressure <= P, as upper_bound - 1 finds it on the host.
typedef struct {
  int lo, hi;
  double w;
} ChemBracket;

ChemBracket chem_plog_bracket(__global const double* table, double P) {
  const int n = (int)table[0];
  ChemBracket b = {0, 0, 0.0};
  if (P <= table[1]) return b;
  b.lo = b.hi = n - 1;
  if (P >= table[1 + 3 * (n - 1)]) return b;
  b.lo = 0;
  while (!(P < table[1 + 3 * (b.lo + 1)])) ++b.lo;
  b.hi = b.lo + 1;
  b.w = log(P / table[1 + 3 * b.lo]) / log(table[1 + 3 * b.hi] / table[1 + 3 * b.lo]);
  return b;
}

// Σ k of the rates at pressure i (rates given twice at one pressure add up); with `slopes`, Σ k d ln k/dT.
double chem_plog_sum(__global const double* rec, __global const double* table, int i, double T, int slopes) {
  const int count = (int)table[2 + 3 * i];
  __global const double* rate = rec + (int)table[3 + 3 * i];
  double k = 0.0;
  for (int j = 0; j < count; ++j, rate += 3)
    k = k + (slopes ? chem_arrhenius(rate, T) * chem_arrhenius_slope(rate, T) : chem_arrhenius(rate, T));
  return k;
}

// One reaction's rate of progress and the pieces its derivatives need (Kinetics::rates,
// parts::falloff, parts::inverse_equilibrium_constant).
typedef struct {
  double m;                                 // [M] (third-body, falloff and activated rates)
  double kf, kr, ratio;                     // ratio = kr / kf for an equilibrium reverse rate
  double k0, kinf, pr, log10_pr, fcent, f;  // falloff and activated rates
  double forward_product, reverse_product, q;
} ChemRate;

// x^order, a factor of a concentration product: integer orders multiply, so that small negative
// concentrations stay smooth; other orders take a non-negative base.
double chem_factor(double x, double order) {
  if (order == 1.0) return x;
  if (order == 2.0) return x * x;
  if (order == 3.0) return x * x * x;
  return pow(chem_floor(x, 0.0), order);
}

double chem_factor_derivative(double x, double order) {
  if (order == 1.0) return 1.0;
  if (order == 2.0) return 2.0 * x;
  if (order == 3.0) return 3.0 * (x * x);
  return x > 0.0 ? order * pow(x, order - 1.0) : 0.0;
}

// Π c_k^order over n (species, order) pairs; with which >= 0, its derivative by that pair's species.
double chem_product(__global const double* terms, int n, const double* c, int which) {
  double s = 1.0;
  for (int u = 0; u < n; ++u) {
    const double x = c[SPECIES(terms, u)], order = COEFFICIENT(terms, u);
    s = s * (u == which ? chem_factor_derivative(x, order) : chem_factor(x, order));
  }
  return s;
}

// Σ ν'' x_k - Σ ν' x_k, products first: the reaction's change of a species property (g: ΔG°, h: ΔH°).
double chem_change(__global const double* rec, const double* x) {
  __global const double* products = PART(rec, O_PRODUCTS);
  __global const double* reactants = PART(rec, O_REACTANTS);
  double d = 0.0;
  for (int u = 0; u < COUNT(rec, H_PRODUCTS); ++u) d += COEFFICIENT(products, u) * x[SPECIES(products, u)];
  for (int u = 0; u < COUNT(rec, H_REACTANTS); ++u) d -= COEFFICIENT(reactants, u) * x[SPECIES(reactants, u)];
  return d;
}

ChemRate chem_rate(__global const double* rec, double T, double P, const double* c, double c_total, const double* g,
                   double log_c0) {
  ChemRate r = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0};
  const int kind = COUNT(rec, H_KIND);
  __global const double* rate = PART(rec, O_RATE);
  __global const double* third = PART(rec, O_THIRD_BODY);
  if (rec[H_THIRD_BODY] == 1.0) {
    r.m = c[(int)third[0]];
  } else if (rec[H_THIRD_BODY] == 2.0) {
    r.m = third[0] * c_total;
    for (int u = 0; u < (int)third[1]; ++u) r.m += third[3 + 2 * u] * c[(int)third[2 + 2 * u]];
  }
  if (kind == KIND_FALLOFF || kind == KIND_ACTIVATED) {
    r.k0 = chem_arrhenius(rate, T);
    r.kinf = chem_arrhenius(rate + 3, T);
    r.pr = r.k0 * r.m / r.kinf;
    r.log10_pr = log10(chem_floor(r.pr, CHEM_TINY));
    __global const double* form = rate + 6;
    if (rec[H_FORM] == FORM_TROE) {
      // (1 - A, T***, A, T*, has T**, T**, -T**); zero T*** or T* drop their terms, as on the host.
      r.fcent = 0.0;
      if (form[1] != 0.0) r.fcent += form[0] * exp(-T / form[1]);
      if (form[3] != 0.0) r.fcent += form[2] * exp(-T / form[3]);
      if (form[4] != 0.0) r.fcent += exp(form[6] / T);
      r.f = chem_troe(r.fcent, r.log10_pr);
    } else if (rec[H_FORM] == FORM_SRI) {
      r.f = chem_sri(T, r.log10_pr, form);
    }
    r.kf = kind == KIND_FALLOFF ? r.kinf * r.pr / (1.0 + r.pr) * r.f : r.k0 / (1.0 + r.pr) * r.f;
  } else if (kind == KIND_PLOG) {
    const ChemBracket b = chem_plog_bracket(rate, P);
    const double lo = chem_plog_sum(rec, rate, b.lo, T, 0);
    r.kf = b.lo == b.hi ? lo : exp(log(lo) + b.w * (log(chem_plog_sum(rec, rate, b.hi, T, 0)) - log(lo)));
  } else {
    r.kf = chem_arrhenius(rate, T);
  }
  // [M] multiplies three-body rates; in falloff rates it is already inside kf.
  const int scale = kind == KIND_THREE_BODY;
  r.forward_product = chem_product(PART(rec, O_FORWARD), COUNT(rec, H_FORWARD), c, -1);
  const double qf = scale ? r.m * r.kf * r.forward_product : r.kf * r.forward_product;
  r.q = qf;
  if (rec[H_REVERSIBLE] == 0.0) return r;
  if (rec[H_REVERSIBLE] == 2.0) {
    r.kr = chem_arrhenius(PART(rec, O_REVERSE), T);
  } else {
    // K_c^-1 = exp(ΔG°/RT - Δν ln(p_atm/RT))
    r.ratio = exp(chem_change(rec, g) / (CHEM_R * T) - rec[H_DELTA_NU] * log_c0);
    r.kr = r.kf * r.ratio;
  }
  r.reverse_product = chem_product(PART(rec, O_REVERSE_ORDERS), COUNT(rec, H_REVERSE), c, -1);
  r.q = scale ? qf - r.m * r.kr * r.reverse_product : qf - r.kr * r.reverse_product;
  return r;
}

// w[k] -= ν'_k q, w[k] += ν''_k q (Kinetics::production_rates).
void chem_produce(__global const double* rec, double q, double* w) {
  __global const double* reactants = PART(rec, O_REACTANTS);
  __global const double* products = PART(rec, O_PRODUCTS);
  for (int u = 0; u < COUNT(rec, H_REACTANTS); ++u) w[SPECIES(reactants, u)] -= COEFFICIENT(reactants, u) * q;
  for (int u = 0; u < COUNT(rec, H_PRODUCTS); ++u) w[SPECIES(products, u)] += COEFFICIENT(products, u) * q;
}

// Molar c_p, h and g = h - T s of every species (thermo.cpp): the lower polynomial up to and
// including T_mid.
void chem_thermo(double T, double* cp, double* h, double* g, __global const double* tables) {
  for (int k = 0; k < CHEM_K; ++k) {
    __global const double* species = tables + k * CHEM_SPECIES_DOUBLES;
    __global const double* a = species + (T <= species[1] ? 2 : 9);
    cp[k] = CHEM_R * (a[0] + T * (a[1] + T * (a[2] + T * (a[3] + T * a[4]))));
    h[k] = CHEM_R * T * (a[0] + T * (a[1] / 2 + T * (a[2] / 3 + T * (a[3] / 4 + T * a[4] / 5))) + a[5] / T);
    const double s = CHEM_R * (a[0] * log(T) + T * (a[1] + T * (a[2] / 2 + T * (a[3] / 3 + T * a[4] / 4))) + a[6]);
    g[k] = h[k] - T * s;
  }
}

// dc_p/dT / R of species k (cp_over_r_slope).
double chem_cp_slope(double T, int k, __global const double* tables) {
  __global const double* species = tables + k * CHEM_SPECIES_DOUBLES;
  __global const double* a = species + (T <= species[1] ? 2 : 9);
  return a[1] + T * (2 * a[2] + T * (3 * a[3] + T * 4 * a[4]));
}

// Σ c_k and ln(p_atm / RT), shared by every reaction.
double chem_total(const double* c) {
  double c_total = 0.0;
  for (int k = 0; k < CHEM_K; ++k) c_total += c[k];
  return c_total;
}

// Net molar production rates w [mol/(m^3 s)] from the concentrations c and the species' g.
void chem_production_rates(double T, double P, const double* c, const double* g, double* w,
                           __global const double* tables) {
  const double log_c0 = log(CHEM_ONE_ATM / (CHEM_R * T));
  const double c_total = chem_total(c);
  for (int k = 0; k < CHEM_K; ++k) w[k] = 0.0;
  for (int j = 0; j < CHEM_REACTIONS; ++j) {
    __global const double* rec = CHEM_RECORD(j);
    chem_produce(rec, chem_rate(rec, T, P, c, c_total, g, log_c0).q, w);
  }
}

// The reactor's state: density, concentrations and the species' thermo at (Y, T, P).
typedef struct {
  double T, wbar, rho;
} ChemState;

ChemState chem_state(const double* y, double P, double* c, __global const double* tables) {
  ChemState s;
  s.T = y[CHEM_K];
  double inverse_weight = 0.0;
  for (int k = 0; k < CHEM_K; ++k) inverse_weight += y[k] / CHEM_WEIGHT(k);
  s.wbar = 1.0 / inverse_weight;
  s.rho = P * s.wbar / (CHEM_R * s.T);
  for (int k = 0; k < CHEM_K; ++k) c[k] = s.rho * y[k] / CHEM_WEIGHT(k);
  return s;
}

// ConstantPressureReactor::rhs: dY_k/dt = W_k ω̇_k / ρ, dT/dt = -Σ h_k ω̇_k / (ρ c̄_p).
void rhs(double t, const double* y, double* f, __global const double* p, __global const double* tables) {
  const double P = p[0];
  double c[CHEM_K], cp[CHEM_K], h[CHEM_K], g[CHEM_K], w[CHEM_K];
  const ChemState s = chem_state(y, P, c, tables);
  chem_thermo(s.T, cp, h, g, tables);
  chem_production_rates(s.T, P, c, g, w, tables);
  double cp_mass = 0.0;
  double heat_release = 0.0;
  for (int k = 0; k < CHEM_K; ++k) {
    cp_mass += y[k] * cp[k] / CHEM_WEIGHT(k);
    heat_release += h[k] * w[k];
    f[k] = CHEM_WEIGHT(k) * w[k] / s.rho;
  }
  f[CHEM_K] = -heat_release / (s.rho * cp_mass);
}

// d kf/dT and d kf/d[M] (Kinetics::forward_slopes).
void chem_forward_slopes(__global const double* rec, const ChemRate* r, double T, double P, double* dT, double* dm) {
  const int kind = COUNT(rec, H_KIND);
  __global const double* rate = PART(rec, O_RATE);
  *dm = 0.0;
  if (kind == KIND_PLOG) {
    const ChemBracket b = chem_plog_bracket(rate, P);
    const double lo = chem_plog_sum(rec, rate, b.lo, T, 1) / chem_plog_sum(rec, rate, b.lo, T, 0);
    if (b.lo == b.hi) {
      *dT = r->kf * lo;
    } else {
      const double hi = chem_plog_sum(rec, rate, b.hi, T, 1) / chem_plog_sum(rec, rate, b.hi, T, 0);
      *dT = r->kf * (lo + b.w * (hi - lo));
    }
    return;
  }
  if (kind != KIND_FALLOFF && kind != KIND_ACTIVATED) {
    *dT = r->kf * chem_arrhenius_slope(rate, T);
    return;
  }
  double bx = 0.0, bT = 0.0;
  __global const double* form = rate + 6;
  if (rec[H_FORM] == FORM_TROE) {
    double dfcent = 0.0;
    if (form[1] != 0.0) dfcent -= form[0] * exp(-T / form[1]) / form[1];
    if (form[3] != 0.0) dfcent -= form[2] * exp(-T / form[3]) / form[3];
    if (form[4] != 0.0) dfcent += form[5] * exp(form[6] / T) / (T * T);
    chem_troe_slopes(r->fcent, dfcent, r->log10_pr, &bx, &bT);
  } else if (rec[H_FORM] == FORM_SRI) {
    chem_sri_slopes(T, r->log10_pr, form, &bx, &bT);
  }
  const int live = !(r->pr < CHEM_TINY);
  const double a0 = chem_arrhenius_slope(rate, T);
  const double ainf = chem_arrhenius_slope(rate + 3, T);
  const double dlnf_dT = bT + (live ? bx / CHEM_LN10 * (a0 - ainf) : 0.0);
  const double dlnf_dm = live ? bx / (CHEM_LN10 * r->m) : 0.0;
  const double blend = r->k0 * r->f / ((1.0 + r->pr) * (1.0 + r->pr));
  if (kind == KIND_FALLOFF) {
    *dT = r->kf * (ainf + (a0 - ainf) / (1.0 + r->pr) + dlnf_dT);
    *dm = blend + r->kf * dlnf_dm;
  } else {
    *dT = r->kf * (a0 - (a0 - ainf) * r->pr / (1.0 + r->pr) + dlnf_dT);
    *dm = -blend * (r->k0 / r->kinf) + r->kf * dlnf_dm;
  }
}

// One reaction's contributions to w, to J = ∂ω̇/∂c (stride CHEM_N) and to wT = ∂ω̇/∂T at fixed c
// (Kinetics::production_rate_jacobian).
void chem_reaction_jacobian(__global const double* rec, double T, double P, const double* c, double c_total,
                            const double* g, const double* h, double log_c0, double* w, double* J, double* wT) {
  const ChemRate r = chem_rate(rec, T, P, c, c_total, g, log_c0);
  const int three_body = COUNT(rec, H_KIND) == KIND_THREE_BODY;
  const double multiplier = three_body ? r.m : 1.0;
  double dkf_dT, dkf_dm;
  chem_forward_slopes(rec, &r, T, P, &dkf_dT, &dkf_dm);
  double dq_dT, dq_dm;
  if (rec[H_REVERSIBLE] != 0.0) {
    double dkr_dT, dkr_dm = 0.0;
    if (rec[H_REVERSIBLE] == 2.0) {
      dkr_dT = r.kr * chem_arrhenius_slope(PART(rec, O_REVERSE), T);
    } else {
      dkr_dT = dkf_dT * r.ratio + r.kr * (rec[H_DELTA_NU] / T - chem_change(rec, h) / (CHEM_R * T * T));
      dkr_dm = dkf_dm * r.ratio;
    }
    dq_dT = multiplier * (dkf_dT * r.forward_product - dkr_dT * r.reverse_product);
    dq_dm = three_body ? r.kf * r.forward_product - r.kr * r.reverse_product
                       : dkf_dm * r.forward_product - dkr_dm * r.reverse_product;
  } else {
    dq_dT = multiplier * (dkf_dT * r.forward_product);
    dq_dm = three_body ? r.kf * r.forward_product : dkf_dm * r.forward_product;
  }

  // ∂q/∂c_s through the concentration products: the forward exponents, then the reverse ones.
  __global const double* forward = PART(rec, O_FORWARD);
  __global const double* reverse = PART(rec, O_REVERSE_ORDERS);
  const int nf = COUNT(rec, H_FORWARD), nr = rec[H_REVERSIBLE] != 0.0 ? COUNT(rec, H_REVERSE) : 0;
  double dq_dc[CHEM_MAX_EXPONENTS];
  int dq_species[CHEM_MAX_EXPONENTS];
  for (int u = 0; u < nf; ++u) {
    dq_dc[u] = multiplier * r.kf * chem_product(forward, nf, c, u);
    dq_species[u] = SPECIES(forward, u);
  }
  for (int u = 0; u < nr; ++u) {
    dq_dc[nf + u] = -(multiplier * r.kr * chem_product(reverse, nr, c, u));
    dq_species[nf + u] = SPECIES(reverse, u);
  }

  chem_produce(rec, r.q, w);
  __global const double* third = PART(rec, O_THIRD_BODY);
  for (int side = 0; side < 2; ++side) {
    __global const double* terms = PART(rec, side ? O_PRODUCTS : O_REACTANTS);
    for (int t = 0; t < COUNT(rec, side ? H_PRODUCTS : H_REACTANTS); ++t) {
      const int k = SPECIES(terms, t);
      const double nu = side ? COEFFICIENT(terms, t) : -COEFFICIENT(terms, t);
      wT[k] += nu * dq_dT;
      for (int u = 0; u < nf + nr; ++u) J[k + dq_species[u] * CHEM_N] += nu * dq_dc[u];
      if (rec[H_THIRD_BODY] == 1.0) {
        J[k + (int)third[0] * CHEM_N] += nu * dq_dm;
      } else if (rec[H_THIRD_BODY] == 2.0) {
        for (int i = 0; i < CHEM_K; ++i) J[k + i * CHEM_N] += nu * (dq_dm * third[0]);
        for (int u = 0; u < (int)third[1]; ++u) J[k + (int)third[2 + 2 * u] * CHEM_N] += nu * (dq_dm * third[3 + 2 * u]);
      }
    }
  }
}

// ConstantPressureReactor::jacobian (reactor_jacobian.cpp).
void jac(double t, const double* y, double* dfdy, __global const double* p, __global const double* tables) {
  const double P = p[0];
  double c[CHEM_K], cp[CHEM_K], h[CHEM_K], g[CHEM_K], w[CHEM_K], wT[CHEM_K], f[CHEM_K], a[CHEM_K];
  const ChemState s = chem_state(y, P, c, tables);
  const double T = s.T, wbar = s.wbar, rho = s.rho;
  chem_thermo(T, cp, h, g, tables);
  for (int i = 0; i < CHEM_N * CHEM_N; ++i) dfdy[i] = 0.0;
  const double log_c0 = log(CHEM_ONE_ATM / (CHEM_R * T));
  const double c_total = chem_total(c);
  for (int k = 0; k < CHEM_K; ++k) {
    w[k] = 0.0;
    wT[k] = 0.0;
  }
  for (int j = 0; j < CHEM_REACTIONS; ++j)
    chem_reaction_jacobian(CHEM_RECORD(j), T, P, c, c_total, g, h, log_c0, w, dfdy, wT);
  double cp_mass = 0.0, heat_release = 0.0, dcp_mass = 0.0;
  for (int k = 0; k < CHEM_K; ++k) {
    cp_mass += y[k] * cp[k] / CHEM_WEIGHT(k);
    heat_release += h[k] * w[k];
    f[k] = CHEM_WEIGHT(k) * w[k] / rho;
    dcp_mass += y[k] * (CHEM_R * chem_cp_slope(T, k, tables)) / CHEM_WEIGHT(k);
  }
  const double f_T = -heat_release / (rho * cp_mass);
  for (int k = 0; k < CHEM_K; ++k) {
    a[k] = 0.0;
    for (int i = 0; i < CHEM_K; ++i) a[k] += dfdy[k + i * CHEM_N] * c[i];
    wT[k] = wT[k] - a[k] / T;
  }
  for (int j = 0; j < CHEM_K; ++j) {
    double dheat = 0.0;
    for (int k = 0; k < CHEM_K; ++k) {
      const double dwdy = rho / CHEM_WEIGHT(j) * dfdy[k + j * CHEM_N] - wbar / CHEM_WEIGHT(j) * a[k];
      dheat += h[k] * dwdy;
      dfdy[k + j * CHEM_N] = CHEM_WEIGHT(k) * dwdy / rho + f[k] * wbar / CHEM_WEIGHT(j);
    }
    dfdy[CHEM_K + j * CHEM_N] =
        -dheat / (rho * cp_mass) - f_T * (cp[j] / (CHEM_WEIGHT(j) * cp_mass) - wbar / CHEM_WEIGHT(j));
  }
  double dheat = 0.0;
  for (int k = 0; k < CHEM_K; ++k) {
    dheat += cp[k] * w[k] + h[k] * wT[k];
    dfdy[k + CHEM_K * CHEM_N] = CHEM_WEIGHT(k) * wT[k] / rho + f[k] / T;
  }
  dfdy[CHEM_K + CHEM_K * CHEM_N] = -dheat / (rho * cp_mass) - f_T * (dcp_mass / cp_mass - 1.0 / T);
}
