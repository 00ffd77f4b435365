// The reactor's rhs and Jacobian for RADAU5's mapping 2 (one work-group per system, radau5.hpp's
// System::group_rhs and group_jac): generated rhs() and jac() (reactor_source.cpp,
// reactor_jacobian_source.cpp), run by one work-item, keep the rest of the group waiting, so here the
// group shares them in phases: species by species (concentrations and thermo), reaction by reaction
// (rates of progress, and their derivatives), species by species again (production rates, each summed
// over its reactions in rhs()'s order, and the rows of ∂ω̇/∂c), and for the Jacobian the reactor's
// transform column by column. Every value takes the operations of rhs() or jac() in the same order, so
// both give the same bits. Reactions are read from `tables` (reactor_tables.cpp) rather than written out, so
// that neighbouring work-items run the same instructions on different reactions. For a mechanism
// above 64 species these are the reactor's only functions (ode::System::group_only), and mapping 1 calls
// them too, as a group of one. Appended after the generated source, whose helpers and macros it calls
// (reactor_source_parts.hpp's rhs_helpers and jacobian_helpers); the host defines CHEM_REACTIONS,
// CHEM_MAX_PRESSURES (the most pressures of a PLOG reaction, at least 1) and CHEM_MAX_EXPONENTS (the
// most concentration exponents of one reaction, forward and reverse together, at least 1).
#if ODE_GROUP_RHS

// tables: the offset of each reaction's record, then the start of each species' production list
// (and the end of the last), then the records, then the lists' (reaction, ν) pairs, ν < 0 for a
// reactant.
#define CHEM_RECORD(r) (tables + (int)tables[(r)])
#define CHEM_PRODUCTION(k) ((int)tables[CHEM_REACTIONS + (k)])
// Then the species block: per species its molecular weight, T_mid, and the lower and upper NASA-7
// coefficients. The group functions read the species' constants here rather than from the generated
// __constant arrays, which a mechanism of hundreds of species would not fit.
#define CHEM_SPECIES_STRIDE 16
#define CHEM_SPECIES(tables) ((tables) + (int)(tables)[CHEM_REACTIONS + CHEM_K + 1])
#define CHEM_WEIGHT(sp, k) ((sp)[CHEM_SPECIES_STRIDE * (k)])

// A record's header; the O_ fields are offsets of its parts from the record's start.
#define H_KIND 0        // RateKind: elementary, three_body, falloff, chemically_activated, plog
#define H_FORM 1        // FalloffForm: lindemann, troe, sri
#define H_REVERSIBLE 2  // 0: irreversible, 1: equilibrium reverse rate, 2: explicit reverse Arrhenius
#define H_THIRD_BODY 3  // 0: none, 1: a named collider, 2: efficiencies
#define H_REACTANTS 4   // term counts of the four term lists
#define H_PRODUCTS 5
#define H_FORWARD 6
#define H_REVERSE 7
#define H_DELTA_NU 8     // Σ ν'' - Σ ν'
#define O_RATE 9         // Arrhenius (a, b, Ea); falloff: low, high, then Troe or SRI; PLOG: its table
#define O_REVERSE 10     // explicit reverse Arrhenius
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

// The state the rhs and the Jacobian start from (chem_group_state): T, log T, RT, W̄ (at constant
// pressure), ρ, Σ c, ln(p_atm / RT) and the pressure P, with c, c_p, h and g of every species in the
// group's work.
typedef struct {
  double T, log_T, RT, wbar, rho, c_total, log_c0, P;
} ChemState;

// arrhenius() and arrhenius_log_slope() from the state's log T and RT, computed once per state rather
// than per reaction (as the generated code does: reactor_source_parts.cpp's arrhenius_call); the host's
// bits.
double chem_arrhenius_at(__global const double* k, const ChemState* s) {
  return k[0] * exp(k[1] * s->log_T - k[2] / s->RT);
}
#if ODE_GROUP_JAC  // the slope is jac()'s, there only with it
double chem_slope_at(__global const double* k, const ChemState* s) { return (k[1] + k[2] / s->RT) / s->T; }
#endif

