// The reactor's rhs for RADAU5's mapping 2 (one work-group per system, radau5.hpp's System::group_rhs):
// generated rhs() (reactor_source.cpp), run by one work-item, keeps the rest of the group waiting, so
// here the group shares it in three phases: species by species (concentrations and thermo), reaction by
// reaction (rates of progress), species by species again (production rates, each summed over its
// reactions in rhs()'s order). Every value takes the operations of rhs() in the same order, so both give
// the same bits. Reactions are read from `tables` (reactor_tables.cpp) rather than written out, so
// that neighbouring work-items run the same instructions on different reactions. Appended after the
// generated source, whose helpers and constants it calls; the host defines CHEM_REACTIONS and
// CHEM_MAX_PRESSURES (the most pressures of a PLOG reaction, at least 1).
#if ODE_GROUP_RHS

// tables: the offset of each reaction's record, then the start of each species' production list
// (and the end of the last), then the records, then the lists' (reaction, ν) pairs, ν < 0 for a
// reactant.
#define CHEM_RECORD(r) (tables + (int)tables[(r)])
#define CHEM_PRODUCTION(k) ((int)tables[CHEM_REACTIONS + (k)])

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

double chem_arrhenius_at(__global const double* k, double T) { return chem_arrhenius(k[0], k[1], k[2], T); }

// concentration_product: Π c_s^order, integer orders multiplied out.
double chem_product(__global const double* terms, int n, __global const double* c) {
  double s = 1.0;
  for (int u = 0; u < n; ++u) {
    const double x = c[SPECIES(terms, u)], order = COEFFICIENT(terms, u);
    s *= order == 1.0 ? x : order == 2.0 ? x * x : order == 3.0 ? x * x * x : pow(chem_floor(x, 0.0), order);
  }
  return s;
}

// reaction_change: Σ ν'' x_s (products) then - Σ ν' x_s (reactants).
double chem_change(__global const double* rec, __global const double* x) {
  __global const double* products = PART(rec, O_PRODUCTS);
  __global const double* reactants = PART(rec, O_REACTANTS);
  double d = 0.0;
  for (int u = 0; u < COUNT(rec, H_PRODUCTS); ++u) d += COEFFICIENT(products, u) * x[SPECIES(products, u)];
  for (int u = 0; u < COUNT(rec, H_REACTANTS); ++u) d -= COEFFICIENT(reactants, u) * x[SPECIES(reactants, u)];
  return d;
}

// kf of a falloff or chemically activated reaction (falloff_constant).
double chem_falloff(__global const double* rate, double form, int kind, double T, double m) {
  const double k0 = chem_arrhenius_at(rate, T);
  const double kinf = chem_arrhenius_at(rate + 3, T);
  const double pr = k0 * m / kinf;
  const double log10_pr = log10(chem_floor(pr, CHEM_TINY));
  __global const double* t = rate + 6;
  double f = 1.0;
  if (form == FORM_TROE) {
    // (1 - A, T***, A, T*, has T**, -T**); zero T*** or T* drop their terms.
    double fcent = 0.0;
    if (t[1] != 0.0) fcent += t[0] * exp(-T / t[1]);
    if (t[3] != 0.0) fcent += t[2] * exp(-T / t[3]);
    if (t[4] != 0.0) fcent += exp(t[5] / T);
    f = chem_troe(fcent, log10_pr);
  } else if (form == FORM_SRI) {
    f = chem_sri(T, log10_pr, t[0], t[1], t[2], t[3], t[4]);
  }
  return kind == KIND_FALLOFF ? kinf * pr / (1.0 + pr) * f : k0 / (1.0 + pr) * f;
}

// PLOG (plog_constant): the count of pressures, then per pressure (p, rates, offset of its Arrhenius
// triples from the record's start); each pressure's rates summed from 0.0 in order.
double chem_plog(__global const double* rec, __global const double* table, double T, double P) {
  const int n = (int)table[0];
  double pp[CHEM_MAX_PRESSURES], kp[CHEM_MAX_PRESSURES];
  for (int i = 0; i < n; ++i) {
    pp[i] = table[1 + 3 * i];
    __global const double* rate = rec + (int)table[3 + 3 * i];
    double k = 0.0;
    for (int j = 0; j < (int)table[2 + 3 * i]; ++j) k = k + chem_arrhenius_at(rate + 3 * j, T);
    kp[i] = k;
  }
  return chem_plog_rate(P, n, pp, kp);
}

