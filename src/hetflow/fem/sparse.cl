// Device sparse linear algebra of the pressure solve: the multi-row vector-CSR SpMV and the kernels of
// the preconditioned conjugate gradient (docs/fem.md, "Pressure solver"). REDUCE_WG is the work-group
// size of the reductions, a power of two.
#include "fem/spmv_rows.cl"

// The solve's sums and scalars are FP64 whatever real_t is: sums over millions of rows of FP32 products,
// and the recurrences of alpha and beta from them, lose the directions' conjugacy in FP32 (a solve of
// millions of unknowns then stalls or finds p.Ap <= 0), while FP64 sums of the FP32 vectors cost no
// bandwidth. fem needs an FP64 device for its momentum step anyway.
typedef double sum_t;

// The state word of a solve (state[0]); the host reads it at each convergence check.
#define CG_RUNNING 0
#define CG_CONVERGED 1
#define CG_MAX_ITERATIONS 2
#define CG_NOT_POSITIVE 3  // p.Ap <= 0: the matrix (or the preconditioner) is not positive definite
#define CG_NOT_FINITE 4    // a NaN or infinity in the residual or in p.Ap

// Once the state word leaves CG_RUNNING the solve's kernels change nothing. Those with barriers do not
// return ahead of them: they run over an empty range instead, so every work-item reaches every barrier
// (a return ahead of a barrier hung PoCL 3.1's work-group loop, though the state is uniform).

// The scalars of a solve (scalars[]), written and read only on the device. The update kernel's
// work-groups read the last step's gamma and alpha and the iteration count, which work-group 0 of the same
// launch replaces: it writes the new ones to S_*_NEW and state[1], and the product kernel, which runs
// between two updates and reads none of them, copies them over (S_GAMMA, S_ALPHA, state[2]).
#define S_GAMMA 0      // r.u of the last step, for beta
#define S_ALPHA 1      // alpha of the last step
#define S_RR 2         // r.r of the current residual
#define S_BB 3         // r.r of the initial residual (b.b: x starts at zero)
#define S_GAMMA_NEW 4  // r.u of this step
#define S_ALPHA_NEW 5  // alpha of this step

// The scalar steps (alpha, beta, the stopping test) run in every work-group of the update kernel: each
// group adds the same partial sums in the same order, so all groups hold the same value and no launch
// of a single work-group sits between two vector kernels. Work-group 0 alone writes the state word and
// the scalars. Another group of the same launch may read the state word before or after that write;
// either way it does what its own copy of the test tells it (nothing once the solve stops).

// y = A x for a sliced matrix of n rows.
__kernel __attribute__((reqd_work_group_size(SPMV_WG, 1, 1)))
void fem_spmv(const int n, const int slice_bits, __global const int* restrict slice_start,
              __global const int* restrict col, __global const real_t* restrict val, __global const real_t* restrict x,
              __global real_t* restrict y) {
  __local real_t part[SPMV_WG];
  FOR_EACH_SPMV_ROW(row, n) {
    const real_t sum = spmv_row_sum(part, row, n, slice_bits, slice_start, col, val, x, 0, x);
    if (SPMV_WRITES(row, n)) y[row] = sum;
  }
}

// The sum of a over the work-group of `size` work-items (a power of two), in every work-item; `part`
// holds `size` values and is free again on return.
sum_t group_sum(__local sum_t* part, const sum_t a, const int size) {
  const int lid = get_local_id(0);
  part[lid] = a;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int stride = size / 2; stride > 0; stride >>= 1) {
    if (lid < stride) part[lid] += part[lid + stride];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  const sum_t sum = part[0];
  barrier(CLK_LOCAL_MEM_FENCE);
  return sum;
}

// Start of a solve with x = 0: r = b, with Jacobi (`jacobi`) u = b / diag, the iteration count 0 and a
// running state. The update kernel of the first iteration takes b.b from the sums and starts the
// directions afresh.
__kernel void fem_cg_start(const int n, __global const real_t* restrict b, __global real_t* restrict x,
                           __global real_t* restrict r, const int jacobi, __global const real_t* restrict inv_diag,
                           __global real_t* restrict u, __global int* restrict state) {
  for (int i = get_global_id(0); i < n; i += get_global_size(0)) {
    x[i] = 0;
    r[i] = b[i];
    if (jacobi) u[i] = inv_diag[i] * b[i];
  }
  if (get_global_id(0) == 0) {
    state[0] = CG_RUNNING;
    state[1] = 0;
  }
}

// w = A u over the n rows from `first`, and partial[3 (at + g) + k] = work-group g's share of r.u, w.u and
// r.r over those rows (each row's lane 0 adds its rows' terms). A part of a split solve runs its rows in
// three launches, the rows that read no halo while the halo travels. Work-item 0 also moves the last
// update's scalars to where the next update reads them.
__kernel __attribute__((reqd_work_group_size(SPMV_WG, 1, 1)))
void fem_cg_product(const int first, const int n, const int slice_bits, __global const int* restrict slice_start,
                    __global const int* restrict col, __global const real_t* restrict val,
                    __global const real_t* restrict r, __global const real_t* restrict u, __global real_t* restrict w,
                    __global sum_t* restrict partial, const int at, __global sum_t* restrict scalars,
                    __global int* restrict state) {
  __local real_t part[SPMV_WG];
  __local sum_t sums[SPMV_WG];
  const int count = state[0] == CG_RUNNING ? n : 0;
  sum_t ru = 0, wu = 0, rr = 0;
  FOR_EACH_SPMV_ROW(row, count) {
    const real_t sum = spmv_row_sum(part, first + row, first + count, slice_bits, slice_start, col, val, u, 0, u);
    if (SPMV_WRITES(row, count)) {
      const int i = first + row;
      const sum_t ri = r[i], ui = u[i];
      w[i] = sum;
      ru += ri * ui;
      wu += sum * ui;
      rr += ri * ri;
    }
  }
  const sum_t group_ru = group_sum(sums, ru, SPMV_WG), group_wu = group_sum(sums, wu, SPMV_WG),
              group_rr = group_sum(sums, rr, SPMV_WG);
  if (get_local_id(0) == 0) {
    __global sum_t* mine = partial + 3 * (at + get_group_id(0));
    mine[0] = group_ru;
    mine[1] = group_wu;
    mine[2] = group_rr;
  }
  if (get_global_id(0) == 0) {
    scalars[S_GAMMA] = scalars[S_GAMMA_NEW];
    scalars[S_ALPHA] = scalars[S_ALPHA_NEW];
    state[2] = state[1];
  }
}