// concentration_product: Π c_s^order, integer orders multiplied out; with which >= 0, its derivative by
// that term's species (product_derivative).
double chem_product(__global const double* terms, int n, const WORK_SPACE double* c, int which) {
  double s = 1.0;
  for (int u = 0; u < n; ++u) {
    const double x = c[SPECIES(terms, u)], order = COEFFICIENT(terms, u);
    if (u == which)
      s = s * (order == 1.0   ? 1.0
               : order == 2.0 ? 2.0 * x
               : order == 3.0 ? 3.0 * (x * x)
               : x > 0.0      ? order * pow(x, order - 1.0)
                              : 0.0);
    else
      s = s * (order == 1.0 ? x : order == 2.0 ? x * x : order == 3.0 ? x * x * x : pow(chem_floor(x, 0.0), order));
  }
  return s;
}

// reaction_change: Σ ν'' x_s (products) then - Σ ν' x_s (reactants).
double chem_change(__global const double* rec, const WORK_SPACE double* x) {
  __global const double* products = PART(rec, O_PRODUCTS);
  __global const double* reactants = PART(rec, O_REACTANTS);
  double d = 0.0;
  for (int u = 0; u < COUNT(rec, H_PRODUCTS); ++u) d += COEFFICIENT(products, u) * x[SPECIES(products, u)];
  for (int u = 0; u < COUNT(rec, H_REACTANTS); ++u) d -= COEFFICIENT(reactants, u) * x[SPECIES(reactants, u)];
  return d;
}

// PLOG (plog_constant): the count of pressures, then per pressure (p, rates, offset of its Arrhenius
// triples from the record's start). Fills pp and kp, each pressure's rates summed from 0.0 in order,
// and with dkp (not 0) Σ k d ln k/dT likewise (forward_slopes); returns the count.
int chem_plog_sums(__global const double* rec, __global const double* table, const ChemState* s, double* pp,
                   double* kp, double* dkp) {
  const int n = (int)table[0];
  for (int i = 0; i < n; ++i) {
    pp[i] = table[1 + 3 * i];
    __global const double* rate = rec + (int)table[3 + 3 * i];
    double k = 0.0, dk = 0.0;
    for (int j = 0; j < (int)table[2 + 3 * i]; ++j) {
      k = k + chem_arrhenius_at(rate + 3 * j, s);
#if ODE_GROUP_JAC
      if (dkp) dk = dk + chem_arrhenius_at(rate + 3 * j, s) * chem_slope_at(rate + 3 * j, s);
#endif
    }
    kp[i] = k;
    if (dkp) dkp[i] = dk;
  }
  return n;
}

double chem_plog(__global const double* rec, __global const double* table, const ChemState* s, double P) {
  double pp[CHEM_MAX_PRESSURES], kp[CHEM_MAX_PRESSURES];
  const int n = chem_plog_sums(rec, table, s, pp, kp, 0);
  return chem_plog_rate(P, n, pp, kp);
}

// One reaction's rate of progress and what its derivatives need (the generated reaction block up to q).
typedef struct {
  double m;                                 // [M] of third-body, falloff and activated rates
  double kf, kr, ratio;                     // ratio = kr / kf for an equilibrium reverse rate
  double k0, kinf, pr, log10_pr, fcent, f;  // falloff and activated rates
  double forward_product, reverse_product, q;
} ChemRate;

