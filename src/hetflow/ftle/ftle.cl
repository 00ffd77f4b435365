// Finite-time Lyapunov exponents (Conti, Rossinelli & Koumoutsakos 2012; docs/ftle.md, "Method"): tracers
// start on a uniform seed grid, are advected through a velocity field, and the flow map's gradient on the
// seed grid gives the largest finite-time stretching rate ln(sigma_max(F)) / |T|.
//
// Build options select one specialised program per run, so no kernel branches on a mode per tracer:
//   DIM           2 or 3 (axes and velocity components)
//   FLOW          the velocity source: FLOW_DOUBLE_GYRE ... FLOW_CELLULAR (analytic, evaluated here) or FLOW_GRID
//   INTEGRATOR    1 Euler, 2 Heun (RK2, the paper's Eq. 16), 4 classic RK4
//   INTERP_M4     gridded velocity through M4' (4 nodes per axis); otherwise (bi/tri)linear (2 per axis)
//   BOUNDARY      gridded velocity only: BOUNDARY_CLAMP, BOUNDARY_STOP, BOUNDARY_PERIODIC, BOUNDARY_EXTRAPOLATE,
//                 BOUNDARY_FREE_STREAM or BOUNDARY_FREEZE (docs/ftle.md, "Boundary modes")
//   VELOCITY_SLOTS  gridded velocity streamed through a ring of this many snapshot slots (unset: every
//                 snapshot resident, snapshot k at k)
//   FREE_STREAM   gridded velocity only: a uniform velocity from the parameters is added to it
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

inline real_t sech2(real_t z) {
  const real_t c = cosh(z);
  return 1 / (c * c);
}

inline vec_t velocity_at(vec_t x, real_t t, __global const real_t* p, __global const real_t* velocity,
                         __global const real_t* times, uint snapshots, int4 dims) {
  vec_t u;
#if FLOW == FLOW_DOUBLE_GYRE
  // p: A, epsilon, omega (Shadden et al. 2005)
  const real_t a = p[1] * sin(p[2] * t);
  const real_t b = 1 - 2 * a;
  const real_t f = (a * x.c[0] + b) * x.c[0];
  const real_t dfdx = 2 * a * x.c[0] + b;
  u.c[0] = -PI * p[0] * sin(PI * f) * cos(PI * x.c[1]);
  u.c[1] = PI * p[0] * cos(PI * f) * sin(PI * x.c[1]) * dfdx;
#elif FLOW == FLOW_LINEAR
  // p: the velocity gradient, DIM x DIM row-major: u = G x (saddles, rotations, shears)
  for (int c = 0; c < DIM; ++c) {
    u.c[c] = 0;
    for (int d = 0; d < DIM; ++d) u.c[c] += p[c * DIM + d] * x.c[d];
  }
#elif FLOW == FLOW_BICKLEY
  // p: U, L, eps1..3, k1..3, c1..3 (Rypina et al. 2007); psi = -U L tanh(y/L)
  //    + U L sech^2(y/L) sum_n eps_n cos(k_n (x - c_n t)), u = -dpsi/dy, v = dpsi/dx
  const real_t y = x.c[1] / p[1];
  const real_t s2 = sech2(y);
  real_t waves = 0, dwaves = 0;
  for (int n = 0; n < 3; ++n) {
    const real_t phase = p[5 + n] * (x.c[0] - p[8 + n] * t);
    waves += p[2 + n] * cos(phase);
    dwaves -= p[2 + n] * p[5 + n] * sin(phase);
  }
  u.c[0] = p[0] * s2 * (1 + 2 * tanh(y) * waves);
  u.c[1] = p[0] * p[1] * s2 * dwaves;
#elif FLOW == FLOW_ABC
  // p: A, B, C, epsilon, omega; A(t) = A + epsilon sin(omega t) (Haller 2001: epsilon 0.1, omega 1)
  const real_t a = p[0] + p[3] * sin(p[4] * t);
  u.c[0] = a * sin(x.c[2]) + p[2] * cos(x.c[1]);
  u.c[1] = p[1] * sin(x.c[0]) + a * cos(x.c[2]);
  u.c[2] = p[2] * sin(x.c[1]) + p[1] * cos(x.c[0]);
#elif FLOW == FLOW_CELLULAR
  // psi = cos(pi x) cos(pi y) scaled by p[0]: the paper's steady saddle (Figs. 1-2), u = -dpsi/dy
  u.c[0] = p[0] * PI * cos(PI * x.c[0]) * sin(PI * x.c[1]);
  u.c[1] = -p[0] * PI * sin(PI * x.c[0]) * cos(PI * x.c[1]);
#else
#error "unknown FLOW"
#endif
  return u;
}

