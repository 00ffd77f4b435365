// Finite-time Lyapunov exponents (Conti, Rossinelli & Koumoutsakos 2012; docs/ftle.md, "Method"): tracers
// start on a uniform seed grid, are advected through a velocity field, and the flow map's gradient on the
// seed grid gives the largest finite-time stretching rate ln(sigma_max(F)) / |T|.
//
// Build options select one specialised program per run, so no kernel branches on a mode per tracer:
//   DIM           2 or 3 (axes and velocity components)
//   FLOW          the velocity source: FLOW_DOUBLE_GYRE ... FLOW_CELLULAR (analytic, evaluated here) or FLOW_GRID
//   INTEGRATOR    1 Euler, 2 Heun (RK2, the paper's Eq. 16), 4 classic RK4, 5 Dormand-Prince 5(4), 8 DOP853
//                 (the last two adaptive: each tracer fills every step with substeps of its own size)
//   INTERP_M4     gridded velocity through M4' (4 nodes per axis); otherwise (bi/tri)linear (2 per axis)
//   BOUNDARY      gridded velocity only: BOUNDARY_CLAMP, BOUNDARY_STOP, BOUNDARY_PERIODIC, BOUNDARY_EXTRAPOLATE,
//                 BOUNDARY_FREE_STREAM or BOUNDARY_FREEZE (docs/ftle.md, "Boundary modes")
//   VELOCITY_SLOTS  gridded velocity streamed through a ring of this many snapshot slots (unset: every
//                 snapshot resident, snapshot k at k)
//   FREE_STREAM   gridded velocity only: a uniform velocity from the parameters is added to it
//   LANES         analytic flows on CPUs: ftle_advect takes this many tracers per work-item in vector types
//                 (ftle_lanes.cl)
//
// Positions are real_t, DIM per tracer, interleaved. Each tracer has a status (code, step): a tracer whose
// velocity or position turns non-finite, or that stops at a wall, keeps its last good position (freeze:
// its exit point) and moves no more; the host reports failures with the seed they came from. A flag in
// the code marks a tracer that met the data box's faces, which the host counts as boundary hits.
#include "core/common.cl"

#define FLOW_DOUBLE_GYRE 1
#define FLOW_LINEAR 2
#define FLOW_BICKLEY 3
#define FLOW_ABC 4
#define FLOW_CELLULAR 5
#define FLOW_GRID 6

#define BOUNDARY_CLAMP 0
#define BOUNDARY_STOP 1
#define BOUNDARY_PERIODIC 2
#define BOUNDARY_EXTRAPOLATE 3
#define BOUNDARY_FREE_STREAM 4
#define BOUNDARY_FREEZE 5

// Tracer status codes in the low bits of status.x, and the flag of a tracer that met the box's faces
// (Solver reads them; keep in step with kernel_codes.hpp).
#define TRACER_MOVING 0u
#define TRACER_STOPPED 1u
#define TRACER_BAD_VELOCITY 2u
#define TRACER_BAD_POSITION 3u
#define TRACER_STEP_UNDERFLOW 4u
#define TRACER_CODE_BITS 0xffu
#define TRACER_MET_WALL 0x100u

// The flow-map gradient and its singular value are computed in double wherever the device has it: the
// differences of neighbouring final positions lose digits that fp32 arithmetic would lose again.
#if defined(cl_khr_fp64)
typedef double acc_t;
#else
typedef float acc_t;
#endif

#define FTLE_CAT_(a, b) a##b
#define FTLE_CAT(a, b) FTLE_CAT_(a, b)
typedef FTLE_CAT(REAL, 2) real2_t;  // float2 or double2

#if DIM == 2
typedef struct { real_t c[2]; } vec_t;
#else
typedef struct { real_t c[3]; } vec_t;
#endif

// a + s * b, componentwise
inline vec_t axpy(vec_t a, real_t s, vec_t b) {
  vec_t r;
  for (int d = 0; d < DIM; ++d) r.c[d] = a.c[d] + s * b.c[d];
  return r;
}

inline bool finite_vec(vec_t v) {
  bool ok = true;
  for (int d = 0; d < DIM; ++d) ok = ok && isfinite(v.c[d]);
  return ok;
}

// ---- Velocity ----------------------------------------------------------------------------------

#if FLOW == FLOW_GRID

#include "ftle/grid_velocity.cl"

#else  // analytic flows

#define PI ((real_t)3.14159265358979323846)

// The analytic velocity u(x, t) from the parameters p, as statements on values of type T: real_t for one
// tracer, or a vector of them for the lanes of ftle_lanes.cl, which so evaluate the same formulas.
#if FLOW == FLOW_DOUBLE_GYRE
// p: A, epsilon, omega (Shadden et al. 2005)
#define ANALYTIC_VELOCITY(T, u, x, t, p)                          \
  {                                                               \
    const T a = p[1] * sin(p[2] * (t));                           \
    const T b = 1 - 2 * a;                                        \
    const T f = (a * (x).c[0] + b) * (x).c[0];                    \
    const T dfdx = 2 * a * (x).c[0] + b;                          \
    T cos_f, cos_y;                                               \
    const T sin_f = sincos(PI * f, &cos_f);                       \
    const T sin_y = sincos(PI * (x).c[1], &cos_y);                \
    (u).c[0] = -PI * p[0] * sin_f * cos_y;                        \
    (u).c[1] = PI * p[0] * cos_f * sin_y * dfdx;                  \
  }