ChemRate chem_rate(__global const double* rec, const ChemState* s, double P, const WORK_SPACE double* c,
                   const WORK_SPACE double* g) {
  const double T = s->T;
  ChemRate r = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0};
  const int kind = COUNT(rec, H_KIND);
  __global const double* rate = PART(rec, O_RATE);
  __global const double* third = PART(rec, O_THIRD_BODY);
  if (rec[H_THIRD_BODY] == 1.0) {
    r.m = c[(int)third[0]];
  } else if (rec[H_THIRD_BODY] == 2.0) {
    r.m = third[0] * s->c_total;
    for (int u = 0; u < (int)third[1]; ++u) r.m += third[3 + 2 * u] * c[(int)third[2 + 2 * u]];
  }
  if (kind == KIND_FALLOFF || kind == KIND_ACTIVATED) {
    r.k0 = chem_arrhenius_at(rate, s);
    r.kinf = chem_arrhenius_at(rate + 3, s);
    r.pr = r.k0 * r.m / r.kinf;
    r.log10_pr = log10(chem_floor(r.pr, CHEM_TINY));
    __global const double* t = rate + 6;
    if (rec[H_FORM] == FORM_TROE) {
      // (1 - A, T***, A, T*, has T**, -T**); zero T*** or T* drop their terms.
      if (t[1] != 0.0) r.fcent += t[0] * exp(-T / t[1]);
      if (t[3] != 0.0) r.fcent += t[2] * exp(-T / t[3]);
      if (t[4] != 0.0) r.fcent += exp(t[5] / T);
      r.f = chem_troe(r.fcent, r.log10_pr);
    } else if (rec[H_FORM] == FORM_SRI) {
      r.f = chem_sri(T, r.log10_pr, t[0], t[1], t[2], t[3], t[4]);
    }
    r.kf = kind == KIND_FALLOFF ? r.kinf * r.pr / (1.0 + r.pr) * r.f : r.k0 / (1.0 + r.pr) * r.f;
  } else if (kind == KIND_PLOG) {
    r.kf = chem_plog(rec, rate, s, P);
  } else {
    r.kf = chem_arrhenius_at(rate, s);
  }
  // [M] multiplies three-body rates; in falloff rates it is already inside kf.
  const int scaled = kind == KIND_THREE_BODY;
  r.forward_product = chem_product(PART(rec, O_FORWARD), COUNT(rec, H_FORWARD), c, -1);
  const double qf = scaled ? r.m * r.kf * r.forward_product : r.kf * r.forward_product;
  r.q = qf;
  if (rec[H_REVERSIBLE] == 0.0) return r;
  if (rec[H_REVERSIBLE] == 2.0) {
    r.kr = chem_arrhenius_at(PART(rec, O_REVERSE), s);
  } else {
    r.ratio = exp(chem_change(rec, g) / s->RT - rec[H_DELTA_NU] * s->log_c0);
    r.kr = r.kf * r.ratio;
  }
  r.reverse_product = chem_product(PART(rec, O_REVERSE_ORDERS), COUNT(rec, H_REVERSE), c, -1);
  r.q = scaled ? qf - r.m * r.kr * r.reverse_product : qf - r.kr * r.reverse_product;
  return r;
}

// The start of the group's work: c, c_p, h, g and ω̇ (CHEM_K each); `rest` is the caller's.
typedef struct {
  WORK_SPACE double *c, *cp, *h, *g, *w, *rest;
} ChemWork;

// The coefficients of species k's polynomial for T (the lower one up to and including T_mid), as
// chem_nasa takes them.
void chem_species_coefficients(__global const double* sp, int k, double T, double* a) {
  __global const double* record = sp + CHEM_SPECIES_STRIDE * k;
  __global const double* from = record + (T <= record[1] ? 2 : 9);
  for (int i = 0; i < 7; ++i) a[i] = from[i];
}

ChemWork chem_work(WORK_SPACE double* work) {
  const ChemWork v = {work, work + CHEM_K, work + 2 * CHEM_K, work + 3 * CHEM_K, work + 4 * CHEM_K, work + 5 * CHEM_K};
  return v;
}

