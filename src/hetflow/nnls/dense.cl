// Dense linear algebra for TNT (Myre 2013, Sec. 5.4) on one device: Gram matrix, A^T B and A B, gathers
// by index lists, GEMVs with a column gather, blocked Cholesky, a block's factor with its inverse (the
// updates of GramInverse) and the vector steps of PCGNR. All matrices are column-major with a leading dimension and an element offset (a
// sub-matrix of a buffer without OpenCL sub-buffers, whose origins must be aligned).
//
// The host (nnls/device_dense.cpp) always passes every size below; the defaults only let the file
// build alone. Work-group sizes are fixed per build (reqd_work_group_size), so loops are unrolled and
// local arrays sized at compile time; a tuner chooses them through the build options.
#include "core/common.cl"

#ifndef GEMM_TM
#define GEMM_TM 64  // rows of C per work-group
#endif
#ifndef GEMM_TN
#define GEMM_TN 64  // columns of C per work-group
#endif
#ifndef GEMM_TK
#define GEMM_TK 16  // contraction depth staged in local memory per pass
#endif
#ifndef GEMM_RM
#define GEMM_RM 4  // rows of C per work-item (register block)
#endif
#ifndef GEMM_RN
#define GEMM_RN 4  // columns of C per work-item
#endif
#ifndef CHOL_NB
#define CHOL_NB 64  // Cholesky block size
#endif
#ifndef CHOL_WG
#define CHOL_WG 256  // work-items of the diagonal-block and block-row kernels
#endif
#ifndef TRSM_COLS
#define TRSM_COLS 16  // columns of the block row per work-group of the block-row solve
#endif
#ifndef GEMV_ROWS
#define GEMV_ROWS 64  // rows per work-group of A(:, F) p
#endif
#ifndef GEMV_SLICES
#define GEMV_SLICES 4  // work-items sharing one row of A(:, F) p, each a slice of F
#endif
#ifndef REDUCE_WG
#define REDUCE_WG 256  // work-group of the reductions (a power of two)
#endif
#ifndef GATHER_WG
#define GATHER_WG 64
#endif

#define GEMM_WX (GEMM_TM / GEMM_RM)
#define GEMM_WY (GEMM_TN / GEMM_RN)
#define GEMM_WG (GEMM_WX * GEMM_WY)
// Local arrays are padded by one element so that work-items walking along the slow index hit
// different banks.
#define CHOL_LD (CHOL_NB + 1)

// The sum over a work-group of REDUCE_WG items, valid in item 0; `part` holds REDUCE_WG values.
real_t group_sum(__local real_t* part, real_t value) {
  const int lid = get_local_id(0);
  part[lid] = value;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int stride = REDUCE_WG / 2; stride > 0; stride >>= 1) {
    if (lid < stride) part[lid] += part[lid + stride];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  return part[0];
}