#elif FLOW == FLOW_LINEAR
// p: the velocity gradient, DIM x DIM row-major: u = G x (saddles, rotations, shears)
#define ANALYTIC_VELOCITY(T, u, x, t, p)                                         \
  for (int c = 0; c < DIM; ++c) {                                                \
    (u).c[c] = 0;                                                                \
    for (int d = 0; d < DIM; ++d) (u).c[c] += p[c * DIM + d] * (x).c[d];         \
  }
#elif FLOW == FLOW_BICKLEY
// p: U, L, eps1..3, k1..3, c1..3 (Rypina et al. 2007); psi = -U L tanh(y/L)
//    + U L sech^2(y/L) sum_n eps_n cos(k_n (x - c_n t)), u = -dpsi/dy, v = dpsi/dx
#define ANALYTIC_VELOCITY(T, u, x, t, p)                          \
  {                                                               \
    const T y = (x).c[1] / p[1];                                  \
    const T ch = cosh(y);                                         \
    const T s2 = 1 / (ch * ch);                                   \
    T waves = 0, dwaves = 0;                                      \
    for (int n = 0; n < 3; ++n) {                                 \
      const T phase = p[5 + n] * ((x).c[0] - p[8 + n] * (t));     \
      waves += p[2 + n] * cos(phase);                             \
      dwaves -= p[2 + n] * p[5 + n] * sin(phase);                 \
    }                                                             \
    (u).c[0] = p[0] * s2 * (1 + 2 * tanh(y) * waves);             \
    (u).c[1] = p[0] * p[1] * s2 * dwaves;                         \
  }
#elif FLOW == FLOW_ABC
// p: A, B, C, epsilon, omega; A(t) = A + epsilon sin(omega t) (Haller 2001: epsilon 0.1, omega 1)
#define ANALYTIC_VELOCITY(T, u, x, t, p)                          \
  {                                                               \
    const T a = p[0] + p[3] * sin(p[4] * (t));                    \
    (u).c[0] = a * sin((x).c[2]) + p[2] * cos((x).c[1]);          \
    (u).c[1] = p[1] * sin((x).c[0]) + a * cos((x).c[2]);          \
    (u).c[2] = p[2] * sin((x).c[1]) + p[1] * cos((x).c[0]);       \
  }
#elif FLOW == FLOW_CELLULAR
// psi = cos(pi x) cos(pi y) scaled by p[0]: the paper's steady saddle (Figs. 1-2), u = -dpsi/dy
#define ANALYTIC_VELOCITY(T, u, x, t, p)                          \
  {                                                               \
    (u).c[0] = p[0] * PI * cos(PI * (x).c[0]) * sin(PI * (x).c[1]); \
    (u).c[1] = -p[0] * PI * sin(PI * (x).c[0]) * cos(PI * (x).c[1]); \
  }
#else
#error "unknown FLOW"
#endif

inline vec_t velocity_at(vec_t x, real_t t, __global const real_t* p, __global const real_t* velocity,
                         __global const real_t* times, uint snapshots, int4 dims) {
  vec_t u;
  ANALYTIC_VELOCITY(real_t, u, x, t, p)
  return u;
}

// Analytic flows are defined everywhere: no wall.
inline bool admit(vec_t* x, bool end_point, uint* code, __global const real_t* params) { return true; }

#endif

// ---- Integration --------------------------------------------------------------------------------

#define VELOCITY(x, t) velocity_at((x), (t), params, velocity, times, snapshots, dims)

// Ends a tracer's motion with status `why`, keeping the flags of *code.
inline bool halt(uint* code, uint why) {
  *code = (*code & ~TRACER_CODE_BITS) | why;
  return false;
}

// One step from (x, t) to t + dt; false when the tracer stops, *code saying why: the velocity is not
// finite somewhere, stop refuses a stage point (*x unchanged), or under freeze the step ends outside
// the box (*x becomes the exit point and *fraction the share of the step taken to reach it).
inline bool step(vec_t* x, real_t t, real_t dt, uint* code, real_t* fraction, __global const real_t* params,
                 __global const real_t* velocity, __global const real_t* times, uint snapshots, int4 dims) {
  const vec_t k1 = VELOCITY(*x, t);
  if (!finite_vec(k1)) return halt(code, TRACER_BAD_VELOCITY);
#if INTEGRATOR == 1
  vec_t next = axpy(*x, dt, k1);
#elif INTEGRATOR == 2
  vec_t xs = axpy(*x, dt, k1);
  if (!admit(&xs, false, code, params)) return halt(code, TRACER_STOPPED);
  const vec_t k2 = VELOCITY(xs, t + dt);
  if (!finite_vec(k2)) return halt(code, TRACER_BAD_VELOCITY);
  vec_t next;
  for (int d = 0; d < DIM; ++d) next.c[d] = x->c[d] + dt * (real_t)0.5 * (k1.c[d] + k2.c[d]);
#else
  const real_t mid = (real_t)0.5 * dt;
  vec_t xs = axpy(*x, mid, k1);
  if (!admit(&xs, false, code, params)) return halt(code, TRACER_STOPPED);
  const vec_t k2 = VELOCITY(xs, t + mid);
  if (!finite_vec(k2)) return halt(code, TRACER_BAD_VELOCITY);
  xs = axpy(*x, mid, k2);
  if (!admit(&xs, false, code, params)) return halt(code, TRACER_STOPPED);
  const vec_t k3 = VELOCITY(xs, t + mid);
  if (!finite_vec(k3)) return halt(code, TRACER_BAD_VELOCITY);
  xs = axpy(*x, dt, k3);
  if (!admit(&xs, false, code, params)) return halt(code, TRACER_STOPPED);
  const vec_t k4 = VELOCITY(xs, t + dt);
  if (!finite_vec(k4)) return halt(code, TRACER_BAD_VELOCITY);
  vec_t next;
  for (int d = 0; d < DIM; ++d)
    next.c[d] = x->c[d] + dt / 6 * (k1.c[d] + 2 * (k2.c[d] + k3.c[d]) + k4.c[d]);
#endif
  if (!finite_vec(next)) return halt(code, TRACER_BAD_POSITION);
  if (!admit(&next, true, code, params)) return halt(code, TRACER_STOPPED);
#if FLOW == FLOW_GRID && BOUNDARY == BOUNDARY_FREEZE
  if (!in_box(next, params)) {
    *x = exit_point(*x, next, fraction, params);
    return halt(code, TRACER_STOPPED);
  }
#endif
  *x = next;
  return true;
}