// Analytic flows are defined everywhere: no wall.
inline bool admit(vec_t* x, bool end_point, uint* code, __global const real_t* params, int4 dims) { return true; }

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
  if (!admit(&xs, false, code, params, dims)) return halt(code, TRACER_STOPPED);
  const vec_t k2 = VELOCITY(xs, t + dt);
  if (!finite_vec(k2)) return halt(code, TRACER_BAD_VELOCITY);
  vec_t next;
  for (int d = 0; d < DIM; ++d) next.c[d] = x->c[d] + dt * (real_t)0.5 * (k1.c[d] + k2.c[d]);
#else
  const real_t mid = (real_t)0.5 * dt;
  vec_t xs = axpy(*x, mid, k1);
  if (!admit(&xs, false, code, params, dims)) return halt(code, TRACER_STOPPED);
  const vec_t k2 = VELOCITY(xs, t + mid);
  if (!finite_vec(k2)) return halt(code, TRACER_BAD_VELOCITY);
  xs = axpy(*x, mid, k2);
  if (!admit(&xs, false, code, params, dims)) return halt(code, TRACER_STOPPED);
  const vec_t k3 = VELOCITY(xs, t + mid);
  if (!finite_vec(k3)) return halt(code, TRACER_BAD_VELOCITY);
  xs = axpy(*x, dt, k3);
  if (!admit(&xs, false, code, params, dims)) return halt(code, TRACER_STOPPED);
  const vec_t k4 = VELOCITY(xs, t + dt);
  if (!finite_vec(k4)) return halt(code, TRACER_BAD_VELOCITY);
  vec_t next;
  for (int d = 0; d < DIM; ++d)
    next.c[d] = x->c[d] + dt / 6 * (k1.c[d] + 2 * (k2.c[d] + k3.c[d]) + k4.c[d]);
#endif
  if (!finite_vec(next)) return halt(code, TRACER_BAD_POSITION);
  if (!admit(&next, true, code, params, dims)) return halt(code, TRACER_STOPPED);
#if FLOW == FLOW_GRID && BOUNDARY == BOUNDARY_FREEZE
  if (!in_box(next, params, dims)) {
    *x = exit_point(*x, next, fraction, params, dims);
    return halt(code, TRACER_STOPPED);
  }
#endif
  *x = next;
  return true;
}

// Every kernel below takes a fixed number of work-items, whatever `count` is, and each work-item
// strides over the items by the global size (core/kernel.hpp says why).
#define FOR_EACH(i, count) for (ulong i = get_global_id(0); i < (count); i += get_global_size(0))

// Tracers at their seeds: seed (i, j, k) of the grid at origin o, spacing h; this part's tracers are
// seeds first_seed .. first_seed + count - 1 in x-fastest order.
__kernel void ftle_seed(__global real_t* pos, __global uint2* status, uint count, ulong first_seed, int4 seeds,
                        real_t ox, real_t oy, real_t oz, real_t hx, real_t hy, real_t hz) {
  const real_t o[3] = {ox, oy, oz};
  const real_t h[3] = {hx, hy, hz};
  FOR_EACH(i, count) {
    const ulong g = first_seed + i;
    const ulong index[3] = {g % seeds.x, (g / seeds.x) % seeds.y, g / ((ulong)seeds.x * seeds.y)};
    for (int d = 0; d < DIM; ++d) pos[i * DIM + d] = o[d] + (real_t)index[d] * h[d];
    status[i] = (uint2)(TRACER_MOVING, 0u);
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
                          uint steps, uint first_step, VELOCITY_SOURCE_ARGS EXIT_FRACTION_ARG) {
  FOR_EACH(i, count) {
    const uint2 was = status[i];
    if ((was.x & TRACER_CODE_BITS) != TRACER_MOVING) continue;
    vec_t x;
    for (int d = 0; d < DIM; ++d) x.c[d] = pos[i * DIM + d];
    uint code = was.x;
    real_t fraction = 0;
    uint s = 0;
    for (; s < steps; ++s) {
      if (!step(&x, t_start + (real_t)(first_step + s) * dt, dt, &code, &fraction, params, velocity, times, snapshots,
                dims))
        break;
    }
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
