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

// The scalars of a solve (scalars[]), written and read only on the device. A kernel's work-groups
// never read a scalar that one of them writes in the same launch: the step writes S_RZ_PREV and reads
// S_RZ, the direction kernel writes S_RZ and reads S_RZ_PREV.
#define S_RZ 0       // r.z of the current residual
#define S_RZ_PREV 1  // r.z of the previous residual, for beta
#define S_RR 2       // r.r of the current residual
#define S_BB 3       // r.r of the initial residual (b.b: x starts at zero)

// The scalar steps (alpha, beta, the stopping test) run in every work-group of the kernel that uses
// them: each group adds the same partial sums in the same order, so all groups hold the same value
// and no launch of a single work-group sits between two vector kernels. Work-group 0 alone writes the
// state word and the scalars. Another group of the same launch may read the state word before or after
// that write; either way it does what its own copy of the test tells it (nothing once the solve stops).

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

// The sum of a over the work-group of `size` work-items (a power of two), in every work-item; `part`
// holds `size` values and is free again on return.
real_t group_sum(__local real_t* part, const real_t a, const int size) {
  const int lid = get_local_id(0);
  part[lid] = a;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int stride = size / 2; stride > 0; stride >>= 1) {
    if (lid < stride) part[lid] += part[lid + stride];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  const real_t sum = part[0];
  barrier(CLK_LOCAL_MEM_FENCE);
  return sum;
}

// With `write`, partial[2g] and partial[2g+1] get work-group g's sums of a and b over `size` work-items;
// `part` holds `size` values. Every work-item calls it, whatever `write` is, so that no barrier depends on
// it.
void write_partials(__local real_t* part, const real_t a, const real_t b, const int size, const int write,
                    __global real_t* restrict partial) {
  const real_t sa = group_sum(part, a, size), sb = group_sum(part, b, size);
  if (write && get_local_id(0) == 0) {
    partial[2 * get_group_id(0)] = sa;
    partial[2 * get_group_id(0) + 1] = sb;
  }
}

// Work-group g's share of r.z and r.r with z = r / diag, written to z; `part` holds REDUCE_WG values.
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
  write_partials(part, rz, rr, REDUCE_WG, 1, partial);
}

// The sums of `count` pairs of partial sums, in every work-item of a REDUCE_WG group; `part` holds
// REDUCE_WG values.
real2 sum_pairs(__local real_t* part, const int count, __global const real_t* restrict partial) {
  real_t a = 0, b = 0;
  for (int g = get_local_id(0); g < count; g += REDUCE_WG) {
    a += partial[2 * g];
    b += partial[2 * g + 1];
  }
  return (real2)(group_sum(part, a, REDUCE_WG), group_sum(part, b, REDUCE_WG));
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
  __local real_t part[REDUCE_WG];
  rz_rr_partials(part, n, b, inv_diag, z, partial);
}

// Finishes the start, in one work-group: r.z, r.r = b.b, iteration 0; a zero right-hand side has
// converged (x = 0).
__kernel __attribute__((reqd_work_group_size(REDUCE_WG, 1, 1)))
void fem_cg_start_sums(const int count, __global const real_t* restrict partial, __global real_t* restrict s,
                       __global int* restrict state) {
  __local real_t part[REDUCE_WG];
  const real2 sum = sum_pairs(part, count, partial);
  if (get_local_id(0) != 0) return;
  s[S_RZ] = sum.x;
  s[S_RR] = sum.y;
  s[S_BB] = sum.y;
  state[1] = 0;
  state[0] = !isfinite(sum.x) || !isfinite(sum.y) ? CG_NOT_FINITE : sum.y == 0 ? CG_CONVERGED : CG_RUNNING;
}

// q = A p over the n rows from `first`, and partial[at + g] = work-group g's share of their p.q (each row's
// lane 0 adds p_i q_i over its rows). A part of a split solve runs its rows in three launches, the rows
// that read no halo while the halo travels.
__kernel __attribute__((reqd_work_group_size(SPMV_WG, 1, 1)))
void fem_cg_product(const int first, const int n, __global const int* restrict row_start,
                    __global const int* restrict col, __global const real_t* restrict val,
                    __global const real_t* restrict p, __global real_t* restrict q, __global real_t* restrict partial,
                    const int at, __global const int* restrict state) {
  __local real_t part[SPMV_WG];
  const int count = state[0] == CG_RUNNING ? n : 0;
  real_t pq = 0;
  FOR_EACH_SPMV_ROW(row, count) {
    const real_t sum = spmv_row_sum(part, row, count, row_start + first, col, val, p, 0, p);
    if (SPMV_WRITES(row, count)) {
      q[first + row] = sum;
      pq += p[first + row] * sum;
    }
  }
  const real_t group_pq = group_sum(part, pq, SPMV_WG);
  if (get_local_id(0) == 0) partial[at + get_group_id(0)] = group_pq;
}