#if INTEGRATOR == 5 || INTEGRATOR == 8
#define ADAPTIVE 1

// Embedded Runge-Kutta pairs (Hairer, Norsett & Wanner, Solving ODEs I, 1993): nodes RK_C, stage
// coefficients RK_A (row s: the stages before s), the solution's weights RK_B and the weights of the
// error estimates. Stage s of a substep of size h from (x, t) is u(x + h sum_j RK_A[s][j] k_j, t + RK_C[s] h).
#if INTEGRATOR == 5
// Dormand & Prince (1980): 5th-order solution, 4th-order embedded; the last stage is u at the new
// position (first same as last), so an accepted substep's last stage is the next one's first.
#define RK_STAGES 7
#define RK_LAST_IS_FIRST 1
#define RK_EXPONENT ((real_t)0.2)  // 1 / (embedded order + 1)
#define RK_SHRINK ((real_t)0.2)    // the controller's bounds on h_new / h
#define RK_GROW ((real_t)10)
__constant real_t RK_C[RK_STAGES] = {0, 1.0 / 5, 3.0 / 10, 4.0 / 5, 8.0 / 9, 1, 1};
__constant real_t RK_A[RK_STAGES][RK_STAGES - 1] = {
    {0},
    {1.0 / 5},
    {3.0 / 40, 9.0 / 40},
    {44.0 / 45, -56.0 / 15, 32.0 / 9},
    {19372.0 / 6561, -25360.0 / 2187, 64448.0 / 6561, -212.0 / 729},
    {9017.0 / 3168, -355.0 / 33, 46732.0 / 5247, 49.0 / 176, -5103.0 / 18656},
    {35.0 / 384, 0, 500.0 / 1113, 125.0 / 192, -2187.0 / 6784, 11.0 / 84}};
__constant real_t RK_B[RK_STAGES] = {35.0 / 384, 0, 500.0 / 1113, 125.0 / 192, -2187.0 / 6784, 11.0 / 84, 0};
// The 5th- minus the 4th-order weights; no second estimate.
__constant real_t RK_E[RK_STAGES] = {71.0 / 57600,      0,           -71.0 / 16695, 71.0 / 1920,
                                     -17253.0 / 339200, 22.0 / 525, -1.0 / 40};
#define RK_E3 RK_E
#define RK_E3_WEIGHT ((real_t)0)
#else
// DOP853 (Hairer et al. 1993, II.10): 8th-order solution from 12 stages; the error estimate blends a
// 5th-order (RK_E) and a 3rd-order (RK_E3) difference, which keeps it reliable for large steps.
#define RK_STAGES 12
#define RK_LAST_IS_FIRST 0
#define RK_EXPONENT ((real_t)0.125)
#define RK_SHRINK ((real_t)(1.0 / 3))
#define RK_GROW ((real_t)6)
__constant real_t RK_C[RK_STAGES] = {0,
                                     0.526001519587677318785587544488e-01,
                                     0.789002279381515978178381316732e-01,
                                     0.118350341907227396726757197510,
                                     0.281649658092772603273242802490,
                                     1.0 / 3,
                                     0.25,
                                     4.0 / 13,
                                     0.651282051282051282051282051282,
                                     0.6,
                                     6.0 / 7,
                                     1};
