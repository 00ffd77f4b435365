// RADAU5 (Hairer & Wanner 1996, section IV.8): the 3-stage Radau IIA method of order 5 with simplified
// Newton iterations on one real and one complex n x n system, an embedded error estimate and
// Gustafsson's predictive step-size control (docs/ode.md), in either mapping of mapping.cl (ODE_GROUP).
// Mapping 1: one work-item integrates one system, all its vectors and matrices in private memory (ODE_N,
// a build option, sizes them; NVIDIA places large private arrays in thread-interleaved local memory, so
// neighbouring work-items still access memory together). Mapping 2: one work-group integrates one
// system; its vectors and matrices are in the group's local memory where they fit a GPU's (4 n^2 + 14 n
// doubles and the system's work: H2/O2 fits NVIDIA's 48 KiB, GRI-Mech's n = 54 does not), else in its
// slice of global scratch (mapping.cl's SHARED); its vector loops and LU are spread over the
// work-items, and every work-item runs the same scalar control logic on the same values. Norms are
// summed in index order by every work-item, as in mapping 1, so both mappings give the same bits.
//
// The host appends the user's system after this file: rhs() and, with ODE_ANALYTIC_JACOBIAN, jac().
// Contraction stays off for them too, so the step statistics match the Fortran built with
// -ffp-contract=off; every expression keeps the Fortran's order of operations for the same reason.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF

#include "ode/dense_lu.cl"
#if ODE_SPARSE
// The system's Jacobian pattern (System::jacobian_pattern) makes the decompositions sparse (sparse_lu.cl).
#include "ode/sparse_lu.cl"
#define SOLVE_REAL(b) sparse_solve(e1, fjac, sparse, b)
#define SOLVE_COMPLEX(br, bi) sparse_solve_complex(e2r, e2i, fjac, sparse, br, bi)
#else
#define SOLVE_REAL(b) lu_solve(e1, ip1, b)
#define SOLVE_COMPLEX(br, bi) lu_solve_complex(e2r, e2i, ip2, br, bi)
#endif
#include "ode/phased_state.cl"

// On GPUs the user's rhs() and jac() stay functions of their own (ODE_OUTLINE_USER): inlined at every
// call site (six rhs() in mapping 1), a large mechanism's generated code keeps NVIDIA's compiler busy
// for minutes.
// CPUs keep them inlined, as PoCL's work-group compilation has always had them (the RADAU5 reference
// statistics, batch and device-chemistry tests also passed on PoCL with them out of line).
#if ODE_OUTLINE_USER
#define ODE_USER_FUNCTION __attribute__((noinline))
#else
#define ODE_USER_FUNCTION
#endif
// A System::group_only system has no rhs() or jac(): every mapping calls its group functions, mapping 1
// as a group of one work-item (mapping.cl).
#if !ODE_GROUP_ONLY
ODE_USER_FUNCTION void rhs(double t, const double* y, double* f, __global const double* p);
#if ODE_ANALYTIC_JACOBIAN
// dfdy[i + j * ODE_N] = d f_i / d y_j.
ODE_USER_FUNCTION void jac(double t, const double* y, double* dfdy, __global const double* p);
#endif
#if ODE_STAGE_LANES
// rhs() at four states at once, one per lane (radau5.hpp's System::stage_lanes).
void rhs_lanes(double4 t, const double4* y, double4* f, __global const double* p);
#endif
#endif
#if ODE_GROUP_RHS
// Mapping 2's cooperative rhs (radau5.hpp's System::group_rhs).
void rhs_group(double t, const SHARED double* y, SHARED double* f, __global const double* p,
               __global const double* tables, WORK_SPACE double* work);
#endif
#if ODE_GROUP_JAC
void jac_group(double t, const SHARED double* y, MATRIX_SPACE double* dfdy, __global const double* p,
               __global const double* tables, WORK_SPACE double* work);
#endif

// Layout of the settings array; mirrored by radau5.cpp's Setting.
#define S_UROUND 0
#define S_SAFE 1
#define S_THET 2
#define S_FNEWT 3
#define S_QUOT1 4
#define S_QUOT2 5
#define S_FACL 6
#define S_FACR 7
#define S_H0 8
#define S_HMAX 9
#define S_U1 10
#define S_ALPH 11
#define S_BETA 12
#define S_C1 13
#define S_C2 14
#define S_C1M1 15
#define S_C2M1 16
#define S_C1MC2 17
#define S_DD1 18
#define S_DD2 19
#define S_DD3 20

// Counters per system, in this order after IDID.
#define C_IDID 0
#define C_NFCN 1
#define C_NJAC 2
#define C_NSTEP 3
#define C_NACCPT 4
#define C_NREJCT 5
#define C_NDEC 6
#define C_NSOL 7
#define C_COUNT 8

