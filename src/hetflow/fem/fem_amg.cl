// The V(1,1)-cycle of the smoothed-aggregation multigrid preconditioner (docs/fem.md, "Pressure
// solver"; host reference AmgHierarchy::apply in fem/amg_hierarchy.hpp), z = B b from zero. Per level
// with matrix A, damped-Jacobi weights w = ω / diag(A), prolongation P and restriction R = Pᵀ:
//   fem_amg_residual_first:  t = b − A (w∘b)           (the pre-smoothing step from zero, then the residual)
//   fem_amg_product:         b_c = R t                  (the next level's right-hand side)
//   (the next level's cycle, or fem_amg_coarse_solve on the coarsest: e_c = A_c⁻¹ b_c)
//   fem_amg_correct_first:   x = w∘b + P e_c            (the pre-smoothed iterate plus the correction)
//   fem_amg_jacobi:          y = x + w∘(b − A x)        (post-smoothing, into the level's output)
// Every kernel reads the CG's state word and changes nothing once the solve has stopped, so the cycles
// enqueued past convergence cost no memory traffic.
#include "fem/sparse.cl"

__kernel __attribute__((reqd_work_group_size(SPMV_WG, 1, 1)))
void fem_amg_residual_first(const int n, const int slice_bits, __global const int* restrict slice_start,
                            __global const int* restrict col,
                            __global const real_t* restrict val, __global const real_t* restrict w,
                            __global const real_t* restrict b, __global real_t* restrict t,
                            __global const int* restrict state) {
  __local real_t part[SPMV_WG];
  const int count = state[0] == CG_RUNNING ? n : 0;
  FOR_EACH_SPMV_ROW(row, count) {
    const real_t sum = spmv_row_sum(part, row, count, slice_bits, slice_start, col, val, w, 1, b);
    if (SPMV_WRITES(row, count)) t[row] = b[row] - sum;
  }
}

__kernel __attribute__((reqd_work_group_size(SPMV_WG, 1, 1)))
void fem_amg_product(const int n, const int slice_bits, __global const int* restrict slice_start,
                     __global const int* restrict col,
                     __global const real_t* restrict val, __global const real_t* restrict x,
                     __global real_t* restrict y, __global const int* restrict state) {
  __local real_t part[SPMV_WG];
  const int count = state[0] == CG_RUNNING ? n : 0;
  FOR_EACH_SPMV_ROW(row, count) {
    const real_t sum = spmv_row_sum(part, row, count, slice_bits, slice_start, col, val, x, 0, x);
    if (SPMV_WRITES(row, count)) y[row] = sum;
  }
}

// n rows of P, which has the fine level's rows and the coarse level's columns.
__kernel __attribute__((reqd_work_group_size(SPMV_WG, 1, 1)))
void fem_amg_correct_first(const int n, const int slice_bits, __global const int* restrict slice_start,
                           __global const int* restrict col,
                           __global const real_t* restrict val, __global const real_t* restrict w,
                           __global const real_t* restrict b, __global const real_t* restrict e,
                           __global real_t* restrict x, __global const int* restrict state) {
  __local real_t part[SPMV_WG];
  const int count = state[0] == CG_RUNNING ? n : 0;
  FOR_EACH_SPMV_ROW(row, count) {
    const real_t sum = spmv_row_sum(part, row, count, slice_bits, slice_start, col, val, e, 0, e);
    if (SPMV_WRITES(row, count)) x[row] = w[row] * b[row] + sum;
  }
}

// y = x + w∘(b − A x). y must not be x: the rows read x at their neighbours.
__kernel __attribute__((reqd_work_group_size(SPMV_WG, 1, 1)))
void fem_amg_jacobi(const int n, const int slice_bits, __global const int* restrict slice_start,
                    __global const int* restrict col,
                    __global const real_t* restrict val, __global const real_t* restrict w,
                    __global const real_t* restrict b, __global const real_t* restrict x,
                    __global real_t* restrict y, __global const int* restrict state) {
  __local real_t part[SPMV_WG];
  const int count = state[0] == CG_RUNNING ? n : 0;
  FOR_EACH_SPMV_ROW(row, count) {
    const real_t sum = spmv_row_sum(part, row, count, slice_bits, slice_start, col, val, x, 0, x);
    if (SPMV_WRITES(row, count)) y[row] = x[row] + w[row] * (b[row] - sum);
  }
}

// x = A⁻¹ b on the coarsest level, one work-group: the inverse is symmetric, so work-item i reads its
// column i, and consecutive work-items read consecutive entries.
__kernel __attribute__((reqd_work_group_size(REDUCE_WG, 1, 1)))
void fem_amg_coarse_solve(const int n, __global const real_t* restrict inverse, __global const real_t* restrict b,
                          __global real_t* restrict x, __global const int* restrict state) {
  const int count = state[0] == CG_RUNNING ? n : 0;
  for (int i = get_local_id(0); i < count; i += REDUCE_WG) {
    real_t sum = 0;
    for (int j = 0; j < n; ++j) sum += inverse[j * n + i] * b[j];
    x[i] = sum;
  }
}

// y[first + i] += x[from + i] for i < n: one part's restriction added into the right-hand side of the
// first level that every part of a split run runs whole (DeviceAmg::add_parts).
__kernel void fem_amg_add(const int n, const int from, __global const real_t* restrict x, const int first,
                          __global real_t* restrict y) {
  for (int i = get_global_id(0); i < n; i += get_global_size(0)) y[first + i] += x[from + i];
}