__constant real_t RK_A[RK_STAGES][RK_STAGES - 1] = {
    {0},
    {5.26001519587677318785587544488e-2},
    {1.97250569845378994544595329183e-2, 5.91751709536136983633785987549e-2},
    {2.95875854768068491816892993775e-2, 0, 8.87627564304205475450678981324e-2},
    {2.41365134159266685502369798665e-1, 0, -8.84549479328286085344864962717e-1, 9.24834003261792003115737966543e-1},
    {3.7037037037037037037037037037e-2, 0, 0, 1.70828608729473871279604482173e-1,
     1.25467687566822425016691814123e-1},
    {3.7109375e-2, 0, 0, 1.70252211019544039314978060272e-1, 6.02165389804559606850219397283e-2, -1.7578125e-2},
    {3.70920001185047927108779319836e-2, 0, 0, 1.70383925712239993810214054705e-1,
     1.07262030446373284651809199168e-1, -1.53194377486244017527936158236e-2, 8.27378916381402288758473766002e-3},
    {6.24110958716075717114429577812e-1, 0, 0, -3.36089262944694129406857109825, -8.68219346841726006818189891453e-1,
     2.75920996994467083049415600797e1, 2.01540675504778934086186788979e1, -4.34898841810699588477366255144e1},
    {4.77662536438264365890433908527e-1, 0, 0, -2.48811461997166764192642586468, -5.90290826836842996371446475743e-1,
     2.12300514481811942347288949897e1, 1.52792336328824235832596922938e1, -3.32882109689848629194453265587e1,
     -2.03312017085086261358222928593e-2},
    {-9.3714243008598732571704021658e-1, 0, 0, 5.18637242884406370830023853209, 1.09143734899672957818500254654,
     -8.14978701074692612513997267357, -1.85200656599969598641566180701e1, 2.27394870993505042818970056734e1,
     2.49360555267965238987089396762, -3.0467644718982195003823669022},
    {2.27331014751653820792359768449, 0, 0, -1.05344954667372501984066689879e1, -2.00087205822486249909675718444,
     -1.79589318631187989172765950534e1, 2.79488845294199600508499808837e1, -2.85899827713502369474065508674,
     -8.87285693353062954433549289258, 1.23605671757943030647266201528e1, 6.43392746015763530355970484046e-1}};
__constant real_t RK_B[RK_STAGES] = {5.42937341165687622380535766363e-2,
                                     0,
                                     0,
                                     0,
                                     0,
                                     4.45031289275240888144113950566,
                                     1.89151789931450038304281599044,
                                     -5.8012039600105847814672114227,
                                     3.1116436695781989440891606237e-1,
                                     -1.52160949662516078556178806805e-1,
                                     2.01365400804030348374776537501e-1,
                                     4.47106157277725905176885569043e-2};
__constant real_t RK_E[RK_STAGES] = {0.1312004499419488073250102996e-01,
                                     0,
                                     0,
                                     0,
                                     0,
                                     -0.1225156446376204440720569753e+01,
                                     -0.4957589496572501915214079952,
                                     0.1664377182454986536961530415e+01,
                                     -0.3503288487499736816886487290,
                                     0.3341791187130174790297318841,
                                     0.8192320648511571246570742613e-01,
                                     -0.2235530786388629525884427845e-01};
#define RK_E3_WEIGHT ((real_t)0.01)
// RK_B minus the 3rd-order weights 0.244094488188976377952755905512 (stage 1), 0.733846688281611857341361741547
// (stage 9) and 0.220588235294117647058823529412e-01 (stage 12).
__constant real_t RK_E3[RK_STAGES] = {5.42937341165687622380535766363e-2 - 0.244094488188976377952755905512,
                                      0,
                                      0,
                                      0,
                                      0,
                                      4.45031289275240888144113950566,
                                      1.89151789931450038304281599044,
                                      -5.8012039600105847814672114227,
                                      3.1116436695781989440891606237e-1 - 0.733846688281611857341361741547,
                                      -1.52160949662516078556178806805e-1,
                                      2.01365400804030348374776537501e-1,
                                      4.47106157277725905176885569043e-2 - 0.220588235294117647058823529412e-01};
#endif

// Substeps one step may take before the tracer counts as stuck.
#define MAX_SUBSTEPS 100000u

// The spacing of real_t numbers at 1 (float or double).
#define REAL_EPSILON ((real_t)(sizeof(real_t) == 8 ? 2.220446049250313e-16 : 1.1920929e-7))

// The pairs' arithmetic on positions VEC of values T, for one tracer (real_t) or for the lanes of
// ftle_lanes.cl (a vector of them), which so share one text:
//   NAME##_combine: x + h sum_{j < n} w[j] k[j];
//   NAME##_error: the substep's error relative to the tolerance (<= 1: accept), from the stages k taken
//   from x to x_new. Per component it is scaled by atol + rtol max(|x|, |x_new|); DOP853 divides the
//   5th-order estimate's square sum by the root of itself plus 0.01 times the 3rd-order one's (Hairer et
//   al. 1993, II.10), which with the weight 0 is DOPRI5's root mean square. With atol 0 a component that
//   stays at 0 has no scale, and no error either.
#define DEFINE_PAIR_ARITHMETIC(NAME, VEC, T)                                                         \
  inline VEC NAME##_combine(VEC x, T h, __constant const real_t* w, const VEC* k, int n) {           \
    for (int d = 0; d < DIM; ++d) {                                                                 \
      T sum = 0;                                                                                    \
      for (int j = 0; j < n; ++j) sum += w[j] * k[j].c[d];                                          \
      x.c[d] += h * sum;                                                                            \
    }                                                                                               \
    return x;                                                                                       \
  }                                                                                                 \
  inline T NAME##_error(VEC x, VEC x_new, T h, const VEC* k, real_t rtol, real_t atol) {             \
    T err = 0, err3 = 0;                                                                            \
    for (int d = 0; d < DIM; ++d) {                                                                 \
      const T scale = atol + rtol * fmax(fabs(x.c[d]), fabs(x_new.c[d]));                           \
      T e = 0, e3 = 0;                                                                              \
      for (int j = 0; j < RK_STAGES; ++j) {                                                         \
        e += RK_E[j] * k[j].c[d];                                                                   \
        e3 += RK_E3[j] * k[j].c[d];                                                                 \
      }                                                                                             \
      err += e == 0 ? (T)0 : (e / scale) * (e / scale);                                             \
      err3 += e3 == 0 ? (T)0 : (e3 / scale) * (e3 / scale);                                         \
    }                                                                                               \
    const T deno = err + RK_E3_WEIGHT * err3;                                                       \
    return fabs(h) * err / sqrt((real_t)DIM * (deno > 0 ? deno : (T)1));                            \
  }