// Mapping 2's scratch per work-group, mirrored by radau5_launch.cpp's group_doubles: 14 vectors,
// 4 matrices of ODE_MATRIX doubles each (phased_state.cl) and the system's ODE_GROUP_WORK (doubles), and
// 2 pivot vectors (ints).
#define W_VECTORS 14
#define W_DOUBLES (W_VECTORS * ODE_N + 4 * ODE_MATRIX + ODE_GROUP_WORK)
#if ODE_GROUP
#define VECTOR(name, slot) SHARED double* name = work + (slot) * ODE_N
#define MATRIX(name, slot) SHARED double* name = work + W_VECTORS * ODE_N + (slot) * ODE_MATRIX
#define PIVOTS(name, slot) SHARED int* name = work_pivots + (slot) * ODE_N
#elif ODE_GLOBAL_VECTORS
#define VECTOR(name, slot) __global double* name = vectors + (slot) * ODE_N
#define MATRIX(name, slot) __global double* name = matrices + s * PHASED_MATRICES + (slot) * ODE_MATRIX
#define PIVOTS(name, slot) __global int* name = matrix_pivots + s * PHASED_PIVOTS + (slot) * ODE_N
#elif ODE_PHASED || ODE_SYSTEM_MATRICES
#define VECTOR(name, slot) double name[ODE_N]
#define MATRIX(name, slot) __global double* name = matrices + s * PHASED_MATRICES + (slot) * ODE_MATRIX
#define PIVOTS(name, slot) __global int* name = matrix_pivots + s * PHASED_PIVOTS + (slot) * ODE_N
#else
#define VECTOR(name, slot) double name[ODE_N]
#define MATRIX(name, slot) double name[ODE_MATRIX]
#define PIVOTS(name, slot) int name[ODE_N]
#endif

// T and T^-1 of the eigen-decomposition of A^-1 (T32 = 1 and T33 = 0 exactly).
#define T11 9.1232394870892942792e-02
#define T12 -0.14125529502095420843
#define T13 -3.0029194105147424492e-02
#define T21 0.24171793270710701896
#define T22 0.20412935229379993199
#define T23 0.38294211275726193779
#define T31 0.96604818261509293619
#define TI11 4.3255798900631553510
#define TI12 0.33919925181580986954
#define TI13 0.54177053993587487119
#define TI21 -4.1787185915519047273
#define TI22 -0.32768282076106238708
#define TI23 0.47662355450055045196
#define TI31 -0.50287263494578687595
#define TI32 2.5719269498556054292
#define TI33 -0.59603920482822492497

// Where the control logic goes next: a new Jacobian, a new decomposition with the current Jacobian, or
// a new step with both reused.
#define GO_JACOBIAN 0
#define GO_DECOMPOSE 1
#define GO_STEP 2

// x^k by binary powers, the rounding of gfortran's real**integer (libgcc's __powidf2), k >= 0.
double pow_int(double x, int k) {
  double r = 1.0;
  for (;;) {
    if (k & 1) r *= x;
    k /= 2;
    if (k == 0) return r;
    x *= x;
  }
}

// The Fortran MAX/MIN of two ordinary numbers.
double max2(double a, double b) { return a > b ? a : b; }
double min2(double a, double b) { return a < b ? a : b; }

void error_scale(const SHARED double* y, __global const double* rtol, __global const double* atol, SHARED double* scal) {
  FOR_EACH(i) scal[i] = atol[i] + rtol[i] * fabs(y[i]);
}

// sqrt(sum((v / scal)^2) / n), at least 1e-10. Every work-item sums all of v in index order: the
// same value everywhere and the same bits as mapping 1, at O(n) per work-item.
double scaled_norm(const SHARED double* v, const SHARED double* scal) {
  SYNC();  // v is complete
  double sum = 0.0;
  for (int i = 0; i < ODE_N; ++i) {
    const double q = v[i] / scal[i];
    sum = sum + q * q;
  }
  SYNC();  // every work-item has read v before it changes
  return max2(sqrt(sum / (double)ODE_N), 1.0e-10);
}

// The Newton increment's norm, sqrt(sum(z1^2 + z2^2 + z3^2 scaled) / 3n), summed as scaled_norm.
double newton_norm(const SHARED double* z1, const SHARED double* z2, const SHARED double* z3, const SHARED double* scal) {
  SYNC();
  double sum = 0.0;
  for (int i = 0; i < ODE_N; ++i) {
    const double q1 = z1[i] / scal[i], q2 = z2[i] / scal[i], q3 = z3[i] / scal[i];
    sum = sum + q1 * q1 + q2 * q2 + q3 * q3;
  }
  SYNC();
  return sqrt(sum / (double)(3 * ODE_N));
}

// The system's parameters, and in mapping 2 what its rhs_group takes besides.
typedef struct {
  __global const double* p;
  __global const double* tables;
  WORK_SPACE double* work;
} User;

