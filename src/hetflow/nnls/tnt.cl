// Set-up kernels of the TNT solver (nnls/tnt.cpp) that DeviceDense does not provide: the column norms
// of a matrix already on the device, its column scaling (and conversion to REAL), and the column sums
// of |AA| for the norm ||AA||_1 that sets TNT's diagonal shift. Each runs once per matrix.
#include "core/common.cl"

#ifndef TNT_WG
#define TNT_WG 256  // work-items per column of the column reductions (a power of two)
#endif

// The sum of `value` over the work-group, in a tree over `part` (TNT_WG entries); one body for the
// working precision and for FP64, which the kernels reading the caller's matrix need.
#define TNT_GROUP_SUM(T, name)                                       \
  T name(__local T* part, T value) {                                 \
    const int lid = get_local_id(0);                                 \
    part[lid] = value;                                               \
    barrier(CLK_LOCAL_MEM_FENCE);                                    \
    for (int stride = TNT_WG / 2; stride > 0; stride >>= 1) {        \
      if (lid < stride) part[lid] += part[lid + stride];             \
      barrier(CLK_LOCAL_MEM_FENCE);                                  \
    }                                                                \
    return part[0];                                                  \
  }
TNT_GROUP_SUM(real_t, tnt_group_sum)

// out[j] = sum_i |C(i, j)|, one work-group per column.
__kernel __attribute__((reqd_work_group_size(TNT_WG, 1, 1)))
void tnt_column_abs_sums(const int rows, __global const real_t* restrict C, const ulong off, const int ld,
                         __global real_t* restrict out) {
  __local real_t part[TNT_WG];
  const int j = get_group_id(0), lid = get_local_id(0);
  __global const real_t* col = C + off + (ulong)j * ld;
  real_t sum = 0;
  for (int i = lid; i < rows; i += TNT_WG) sum += fabs(col[i]);
  sum = tnt_group_sum(part, sum);
  if (lid == 0) out[j] = sum;
}

// The caller's matrix is FP64 whatever REAL is: these two read doubles, so a device without FP64 builds
// the file without them (it cannot hold such a matrix anyway).
#if defined(cl_khr_fp64)

TNT_GROUP_SUM(double, tnt_group_sum_double)

// out[j] = sum_i A(i, j)^2 in FP64, one work-group per column; NaN or Inf entries make it non-finite,
// which the host reports.
__kernel __attribute__((reqd_work_group_size(TNT_WG, 1, 1)))
void tnt_column_squares(const int rows, __global const double* restrict A, const ulong off, const int ld,
                        __global double* restrict out) {
  __local double part[TNT_WG];
  const int j = get_group_id(0), lid = get_local_id(0);
  __global const double* col = A + off + (ulong)j * ld;
  double sum = 0;
  for (int i = lid; i < rows; i += TNT_WG) sum += col[i] * col[i];
  sum = tnt_group_sum_double(part, sum);
  if (lid == 0) out[j] = sum;
}

// out(i, j) = A(i, j) * s[j] rounded to real_t, out dense (leading dimension rows). The product is in
// FP64, as on the host path, so both paths give the same scaled matrix up to the column norms' rounding.
__kernel void tnt_scale_columns(const int rows, const int cols, __global const double* restrict A, const ulong off,
                                const int ld, __global const double* restrict s, __global real_t* restrict out) {
  const int i = get_global_id(0), j = get_global_id(1);
  if (i >= rows || j >= cols) return;
  out[i + (ulong)j * rows] = (real_t)(A[off + i + (ulong)j * ld] * s[j]);
}

#endif