// C(M x N) = alpha op(A) B + beta C for B of K x N and op(A) = A^T, A of K x M (a_transposed: both
// operands are read down their contiguous columns, the contraction index, which suits A^T A, A^T b and
// the trailing update R12^T R12 of the Cholesky factorisation), or op(A) = A, A of M x K (GramInverse's
// products with W^T). Each work-group computes one GEMM_TM x GEMM_TN tile of C, each work-item a GEMM_RM
// x GEMM_RN register block whose rows and columns are strided by the work-group's extent, so the stores
// of a row of work-items are contiguous down a column of C. triangle: 0 the whole of C; 1 only entries
// i <= j (tiles wholly below the diagonal do nothing, the strict lower triangle is left untouched); 2
// as 1 and each computed entry mirrored to (j, i). beta == 0 means C is not read (as in BLAS, so it may
// hold anything). A non-zero *stop (a failed Cholesky pivot) makes the kernel a no-op. With several
// groups along the third dimension (triangle 0 only) each takes `chunk` of the contraction and writes its
// unscaled sums to part (chunk-major, M x N each) for dense_sum_chunks: a small C with a long contraction
// (V^T V, V^T W^T) still gives every compute unit work.
inline void gemm_tile(const bool a_transposed, const int M, const int N, const int k_begin, const int k_end,
                      const real_t alpha, __global const real_t* restrict A, const int lda,
                      __global const real_t* restrict B, const int ldb, const real_t beta, __global real_t* restrict C,
                      const ulong c_off, const int ldc, const int triangle, __global real_t* restrict part,
                      __local real_t (*As)[GEMM_TM + 1], __local real_t (*Bs)[GEMM_TN + 1]) {
  const int i0 = get_group_id(0) * GEMM_TM, j0 = get_group_id(1) * GEMM_TN;
  if (triangle != 0 && i0 >= j0 + GEMM_TN) return;
  const int tx = get_local_id(0), ty = get_local_id(1);
  const int lid = tx + ty * GEMM_WX;
  real_t acc[GEMM_RM][GEMM_RN];
  for (int r = 0; r < GEMM_RM; ++r)
    for (int c = 0; c < GEMM_RN; ++c) acc[r][c] = 0;

  A += a_transposed ? (ulong)i0 * lda : (ulong)i0;
  B += (ulong)j0 * ldb;
  for (int p0 = k_begin; p0 < k_end; p0 += GEMM_TK) {
    // Consecutive work-items read consecutive elements of a column: down the contraction index of A^T
    // and B, down the rows of A.
    for (int l = lid; l < GEMM_TK * GEMM_TM; l += GEMM_WG) {
      const int pp = a_transposed ? l % GEMM_TK : l / GEMM_TM, ii = a_transposed ? l / GEMM_TK : l % GEMM_TM;
      As[pp][ii] = (p0 + pp < k_end && i0 + ii < M)
                       ? A[a_transposed ? (ulong)ii * lda + p0 + pp : ii + (ulong)(p0 + pp) * lda]
                       : 0;
    }
    for (int l = lid; l < GEMM_TK * GEMM_TN; l += GEMM_WG) {
      const int pp = l % GEMM_TK, jj = l / GEMM_TK;
      Bs[pp][jj] = (p0 + pp < k_end && j0 + jj < N) ? B[(ulong)jj * ldb + p0 + pp] : 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int pp = 0; pp < GEMM_TK; ++pp) {
      real_t a[GEMM_RM], b[GEMM_RN];
      for (int r = 0; r < GEMM_RM; ++r) a[r] = As[pp][tx + r * GEMM_WX];
      for (int c = 0; c < GEMM_RN; ++c) b[c] = Bs[pp][ty + c * GEMM_WY];
      for (int r = 0; r < GEMM_RM; ++r)
        for (int c = 0; c < GEMM_RN; ++c) acc[r][c] += a[r] * b[c];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }

  for (int c = 0; c < GEMM_RN; ++c) {
    const int j = j0 + ty + c * GEMM_WY;
    for (int r = 0; r < GEMM_RM; ++r) {
      const int i = i0 + tx + r * GEMM_WX;
      if (i >= M || j >= N || (triangle != 0 && i > j)) continue;
      if (part) {
        part[i + (ulong)j * M] = acc[r][c];
        continue;
      }
      const ulong at = c_off + i + (ulong)j * ldc;
      real_t v = alpha * acc[r][c];
      if (beta != 0) v += beta * C[at];
      C[at] = v;
      if (triangle == 2 && i < j) C[c_off + j + (ulong)i * ldc] = v;
    }
  }
}

__kernel __attribute__((reqd_work_group_size(GEMM_WX, GEMM_WY, 1))) void dense_gemm(
    const int M, const int N, const int K, const real_t alpha, __global const real_t* restrict A, const ulong a_off,
    const int lda, const int a_transposed, __global const real_t* restrict B, const ulong b_off, const int ldb,
    const real_t beta, __global real_t* restrict C, const ulong c_off, const int ldc, const int triangle,
    __global const int* restrict stop, const int chunk, __global real_t* restrict part) {
  __local real_t As[GEMM_TK][GEMM_TM + 1];
  __local real_t Bs[GEMM_TK][GEMM_TN + 1];
  if (*stop) return;
  const int z = get_group_id(2), split = get_num_groups(2) > 1;
  gemm_tile(a_transposed != 0, M, N, z * chunk, min(K, (z + 1) * chunk), alpha, A + a_off, lda, B + b_off, ldb, beta, C,
            c_off, ldc, triangle, split ? part + (ulong)z * M * N : 0, As, Bs);
}

// BB(a, b) = C(R[a], S[b]) for a < rows, b < the launch's second extent: one work-item per entry,
// consecutive ones down a column of BB.
__kernel __attribute__((reqd_work_group_size(GATHER_WG, 1, 1))) void dense_gather(
    const int rows, __global const real_t* restrict C, const ulong c_off, const int ldc, __global const int* restrict R,
    __global const int* restrict S, __global real_t* restrict BB, const ulong bb_off, const int ldbb) {
  const int a = get_global_id(0), b = get_global_id(1);
  if (a >= rows) return;
  BB[bb_off + a + (ulong)b * ldbb] = C[c_off + R[a] + (ulong)S[b] * ldc];
}

// C(i, i) += value: the shift TNT adds when a factorisation fails.
__kernel void dense_add_diagonal(const int n, __global real_t* restrict C, const ulong c_off, const int ldc,
                                 const real_t value) {
  const int i = get_global_id(0);
  if (i < n) C[c_off + i + (ulong)i * ldc] += value;
}

// C (M x N) = alpha (the sum of `chunks` partial results, chunk-major, M x N each) + beta C, added in
// order: the second stage of the split GEMMs and GEMVs.
__kernel void dense_sum_chunks(const int M, const int N, const int chunks, const real_t alpha,
                               __global const real_t* restrict part, const real_t beta, __global real_t* restrict C,
                               const ulong c_off, const int ldc) {
  const int i = get_global_id(0), j = get_global_id(1);
  if (i >= M || j >= N) return;
  real_t sum = 0;
  for (int c = 0; c < chunks; ++c) sum += part[((ulong)c * N + j) * M + i];
  const ulong at = c_off + i + (ulong)j * ldc;
  C[at] = beta != 0 ? alpha * sum + beta * C[at] : alpha * sum;
}

// C (M x N) = alpha A(:, F) B + beta C for N <= GEMM_SKINNY (A: M x *, F: K column indices, B: K x N),
// without forming A(:, F): A(:, F) x (N = 1: TNT's products with A and W^T), the residuals of several
// points at once, and GramInverse's products with a few columns, which a GEMM tile would pad to GEMM_TN
// (F then 0, 1, ...). A work-group holds GEMV_ROWS consecutive rows and one chunk of F (get_group_id(1));
// its GEMV_SLICES rows of work-items take every GEMV_SLICES-th entry of the chunk, so a warp reads 32
// consecutive entries of one column, and each work-item keeps N sums, so A is streamed once. With one
// chunk the group writes C; with several, its partial sums go to part (chunk-major, M x N each) for
// dense_sum_chunks, so that a few thousand rows still give every compute unit work.
__kernel __attribute__((reqd_work_group_size(GEMV_ROWS, GEMV_SLICES, 1))) void dense_gemm_skinny_nn(
    const int M, const int N, const int K, const int chunk, const real_t alpha, __global const real_t* restrict A,
    const ulong a_off, const int lda, __global const int* restrict F, __global const real_t* restrict B,
    const ulong b_off, const int ldb, const real_t beta, __global real_t* restrict C, const ulong c_off, const int ldc,
    __global real_t* restrict part) {
  __local real_t sums[GEMV_SLICES][GEMV_ROWS];
  const int lx = get_local_id(0), slice = get_local_id(1);
  const int i = get_global_id(0), c = get_group_id(1);
  const int end = min(K, (c + 1) * chunk);
  real_t acc[GEMM_SKINNY];
  for (int l = 0; l < GEMM_SKINNY; ++l) acc[l] = 0;
  if (i < M) {
    A += a_off + i;
    B += b_off;
#pragma unroll 4
    for (int p = c * chunk + slice; p < end; p += GEMV_SLICES) {
      const real_t a = A[(ulong)F[p] * lda];
      for (int l = 0; l < GEMM_SKINNY; ++l)
        if (l < N) acc[l] += a * B[p + (ulong)l * ldb];
    }
  }
  for (int l = 0; l < N; ++l) {
    sums[slice][lx] = acc[l];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (slice == 0 && i < M) {
      real_t sum = acc[l];
      for (int s = 1; s < GEMV_SLICES; ++s) sum += sums[s][lx];
      if (get_num_groups(1) > 1) {
        part[((ulong)c * N + l) * M + i] = sum;
      } else {
        const ulong at = c_off + i + (ulong)l * ldc;
        C[at] = beta != 0 ? alpha * sum + beta * C[at] : alpha * sum;
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

// C (M x N) = alpha A^T B + beta C for M <= GEMM_SKINNY (A: K x M, B: K x N): one work-group per column
// of B, which it reads once, with M dot products down the contraction.
__kernel __attribute__((reqd_work_group_size(REDUCE_WG, 1, 1))) void dense_gemm_skinny_tn(
    const int M, const int K, const real_t alpha, __global const real_t* restrict A, const ulong a_off, const int lda,
    __global const real_t* restrict B, const ulong b_off, const int ldb, const real_t beta, __global real_t* restrict C,
    const ulong c_off, const int ldc) {
  __local real_t part[REDUCE_WG];
  const int j = get_group_id(0), lid = get_local_id(0);
  __global const real_t* col = B + b_off + (ulong)j * ldb;
  A += a_off;
  real_t acc[GEMM_SKINNY];
  for (int l = 0; l < GEMM_SKINNY; ++l) acc[l] = 0;
  for (int p = lid; p < K; p += REDUCE_WG) {
    const real_t b = col[p];
    for (int l = 0; l < GEMM_SKINNY; ++l)
      if (l < M) acc[l] += A[p + (ulong)l * lda] * b;
  }
  for (int l = 0; l < M; ++l) {
    const real_t sum = group_sum(part, acc[l]);
    if (lid == 0) {
      const ulong at = c_off + l + (ulong)j * ldc;
      C[at] = beta != 0 ? alpha * sum + beta * C[at] : alpha * sum;
    }
    barrier(CLK_LOCAL_MEM_FENCE);  // part[0] read by all before the next sum writes it
  }
}

// y = alpha A(:, F)^T x + beta y (y of length k, x of length m): one work-group per entry of y, a dot
// product of the contiguous column F[j] with x.
__kernel __attribute__((reqd_work_group_size(REDUCE_WG, 1, 1)))
void dense_gemv_t_gather(const int m, const real_t alpha, __global const real_t* restrict A, const ulong a_off,
                         const int lda, __global const int* restrict F, __global const real_t* restrict x,
                         const real_t beta, __global real_t* restrict y) {
  __local real_t part[REDUCE_WG];
  const int j = get_group_id(0), lid = get_local_id(0);
  __global const real_t* col = A + a_off + (ulong)F[j] * lda;
  real_t sum = 0;
  for (int i = lid; i < m; i += REDUCE_WG) sum += col[i] * x[i];
  sum = group_sum(part, sum);
  if (lid == 0) y[j] = beta != 0 ? alpha * sum + beta * y[j] : alpha * sum;
}

// The diagonal-block kernels below give each work-item fixed entries (r, s) of a block: r its index
// modulo CHOL_NB, s every CHOL_ROWS-th column from its index / CHOL_NB (items past CHOL_ROWS * CHOL_NB
// own nothing), so the entries stay in registers and a loop step costs one barrier and a few fused
// multiply-adds. These kernels are latency-bound (one work-group per block, one launch per block
// step), so what counts is the dependent chain per step, not the operation count.
#define CHOL_ROWS (CHOL_WG / CHOL_NB)
#define CHOL_OWN ((CHOL_NB + CHOL_ROWS - 1) / CHOL_ROWS)

// Factors the b x b diagonal block at A + off in place (upper: R^T R = A11) in one work-group, and
// writes the strict upper part of R^-1, transposed, into the block's strict lower triangle: the block
// row's solve and dense_inverse_factor then take the inverse from there instead of running b dependent
// substitution steps each. A pivot that is not positive, or not finite, sets *info = col0 + column + 1
// and leaves the block as it was; a non-zero *info on entry (an earlier block failed) makes the kernel
// a no-op.
__kernel __attribute__((reqd_work_group_size(CHOL_WG, 1, 1)))
void dense_potrf_diag(__global real_t* restrict A, const ulong off, const int ld, const int b, const int col0,
                      __global int* restrict info) {
  __local real_t T[CHOL_NB * CHOL_LD];
  __local real_t row[2][CHOL_NB];  // the current pivot row, double-buffered: one barrier per step
  __local real_t diag[CHOL_NB], inv_diag[CHOL_NB];
  if (*info) return;
  const int lid = get_local_id(0), r = lid % CHOL_NB, ty = lid / CHOL_NB;
  const bool active = ty < CHOL_ROWS;
  A += off;
  real_t a[CHOL_OWN];
  for (int q = 0; q < CHOL_OWN; ++q) {
    const int s = ty + q * CHOL_ROWS;
    a[q] = active && r <= s && s < b ? A[r + (ulong)s * ld] : 0;
  }
  // Right-looking on the unscaled rows U (R(c, s) = U(c, s) / sqrt(U(c, c))): row c is final once
  // published, so the step is one barrier and a(r, s) -= U(c, r) U(c, s) / U(c, c), and the scaling
  // waits for the end. rsqrt (a few ulps) keeps a correctly rounded division and square root out of
  // the chain. Every item reads the same pivot, so a failure is seen by all at once; the loop still
  // runs to its end, passing its barriers (an early exit inside it would leave PoCL's work-item loops
  // undefined).
  bool failed = false;
  for (int c = 0; c < b; ++c) {
    __local real_t* rc = row[c & 1];
    if (active && r == c)
      for (int q = 0; q < CHOL_OWN; ++q) {
        const int s = ty + q * CHOL_ROWS;
        if (s >= c && s < b) rc[s] = a[q];
      }
    barrier(CLK_LOCAL_MEM_FENCE);
    const real_t pivot = rc[c];
    if (!failed && (!(pivot > 0) || isinf(pivot))) {  // !(pivot > 0) also catches NaN
      failed = true;
      if (lid == 0) *info = col0 + c + 1;
    }
    if (failed) continue;
    const real_t inv = rsqrt(pivot);
    if (lid == 0) {
      diag[c] = pivot * inv;
      inv_diag[c] = inv;
    }
    if (!active || r <= c) continue;
    const real_t ur = rc[r] * (inv * inv);
    for (int q = 0; q < CHOL_OWN; ++q) {
      const int s = ty + q * CHOL_ROWS;
      if (s >= r && s < b) a[q] -= ur * rc[s];
    }
  }
  if (failed) return;
  barrier(CLK_LOCAL_MEM_FENCE);  // diag and inv_diag complete

  // R to A and to T; then X = R^-1 by backward substitution on the identity, right-looking: row i of
  // X is final once divided by R(i, i) (multiplied by the rsqrt above), and the rows above it
  // subtract R(l, i) X(i, :).
  real_t x[CHOL_OWN];
  for (int q = 0; q < CHOL_OWN; ++q) {
    const int s = ty + q * CHOL_ROWS;
    x[q] = r == s ? 1 : 0;
    if (active && r <= s && s < b) {
      a[q] = r == s ? diag[r] : a[q] * inv_diag[r];
      A[r + (ulong)s * ld] = a[q];
      T[r + s * CHOL_LD] = a[q];
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int i = b - 1; i >= 0; --i) {
    __local real_t* xi = row[i & 1];
    if (active && r == i)
      for (int q = 0; q < CHOL_OWN; ++q) {
        const int s = ty + q * CHOL_ROWS;
        if (s >= i && s < b) xi[s] = x[q] = x[q] * inv_diag[i];
      }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (!active || r >= i) continue;
    const real_t rli = T[r + i * CHOL_LD];
    for (int q = 0; q < CHOL_OWN; ++q) {
      const int s = ty + q * CHOL_ROWS;
      if (s >= i && s < b) x[q] -= rli * xi[s];
    }
  }
  // X's strict upper part, transposed through T so that the stores run down columns.
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int q = 0; q < CHOL_OWN; ++q) {
    const int s = ty + q * CHOL_ROWS;
    if (active && r < s && s < b) T[s + r * CHOL_LD] = x[q];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int q = 0; q < CHOL_OWN; ++q) {
    const int s = ty + q * CHOL_ROWS;
    if (active && r > s && r < b) A[r + (ulong)s * ld] = T[r + s * CHOL_LD];
  }
}

// After dense_potrf_diag has factored the t x t block S = R^T R (leaving R^-1's strict upper part,
// transposed, below S's diagonal), writes the column block OUT of above + t rows and t columns: zeros in
// rows 0 .. above, then R^-T (lower; transposed != 0) or R^-1 (upper). GramInverse's bordered blocks.
// A failed factorisation (*info != 0) makes it a no-op.
__kernel __attribute__((reqd_work_group_size(GATHER_WG, 1, 1))) void dense_inverse_factor(
    const int t, const int above, __global const real_t* restrict S, const ulong s_off, const int lds,
    const int transposed, __global real_t* restrict out, const ulong o_off, const int ldo,
    __global const int* restrict info) {
  const int a = get_global_id(0), j = get_global_id(1);
  if (*info || a >= above + t) return;
  real_t v = 0;
  const int i = a - above;
  if (i == j)
    v = 1 / S[s_off + i + (ulong)i * lds];
  else if (i >= 0 && (transposed ? i > j : i < j))
    v = transposed ? S[s_off + i + (ulong)j * lds] : S[s_off + j + (ulong)i * lds];
  out[o_off + a + (ulong)j * ldo] = v;
}

// Loads L = R_jj^-T of the b x b diagonal block at R into T: its strict lower part as dense_potrf_diag
// left it, its diagonal 1 / R(i, i); the strict upper part of T is left as it was.
void load_inverse_block(__local real_t* T, __global const real_t* R, const int ld, const int b) {
  const int lid = get_local_id(0), i = lid % CHOL_NB, ty = lid / CHOL_NB;
  if (ty >= CHOL_ROWS || i >= b) return;
  for (int q = 0; q < CHOL_OWN; ++q) {
    const int c = ty + q * CHOL_ROWS;
    if (c < i) T[i + c * CHOL_LD] = R[i + (ulong)c * ld];
    else if (c == i) T[i + c * CHOL_LD] = 1 / R[i + (ulong)i * ld];
  }
}

// The block row of the factorisation: A12 <- R11^-T A12 in place, R11 the factored b x b diagonal
// block at A + off, A12 its ncols columns to the right. Each work-group keeps R11^-T and TRSM_COLS
// columns of A12 in local memory and multiplies them.
__kernel __attribute__((reqd_work_group_size(CHOL_WG, 1, 1)))
void dense_trsm_row(__global real_t* restrict A, const ulong off, const int ld, const int b, const int ncols,
                    __global const int* restrict info) {
  __local real_t T[CHOL_NB * CHOL_LD];
  __local real_t X[CHOL_NB * TRSM_COLS];
  if (*info) return;
  const int lid = get_local_id(0);
  const int s0 = get_group_id(0) * TRSM_COLS;
  const int w = min(TRSM_COLS, ncols - s0);
  A += off;
  load_inverse_block(T, A, ld, b);
  __global real_t* A12 = A + (ulong)(b + s0) * ld;
  for (int e = lid; e < CHOL_NB * TRSM_COLS; e += CHOL_WG) {
    const int r = e % CHOL_NB, t = e / CHOL_NB;
    if (r < b && t < w) X[r + t * CHOL_NB] = A12[r + (ulong)t * ld];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int e = lid; e < CHOL_NB * TRSM_COLS; e += CHOL_WG) {
    const int r = e % CHOL_NB, t = e / CHOL_NB;
    if (r >= b || t >= w) continue;
    real_t sum = 0;
    for (int c = 0; c <= r; ++c) sum += T[r + c * CHOL_LD] * X[c + t * CHOL_NB];
    A12[r + (ulong)t * ld] = sum;
  }
}

// out[j] = R(:, j) . R(:, j) for the launch's columns of R (m rows), one work-group each.
__kernel __attribute__((reqd_work_group_size(REDUCE_WG, 1, 1))) void dense_column_norms2(
    const int m, __global const real_t* restrict R, const ulong r_off, const int ldr, __global real_t* restrict out) {
  __local real_t part[REDUCE_WG];
  const int j = get_group_id(0);
  __global const real_t* col = R + r_off + (ulong)j * ldr;
  real_t sum = 0;
  for (int i = get_local_id(0); i < m; i += REDUCE_WG) sum += col[i] * col[i];
  sum = group_sum(part, sum);
  if (get_local_id(0) == 0) out[j] = sum;
}

// First stage of x . y: one partial sum per work-group (a grid-stride loop, so the group count is the
// host's choice), summed by dense_sum_partials.
__kernel __attribute__((reqd_work_group_size(REDUCE_WG, 1, 1)))
void dense_dot_partial(const int n, __global const real_t* restrict x, __global const real_t* restrict y,
                       __global real_t* restrict partial) {
  __local real_t part[REDUCE_WG];
  real_t sum = 0;
  for (int i = get_global_id(0); i < n; i += get_global_size(0)) sum += x[i] * y[i];
  sum = group_sum(part, sum);
  if (get_local_id(0) == 0) partial[get_group_id(0)] = sum;
}

// out[index] = the sum of count partial sums, in one work-group; the scalar stays on the device.
__kernel __attribute__((reqd_work_group_size(REDUCE_WG, 1, 1)))
void dense_sum_partials(const int count, __global const real_t* restrict partial, __global real_t* restrict out,
                        const int index) {
  __local real_t part[REDUCE_WG];
  real_t sum = 0;
  for (int i = get_local_id(0); i < count; i += REDUCE_WG) sum += partial[i];
  sum = group_sum(part, sum);
  if (get_local_id(0) == 0) out[index] = sum;
}

// y += alpha x.
__kernel void dense_axpy(const int n, const real_t alpha, __global const real_t* restrict x,
                         __global real_t* restrict y) {
  const int i = get_global_id(0);
  if (i < n) y[i] += alpha * x[i];
}

// y += sign * (s[num] / s[den]) x: PCGNR's steps along p and q, with the ratio of two dot products that
// never left the device.
__kernel void dense_axpy_ratio(const int n, __global const real_t* restrict s, const int num, const int den,
                               const real_t sign, __global const real_t* restrict x, __global real_t* restrict y) {
  const int i = get_global_id(0);
  if (i < n) y[i] += sign * (s[num] / s[den]) * x[i];
}

// y = x + (s[num] / s[den]) y: PCGNR's new search direction p = w + beta p.
__kernel void dense_xpby_ratio(const int n, __global const real_t* restrict s, const int num, const int den,
                               __global const real_t* restrict x, __global real_t* restrict y) {
  const int i = get_global_id(0);
  if (i < n) y[i] = x[i] + (s[num] / s[den]) * y[i];
}
