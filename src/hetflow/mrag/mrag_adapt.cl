// Grid adaptation of the mrag flow (docs/mrag.md, Adaptation): each block's largest wavelet detail, and
// the block data of a new tree from the old one, copied, predicted into refined blocks or restricted into
// collapsed ones. Built with a ghost band of 4 with corners (mrag_ghosts.cl): a detail of a block's
// coarse cell I needs the coarse cells I − 2 .. I + 2, which are its fine cells 2I − 4 .. 2I + 5.
#include "mrag/mrag_ghosts.cl"

// The weights on coarse cells k − 2 .. k + 2 of coarse cell k's left and right child (mrag/wavelets.hpp).
__constant real_t prediction[2][5] = {{-3.0 / 128, 22.0 / 128, 1, -22.0 / 128, 3.0 / 128},
                                      {3.0 / 128, -22.0 / 128, 1, 22.0 / 128, -3.0 / 128}};

// Field f's average over the coarse cell (I, J) of block b: the mean of its four cells.
real_t coarse_value(const uint b, const int I, const int J, const int f, __global const real_t* restrict data,
                    __global const real_t* restrict ghosts, __global const int* restrict slots) {
  return (real_t)0.25 * (cell_value(b, 2 * I, 2 * J, f, data, ghosts, slots) +
                         cell_value(b, 2 * I + 1, 2 * J, f, data, ghosts, slots) +
                         cell_value(b, 2 * I, 2 * J + 1, f, data, ghosts, slots) +
                         cell_value(b, 2 * I + 1, 2 * J + 1, f, data, ghosts, slots));
}

#define COARSE (BLOCK / 2)
// The coarse cells of a block with the two on each side that its predictions read.
#define COARSE_SPAN (COARSE + 4)

// out[6 b ..]: block b's largest |detail| of ρ and of Γ over its children, then its least and largest ρ
// and Γ. One work-group of GROUP items per block: the block's coarse cells go to local memory once, then
// each item predicts the children of its coarse cells from them, and the group reduces its items' values.
__kernel __attribute__((reqd_work_group_size(GROUP, 1, 1))) void mrag_block_details(
    const uint blocks, __global const real_t* restrict data, __global const real_t* restrict ghosts,
    __global const int* restrict slots, __global real_t* restrict out) {
  __local real_t coarse[COARSE_SPAN * COARSE_SPAN];
  __local real_t detail_of[GROUP], low_of[GROUP], high_of[GROUP];
  const int t = get_local_id(0);
  for (uint b = get_group_id(0); b < blocks; b += get_num_groups(0)) {
    for (int k = 0; k < 2; ++k) {
      const int f = k == 0 ? 0 : 4;
      for (int c = t; c < COARSE_SPAN * COARSE_SPAN; c += GROUP)
        coarse[c] = coarse_value(b, c % COARSE_SPAN - 2, c / COARSE_SPAN - 2, f, data, ghosts, slots);
      barrier(CLK_LOCAL_MEM_FENCE);
      real_t detail = 0, low = INFINITY, high = -INFINITY;
      for (int c = t; c < COARSE * COARSE; c += GROUP) {
        const int I = c % COARSE, J = c / COARSE;
        for (int cy = 0; cy < 2; ++cy)
          for (int cx = 0; cx < 2; ++cx) {
            real_t sum = 0;
            for (int n = 0; n < 5; ++n) {
              real_t row = 0;
              for (int m = 0; m < 5; ++m) row += prediction[cx][m] * coarse[(J + n) * COARSE_SPAN + I + m];
              sum += prediction[cy][n] * row;
            }
            const real_t v = data[((size_t)b * FIELDS + f) * CELLS + 2 * I + cx + BLOCK * (2 * J + cy)];
            detail = fmax(detail, fabs(sum - v));
            low = fmin(low, v);
            high = fmax(high, v);
          }
      }
      detail_of[t] = detail;
      low_of[t] = low;
      high_of[t] = high;
      barrier(CLK_LOCAL_MEM_FENCE);
      for (int width = GROUP / 2; width > 0; width /= 2) {
        if (t < width) {
          detail_of[t] = fmax(detail_of[t], detail_of[t + width]);
          low_of[t] = fmin(low_of[t], low_of[t + width]);
          high_of[t] = fmax(high_of[t], high_of[t + width]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
      }
      if (t == 0) {
        out[6 * b + k] = detail_of[0];
        out[6 * b + 2 + 2 * k] = low_of[0];
        out[6 * b + 3 + 2 * k] = high_of[0];
      }
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  }
}

// The child (a, c) of cell (I, J) of block b, predicted from the 5 × 5 cells around it (a prediction into a
// new child block).
real_t predicted(const uint b, const int I, const int J, const int a, const int c, const int f,
                 __global const real_t* restrict data, __global const real_t* restrict ghosts,
                 __global const int* restrict slots) {
  real_t sum = 0;
  for (int n = 0; n < 5; ++n) {
    real_t row = 0;
    for (int m = 0; m < 5; ++m) row += prediction[a][m] * cell_value(b, I + m - 2, J + n - 2, f, data, ghosts, slots);
    sum += prediction[c][n] * row;
  }
  return sum;
}

#define REMAP_COPY 0
#define REMAP_PREDICT 1
#define REMAP_RESTRICT 2
// A new block's record: its mode, child_x, child_y, an unused word and source[4].
#define REMAP_RECORD 8

// New block nb from the old data, by its record: a copy of old block source[0]; the child (child_x, child_y)
// of old block source[0], predicted; or the mean of old blocks source[a + 2 c], its children (a, c).
__kernel void mrag_remap(const uint new_blocks, __global const uint* restrict remap,
                         __global const real_t* restrict data, __global const real_t* restrict ghosts,
                         __global const int* restrict slots, __global real_t* restrict out) {
  for (uint id = get_global_id(0); id < new_blocks * CELLS; id += get_global_size(0)) {
    const uint nb = id / CELLS, cell = id % CELLS;
    const int i = cell % BLOCK, j = cell / BLOCK;
    __global const uint* r = remap + REMAP_RECORD * nb;
    const int mode = r[0], child_x = r[1], child_y = r[2];
    __global const uint* source = r + 4;
    for (int f = 0; f < FIELDS; ++f) {
      real_t v;
      if (mode == REMAP_COPY) {
        v = data[((size_t)source[0] * FIELDS + f) * CELLS + cell];
      } else if (mode == REMAP_PREDICT) {
        const int gi = child_x * BLOCK + i, gj = child_y * BLOCK + j;
        v = predicted(source[0], gi >> 1, gj >> 1, gi & 1, gj & 1, f, data, ghosts, slots);
      } else {
        const int a = 2 * i / BLOCK, c = 2 * j / BLOCK;
        const uint from = source[a + 2 * c];
        const int fi = (2 * i) % BLOCK, fj = (2 * j) % BLOCK;
        __global const real_t* q = data + ((size_t)from * FIELDS + f) * CELLS;
        v = (real_t)0.25 * (q[fi + BLOCK * fj] + q[fi + 1 + BLOCK * fj] + q[fi + BLOCK * (fj + 1)] +
                            q[fi + 1 + BLOCK * (fj + 1)]);
      }
      out[((size_t)nb * FIELDS + f) * CELLS + cell] = v;
    }
  }
}