DEFINE_PAIR_ARITHMETIC(tracer, vec_t, real_t)

// One step from (x, t) to t_end in substeps whose size each tracer chooses: a substep is kept when its
// error estimate is at most 1, and the next size is h (0.9 / err^RK_EXPONENT) within [RK_SHRINK, RK_GROW]
// (not growing right after a rejection). *h carries the size on to the next step (0: start with the
// whole step); a substep cut short to land on t_end does not shrink it. *substeps counts accepted and
// rejected substeps. False when the tracer stops, *code saying why, as step(); also
// TRACER_STEP_UNDERFLOW when the size falls below the time's resolution or MAX_SUBSTEPS pass.
inline bool adaptive_step(vec_t* x, real_t t, real_t t_end, real_t* h, uint2* substeps, real_t rtol, real_t atol,
                          uint* code, real_t* fraction, __global const real_t* params, __global const real_t* velocity,
                          __global const real_t* times, uint snapshots, int4 dims) {
  const real_t span = t_end - t;
  real_t size = *h != 0 ? copysign(fabs(*h), span) : span;
  real_t now = t;
  bool rejected = false;
  vec_t k[RK_STAGES];
  k[0] = VELOCITY(*x, now);
  if (!finite_vec(k[0])) return halt(code, TRACER_BAD_VELOCITY);
  for (uint n = 0;; ++n) {
    const real_t left = t_end - now;
    const real_t wanted = size;
    const bool last = (real_t)1.01 * fabs(size) >= fabs(left);
    if (last) size = left;
    if (n == MAX_SUBSTEPS || fabs(size) <= (real_t)16 * REAL_EPSILON * fmax(fabs(now), fabs(t_end)))
      return halt(code, TRACER_STEP_UNDERFLOW);
    for (int s = 1; s < RK_STAGES; ++s) {
      vec_t xs = tracer_combine(*x, size, RK_A[s], k, s);
      if (!admit(&xs, false, code, params)) return halt(code, TRACER_STOPPED);
      k[s] = VELOCITY(xs, now + RK_C[s] * size);
      if (!finite_vec(k[s])) return halt(code, TRACER_BAD_VELOCITY);
    }
    vec_t next = tracer_combine(*x, size, RK_B, k, RK_STAGES);
    if (!finite_vec(next)) return halt(code, TRACER_BAD_POSITION);
    const real_t err = tracer_error(*x, next, size, k, rtol, atol);
    real_t factor = err > 0 ? (real_t)0.9 * pow(err, -RK_EXPONENT) : RK_GROW;
    factor = fmin(RK_GROW, fmax(RK_SHRINK, isfinite(factor) ? factor : RK_SHRINK));
    if (!(err <= 1)) {  // rejected (a NaN error too): shrink and try again from the same point
      substeps->y += 1;
      size *= fmin(factor, (real_t)1);
      rejected = true;
      continue;
    }
    substeps->x += 1;
    const vec_t unadmitted = next;
    if (!admit(&next, true, code, params)) return halt(code, TRACER_STOPPED);
#if FLOW == FLOW_GRID && BOUNDARY == BOUNDARY_FREEZE
    if (!in_box(next, params)) {
      real_t sub = 0;
      *x = exit_point(*x, next, &sub, params);
      *fraction = (now - t + sub * size) / span;
      return halt(code, TRACER_STOPPED);
    }
#endif
    *x = next;
    now = last ? t_end : now + size;
    const real_t grown = size * (rejected ? fmin(factor, (real_t)1) : factor);
    rejected = false;
    if (last) {
      *h = fabs(grown) > fabs(wanted) ? grown : wanted;
      return true;
    }
    size = grown;
    bool same = true;  // the last stage's point is the new position unless a wall moved it
    for (int d = 0; d < DIM; ++d) same = same && unadmitted.c[d] == next.c[d];
    if (RK_LAST_IS_FIRST && same) {
      k[0] = k[RK_STAGES - 1];
    } else {
      k[0] = VELOCITY(*x, now);
      if (!finite_vec(k[0])) return halt(code, TRACER_BAD_VELOCITY);
    }
  }
}
#endif

// Every kernel below takes a fixed number of work-items, whatever `count` is, and each work-item
// strides over the items by the global size (core/kernel.hpp says why).
#define FOR_EACH(i, count) for (ulong i = get_global_id(0); i < (count); i += get_global_size(0))

#ifdef ADAPTIVE
#define ADAPTIVE_STATE_ARGS , __global real_t* step_size, __global uint2* substeps
#define ADAPTIVE_ARGS ADAPTIVE_STATE_ARGS, real_t rtol, real_t atol
#define ADAPTIVE_ARG_NAMES , step_size, substeps, rtol, atol
#else
#define ADAPTIVE_STATE_ARGS
#define ADAPTIVE_ARGS
#define ADAPTIVE_ARG_NAMES
#endif

#if defined(LANES) && FLOW != FLOW_GRID
#include "ftle/ftle_lanes.cl"
#endif