// The state, with c, c_p, h and g of every species in v, the species spread over the group (and a
// barrier so all see them); p0 is the reactor's parameter, the pressure or (at constant volume) the
// density, as rhs()'s chem_state takes it.
ChemState chem_group_state(const SHARED double* y, double p0, __global const double* sp, const ChemWork* v) {
  ChemState s;
  s.T = y[CHEM_K];
  s.log_T = log(s.T);
  s.RT = CHEM_R * s.T;
#if CHEM_CONSTANT_VOLUME
  s.wbar = 0.0;  // the constant-volume Jacobian has no W̄
  s.rho = p0;
#else
  double inverse_weight = 0.0;
  for (int k = 0; k < CHEM_K; ++k) inverse_weight += y[k] / CHEM_WEIGHT(sp, k);
  s.wbar = 1.0 / inverse_weight;
  // rhs() forms ρ as P (1 / Σ Y/W) / (R T), the same bits.
  s.rho = p0 * s.wbar / s.RT;
#endif
  FOR_OWN(k, 0, CHEM_K) {
    v->c[k] = s.rho * y[k] / CHEM_WEIGHT(sp, k);
    double cpk, hk, gk, a[7];
    chem_species_coefficients(sp, k, s.T, a);
    chem_nasa(s.T, s.log_T, a, &cpk, &hk, &gk);
    v->cp[k] = cpk;
    v->h[k] = hk;
    v->g[k] = gk;
  }
  SYNC();  // c and g are complete
  s.log_c0 = log(CHEM_ONE_ATM / s.RT);
  s.c_total = 0.0;
  for (int k = 0; k < CHEM_K; ++k) s.c_total += v->c[k];
  // At constant volume p = R T Σ c, as chem_state's (R T) Σ c.
  s.P = CHEM_CONSTANT_VOLUME ? s.RT * s.c_total : p0;
  return s;
}

// work: chem_work's arrays, then q (CHEM_REACTIONS).
void rhs_group(double t, const SHARED double* y, SHARED double* f, __global const double* p,
               __global const double* tables, WORK_SPACE double* work) {
  const ChemWork v = chem_work(work);
  WORK_SPACE double* q = v.rest;
  __global const double* sp = CHEM_SPECIES(tables);
  const ChemState s = chem_group_state(y, p[0], sp, &v);
  FOR_OWN(r, 0, CHEM_REACTIONS) q[r] = chem_rate(CHEM_RECORD(r), &s, s.P, v.c, v.g).q;
  SYNC();  // q is complete
  FOR_OWN(k, 0, CHEM_K) {
    // w -= ν' q as w + (-ν') q: the same bits.
    double wk = 0.0;
    for (int e = CHEM_PRODUCTION(k); e < CHEM_PRODUCTION(k + 1); e += 2) wk += tables[e + 1] * q[(int)tables[e]];
    v.w[k] = wk;
    f[k] = CHEM_WEIGHT(sp, k) * wk / s.rho;
  }
  SYNC();  // w is complete
  if (LEADER) {
    double cp_mass = 0.0;
    double heat_release = 0.0;
    for (int k = 0; k < CHEM_K; ++k) {
      cp_mass += y[k] * CHEM_CAPACITY(v.cp[k]) / CHEM_WEIGHT(sp, k);
      heat_release += CHEM_ENERGY(v.h[k], s.RT) * v.w[k];
    }
    f[CHEM_K] = -heat_release / (s.rho * cp_mass);
  }
}

#if ODE_GROUP_JAC
// The Jacobian for mapping 2 (System::group_jac): the generated jac() in phases as rhs_group. Each
// reaction's q and its derivatives go to work (reaction by reaction); then each species' row of
// ∂ω̇/∂c and ∂ω̇/∂T is summed from its production list, which holds exactly the terms through which
// jac() adds to that row, in jac()'s order; then the reactor's transform, column by column.
// per reaction: q, dq/dT, dq/d[M], dq/dc_u, and at constant volume dq/d ln p
#define CHEM_DQ (3 + CHEM_MAX_EXPONENTS + CHEM_CONSTANT_VOLUME)

