// Device sparse linear algebra of the pressure solve: the multi-row vector-CSR SpMV and the kernels of
// the preconditioned conjugate gradient (docs/fem.md, "Pressure solver"). REDUCE_WG is the work-group
// size of the reductions, a power of two.
#include "fem/spmv_rows.cl"

#define REAL2_(t) t##2
#define REAL2(t) REAL2_(t)
typedef REAL2(REAL) real2;

// The state word of a solve (state[0]); the host reads it at each convergence check.
#define CG_RUNNING 0
#define CG_CONVERGED 1
#define CG_MAX_ITERATIONS 2
#define CG_NOT_POSITIVE 3  // p.Ap <= 0: the matrix (or the preconditioner) is not positive definite
#define CG_NOT_FINITE 4    // a NaN or infinity in the residual or in p.Ap

// Once the state word leaves CG_RUNNING the solve's kernels change nothing. Those with barriers do not
// return ahead of them: they run over an empty range instead, so every work-item reaches every barrier
// (a return ahead of a barrier hung PoCL 3.1's work-group loop, though the state is uniform).

// The scalars of a solve (scalars[]), written and read only on the device.
#define S_RZ 0     // r.z of the current residual
#define S_ALPHA 1  // step length
#define S_BETA 2   // direction update
#define S_RR 3     // r.r of the current residual
#define S_BB 4     // r.r of the initial residual (b.b: x starts at zero)
#define S_PQ 5     // p.Ap of the last step

// y = A x for a CSR matrix of n rows.
__kernel __attribute__((reqd_work_group_size(SPMV_WG, 1, 1)))
void fem_spmv(const int n, __global const int* restrict row_start, __global const int* restrict col,
              __global const real_t* restrict val, __global const real_t* restrict x, __global real_t* restrict y) {
  __local real_t part[SPMV_WG];
  FOR_EACH_SPMV_ROW(row, n) {
    const real_t sum = spmv_row_sum(part, row, n, row_start, col, val, x, 0, x);
    if (SPMV_WRITES(row, n)) y[row] = sum;
  }
}