// f = f(t, y). The user's rhs takes private arrays; in mapping 2 without rhs_group one work-item copies
// y in and f out while the others wait at the barriers, so the group idles for the evaluation.
void evaluate(double t, const SHARED double* y, SHARED double* f, const User* u) {
  __global const double* p = u->p;
#if ODE_GROUP_RHS
  SYNC();  // y is complete and nobody reads f any more
  rhs_group(t, y, f, p, u->tables, u->work);
  SYNC();
#elif ODE_GROUP
  SYNC();  // y is complete and nobody reads f any more
  if (LEADER) {
    double yp[ODE_N], fp[ODE_N];
    for (int i = 0; i < ODE_N; ++i) yp[i] = y[i];
    rhs(t, yp, fp, p);
    for (int i = 0; i < ODE_N; ++i) f[i] = fp[i];
  }
  SYNC();
#else
  rhs(t, y, f, p);
#endif
}

// z_k = f(x_k, y + z_k) for the three stages of a Newton iteration (cont: scratch). Mapping 2 without
// rhs_group gives each stage to its own work-item, so the group waits for one rhs instead of three;
// the values are those of three evaluations in turn, since each depends only on its inputs. A CPU
// with the system's rhs_lanes (ODE_STAGE_LANES) evaluates the three in one call, a stage per lane.
void evaluate_stages(double x1, double x2, double x3, const SHARED double* y, SHARED double* z1, SHARED double* z2,
                     SHARED double* z3, SHARED double* cont, const User* u) {
#if ODE_GROUP_RHS
  SYNC();  // y and the z are complete
  for (int k = 0; k < 3; ++k) {
    SHARED double* z = k == 0 ? z1 : k == 1 ? z2 : z3;
    // The last evaluation has read cont: evaluate returns after a barrier.
    FOR_EACH(i) cont[i] = y[i] + z[i];
    evaluate(k == 0 ? x1 : k == 1 ? x2 : x3, cont, z, u);
  }
#elif ODE_GROUP
  __global const double* p = u->p;
  SYNC();  // y and the z are complete
  const int k = (int)get_local_id(0);
  if (k < 3) {  // groups have at least 4 work-items (radau5_launch.cpp)
    SHARED double* z = k == 0 ? z1 : k == 1 ? z2 : z3;
    double yp[ODE_N], fp[ODE_N];
    for (int i = 0; i < ODE_N; ++i) yp[i] = y[i] + z[i];
    rhs(k == 0 ? x1 : k == 1 ? x2 : x3, yp, fp, p);
    for (int i = 0; i < ODE_N; ++i) z[i] = fp[i];
  }
  SYNC();
#elif ODE_STAGE_LANES
  double4 stages[ODE_N], f[ODE_N];
  FOR_EACH(i) stages[i] = (double4)(y[i] + z1[i], y[i] + z2[i], y[i] + z3[i], y[i] + z3[i]);
  rhs_lanes((double4)(x1, x2, x3, x3), stages, f, u->p);
  FOR_EACH(i) {
    z1[i] = f[i].s0;
    z2[i] = f[i].s1;
    z3[i] = f[i].s2;
  }
#else
  __global const double* p = u->p;
  FOR_EACH(i) cont[i] = y[i] + z1[i];
  rhs(x1, cont, z1, p);
  FOR_EACH(i) cont[i] = y[i] + z2[i];
  rhs(x2, cont, z2, p);
  FOR_EACH(i) cont[i] = y[i] + z3[i];
  rhs(x3, cont, z3, p);
#endif
}

#if ODE_ANALYTIC_JACOBIAN
// fjac = df/dy; in mapping 2 by jac_group, or without it by one work-item through private copies (n^2
// private doubles in every work-item's frame: the user API's price).
void evaluate_jacobian(double t, const SHARED double* y, MATRIX_SPACE double* fjac, const User* u) {
  __global const double* p = u->p;
#if ODE_GROUP_JAC
  jac_group(t, y, fjac, p, u->tables, u->work);
#elif ODE_GROUP_ONLY
#error "a group_only system needs jac_group for its analytic Jacobian"
#elif ODE_GROUP
  if (LEADER) {
    double yp[ODE_N], dfdy[ODE_N * ODE_N];
    for (int i = 0; i < ODE_N; ++i) yp[i] = y[i];
    jac(t, yp, dfdy, p);
    for (int k = 0; k < ODE_N * ODE_N; ++k) fjac[k] = dfdy[k];
  }
#elif ODE_PHASED || ODE_SYSTEM_MATRICES
  double dfdy[ODE_N * ODE_N];
  jac(t, y, dfdy, p);
  for (int k = 0; k < ODE_N * ODE_N; ++k) fjac[k] = dfdy[k];
#else
  jac(t, y, fjac, p);
#endif
}
#elif ODE_GROUP_ONLY
#error "a group_only system needs an analytic Jacobian (jac_group)"
#else
// Column i of RADAU5's forward-difference Jacobian around f0 = f(t, y), from a private copy of y, so
// that mapping 2's work-items evaluate their columns at once. These evaluations are not counted in nfcn.
void difference_column(int i, double t, const SHARED double* y, const SHARED double* f0, MATRIX_SPACE double* fjac,
                       double uround, __global const double* p) {
  double yp[ODE_N], f[ODE_N];
  for (int j = 0; j < ODE_N; ++j) yp[j] = y[j];
  const double delt = sqrt(uround * max2(1.0e-5, fabs(yp[i])));
  yp[i] = yp[i] + delt;
  rhs(t, yp, f, p);
  for (int j = 0; j < ODE_N; ++j) fjac[j + i * ODE_N] = (f[j] - f0[j]) / delt;
}
#endif