// The step length alpha = r.z / p.q from the `count` partial sums of p.q, in every work-group; returns
// whether the solve steps on. A p.q that is not positive or not finite stops the solve.
int cg_alpha(__local real_t* part, const int count, __global const real_t* restrict pq_partial,
             __global real_t* restrict s, __global int* restrict state, real_t* alpha) {
  const int running = state[0] == CG_RUNNING;
  real_t a = 0;
  for (int g = get_local_id(0); g < (running ? count : 0); g += REDUCE_WG) a += pq_partial[g];
  const real_t pq = group_sum(part, a, REDUCE_WG);
  const int steps = running && isfinite(pq) && pq > 0;
  const real_t rz = s[S_RZ];
  *alpha = rz / pq;
  if (running && get_group_id(0) == 0 && get_local_id(0) == 0) {
    if (!isfinite(pq)) {
      state[0] = CG_NOT_FINITE;
    } else if (pq <= 0) {
      state[0] = CG_NOT_POSITIVE;
    } else {
      s[S_RZ_PREV] = rz;
    }
  }
  return steps;
}

// alpha from the p.q partials, then x += alpha p and r -= alpha q; returns the rows updated: n, or 0 once
// the solve has stopped.
int cg_update_x_r(__local real_t* part, const int n, const int pq_count, __global const real_t* restrict pq_partial,
                  __global real_t* restrict s, __global real_t* restrict x, __global real_t* restrict r,
                  __global const real_t* restrict p, __global const real_t* restrict q,
                  __global int* restrict state) {
  real_t alpha;
  const int count = cg_alpha(part, pq_count, pq_partial, s, state, &alpha) ? n : 0;
  for (int i = get_global_id(0); i < count; i += get_global_size(0)) {
    x[i] += alpha * p[i];
    r[i] -= alpha * q[i];
  }
  return count;
}

// alpha, then x += alpha p, r -= alpha q, z = r / diag, and the partial sums of the new r.z and r.r.
__kernel __attribute__((reqd_work_group_size(REDUCE_WG, 1, 1)))
void fem_cg_step(const int n, const int pq_count, __global const real_t* restrict pq_partial,
                 __global real_t* restrict s, __global real_t* restrict x, __global real_t* restrict r,
                 __global const real_t* restrict p, __global const real_t* restrict q,
                 __global const real_t* restrict inv_diag, __global real_t* restrict z,
                 __global real_t* restrict partial, __global int* restrict state) {
  __local real_t part[REDUCE_WG];
  const int count = cg_update_x_r(part, n, pq_count, pq_partial, s, x, r, p, q, state);
  // Each work-item reads back only the r[i] it wrote, so no barrier is needed between the loops.
  rz_rr_partials(part, count, r, inv_diag, z, partial);
}

// The step of a solve with a preconditioner other than Jacobi: alpha, then x += alpha p, r -= alpha q.
// The preconditioner then writes z = B r and the partial sums of r.z and r.r.
__kernel __attribute__((reqd_work_group_size(REDUCE_WG, 1, 1)))
void fem_cg_update(const int n, const int pq_count, __global const real_t* restrict pq_partial,
                   __global real_t* restrict s, __global real_t* restrict x, __global real_t* restrict r,
                   __global const real_t* restrict p, __global const real_t* restrict q,
                   __global int* restrict state) {
  __local real_t part[REDUCE_WG];
  cg_update_x_r(part, n, pq_count, pq_partial, s, x, r, p, q, state);
}

// p = z: the first direction of a solve with a preconditioner other than Jacobi.
__kernel void fem_cg_first_direction(const int n, __global const real_t* restrict z, __global real_t* restrict p,
                                     __global const int* restrict state) {
  if (state[0] != CG_RUNNING) return;
  for (int i = get_global_id(0); i < n; i += get_global_size(0)) p[i] = z[i];
}

// From the `count` partial pairs of the new r.z and r.r, in every work-group: the stopping test
// (r.r < tol2 b.b, not finite), beta = r.z(new) / r.z(old) and p = z + beta p. Work-group 0 also counts
// the iteration, stops at the iteration limit and keeps r.r and r.z. The other groups do not read the
// count (work-group 0 may already have written it); at the limit they update p, which nothing reads.
__kernel __attribute__((reqd_work_group_size(REDUCE_WG, 1, 1)))
void fem_cg_direction(const int n, const int count, __global const real_t* restrict partial,
                      __global real_t* restrict s, __global const real_t* restrict z, __global real_t* restrict p,
                      __global int* restrict state, const real_t tol2, const int max_iterations) {
  __local real_t part[REDUCE_WG];
  const int running = state[0] == CG_RUNNING;
  const real2 sum = sum_pairs(part, running ? count : 0, partial);
  const int finite = isfinite(sum.x) && isfinite(sum.y);
  const int converged = sum.y < tol2 * s[S_BB];
  const real_t beta = sum.x / s[S_RZ_PREV];
  if (running && get_group_id(0) == 0 && get_local_id(0) == 0) {
    const int k = state[1] + 1;
    state[1] = k;
    s[S_RR] = sum.y;
    if (!finite) {
      state[0] = CG_NOT_FINITE;
    } else if (converged) {
      state[0] = CG_CONVERGED;
    } else if (k >= max_iterations) {
      state[0] = CG_MAX_ITERATIONS;
    } else {
      s[S_RZ] = sum.x;
    }
  }
  const int steps = running && finite && !converged;
  for (int i = get_global_id(0); i < (steps ? n : 0); i += get_global_size(0)) p[i] = z[i] + beta * p[i];
}