// The sums of `count` triples of partial sums into sums[0..2], in every work-item of a REDUCE_WG group;
// `part` holds REDUCE_WG values.
void add_triples(__local sum_t* part, const int count, __global const sum_t* restrict partial, sum_t* sums) {
  sum_t a = 0, b = 0, c = 0;
  for (int g = get_local_id(0); g < count; g += REDUCE_WG) {
    a += partial[3 * g];
    b += partial[3 * g + 1];
    c += partial[3 * g + 2];
  }
  sums[0] = group_sum(part, a, REDUCE_WG);
  sums[1] = group_sum(part, b, REDUCE_WG);
  sums[2] = group_sum(part, c, REDUCE_WG);
}

// A part's product sums in one triple, in one work-group, and its state word after them: the host relays
// 32 bytes per part instead of a triple per work-group of the product.
__kernel __attribute__((reqd_work_group_size(REDUCE_WG, 1, 1)))
void fem_cg_part_sums(const int count, __global const sum_t* restrict partial, __global sum_t* restrict sum,
                      __global const int* restrict state) {
  __local sum_t part[REDUCE_WG];
  const int running = state[0] == CG_RUNNING;
  sum_t sums[3];
  add_triples(part, running ? count : 0, partial, sums);
  if (get_local_id(0) < 3) sum[get_local_id(0)] = sums[get_local_id(0)];
  if (get_local_id(0) == 3) sum[3] = running ? 0 : 1;
}

// One step of the single-reduction conjugate gradient (Chronopoulos & Gear 1989), in every work-group
// from the `count` partial triples of r.u, w.u and r.r: the stopping test on r.r (below tol2 b.b, or zero),
// the iteration limit, beta = gamma / gamma_last and the step length alpha = gamma / (w.u - beta gamma /
// alpha_last), whose denominator is p.Ap; then p = u + beta p, s = w + beta s, x += alpha p, r -= alpha s.
// With Jacobi (`jacobi`) it then sets u = r / diag; otherwise the V-cycle writes u. The first iteration
// takes p = u and s = w. A denominator that is not positive stops the solve, as does a sum that is not
// finite.
__kernel __attribute__((reqd_work_group_size(REDUCE_WG, 1, 1)))
void fem_cg_update(const int n, const int count, __global const sum_t* restrict partial,
                   __global sum_t* restrict scalars, const int jacobi, __global const real_t* restrict inv_diag,
                   __global real_t* restrict u, __global const real_t* restrict w,
                   __global real_t* restrict p, __global real_t* restrict s, __global real_t* restrict x,
                   __global real_t* restrict r, __global int* restrict state, const sum_t tol2,
                   const int max_iterations) {
  __local sum_t part[REDUCE_WG];
  const int running = state[0] == CG_RUNNING;
  sum_t sums[3];
  add_triples(part, running ? count : 0, partial, sums);
  const sum_t gamma = sums[0], wu = sums[1], rr = sums[2];
  const int k = state[2];
  const sum_t bb = k == 0 ? rr : scalars[S_BB];
  const sum_t beta = k == 0 ? 0 : gamma / scalars[S_GAMMA];
  const sum_t denominator = k == 0 ? wu : wu - beta * gamma / scalars[S_ALPHA];
  const sum_t alpha = gamma / denominator;
  const int finite = isfinite(gamma) && isfinite(wu) && isfinite(rr);
  const int converged = rr < tol2 * bb || rr == 0;
  const int steps =
      running && finite && !converged && k < max_iterations && isfinite(denominator) && denominator > 0;
  if (running && get_group_id(0) == 0 && get_local_id(0) == 0) {
    scalars[S_RR] = rr;
    if (k == 0) scalars[S_BB] = rr;
    if (!finite) {
      state[0] = CG_NOT_FINITE;
    } else if (converged) {
      state[0] = CG_CONVERGED;
    } else if (k >= max_iterations) {
      state[0] = CG_MAX_ITERATIONS;
    } else if (!isfinite(denominator)) {
      state[0] = CG_NOT_FINITE;
    } else if (!(denominator > 0)) {
      state[0] = CG_NOT_POSITIVE;
    } else {
      scalars[S_GAMMA_NEW] = gamma;
      scalars[S_ALPHA_NEW] = alpha;
      state[1] = k + 1;
    }
  }
  for (int i = get_global_id(0); i < (steps ? n : 0); i += get_global_size(0)) {
    const real_t ui = u[i];
    const real_t pi = k == 0 ? ui : (real_t)(ui + beta * p[i]);
    const real_t si = k == 0 ? w[i] : (real_t)(w[i] + beta * s[i]);
    const real_t ri = (real_t)(r[i] - alpha * si);
    p[i] = pi;
    s[i] = si;
    x[i] = (real_t)(x[i] + alpha * pi);
    r[i] = ri;
    if (jacobi) u[i] = inv_diag[i] * ri;
  }
}