// Tracers at their seeds: seed (i, j, k) of the grid at origin o, spacing h; this part's tracers are
// seeds first_seed .. first_seed + count - 1 in x-fastest order. Adaptive integrators start each tracer
// with the whole step as its first substep size and no substeps counted.
__kernel void ftle_seed(__global real_t* pos, __global uint2* status, uint count, ulong first_seed, int4 seeds,
                        real_t ox, real_t oy, real_t oz, real_t hx, real_t hy, real_t hz ADAPTIVE_STATE_ARGS) {
  const real_t o[3] = {ox, oy, oz};
  const real_t h[3] = {hx, hy, hz};
  FOR_EACH(i, count) {
    const ulong g = first_seed + i;
    const ulong index[3] = {g % seeds.x, (g / seeds.x) % seeds.y, g / ((ulong)seeds.x * seeds.y)};
    for (int d = 0; d < DIM; ++d) pos[i * DIM + d] = o[d] + (real_t)index[d] * h[d];
    status[i] = (uint2)(TRACER_MOVING, 0u);
#ifdef ADAPTIVE
    step_size[i] = 0;
    substeps[i] = (uint2)(0u, 0u);
#endif
  }
}

// The velocity source as ftle_advect and ftle_velocity take it (ftle::Solver::bind_velocity_source).
#define VELOCITY_SOURCE_ARGS                                                                  \
  __global const real_t* params, __global const real_t* velocity, __global const real_t* times, \
      uint snapshots, int4 dims

// Freeze keeps per tracer the share of its last step taken before it left the box (the host turns it
// into an exit time); no other mode has the argument.
#if FLOW == FLOW_GRID && BOUNDARY == BOUNDARY_FREEZE
#define EXIT_FRACTION_ARG , __global real_t* exit_fraction
#else
#define EXIT_FRACTION_ARG
#endif

// `steps` steps of dt, the first of them step `first_step` of a run that starts at time t_start. Step
// first_step + s starts at t_start + (first_step + s) dt: time accumulates no rounding over many steps,
// and a step's times do not depend on how the run is cut into launches (streamed series launch per
// snapshot interval and must match a resident run bit for bit). A tracer that stops records the step
// it stopped in; one that only meets a wall keeps moving, its flag set.
__kernel void ftle_advect(__global real_t* pos, __global uint2* status, uint count, real_t t_start, real_t dt,
                          uint steps, uint first_step, VELOCITY_SOURCE_ARGS EXIT_FRACTION_ARG ADAPTIVE_ARGS) {
#if defined(LANES) && FLOW != FLOW_GRID
  advect_lanes(pos, status, count, t_start, dt, steps, first_step, params ADAPTIVE_ARG_NAMES);
  return;
#endif
  FOR_EACH(i, count) {
    const uint2 was = status[i];
    if ((was.x & TRACER_CODE_BITS) != TRACER_MOVING) continue;
    vec_t x;
    for (int d = 0; d < DIM; ++d) x.c[d] = pos[i * DIM + d];
    uint code = was.x;
    real_t fraction = 0;
#ifdef ADAPTIVE
    real_t h = step_size[i];
    uint2 taken = substeps[i];
#endif
    uint s = 0;
    for (; s < steps; ++s) {
      const real_t t = t_start + (real_t)(first_step + s) * dt;
#ifdef ADAPTIVE
      const bool moving = adaptive_step(&x, t, t_start + (real_t)(first_step + s + 1) * dt, &h, &taken, rtol, atol,
                                        &code, &fraction, params, velocity, times, snapshots, dims);
#else
      const bool moving = step(&x, t, dt, &code, &fraction, params, velocity, times, snapshots, dims);
#endif
      if (!moving) break;
    }
#ifdef ADAPTIVE
    step_size[i] = h;
    substeps[i] = taken;
#endif
    for (int d = 0; d < DIM; ++d) pos[i * DIM + d] = x.c[d];
    if (code == was.x) continue;
    const bool moving = (code & TRACER_CODE_BITS) == TRACER_MOVING;
    status[i] = (uint2)(code, moving ? was.y : first_step + s);
#if FLOW == FLOW_GRID && BOUNDARY == BOUNDARY_FREEZE
    if (!moving) exit_fraction[i] = fraction;
#endif
  }
}

// The velocity source at `count` points (DIM each) at time t, as the tracers see it.
__kernel void ftle_velocity(__global const real_t* points, __global real_t* out, uint count, real_t t,
                            VELOCITY_SOURCE_ARGS) {
  FOR_EACH(i, count) {
    vec_t x;
    for (int d = 0; d < DIM; ++d) x.c[d] = points[i * DIM + d];
    const vec_t u = VELOCITY(x, t);
    for (int d = 0; d < DIM; ++d) out[i * DIM + d] = u.c[d];
  }
}

// ---- Flow-map gradient and FTLE -----------------------------------------------------------------

