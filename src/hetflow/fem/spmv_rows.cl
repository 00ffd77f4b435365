// The row loop of the multi-row vector-CSR SpMV (docs/fem.md, "Pressure solver"), shared by the CG's
// product (fem/sparse.cl) and the multigrid cycle's (fem/fem_amg.cl).
//
// SPMV_WG_BITS (W) and SPMV_ROW_BITS (R), both compile-time: a work-group of 2^W work-items handles
// 2^R consecutive rows, each row with T = 2^(W-R) lanes. The groups stride over blocks of 2^R rows,
// uniformly within a group, so every work-item of a group reaches every barrier.
#include "core/common.cl"

#define SPMV_WG (1 << SPMV_WG_BITS)
#define SPMV_ROWS (1 << SPMV_ROW_BITS)
#define SPMV_LANE_BITS (SPMV_WG_BITS - SPMV_ROW_BITS)
#define SPMV_LANES (1 << SPMV_LANE_BITS)

// Products are rounded before they are added, so that one lane per row (T = 1) sums a row in the
// host's order and gives the host's result bit for bit; SpMV is bound by memory traffic, so the
// unfused multiply-add costs nothing measurable.
#pragma OPENCL FP_CONTRACT OFF

// The rows of this work-item: `row` runs over the rows of the group's blocks (it may pass n in the last
// block; such a row sums nothing and writes nothing).
#define FOR_EACH_SPMV_ROW(row, n)                                                                  \
  for (int block_ = get_group_id(0), row = (block_ << SPMV_ROW_BITS) + (get_local_id(0) >> SPMV_LANE_BITS); \
       block_ < (((n) + SPMV_ROWS - 1) >> SPMV_ROW_BITS);                                          \
       block_ += get_num_groups(0), row = (block_ << SPMV_ROW_BITS) + (get_local_id(0) >> SPMV_LANE_BITS))

// Whether this work-item writes its row's result: lane 0 of a row below n.
#define SPMV_WRITES(row, n) ((get_local_id(0) & (SPMV_LANES - 1)) == 0 && (row) < (n))

// The lanes' sum of val[i] x[col[i]] over row `row`, valid in lane 0; with `scaled` (a constant at
// every call) the sum of val[i] (scale[col[i]] x[col[i]]) instead. The matrix is sliced
// (fem/row_slices.hpp) in slices of 2^slice_bits rows (0: compressed sparse rows), so entry q of the row
// sits at slice_start[row >> slice_bits] + (row mod 2^slice_bits) + q 2^slice_bits; padding entries weigh
// zero. Lane t sums entries q = t, t + T, ... (consecutive lanes read consecutive entries of a CSR row); a
// tree over local memory adds the T lane sums, with a barrier after every level: the lanes of a row are
// not assumed to run in lock-step. Every work-item of the group calls it.
real_t spmv_row_sum(__local real_t* part, const int row, const int n, const int slice_bits,
                    __global const int* restrict slice_start, __global const int* restrict col,
                    __global const real_t* restrict val, __global const real_t* restrict scale, const int scaled,
                    __global const real_t* restrict x) {
  const int lid = get_local_id(0);
  const int lane = lid & (SPMV_LANES - 1);
  real_t sum = 0;
  if (row < n) {
    const int slice = row >> slice_bits;
    const int stride = 1 << slice_bits;
    const int end = slice_start[slice + 1];
    const int first = slice_start[slice] + (row & (stride - 1)) + lane * stride;
    // Unrolled twice: the next entry's column and value loads are issued while this one's gather is
    // in flight.
    if (scaled) {
#pragma unroll 2
      for (int i = first; i < end; i += stride * SPMV_LANES) sum += val[i] * (scale[col[i]] * x[col[i]]);
    } else {
#pragma unroll 2
      for (int i = first; i < end; i += stride * SPMV_LANES) sum += val[i] * x[col[i]];
    }
  }
#if SPMV_LANE_BITS > 0
  part[lid] = sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int stride = SPMV_LANES >> 1; stride > 0; stride >>= 1) {
    if (lane < stride) part[lid] += part[lid + stride];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  sum = part[lid];
#endif
  return sum;
}