// The rate of progress of reaction `rec` (the generated reaction block up to q).
double chem_rate_of_progress(__global const double* rec, double T, double P, __global const double* c, double c_total,
                             __global const double* g, double log_c0) {
  const int kind = COUNT(rec, H_KIND);
  __global const double* rate = PART(rec, O_RATE);
  __global const double* third = PART(rec, O_THIRD_BODY);
  double m = 0.0;
  if (rec[H_THIRD_BODY] == 1.0) {
    m = c[(int)third[0]];
  } else if (rec[H_THIRD_BODY] == 2.0) {
    m = third[0] * c_total;
    for (int u = 0; u < (int)third[1]; ++u) m += third[3 + 2 * u] * c[(int)third[2 + 2 * u]];
  }
  const double kf = kind == KIND_FALLOFF || kind == KIND_ACTIVATED ? chem_falloff(rate, rec[H_FORM], kind, T, m)
                    : kind == KIND_PLOG                            ? chem_plog(rec, rate, T, P)
                                                                   : chem_arrhenius_at(rate, T);
  // [M] multiplies three-body rates; in falloff rates it is already inside kf.
  const int scaled = kind == KIND_THREE_BODY;
  const double forward_product = chem_product(PART(rec, O_FORWARD), COUNT(rec, H_FORWARD), c);
  const double qf = scaled ? m * kf * forward_product : kf * forward_product;
  if (rec[H_REVERSIBLE] == 0.0) return qf;
  double kr;
  if (rec[H_REVERSIBLE] == 2.0) {
    kr = chem_arrhenius_at(PART(rec, O_REVERSE), T);
  } else {
    const double ratio = exp(chem_change(rec, g) / (CHEM_R * T) - rec[H_DELTA_NU] * log_c0);
    kr = kf * ratio;
  }
  const double reverse_product = chem_product(PART(rec, O_REVERSE_ORDERS), COUNT(rec, H_REVERSE), c);
  return scaled ? qf - m * kr * reverse_product : qf - kr * reverse_product;
}

// work: c, c_p, h, g and ω̇ (CHEM_K each), then q (CHEM_REACTIONS): 5 CHEM_K + CHEM_REACTIONS doubles.
void rhs_group(double t, __global const double* y, __global double* f, __global const double* p,
               __global const double* tables, __global double* work) {
  __global double* c = work;
  __global double* cp = c + CHEM_K;
  __global double* h = cp + CHEM_K;
  __global double* g = h + CHEM_K;
  __global double* w = g + CHEM_K;
  __global double* q = w + CHEM_K;
  const double P = p[0];
  const double T = y[CHEM_K];
  double inverse_weight = 0.0;
  for (int k = 0; k < CHEM_K; ++k) inverse_weight += y[k] / chem_weight[k];
  const double rho = P * (1.0 / inverse_weight) / (CHEM_R * T);
  FOR_OWN(k, 0, CHEM_K) {
    c[k] = rho * y[k] / chem_weight[k];
    double cpk, hk, gk;
    chem_species_thermo(T, k, &cpk, &hk, &gk);
    cp[k] = cpk;
    h[k] = hk;
    g[k] = gk;
  }
  SYNC();  // c and g are complete
  const double log_c0 = log(CHEM_ONE_ATM / (CHEM_R * T));
  double c_total = 0.0;
  for (int k = 0; k < CHEM_K; ++k) c_total += c[k];
  FOR_OWN(r, 0, CHEM_REACTIONS) q[r] = chem_rate_of_progress(CHEM_RECORD(r), T, P, c, c_total, g, log_c0);
  SYNC();  // q is complete
  FOR_OWN(k, 0, CHEM_K) {
    // w -= ν' q as w + (-ν') q: the same bits.
    double wk = 0.0;
    for (int e = CHEM_PRODUCTION(k); e < CHEM_PRODUCTION(k + 1); e += 2) wk += tables[e + 1] * q[(int)tables[e]];
    w[k] = wk;
    f[k] = chem_weight[k] * wk / rho;
  }
  SYNC();  // w is complete
  if (LEADER) {
    double cp_mass = 0.0;
    double heat_release = 0.0;
    for (int k = 0; k < CHEM_K; ++k) {
      cp_mass += y[k] * cp[k] / chem_weight[k];
      heat_release += h[k] * w[k];
    }
    f[CHEM_K] = -heat_release / (rho * cp_mass);
  }
}

#endif