// d kf/dT and d kf/d[M] (forward_slopes).
void chem_forward_slopes(__global const double* rec, const ChemRate* r, const ChemState* s, double P, double* dT,
                         double* dm) {
  const double T = s->T;
  const int kind = COUNT(rec, H_KIND);
  __global const double* rate = PART(rec, O_RATE);
  *dm = 0.0;
  if (kind == KIND_PLOG) {
    double pp[CHEM_MAX_PRESSURES], kp[CHEM_MAX_PRESSURES], dkp[CHEM_MAX_PRESSURES];
    const int n = chem_plog_sums(rec, rate, s, pp, kp, dkp);
    *dT = r->kf * chem_plog_slope(P, n, pp, kp, dkp);
    return;
  }
  if (kind != KIND_FALLOFF && kind != KIND_ACTIVATED) {
    *dT = r->kf * chem_slope_at(rate, s);
    return;
  }
  double bx = 0.0, bT = 0.0;
  __global const double* t = rate + 6;
  if (rec[H_FORM] == FORM_TROE) {
    double dfcent = 0.0;
    if (t[1] != 0.0) dfcent -= t[0] * exp(-T / t[1]) / t[1];
    if (t[3] != 0.0) dfcent -= t[2] * exp(-T / t[3]) / t[3];
    if (t[4] != 0.0) dfcent += -t[5] * exp(t[5] / T) / (T * T);
    chem_troe_slopes(r->fcent, dfcent, r->log10_pr, &bx, &bT);
  } else if (rec[H_FORM] == FORM_SRI) {
    chem_sri_slopes(T, r->log10_pr, t[0], t[1], t[2], t[4], &bx, &bT);
  }
  const int live = !(r->pr < CHEM_TINY);
  const double a0 = chem_slope_at(rate, s);
  const double ainf = chem_slope_at(rate + 3, s);
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

#if CHEM_CONSTANT_VOLUME
// dq/d ln p at fixed T and c: a PLOG rate's (the generated dq_dlnp), zero for every other.
double chem_pressure_derivative(__global const double* rec, const ChemRate* r, const ChemState* s, double P) {
  if (COUNT(rec, H_KIND) != KIND_PLOG) return 0.0;
  double pp[CHEM_MAX_PRESSURES], kp[CHEM_MAX_PRESSURES];
  const int n = chem_plog_sums(rec, PART(rec, O_RATE), s, pp, kp, 0);
  const double dkf_dlnp = r->kf * chem_plog_pressure_slope(P, n, pp, kp);
  if (rec[H_REVERSIBLE] == 1.0) return dkf_dlnp * r->forward_product - dkf_dlnp * r->ratio * r->reverse_product;
  return dkf_dlnp * r->forward_product;
}
#endif

// q, dq/dT, dq/d[M] and dq/dc_u of one reaction into dq (CHEM_DQ doubles), u over its forward then
// reverse exponents.
void chem_rate_derivatives(__global const double* rec, const ChemState* s, double P, const WORK_SPACE double* c,
                           const WORK_SPACE double* g, const WORK_SPACE double* h, WORK_SPACE double* dq) {
  const double T = s->T;
  const ChemRate r = chem_rate(rec, s, P, c, g);
  const int three_body = COUNT(rec, H_KIND) == KIND_THREE_BODY;
  const double multiplier = three_body ? r.m : 1.0;
  double dkf_dT, dkf_dm;
  chem_forward_slopes(rec, &r, s, P, &dkf_dT, &dkf_dm);
  dq[0] = r.q;
#if CHEM_CONSTANT_VOLUME
  dq[CHEM_DQ - 1] = chem_pressure_derivative(rec, &r, s, P);
#endif
  if (rec[H_REVERSIBLE] != 0.0) {
    double dkr_dT, dkr_dm = 0.0;
    if (rec[H_REVERSIBLE] == 2.0) {
      dkr_dT = r.kr * chem_slope_at(PART(rec, O_REVERSE), s);
    } else {
      dkr_dT = dkf_dT * r.ratio + r.kr * (rec[H_DELTA_NU] / T - chem_change(rec, h) / (s->RT * T));
      dkr_dm = dkf_dm * r.ratio;
    }
    dq[1] = multiplier * (dkf_dT * r.forward_product - dkr_dT * r.reverse_product);
    dq[2] = three_body ? r.kf * r.forward_product - r.kr * r.reverse_product
                       : dkf_dm * r.forward_product - dkr_dm * r.reverse_product;
  } else {
    dq[1] = multiplier * (dkf_dT * r.forward_product);
    dq[2] = three_body ? r.kf * r.forward_product : dkf_dm * r.forward_product;
  }
  const int nf = COUNT(rec, H_FORWARD);
  for (int u = 0; u < nf; ++u) dq[3 + u] = multiplier * r.kf * chem_product(PART(rec, O_FORWARD), nf, c, u);
  if (rec[H_REVERSIBLE] == 0.0) return;
  const int nr = COUNT(rec, H_REVERSE);
  for (int u = 0; u < nr; ++u)
    dq[3 + nf + u] = -(multiplier * r.kr * chem_product(PART(rec, O_REVERSE_ORDERS), nr, c, u));
}

// jac()'s updates of row k through one term ν of reaction rec: ∂ω̇_k/∂c by the exponents' species, then
// by [M]'s; the default efficiencies' share goes to *dwdm, which the caller adds to every column of the
// row after the reactions, as jac() does. With ODE_LOW_RANK *dc gathers the updates times c_i, so that
// Σ_i J_ki c_i needs no pass along the row.
void chem_row_terms(__global const double* rec, const WORK_SPACE double* dq, double nu, int k,
                    MATRIX_SPACE double* J, double* dwdm, const WORK_SPACE double* c, double* dc) {
  __global const double* forward = PART(rec, O_FORWARD);
  __global const double* reverse = PART(rec, O_REVERSE_ORDERS);
  const int nf = COUNT(rec, H_FORWARD), nr = rec[H_REVERSIBLE] != 0.0 ? COUNT(rec, H_REVERSE) : 0;
  for (int u = 0; u < nf + nr; ++u) {
    const int i = u < nf ? SPECIES(forward, u) : SPECIES(reverse, u - nf);
    J[k + i * CHEM_N] += nu * dq[3 + u];
#if ODE_LOW_RANK
    *dc += nu * dq[3 + u] * c[i];
#endif
  }
  __global const double* third = PART(rec, O_THIRD_BODY);
  if (rec[H_THIRD_BODY] == 1.0) {
    J[k + (int)third[0] * CHEM_N] += nu * dq[2];
#if ODE_LOW_RANK
    *dc += nu * dq[2] * c[(int)third[0]];
#endif
  } else if (rec[H_THIRD_BODY] == 2.0) {
    *dwdm += nu * (dq[2] * third[0]);
    for (int u = 0; u < (int)third[1]; ++u) {
      const int i = (int)third[2 + 2 * u];
      J[k + i * CHEM_N] += nu * (dq[2] * third[3 + 2 * u]);
#if ODE_LOW_RANK
      *dc += nu * (dq[2] * third[3 + 2 * u]) * c[i];
#endif
    }
  }
}

#if ODE_LOW_RANK
// Column j (< K) of the reactor's Jacobian from column j of ∂ω̇/∂c's sparse part S_c: the entries become
// W_k S_kj / W_j, and the return value is Σ_k e_k ∂ω̇_k/∂Y_j for the temperature's row, e_k the species'
// energies, with Σ_k e_k r_k (`energy_rank`) the rank-one part's share.
double chem_scaled_column(MATRIX_SPACE double* dfdy, int j, const WORK_SPACE double* h, double RT, double rho,
                          double energy_rank, __global const double* sp) {
  const double inverse = 1.0 / CHEM_WEIGHT(sp, j);
  double sum = 0.0;
  for (int k = 0; k < CHEM_K; ++k) {
    sum += CHEM_ENERGY(h[k], RT) * dfdy[k + j * CHEM_N];
    dfdy[k + j * CHEM_N] = CHEM_WEIGHT(sp, k) * inverse * dfdy[k + j * CHEM_N];
  }
  return (rho * sum + energy_rank) * inverse;
}
#endif

// work: chem_work's arrays, ∂ω̇/∂T and a (CHEM_K each), then CHEM_DQ per reaction. At constant volume a
// holds ∂ω̇/∂ln p / Σ c, as jac() forms it.
//
// With ODE_LOW_RANK (RADAU5's sparse decompositions, ode::System::jacobian_low_rank) J = S + u vᵀ: S
// holds the reactions' own derivatives and the temperature's row and column, and every other coupling
// of species j to species k goes through the mixture as a whole (the default third-body efficiencies,
// the density, and at constant pressure W̄), which the chain rule turns into u_k / W_j: u = W_k r_k / ρ
// (plus W_k ω̇_k W̄ / ρ at constant pressure) and v = 1 / W_j, with r_k kept in a.
void jac_group(double t, const SHARED double* y, MATRIX_SPACE double* dfdy, __global const double* p,
               __global const double* tables, WORK_SPACE double* work) {
  const ChemWork v = chem_work(work);
  const WORK_SPACE double *c = v.c, *cp = v.cp, *h = v.h;
  WORK_SPACE double* w = v.w;
  WORK_SPACE double* wT = v.rest;
  WORK_SPACE double* a = wT + CHEM_K;
  WORK_SPACE double* dq = a + CHEM_K;
  __global const double* sp = CHEM_SPECIES(tables);
  FOR_OWN(i, 0, CHEM_N * CHEM_N) dfdy[i] = 0.0;
  const ChemState s = chem_group_state(y, p[0], sp, &v);
  const double T = s.T, wbar = s.wbar, rho = s.rho, P = s.P, RT = s.RT;
  FOR_OWN(r, 0, CHEM_REACTIONS)
  chem_rate_derivatives(CHEM_RECORD(r), &s, P, c, v.g, h, dq + r * CHEM_DQ);
  SYNC();  // dq is complete
  FOR_OWN(k, 0, CHEM_K) {
    double wk = 0.0, wTk = 0.0, wPk = 0.0, dwdm = 0.0, dc = 0.0;
    for (int e = CHEM_PRODUCTION(k); e < CHEM_PRODUCTION(k + 1); e += 2) {
      const int r = (int)tables[e];
      const double nu = tables[e + 1];
      const WORK_SPACE double* dqr = dq + r * CHEM_DQ;
      wk += nu * dqr[0];
      wTk += nu * dqr[1];
      // jac() adds dq/d ln p for its PLOG reactions only.
      if (CHEM_CONSTANT_VOLUME && COUNT(CHEM_RECORD(r), H_KIND) == KIND_PLOG) wPk += nu * dqr[CHEM_DQ - 1];
      chem_row_terms(CHEM_RECORD(r), dqr, nu, k, dfdy, &dwdm, c, &dc);
    }
#if !ODE_LOW_RANK
    for (int i = 0; i < CHEM_K; ++i) dfdy[k + i * CHEM_N] += dwdm;
#endif
    w[k] = wk;
#if CHEM_CONSTANT_VOLUME
    a[k] = wPk / s.c_total;
    wT[k] = wTk + wPk / T;
#if ODE_LOW_RANK
    a[k] = rho * (dwdm + a[k]);
    dfdy[CHEM_N * CHEM_N + k] = CHEM_WEIGHT(sp, k) * a[k] / rho;
#endif
#else
#if ODE_LOW_RANK
    const double ak = dc + dwdm * s.c_total;
    a[k] = rho * dwdm - wbar * ak;
    dfdy[CHEM_N * CHEM_N + k] = CHEM_WEIGHT(sp, k) * (a[k] + wk * wbar) / rho;
#else
    double ak = 0.0;
    for (int i = 0; i < CHEM_K; ++i) ak += dfdy[k + i * CHEM_N] * c[i];
    a[k] = ak;
#endif
    wT[k] = wTk - ak / T;
#endif
#if ODE_LOW_RANK
    dfdy[CHEM_N * CHEM_N + CHEM_N + k] = 1.0 / CHEM_WEIGHT(sp, k);
#endif
  }
#if ODE_LOW_RANK
  if (LEADER) dfdy[CHEM_N * CHEM_N + CHEM_K] = dfdy[CHEM_N * CHEM_N + CHEM_N + CHEM_K] = 0.0;
#endif
  SYNC();  // w, wT, a and the rows of ∂ω̇/∂c are complete
  double cp_mass = 0.0, heat_release = 0.0, dcp_mass = 0.0, energy_rank = 0.0;
  for (int k = 0; k < CHEM_K; ++k) {
    double coefficients[7];
    chem_species_coefficients(sp, k, T, coefficients);
    cp_mass += y[k] * CHEM_CAPACITY(cp[k]) / CHEM_WEIGHT(sp, k);
    heat_release += CHEM_ENERGY(h[k], RT) * w[k];
    dcp_mass += y[k] * (CHEM_R * chem_nasa_cp_slope(T, coefficients)) / CHEM_WEIGHT(sp, k);
    energy_rank += CHEM_ENERGY(h[k], RT) * a[k];
  }
  const double f_T = -heat_release / (rho * cp_mass);
#if CHEM_CONSTANT_VOLUME
  FOR_OWN(j, 0, CHEM_N) {
    double dheat = 0.0;
    if (j < CHEM_K) {
#if ODE_LOW_RANK
      dheat = chem_scaled_column(dfdy, j, h, RT, rho, energy_rank, sp);
#else
      for (int k = 0; k < CHEM_K; ++k) {
        const double dwdy = rho / CHEM_WEIGHT(sp, j) * (dfdy[k + j * CHEM_N] + a[k]);
        dheat += CHEM_ENERGY(h[k], RT) * dwdy;
        dfdy[k + j * CHEM_N] = CHEM_WEIGHT(sp, k) * dwdy / rho;
      }
#endif
      dfdy[CHEM_K + j * CHEM_N] = -dheat / (rho * cp_mass) - f_T * (CHEM_CAPACITY(cp[j]) / (CHEM_WEIGHT(sp, j) * cp_mass));
    } else {
      for (int k = 0; k < CHEM_K; ++k) {
        dheat += CHEM_CAPACITY(cp[k]) * w[k] + CHEM_ENERGY(h[k], RT) * wT[k];
        dfdy[k + CHEM_K * CHEM_N] = CHEM_WEIGHT(sp, k) * wT[k] / rho;
      }
      dfdy[CHEM_K + CHEM_K * CHEM_N] = -dheat / (rho * cp_mass) - f_T * (dcp_mass / cp_mass);
    }
  }
#else
  FOR_OWN(j, 0, CHEM_N) {
    double dheat = 0.0;
    if (j < CHEM_K) {
#if ODE_LOW_RANK
      dheat = chem_scaled_column(dfdy, j, h, RT, rho, energy_rank, sp);
#else
      for (int k = 0; k < CHEM_K; ++k) {
        const double dwdy = rho / CHEM_WEIGHT(sp, j) * dfdy[k + j * CHEM_N] - wbar / CHEM_WEIGHT(sp, j) * a[k];
        dheat += h[k] * dwdy;
        dfdy[k + j * CHEM_N] =
            CHEM_WEIGHT(sp, k) * dwdy / rho + CHEM_WEIGHT(sp, k) * w[k] / rho * wbar / CHEM_WEIGHT(sp, j);
      }
#endif
      dfdy[CHEM_K + j * CHEM_N] =
          -dheat / (rho * cp_mass) - f_T * (cp[j] / (CHEM_WEIGHT(sp, j) * cp_mass) - wbar / CHEM_WEIGHT(sp, j));
    } else {
      for (int k = 0; k < CHEM_K; ++k) {
        dheat += cp[k] * w[k] + h[k] * wT[k];
        dfdy[k + CHEM_K * CHEM_N] = CHEM_WEIGHT(sp, k) * wT[k] / rho + CHEM_WEIGHT(sp, k) * w[k] / rho / T;
      }
      dfdy[CHEM_K + CHEM_K * CHEM_N] = -dheat / (rho * cp_mass) - f_T * (dcp_mass / cp_mass - 1.0 / T);
    }
  }
#endif
}
#endif

#endif