#if DIM == 3
// Diagonalises the symmetric 3x3 matrix m (row-major, overwritten with the eigenvalues on its diagonal)
// by cyclic Jacobi rotations, accumulated into e (m = e diag e^T): each rotation zeroes one off-diagonal
// entry exactly and the off-diagonal norm falls quadratically, so a few sweeps reach round-off whatever
// the spread of the eigenvalues (large stretch: 1e30 beside 1e-30). A diagonal m needs no rotation.
inline void jacobi_eigen(acc_t m[3][3], acc_t e[3][3]) {
  for (int r = 0; r < 3; ++r)
    for (int k = 0; k < 3; ++k) e[r][k] = (acc_t)(r == k);
  for (int sweep = 0; sweep < 12; ++sweep) {
    const acc_t off = m[0][1] * m[0][1] + m[0][2] * m[0][2] + m[1][2] * m[1][2];
    const acc_t diag = m[0][0] * m[0][0] + m[1][1] * m[1][1] + m[2][2] * m[2][2];
    if (off <= diag * (acc_t)1e-34 || off == 0) break;
    for (int p = 0; p < 2; ++p) {
      for (int q = p + 1; q < 3; ++q) {
        if (m[p][q] == 0) continue;
        // tan of the rotation angle, the smaller root (Golub & Van Loan, Alg. 8.4.1)
        const acc_t theta = (m[q][q] - m[p][p]) / (2 * m[p][q]);
        const acc_t t = (theta >= 0 ? 1 : -1) / (fabs(theta) + sqrt(theta * theta + 1));
        const acc_t c = 1 / sqrt(t * t + 1), s = t * c;
        for (int k = 0; k < 3; ++k) {
          const acc_t mkp = m[k][p], mkq = m[k][q];
          m[k][p] = c * mkp - s * mkq;
          m[k][q] = s * mkp + c * mkq;
          const acc_t ekp = e[k][p], ekq = e[k][q];  // V = V J
          e[k][p] = c * ekp - s * ekq;
          e[k][q] = s * ekp + c * ekq;
        }
        for (int k = 0; k < 3; ++k) {
          const acc_t mpk = m[p][k], mqk = m[q][k];
          m[p][k] = c * mpk - s * mqk;
          m[q][k] = s * mpk + c * mqk;
        }
      }
    }
  }
}

inline acc_t largest_eigenvalue(acc_t m[3][3]) {
  acc_t e[3][3];
  jacobi_eigen(m, e);
  return fmax(m[0][0], fmax(m[1][1], m[2][2]));
}

// Unit eigenvector v of the largest eigenvalue of m (overwritten): e's column of the largest diagonal
// entry; a diagonal m gives an exact axis.
inline void largest_eigenvector(acc_t m[3][3], acc_t v[3]) {
  acc_t e[3][3];
  jacobi_eigen(m, e);
  int top = 0;
  if (m[1][1] > m[top][top]) top = 1;
  if (m[2][2] > m[top][top]) top = 2;
  const acc_t norm = sqrt(e[0][top] * e[0][top] + e[1][top] * e[1][top] + e[2][top] * e[2][top]);
  for (int k = 0; k < 3; ++k) v[k] = e[k][top] / norm;
}
#endif

// The flow map's gradient f[c][d] = d X_c / d x_d at own seed i: central differences inside, one-sided
// on the grid's faces. `pos` holds this part's tracers from global plane `first_plane` on, which includes
// the neighbouring planes the differences need; own seeds start at global plane `own_plane`.
inline void flow_gradient(__global const real_t* pos, ulong i, int4 seeds, int first_plane, int own_plane,
                          real_t hx, real_t hy, real_t hz, acc_t f[3][3]) {
  const int n[3] = {seeds.x, seeds.y, seeds.z};
  const acc_t h[3] = {hx, hy, hz};
  const long plane = DIM == 2 ? seeds.x : (long)seeds.x * seeds.y;
  const long own = (long)(own_plane - first_plane) * plane + (long)i;  // local index of this seed
  const int idx[3] = {(int)(own % seeds.x), (int)((own / seeds.x) % seeds.y), (int)(own / ((long)seeds.x * seeds.y))};
  int g[3] = {idx[0], idx[1], idx[2]};
  g[DIM - 1] += first_plane;  // global index along the split axis
  const long stride[3] = {1, seeds.x, (long)seeds.x * seeds.y};
  for (int d = 0; d < DIM; ++d) {
    const int lo = g[d] > 0 ? -1 : 0, hi = g[d] < n[d] - 1 ? 1 : 0;
    const long a = own + lo * stride[d], b = own + hi * stride[d];
    const acc_t inv = 1 / ((acc_t)(hi - lo) * h[d]);
    for (int c = 0; c < DIM; ++c) f[c][d] = ((acc_t)pos[b * DIM + c] - (acc_t)pos[a * DIM + c]) * inv;
  }
}

// C = F^T F (3D; the 2D paths use F's entries directly).
inline void cauchy_green(acc_t f[3][3], acc_t m[3][3]) {
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b) m[a][b] = f[0][a] * f[0][b] + f[1][a] * f[1][b] + f[2][a] * f[2][b];
}

// ln sigma_max(F) of a flow-map gradient.
inline acc_t log_sigma_max(acc_t f[3][3]) {
#if DIM == 2
  // sigma_max of [[p, q], [r, s]] in closed form, free of the cancellation in lambda_max(F^T F).
  const acc_t p = f[0][0], q = f[0][1], r = f[1][0], s = f[1][1];
  return log((hypot(p + s, q - r) + hypot(p - s, q + r)) / 2);
#else
  acc_t m[3][3];
  cauchy_green(f, m);
  return log(largest_eigenvalue(m)) / 2;
#endif
}