// The sums over the work-group of a and b, valid in work-item 0; `part` holds 2 REDUCE_WG values.
// Two sums share the barriers: the CG update needs r.z and r.r of the same residual.
real2 group_sum2(__local real_t* part, const real_t a, const real_t b) {
  const int lid = get_local_id(0);
  part[lid] = a;
  part[lid + REDUCE_WG] = b;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int stride = REDUCE_WG / 2; stride > 0; stride >>= 1) {
    if (lid < stride) {
      part[lid] += part[lid + stride];
      part[lid + REDUCE_WG] += part[lid + REDUCE_WG + stride];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  return (real2)(part[0], part[REDUCE_WG]);
}

// partial[2g], partial[2g+1]: work-group g's sums of a and b; `part` holds 2 REDUCE_WG values.
void write_partials(__local real_t* part, const real_t a, const real_t b, __global real_t* restrict partial) {
  const real2 s = group_sum2(part, a, b);
  if (get_local_id(0) == 0) {
    partial[2 * get_group_id(0)] = s.x;
    partial[2 * get_group_id(0) + 1] = s.y;
  }
}

// Work-group g's share of r.z and r.r with z = r / diag, written to z; `part` holds 2 REDUCE_WG values.
void rz_rr_partials(__local real_t* part, const int n, __global const real_t* restrict r,
                    __global const real_t* restrict inv_diag, __global real_t* restrict z,
                    __global real_t* restrict partial) {
  real_t rz = 0, rr = 0;
  for (int i = get_global_id(0); i < n; i += get_global_size(0)) {
    const real_t ri = r[i], zi = ri * inv_diag[i];
    z[i] = zi;
    rz += ri * zi;
    rr += ri * ri;
  }
  write_partials(part, rz, rr, partial);
}

// The sums of `count` pairs of partial sums, in one work-group; `part` holds 2 REDUCE_WG values.
real2 sum_pairs(__local real_t* part, const int count, __global const real_t* restrict partial) {
  real_t a = 0, b = 0;
  for (int g = get_local_id(0); g < count; g += REDUCE_WG) {
    a += partial[2 * g];
    b += partial[2 * g + 1];
  }
  return group_sum2(part, a, b);
}

// Start of a solve with x = 0: r = b, z = b / diag, p = z, and the partial sums of r.z and r.r.
__kernel __attribute__((reqd_work_group_size(REDUCE_WG, 1, 1)))
void fem_cg_start(const int n, __global const real_t* restrict b, __global const real_t* restrict inv_diag,
                  __global real_t* restrict x, __global real_t* restrict r, __global real_t* restrict z,
                  __global real_t* restrict p, __global real_t* restrict partial) {
  for (int i = get_global_id(0); i < n; i += get_global_size(0)) {
    x[i] = 0;
    r[i] = b[i];
    p[i] = b[i] * inv_diag[i];
  }
  __local real_t part[2 * REDUCE_WG];
  rz_rr_partials(part, n, b, inv_diag, z, partial);
}

// Finishes the start: r.z, r.r = b.b, iteration 0; a zero right-hand side has converged (x = 0).
__kernel __attribute__((reqd_work_group_size(REDUCE_WG, 1, 1)))
void fem_cg_start_sums(const int count, __global const real_t* restrict partial, __global real_t* restrict s,
                       __global int* restrict state) {
  __local real_t part[2 * REDUCE_WG];
  const real2 sum = sum_pairs(part, count, partial);
  if (get_local_id(0) != 0) return;
  s[S_RZ] = sum.x;
  s[S_RR] = sum.y;
  s[S_BB] = sum.y;
  state[1] = 0;
  state[0] = !isfinite(sum.x) || !isfinite(sum.y) ? CG_NOT_FINITE : sum.y == 0 ? CG_CONVERGED : CG_RUNNING;
}

// partial[g]: work-group g's share of p.q (q = A p).
__kernel __attribute__((reqd_work_group_size(REDUCE_WG, 1, 1)))
void fem_cg_pq(const int n, __global const real_t* restrict p, __global const real_t* restrict q,
               __global real_t* restrict partial, __global const int* restrict state) {
  __local real_t part[2 * REDUCE_WG];
  const int count = state[0] == CG_RUNNING ? n : 0;
  real_t pq = 0;
  for (int i = get_global_id(0); i < count; i += get_global_size(0)) pq += p[i] * q[i];
  write_partials(part, pq, 0, partial);
}

// alpha = r.z / p.q; a p.q that is not positive stops the solve.
__kernel __attribute__((reqd_work_group_size(REDUCE_WG, 1, 1)))
void fem_cg_alpha(const int count, __global const real_t* restrict partial, __global real_t* restrict s,
                  __global int* restrict state) {
  __local real_t part[2 * REDUCE_WG];
  const int running = state[0] == CG_RUNNING;
  const real2 sum = sum_pairs(part, running ? count : 0, partial);
  if (get_local_id(0) != 0 || !running) return;
  const real_t pq = sum.x;
  s[S_PQ] = pq;
  if (!isfinite(pq)) {
    state[0] = CG_NOT_FINITE;
  } else if (pq <= 0) {
    state[0] = CG_NOT_POSITIVE;
  } else {
    s[S_ALPHA] = s[S_RZ] / pq;
  }
}

// x += alpha p, r -= alpha q, z = r / diag, and the partial sums of the new r.z and r.r.
__kernel __attribute__((reqd_work_group_size(REDUCE_WG, 1, 1)))
void fem_cg_step(const int n, __global const real_t* restrict s, __global real_t* restrict x,
                 __global real_t* restrict r, __global const real_t* restrict p, __global const real_t* restrict q,
                 __global const real_t* restrict inv_diag, __global real_t* restrict z,
                 __global real_t* restrict partial, __global const int* restrict state) {
  const int count = state[0] == CG_RUNNING ? n : 0;
  const real_t alpha = s[S_ALPHA];
  for (int i = get_global_id(0); i < count; i += get_global_size(0)) {
    x[i] += alpha * p[i];
    r[i] -= alpha * q[i];
  }
  // Each work-item reads back only the r[i] it wrote, so no barrier is needed between the loops.
  __local real_t part[2 * REDUCE_WG];
  rz_rr_partials(part, count, r, inv_diag, z, partial);
}

// The update of a solve with a preconditioner other than Jacobi: x += alpha p, r -= alpha q. The
// preconditioner then writes z = B r and fem_cg_sums adds up r.z and r.r.
__kernel void fem_cg_update(const int n, __global const real_t* restrict s, __global real_t* restrict x,
                            __global real_t* restrict r, __global const real_t* restrict p,
                            __global const real_t* restrict q, __global const int* restrict state) {
  if (state[0] != CG_RUNNING) return;
  const real_t alpha = s[S_ALPHA];
  for (int i = get_global_id(0); i < n; i += get_global_size(0)) {
    x[i] += alpha * p[i];
    r[i] -= alpha * q[i];
  }
}

// The partial sums of r.z and r.r for a given z.
__kernel __attribute__((reqd_work_group_size(REDUCE_WG, 1, 1)))
void fem_cg_sums(const int n, __global const real_t* restrict r, __global const real_t* restrict z,
                 __global real_t* restrict partial, __global const int* restrict state) {
  __local real_t part[2 * REDUCE_WG];
  const int count = state[0] == CG_RUNNING ? n : 0;
  real_t rz = 0, rr = 0;
  for (int i = get_global_id(0); i < count; i += get_global_size(0)) {
    const real_t ri = r[i];
    rz += ri * z[i];
    rr += ri * ri;
  }
  write_partials(part, rz, rr, partial);
}

// p = z: the first direction of a solve with a preconditioner other than Jacobi.
__kernel void fem_cg_first_direction(const int n, __global const real_t* restrict z, __global real_t* restrict p,
                                     __global const int* restrict state) {
  if (state[0] != CG_RUNNING) return;
  for (int i = get_global_id(0); i < n; i += get_global_size(0)) p[i] = z[i];
}

// Counts the iteration, tests convergence (r.r < tol2 b.b) and the iteration limit, and sets
// beta = r.z(new) / r.z(old).
__kernel __attribute__((reqd_work_group_size(REDUCE_WG, 1, 1)))
void fem_cg_beta(const int count, __global const real_t* restrict partial, __global real_t* restrict s,
                 __global int* restrict state, const real_t tol2, const int max_iterations) {
  __local real_t part[2 * REDUCE_WG];
  const int running = state[0] == CG_RUNNING;
  const real2 sum = sum_pairs(part, running ? count : 0, partial);
  if (get_local_id(0) != 0 || !running) return;
  const int k = state[1] + 1;
  state[1] = k;
  s[S_RR] = sum.y;
  if (!isfinite(sum.x) || !isfinite(sum.y)) {
    state[0] = CG_NOT_FINITE;
  } else if (sum.y < tol2 * s[S_BB]) {
    state[0] = CG_CONVERGED;
  } else if (k >= max_iterations) {
    state[0] = CG_MAX_ITERATIONS;
  } else {
    s[S_BETA] = sum.x / s[S_RZ];
    s[S_RZ] = sum.x;
  }
}

// p = z + beta p.
__kernel void fem_cg_direction(const int n, __global const real_t* restrict s, __global const real_t* restrict z,
                               __global real_t* restrict p, __global const int* restrict state) {
  if (state[0] != CG_RUNNING) return;
  const real_t beta = s[S_BETA];
  for (int i = get_global_id(0); i < n; i += get_global_size(0)) p[i] = z[i] + beta * p[i];
}