// Dense output (Hairer & Wanner's CONTR5). A system's samples are `count` times in the direction of
// integration, each written to its ODE_N values of `out` once a step reaches it; `next` is the first
// not yet written. After an accepted step from x - hold to x, the samples with t in (x - hold, x] take
// the step's collocation polynomial u(t) = y + s (a1 + (s - c2m1) (a2 + (s - c1m1) a3)), s = (t - x) /
// hold, with y the new state and a1, a2, a3 its divided differences. A sample at x itself takes y's bits,
// and so does one at t_end on the last step, which takes every sample left (x may miss t_end by a
// rounding). Returns the new `next`; reads the step's values and changes none.
uint dense_output(uint next, uint count, __global const double* times, __global double* out, double x, double hold,
                  double posneg, bool last, double xend, double c1m1, double c2m1, const SHARED double* y,
                  const SHARED double* a1, const SHARED double* a2, const SHARED double* a3) {
  for (; next < count; ++next) {
    const double t = times[next];
    if (!last && (t - x) * posneg > 0.0) break;
    __global double* u = out + (ulong)next * ODE_N;
    if (t == x || (last && t == xend)) {
      FOR_EACH(i) u[i] = y[i];
    } else {
      const double s = (t - x) / hold;
      FOR_EACH(i) u[i] = y[i] + s * (a1[i] + (s - c2m1) * (a2[i] + (s - c1m1) * a3[i]));
    }
  }
  return next;
}

// The samples at t0 (the initial state y) before the first step; returns the new `next`.
uint initial_samples(uint count, __global const double* times, __global double* out, double t0,
                     const SHARED double* y) {
  uint next = 0;
  for (; next < count && times[next] == t0; ++next) {
    __global double* u = out + (ulong)next * ODE_N;
    FOR_EACH(i) u[i] = y[i];
  }
  return next;
}

// The samples from `next` on of a system that failed before reaching them: NaN.
void unreached_samples(uint next, uint count, __global double* out) {
  for (; next < count; ++next) {
    __global double* u = out + (ulong)next * ODE_N;
    FOR_EACH(i) u[i] = NAN;
  }
}