// ln sigma_min(F) of a flow-map gradient, as ln |det F| - ln of the product of the other singular values:
// in 2D that is sigma_max itself (closed form above), in 3D sigma_1 sigma_2 = sigma_max of F's cofactor
// matrix (the largest eigenvalue of cof^T cof by the same Jacobi rotations). lambda_min of F^T F directly
// would carry a rounding of eps lambda_max, which swamps lambda_min where F stretches strongly; the
// determinant and the largest eigenvalue of the cofactors keep their relative accuracy. A singular F
// gives -inf.
inline acc_t log_sigma_min(acc_t f[3][3]) {
#if DIM == 2
  const acc_t p = f[0][0], q = f[0][1], r = f[1][0], s = f[1][1];
  const acc_t det = fabs(p * s - q * r);
  return det > 0 ? log(det) - log((hypot(p + s, q - r) + hypot(p - s, q + r)) / 2) : log(det);
#else
  acc_t cof[3][3];
  for (int a = 0; a < 3; ++a) {
    const int a1 = (a + 1) % 3, a2 = (a + 2) % 3;
    for (int b = 0; b < 3; ++b) {
      const int b1 = (b + 1) % 3, b2 = (b + 2) % 3;
      cof[a][b] = f[a1][b1] * f[a2][b2] - f[a1][b2] * f[a2][b1];
    }
  }
  const acc_t det = fabs(f[0][0] * cof[0][0] + f[0][1] * cof[0][1] + f[0][2] * cof[0][2]);
  if (!(det > 0)) return log(det);
  acc_t m[3][3];
  cauchy_green(cof, m);
  return log(det) - log(largest_eigenvalue(m)) / 2;
#endif
}

// ln sigma_max of the flow map's gradient at own seed i (flow_gradient says how it is differenced).
inline acc_t log_stretch(__global const real_t* pos, ulong i, int4 seeds, int first_plane, int own_plane,
                         real_t hx, real_t hy, real_t hz) {
  acc_t f[3][3];
  flow_gradient(pos, i, seeds, first_plane, own_plane, hx, hy, hz, f);
  return log_sigma_max(f);
}


// The direction of largest stretching at a seed: the unit eigenvector of the largest eigenvalue of
// C = F^T F (F's leading right singular vector), signed so that its first non-zero component is
// positive. An isotropic C (no preferred direction) gives the x axis.
inline void stretch_direction_of(acc_t f[3][3], acc_t v[3]) {
#if DIM == 2
  // C = [[a, b], [b, c]]: the top eigenvector is at angle phi with cos 2 phi = (a - c) / 2r,
  // sin 2 phi = b / r, r = hypot((a - c) / 2, b); the half angle from whichever of cos phi, sin phi is
  // the larger, so neither cancels.
  const acc_t p = f[0][0], q = f[0][1], r = f[1][0], s = f[1][1];
  const acc_t a = p * p + r * r, b = p * q + r * s, c = q * q + s * s;
  const acc_t dif = (a - c) / 2, rad = hypot(dif, b);
  v[2] = 0;
  if (!(rad > 0)) {
    v[0] = 1;
    v[1] = 0;
  } else if (dif >= 0) {
    v[0] = sqrt((1 + dif / rad) / 2);
    v[1] = b / (2 * rad * v[0]);
  } else {
    v[1] = sqrt((1 - dif / rad) / 2);
    v[0] = b / (2 * rad * v[1]);
  }
#else
  acc_t m[3][3];
  cauchy_green(f, m);
  largest_eigenvector(m, v);
#endif
  int first = 0;
  while (first < DIM - 1 && v[first] == 0) ++first;
  const acc_t sign = v[first] < 0 ? -1 : 1;
  for (int d = 0; d < DIM; ++d) v[d] = sign * v[d] + 0;  // + 0 turns -0 into 0
}

// What ftle_field and ftle_field_direction take after their buffers (ftle::bind_field_args): `count` own
// seeds from global plane own_plane of a seed grid of `seeds` nodes and spacing h, positions held from
// global plane first_plane on, and 1 / |T|.
#define FIELD_ARGS \
  uint count, int4 seeds, int first_plane, int own_plane, real_t hx, real_t hy, real_t hz, real_t inv_duration

// FTLE of the `count` own seeds.
__kernel void ftle_field(__global const real_t* pos, __global real_t* ftle, FIELD_ARGS) {
  FOR_EACH(i, count) {
    ftle[i] = (real_t)(log_stretch(pos, i, seeds, first_plane, own_plane, hx, hy, hz) * (acc_t)inv_duration);
  }
}

// The smallest finite-time exponent ln(sigma_min(F)) / |T| = ln(lambda_min(F^T F)) / 2|T| of the `count` own
// seeds, F as for ftle_field.
__kernel void ftle_field_min(__global const real_t* pos, __global real_t* ftle, FIELD_ARGS) {
  FOR_EACH(i, count) {
    acc_t f[3][3];
    flow_gradient(pos, i, seeds, first_plane, own_plane, hx, hy, hz, f);
    ftle[i] = (real_t)(log_sigma_min(f) * (acc_t)inv_duration);
  }
}

// FTLE of the `count` own seeds, as ftle_field computes it, and the direction of largest stretching
// (stretch_direction_of), DIM reals per seed.
__kernel void ftle_field_direction(__global const real_t* pos, __global real_t* ftle, __global real_t* direction,
                                   FIELD_ARGS) {
  FOR_EACH(i, count) {
    acc_t f[3][3];
    flow_gradient(pos, i, seeds, first_plane, own_plane, hx, hy, hz, f);
    ftle[i] = (real_t)(log_sigma_max(f) * (acc_t)inv_duration);
    acc_t v[3];
    stretch_direction_of(f, v);
    for (int d = 0; d < DIM; ++d) direction[i * DIM + d] = (real_t)v[d];
  }
}