// One system per work-item (mapping 1) or work-group (mapping 2). y (ODE_N per system) holds the initial state and returns the state at the
// last accepted step; t0/t_end have one entry per system, or one for all when time_stride is 0.
// tol holds the transformed rtol' (ODE_N) then atol' (ODE_N). counters gets C_COUNT longs per system,
// reached the time reached and the predicted next step size. With rates_only no system steps: reached's
// first value is the scaled norm of its initial rate (Options::order). Each system writes sample_count
// dense-output states (ODE_N each) to sampled, at the times that samples holds for it (sample_stride 1)
// or for all (sample_stride 0). Mapping 2 takes W_DOUBLES doubles of work and 2 ODE_N ints of
// work_pivots per work-group; mapping 1 ignores both.
// The phased mapping (ODE_PHASED) runs each system up to its next decomposition: it leaves the system's
// record in state (phased_state.cl), y and the counters in place, with IDID 0, and appends the system to
// next (next_count[0] counts them), and also to jacobians (next_count[1]) where the decomposition needs
// a new J; radau5_jacobian evaluates those, radau5_decompose.cl then factorises the matrices, and the
// next pass, with resume set, runs the count systems that list names from there. The other mappings
// ignore these. With ODE_CLAIM the work-items claim systems one at a time by claimed[0], which the
// host zeroes before each launch.
__kernel void radau5_integrate(__global double* y_io, __global const double* params, uint param_count,
                               __global const double* t0, __global const double* t_end, uint time_stride,
                               __global const double* tol, __global const double* settings, long nmax, int nit,
                               int predictive, int zero_start, int rates_only, __global long* counters,
                               __global double* reached, __global const double* samples, uint sample_count,
                               uint sample_stride, __global double* sampled,
                               ulong count, __global double* scratch, __global int* scratch_pivots,
                               __global const double* tables, __global const int* sparse, __global double* matrices,
                               __global int* matrix_pivots, __global double* state, int resume,
                               __global const uint* list, __global uint* next, __global uint* jacobians,
                               __global uint* next_count, volatile __global uint* claimed) {
  const double uround = settings[S_UROUND], safe = settings[S_SAFE], thet = settings[S_THET];
  const double fnewt = settings[S_FNEWT], quot1 = settings[S_QUOT1], quot2 = settings[S_QUOT2];
  const double facl = settings[S_FACL], facr = settings[S_FACR];
  const double u1 = settings[S_U1], alph = settings[S_ALPH], beta = settings[S_BETA];
  const double c1 = settings[S_C1], c2 = settings[S_C2], c1m1 = settings[S_C1M1], c2m1 = settings[S_C2M1];
  const double c1mc2 = settings[S_C1MC2], dd1 = settings[S_DD1], dd2 = settings[S_DD2], dd3 = settings[S_DD3];
  __global const double* rtol = tol;
  __global const double* atol = tol + ODE_N;

#if ODE_LOCAL_SCRATCH
  __local double work[W_DOUBLES];
  __local int work_pivots[2 * ODE_N];
#elif ODE_GROUP
  __global double* work = scratch + get_group_id(0) * W_DOUBLES;
  __global int* work_pivots = scratch_pivots + get_group_id(0) * 2 * ODE_N;
#elif ODE_GROUP_ONLY
  // Mapping 1's per-work-item scratch: the vectors where they are global, then the system's work.
  __global double* vectors = scratch + get_global_id(0) * (ODE_GLOBAL_VECTORS * W_VECTORS * ODE_N + ODE_GROUP_WORK);
#endif
  FOR_SYSTEMS(item, count) {
#if ODE_PHASED
    const ulong s = resume ? list[item] : item;
#else
    const ulong s = item;
#endif
    __global const double* p = params + s * param_count;
#if ODE_GROUP
    const User user = {p, tables, work + W_DOUBLES - ODE_GROUP_WORK};
#elif ODE_GROUP_ONLY
    const User user = {p, tables, vectors + ODE_GLOBAL_VECTORS * W_VECTORS * ODE_N};
#else
    const User user = {p, tables, 0};
#endif
    VECTOR(y, 0);
    VECTOR(y0, 1);
    VECTOR(scal, 2);
    VECTOR(cont, 3);
    VECTOR(tmp, 4);
    VECTOR(z1, 5);
    VECTOR(z2, 6);
    VECTOR(z3, 7);
    VECTOR(w1, 8);
    VECTOR(w2, 9);
    VECTOR(w3, 10);
    // Divided differences of the last collocation polynomial.
    VECTOR(a1, 11);
    VECTOR(a2, 12);
    VECTOR(a3, 13);
    MATRIX(fjac, 0);
    MATRIX(e1, 1);
    MATRIX(e2r, 2);
    MATRIX(e2i, 3);
    PIVOTS(ip1, 0);
    PIVOTS(ip2, 1);
    FOR_EACH(i) y[i] = y_io[s * ODE_N + i];

    double x = t0[s * time_stride];
    const double xend = t_end[s * time_stride];
    const double posneg = xend - x >= 0.0 ? 1.0 : -1.0;
    const double hmax = settings[S_HMAX] == 0.0 ? xend - x : settings[S_HMAX];
    const double hmaxn = min2(fabs(hmax), fabs(xend - x));
    double h = settings[S_H0];
    if (fabs(h) <= 10.0 * uround) h = 1.0e-6;
    h = copysign(min2(fabs(h), hmaxn), posneg);
    double hold = h;
    bool reject = false, first = true, last = false, caljac = false;
    if ((x + h * 1.0001 - xend) * posneg >= 0.0) {
      h = xend - x;
      last = true;
    }
    double hopt = h, faccon = 1.0, theta = 0.0, thqold = 0.0, dynold = 0.0, hacc = 0.0, erracc = 0.0;
    const double cfac = safe * (double)(1 + 2 * nit);
    int nsing = 0, idid = 0;
    long nfcn = 0, njac = 0, nstep = 0, naccpt = 0, nrejct = 0, ndec = 0, nsol = 0;
    double fac1 = 0.0, alphn = 0.0, betan = 0.0;

    int go = GO_JACOBIAN;
    error_scale(y, rtol, atol, scal);
    __global const double* sample_times = samples + s * sample_stride * sample_count;
    __global double* sample_states = sampled + s * sample_count * ODE_N;
    uint next_sample = 0;
#if ODE_PHASED
    __global double* st = state + s * PHASED_STATE;
    // A resumed system goes on from its decomposition's outcome, in the step loop below.
    bool resumed = resume != 0;
    if (resumed) {
      x = st[P_X];
      h = st[P_H];
      hold = st[P_HOLD];
      hopt = st[P_HOPT];
      faccon = st[P_FACCON];
      theta = st[P_THETA];
      thqold = st[P_THQOLD];
      dynold = st[P_DYNOLD];
      hacc = st[P_HACC];
      erracc = st[P_ERRACC];
      fac1 = st[P_FAC1];
      alphn = st[P_ALPHN];
      betan = st[P_BETAN];
      reject = st[P_REJECT] != 0.0;
      first = st[P_FIRST] != 0.0;
      last = st[P_LAST] != 0.0;
      caljac = st[P_CALJAC] != 0.0;
      nsing = (int)st[P_NSING];
      next_sample = (uint)st[P_SAMPLE];
      for (int i = 0; i < ODE_N; ++i) {
        y0[i] = st[P_Y0 + i];
        a1[i] = st[P_A1 + i];
        a2[i] = st[P_A2 + i];
        a3[i] = st[P_A3 + i];
      }
      __global const long* c = counters + s * C_COUNT;
      nfcn = c[C_NFCN];
      njac = c[C_NJAC];
      nstep = c[C_NSTEP];
      naccpt = c[C_NACCPT];
      nrejct = c[C_NREJCT];
      ndec = c[C_NDEC];
      nsol = c[C_NSOL];
      go = GO_DECOMPOSE;
    } else
#endif
    {
      next_sample = initial_samples(sample_count, sample_times, sample_states, x, y);
      evaluate(x, y, y0, &user);
      ++nfcn;
      if (rates_only) {
        // The key of Options::order, returned where the time reached goes; the step loop is skipped.
        x = scaled_norm(y0, scal);
        idid = 1;
      }
    }

    while (idid == 0) {
      if (go == GO_JACOBIAN) {
        ++njac;
#if ODE_PHASED
        // radau5_jacobian evaluates J where this pass leaves the system, just below.
        jacobians[atomic_inc(next_count + 1)] = (uint)s;
#else
        SYNC();  // y is complete
#if ODE_ANALYTIC_JACOBIAN
        evaluate_jacobian(x, y, fjac, &user);
#else
        FOR_EACH(i) difference_column(i, x, y, y0, fjac, uround, p);
#endif
#endif
        caljac = true;
      }
      // A singular matrix or a failed Newton iteration: halve h and try again.
      bool unexpected_reject = false, singular = false;
      if (go != GO_STEP) {
#if ODE_PHASED
        if (!resumed) {
          // Suspended here (IDID 0) until radau5_decompose.cl has factorised E1 and E2 (after
          // radau5_jacobian where this step asked for J).
          fac1 = u1 / h;
          alphn = alph / h;
          betan = beta / h;
          break;
        }
        resumed = false;
        singular = st[P_SINGULAR] != 0.0;
#else
        fac1 = u1 / h;
        alphn = alph / h;
        betan = beta / h;
        SYNC();  // the Jacobian is complete and the last decomposition has read E1 and E2
#if ODE_SPARSE
        singular = sparse_decompose(e1, fjac, fac1, sparse) != 0 ||
                   sparse_decompose_complex(e2r, e2i, fjac, alphn, betan, sparse) != 0;
#else
        FOR_EACH(j) {
          for (int i = 0; i < ODE_N; ++i) {
            e1[i + j * ODE_N] = -fjac[i + j * ODE_N];
            e2r[i + j * ODE_N] = -fjac[i + j * ODE_N];
            e2i[i + j * ODE_N] = 0.0;
          }
          e1[j + j * ODE_N] = e1[j + j * ODE_N] + fac1;
          e2r[j + j * ODE_N] = e2r[j + j * ODE_N] + alphn;
          e2i[j + j * ODE_N] = betan;
        }
        singular = lu_decompose(e1, ip1) != 0 || lu_decompose_complex(e2r, e2i, ip2) != 0;
#endif
#endif
        if (!singular) ++ndec;
        unexpected_reject = singular;
      }

      int newt = 0;
      double xph = 0.0;
      if (!unexpected_reject) {
        ++nstep;
        if (nstep > nmax) {
          idid = -2;
          break;
        }
        if (0.1 * fabs(h) <= fabs(x) * uround) {
          idid = -3;
          break;
        }
        xph = x + h;
        if (first || zero_start) {
          FOR_EACH(i) z1[i] = z2[i] = z3[i] = w1[i] = w2[i] = w3[i] = 0.0;
        } else {
          // The last step's collocation polynomial, extrapolated to this step's nodes.
          const double c3q = h / hold, c1q = c1 * c3q, c2q = c2 * c3q;
          FOR_EACH(i) {
            const double ak1 = a1[i], ak2 = a2[i], ak3 = a3[i];
            const double z1i = c1q * (ak1 + (c1q - c2m1) * (ak2 + (c1q - c1m1) * ak3));
            const double z2i = c2q * (ak1 + (c2q - c2m1) * (ak2 + (c2q - c1m1) * ak3));
            const double z3i = c3q * (ak1 + (c3q - c2m1) * (ak2 + (c3q - c1m1) * ak3));
            z1[i] = z1i;
            z2[i] = z2i;
            z3[i] = z3i;
            w1[i] = TI11 * z1i + TI12 * z2i + TI13 * z3i;
            w2[i] = TI21 * z1i + TI22 * z2i + TI23 * z3i;
            w3[i] = TI31 * z1i + TI32 * z2i + TI33 * z3i;
          }
        }

        // Simplified Newton iteration in the transformed variables w.
        faccon = pow(max2(faccon, uround), 0.8);
        theta = fabs(thet);
        bool shrunk = false;
        for (;;) {
          if (newt >= nit) {
            unexpected_reject = true;
            break;
          }
          evaluate_stages(x + c1 * h, x + c2 * h, xph, y, z1, z2, z3, cont, &user);
          nfcn += 3;
          FOR_EACH(i) {
            const double f1 = z1[i], f2 = z2[i], f3 = z3[i];
            const double g1 = TI11 * f1 + TI12 * f2 + TI13 * f3;
            const double g2 = TI21 * f1 + TI22 * f2 + TI23 * f3;
            const double g3 = TI31 * f1 + TI32 * f2 + TI33 * f3;
            const double s2 = -w2[i], s3 = -w3[i];
            z1[i] = g1 - w1[i] * fac1;
            z2[i] = g2 + s2 * alphn - s3 * betan;
            z3[i] = g3 + s3 * alphn + s2 * betan;
          }
          SOLVE_REAL(z1);
          SOLVE_COMPLEX(z2, z3);
          ++nsol;
          ++newt;
          const double dyno = newton_norm(z1, z2, z3, scal);
          if (newt > 1 && newt < nit) {
            const double thq = dyno / dynold;
            theta = newt == 2 ? thq : sqrt(thq * thqold);
            thqold = thq;
            if (theta >= 0.99) {
              unexpected_reject = true;
              break;
            }
            faccon = theta / (1.0 - theta);
            const double dyth = faccon * dyno * pow_int(theta, nit - 1 - newt) / fnewt;
            if (dyth >= 1.0) {
              // Too slow to converge within nit iterations: retry with the h it would need.
              const double qnewt = max2(1.0e-4, min2(20.0, dyth));
              h = 0.8 * pow(qnewt, -1.0 / (4.0 + nit - 1 - newt)) * h;
              reject = true;
              last = false;
              shrunk = true;
              break;
            }
          }
          dynold = max2(dyno, uround);
          FOR_EACH(i) {
            const double f1 = w1[i] + z1[i], f2 = w2[i] + z2[i], f3 = w3[i] + z3[i];
            w1[i] = f1;
            w2[i] = f2;
            w3[i] = f3;
            z1[i] = T11 * f1 + T12 * f2 + T13 * f3;
            z2[i] = T21 * f1 + T22 * f2 + T23 * f3;
            z3[i] = T31 * f1 + f2;
          }
          if (faccon * dyno <= fnewt) break;
        }
        if (shrunk) {
          go = caljac ? GO_DECOMPOSE : GO_JACOBIAN;
          continue;
        }
      }

      if (unexpected_reject) {
        if (singular && ++nsing >= 5) {
          idid = -4;
          break;
        }
        h = h * 0.5;
        reject = true;
        last = false;
        go = caljac ? GO_DECOMPOSE : GO_JACOBIAN;
        continue;
      }

      // Error estimate on the real factorisation; tmp keeps (dd1 z1 + dd2 z2 + dd3 z3) / h.
      const double hee1 = dd1 / h, hee2 = dd2 / h, hee3 = dd3 / h;
      FOR_EACH(i) {
        tmp[i] = hee1 * z1[i] + hee2 * z2[i] + hee3 * z3[i];
        cont[i] = tmp[i] + y0[i];
      }
      SOLVE_REAL(cont);
      double err = scaled_norm(cont, scal);
      if (err >= 1.0 && (first || reject)) {
        // Refinement after a first or rejected step: one more evaluation, at y + e (w1 is free now).
        FOR_EACH(i) cont[i] = y[i] + cont[i];
        evaluate(x, cont, w1, &user);
        ++nfcn;
        FOR_EACH(i) cont[i] = w1[i] + tmp[i];
        SOLVE_REAL(cont);
        err = scaled_norm(cont, scal);
      }

      // Step-size proposal, h_new / h within [1 / facl, 1 / facr].
      const double fac = min2(safe, cfac / (double)(newt + 2 * nit));
      double quot = max2(facr, min2(facl, pow(err, 0.25) / fac));
      double hnew = h / quot;

      if (err >= 1.0) {
        reject = true;
        last = false;
        h = first ? h * 0.1 : hnew;
        if (naccpt >= 1) ++nrejct;
        go = caljac ? GO_DECOMPOSE : GO_JACOBIAN;
        continue;
      }

      first = false;
      ++naccpt;
      if (predictive) {
        // Gustafsson: the step ratio also follows the trend of the last two accepted errors.
        if (naccpt > 1) {
          const double facgus = max2(facr, min2(facl, (hacc / h) * pow(err * err / erracc, 0.25) / safe));
          quot = max2(quot, facgus);
          hnew = h / quot;
        }
        hacc = h;
        erracc = max2(1.0e-2, err);
      }
      hold = h;
      x = xph;
      FOR_EACH(i) {
        y[i] = y[i] + z3[i];
        a1[i] = (z2[i] - z3[i]) / c2m1;
        const double ak = (z1[i] - z2[i]) / c1mc2;
        const double acont3 = (ak - z1[i] / c1) / c2;
        a2[i] = (ak - a1[i]) / c1m1;
        a3[i] = a2[i] - acont3;
      }
      next_sample = dense_output(next_sample, sample_count, sample_times, sample_states, x, hold, posneg, last, xend,
                                 c1m1, c2m1, y, a1, a2, a3);
      error_scale(y, rtol, atol, scal);
      caljac = false;
      if (last) {
        h = hopt;
        idid = 1;
        break;
      }
      evaluate(x, y, y0, &user);
      ++nfcn;
      hnew = posneg * min2(fabs(hnew), hmaxn);
      hopt = min2(h, hnew);
      // No growth right after a rejection.
      if (reject) hnew = posneg * min2(fabs(hnew), fabs(h));
      reject = false;
      if ((x + hnew / quot1 - xend) * posneg >= 0.0) {
        h = xend - x;
        last = true;
      } else {
        const double qt = hnew / h;
        if (theta <= thet && qt >= quot1 && qt <= quot2) {
          // Fast convergence and hardly any change of h: keep h, the Jacobian and both factorisations.
          go = GO_STEP;
          continue;
        }
        h = hnew;
      }
      go = theta <= thet ? GO_DECOMPOSE : GO_JACOBIAN;
    }

#if ODE_PHASED
    if (idid == 0) {
      st[P_X] = x;
      st[P_H] = h;
      st[P_HOLD] = hold;
      st[P_HOPT] = hopt;
      st[P_FACCON] = faccon;
      st[P_THETA] = theta;
      st[P_THQOLD] = thqold;
      st[P_DYNOLD] = dynold;
      st[P_HACC] = hacc;
      st[P_ERRACC] = erracc;
      st[P_FAC1] = fac1;
      st[P_ALPHN] = alphn;
      st[P_BETAN] = betan;
      st[P_REJECT] = reject ? 1.0 : 0.0;
      st[P_FIRST] = first ? 1.0 : 0.0;
      st[P_LAST] = last ? 1.0 : 0.0;
      st[P_CALJAC] = caljac ? 1.0 : 0.0;
      st[P_NSING] = (double)nsing;
      st[P_SAMPLE] = (double)next_sample;
      for (int i = 0; i < ODE_N; ++i) {
        st[P_Y0 + i] = y0[i];
        st[P_A1 + i] = a1[i];
        st[P_A2 + i] = a2[i];
        st[P_A3 + i] = a3[i];
      }
      next[atomic_inc(next_count)] = (uint)s;
    }
#endif
    if (idid < 0) unreached_samples(next_sample, sample_count, sample_states);
    FOR_EACH(i) y_io[s * ODE_N + i] = y[i];
    if (LEADER) {
      __global long* c = counters + s * C_COUNT;
      c[C_IDID] = idid;
      c[C_NFCN] = nfcn;
      c[C_NJAC] = njac;
      c[C_NSTEP] = nstep;
      c[C_NACCPT] = naccpt;
      c[C_NREJCT] = nrejct;
      c[C_NDEC] = ndec;
      c[C_NSOL] = nsol;
      reached[2 * s] = x;
      reached[2 * s + 1] = h;
    }
  }
}

#if ODE_PHASED
// J for the count systems that list names (the phased mapping's jacobians), each at the x, y and f(x, y)
// its pass left (state and y_io), into its matrices, with the bits the pass would have computed. Apart
// from the passes so that every work-item evaluates one: in a pass the work-items of a system that
// needs none waited for those that did.
__kernel void radau5_jacobian(__global const double* y_io, __global const double* params, uint param_count,
                              __global const double* settings, __global const double* tables,
                              __global double* matrices, __global const double* state,
                              __global const uint* list, ulong count) {
  for (ulong item = SYSTEM_FIRST; item < count; item += SYSTEM_STRIDE) {
    const ulong s = list[item];
    __global const double* p = params + s * param_count;
    __global const double* st = state + s * PHASED_STATE;
    MATRIX(fjac, 0);
    double y[ODE_N];
    for (int i = 0; i < ODE_N; ++i) y[i] = y_io[s * ODE_N + i];
#if ODE_ANALYTIC_JACOBIAN
    const User user = {p, tables, 0};
    evaluate_jacobian(st[P_X], y, fjac, &user);
#else
    double f0[ODE_N];
    for (int i = 0; i < ODE_N; ++i) f0[i] = st[P_Y0 + i];
    for (int i = 0; i < ODE_N; ++i) difference_column(i, st[P_X], y, f0, fjac, settings[S_UROUND], p);
#endif
  }
}
#endif
