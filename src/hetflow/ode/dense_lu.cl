// Dense LU factorisation with partial pivoting and its solve, real and complex, for ODE_N x ODE_N
// matrices stored column-major (a[i + j * ODE_N] is row i, column j): one work-item's private matrices in
// mapping 1, one work-group's shared matrices in mapping 2, and in the phased mapping a system's matrices
// in global memory (MATRIX_SPACE, mapping.cl), decomposed by radau5_decompose.cl. Either may work in
// panels of columns (ODE_LU_PANEL, below): mapping 1 does on GPUs by default.
//
// The operations are those of Moler's DEC/SOL and their complex twins DECC/SOLC, which RADAU5 uses, in
// the same order: RADAU5's step statistics depend on every rounding, so the multipliers are stored
// negated as -a[i,k] * (1 / pivot), the forward sweep adds them to the right-hand side, and the complex
// pivot's reciprocal is (tr, -ti) / (tr^2 + ti^2). A matrix is singular only for an exactly zero pivot.
// The caller builds with FP contraction off (radau5.cl), so no product-sum is fused.
//
// DEC interchanges rows k and m at step k right of column k only, so each step's multipliers stay in
// the rows where that step found them and SOL interchanges b's entries between its updates. With
// ODE_FINAL_ROWS (set by the host) a complete decomposition moves the multipliers to the rows of the
// final order, as LAPACK stores its factors (interchange_multipliers), and one work-item's solves
// permute b first, then sweep its rows in blocks held in registers. Each entry of b still takes SOL's
// products in SOL's order, only at its final position, so the solutions keep SOL's bits.
//
// Mapping 2 spreads the rows of the multipliers, of the elimination and of the sweeps, and the columns
// of the row swap, over the work-items. Every element gets the same operations in the same order as in
// mapping 1, so both mappings give the same bits. Every work-item reads the whole pivot column, or every
// warp finds the pivot together (ODE_WARP_PIVOT): the same values, so the same pivot. Every function
// returns with its results visible to the group; the caller synchronises before it overwrites a matrix
// (a singular return skips the final barrier).
#include "ode/mapping.cl"

#define LU_AT(i, j) ((i) + (j) * ODE_N)
// The elimination updates the rows below the pivot. On CPUs (ODE_LU_BY_COLUMN, set by the host) it runs
// column by column, as DEC does, which PoCL vectorises across work-items better than the row blocks
// below. On GPUs it runs row by row: mapping 1 updates LU_ROWS rows at a time and loads them all before
// it stores any, since its matrices live in local memory far past the caches and one row at a time
// leaves every update waiting a full memory latency (docs/ode.md, Mappings). A group (lanes() below)
// spreads both the rows and the columns over its work-items, each updating GROUP_ROWS rows of a column
// at once.
#if ODE_GROUP
#define LU_PANEL_ROWS 1
#define FOR_ROWS(i, first, rows) FOR_OWN(i, first, ODE_N)
#else
#define LU_ROWS 8
#define LU_PANEL_ROWS 4
#define FOR_ROWS(i, first, rows) for (int i = (first); i < ODE_N; i += (rows))
#endif
#define ROW_IN(i, u) ((i) + (u) < ODE_N)

#if ODE_GROUP
// A group's work-items as ROW_LANES lanes down the rows times as many lanes across the columns as the
// rest allows (work-items past them idle); lane (rl, cl) updates rows rl, rl + ROW_LANES, ... in blocks
// of GROUP_ROWS, and columns cl, cl + col_lanes, ..., so that a step's updates run side by side rather
// than one row's columns in turn.
#define ROW_LANES 16
#define GROUP_ROWS 4
typedef struct {
  int rl, row_lanes, cl, col_lanes;
} Lanes;
// Every elimination step asks for them, so a group of ROW_LANES or more work-items takes them by shifts
// of the constant rather than by divisions by a variable (about 40 instructions per warp and step).
Lanes lanes(void) {
  const int size = (int)get_local_size(0), id = (int)get_local_id(0);
  Lanes w;
  if (size >= ROW_LANES) {
    w.row_lanes = ROW_LANES;
    w.col_lanes = size / ROW_LANES;
    w.rl = id % ROW_LANES;
    w.cl = id / ROW_LANES;
  } else {
    w.row_lanes = size;
    w.col_lanes = 1;
    w.rl = id;
    w.cl = 0;
  }
  return w;
}
// Row u of a lane's block from row i.
#define LANE_ROW(w, i, u) ((i) + (u) * (w).row_lanes)
#endif

// The product of multiplier (lr, li) and pivot-row entry (sr, si). Purely real or purely imaginary
// entries drop the zero products, as DECC does; the sums differ from the general formula only in the
// sign of zero results. The form depends on the pivot-row entry alone, so a column's rows share it.
#define FORM_REAL 0
#define FORM_IMAGINARY 1
#define FORM_GENERAL 2
int complex_form(double sr, double si) { return si == 0.0 ? FORM_REAL : sr == 0.0 ? FORM_IMAGINARY : FORM_GENERAL; }
double2 complex_product(int form, double lr, double li, double sr, double si) {
  if (form == FORM_REAL) return (double2)(lr * sr, li * sr);
  if (form == FORM_IMAGINARY) return (double2)(-li * si, lr * si);
  return (double2)(lr * sr - li * si, li * sr + lr * si);
}
double2 complex_update(double lr, double li, double sr, double si) {
  return complex_product(complex_form(sr, si), lr, li, sr, si);
}

#if ODE_GROUP
// Column j's entries in a lane's block of rows from i, updated from their loaded values x and
// multipliers l in the form the caller chose for the whole column: called with a literal form, each
// call is straight-line code, where choosing per entry cost two FP64 comparisons and a branch each.
// Rows past the matrix hold zeros (the caller's), so only their stores are skipped: the arithmetic
// needs no branch around it.
void update_block_complex(MATRIX_SPACE double* ar, MATRIX_SPACE double* ai, Lanes w, int i, int j, int form,
                          const double* lr, const double* li, const double* xr, const double* xi, double sr,
                          double si) {
  for (int u = 0; u < GROUP_ROWS; ++u) {
    const double2 d = complex_product(form, lr[u], li[u], sr, si);
    const double yr = xr[u] + d.x, yi = xi[u] + d.y;
    if (LANE_ROW(w, i, u) < ODE_N) {
      ar[LU_AT(LANE_ROW(w, i, u), j)] = yr;
      ai[LU_AT(LANE_ROW(w, i, u), j)] = yi;
    }
  }
}
#endif

// a[i,j] += a[i,k] a[k,j] below pivot k and right of it up to column q, after its multipliers and row
// swap; a zero in the pivot row leaves its column unchanged (skipping it also keeps -0.0 signs as DEC).
void eliminate(MATRIX_SPACE double* a, int k, int q) {
#if ODE_LU_BY_COLUMN
  for (int j = k + 1; j < q; ++j) {
    const double s = a[LU_AT(k, j)];
    if (s != 0.0)
      for (int i = k + 1; i < ODE_N; ++i) a[LU_AT(i, j)] = a[LU_AT(i, j)] + a[LU_AT(i, k)] * s;
  }
#elif ODE_GROUP
  const Lanes w = lanes();
  if (w.cl >= w.col_lanes) return;
  for (int i = k + 1 + w.rl; i < ODE_N; i += w.row_lanes * GROUP_ROWS) {
    double l[GROUP_ROWS];
    for (int u = 0; u < GROUP_ROWS; ++u) l[u] = LANE_ROW(w, i, u) < ODE_N ? a[LU_AT(LANE_ROW(w, i, u), k)] : 0.0;
    for (int j = k + 1 + w.cl; j < q; j += w.col_lanes) {
      const double s = a[LU_AT(k, j)];
      if (s == 0.0) continue;
      double x[GROUP_ROWS];
      for (int u = 0; u < GROUP_ROWS; ++u)
        if (LANE_ROW(w, i, u) < ODE_N) x[u] = a[LU_AT(LANE_ROW(w, i, u), j)];
      for (int u = 0; u < GROUP_ROWS; ++u)
        if (LANE_ROW(w, i, u) < ODE_N) a[LU_AT(LANE_ROW(w, i, u), j)] = x[u] + l[u] * s;
    }
  }
#else
  FOR_ROWS(i, k + 1, LU_ROWS) {
    double l[LU_ROWS];
    for (int u = 0; u < LU_ROWS; ++u) l[u] = ROW_IN(i, u) ? a[LU_AT(i + u, k)] : 0.0;
    for (int j = k + 1; j < q; ++j) {
      const double s = a[LU_AT(k, j)];
      if (s == 0.0) continue;
      double x[LU_ROWS];
      for (int u = 0; u < LU_ROWS; ++u)
        if (ROW_IN(i, u)) x[u] = a[LU_AT(i + u, j)];
      for (int u = 0; u < LU_ROWS; ++u)
        if (ROW_IN(i, u)) a[LU_AT(i + u, j)] = x[u] + l[u] * s;
    }
  }
#endif
}

// The complex twin: the entries of the pivot row decide the form of each product, as in DECC.
#if ODE_LU_BY_COLUMN
// Column j below row k updated in one form of the product, chosen by the caller for the whole column:
// called with a literal form, the loop has no branch and vectorises.
void eliminate_column_complex(MATRIX_SPACE double* ar, MATRIX_SPACE double* ai, int k, int j, int form, double sr,
                              double si) {
  for (int i = k + 1; i < ODE_N; ++i) {
    const double2 d = complex_product(form, ar[LU_AT(i, k)], ai[LU_AT(i, k)], sr, si);
    ar[LU_AT(i, j)] = ar[LU_AT(i, j)] + d.x;
    ai[LU_AT(i, j)] = ai[LU_AT(i, j)] + d.y;
  }
}
#endif

void eliminate_complex(MATRIX_SPACE double* ar, MATRIX_SPACE double* ai, int k, int q) {
#if ODE_LU_BY_COLUMN
  for (int j = k + 1; j < q; ++j) {
    const double sr = ar[LU_AT(k, j)], si = ai[LU_AT(k, j)];
    if (fabs(sr) + fabs(si) == 0.0) continue;
    const int form = complex_form(sr, si);
    if (form == FORM_REAL)
      eliminate_column_complex(ar, ai, k, j, FORM_REAL, sr, si);
    else if (form == FORM_IMAGINARY)
      eliminate_column_complex(ar, ai, k, j, FORM_IMAGINARY, sr, si);
    else
      eliminate_column_complex(ar, ai, k, j, FORM_GENERAL, sr, si);
  }
#elif ODE_GROUP
  const Lanes w = lanes();
  if (w.cl >= w.col_lanes) return;
  for (int i = k + 1 + w.rl; i < ODE_N; i += w.row_lanes * GROUP_ROWS) {
    double lr[GROUP_ROWS], li[GROUP_ROWS];
    for (int u = 0; u < GROUP_ROWS; ++u) {
      const bool in = LANE_ROW(w, i, u) < ODE_N;
      lr[u] = in ? ar[LU_AT(LANE_ROW(w, i, u), k)] : 0.0;
      li[u] = in ? ai[LU_AT(LANE_ROW(w, i, u), k)] : 0.0;
    }
    for (int j = k + 1 + w.cl; j < q; j += w.col_lanes) {
      const double sr = ar[LU_AT(k, j)], si = ai[LU_AT(k, j)];
      if (fabs(sr) + fabs(si) == 0.0) continue;
      double xr[GROUP_ROWS], xi[GROUP_ROWS];
      for (int u = 0; u < GROUP_ROWS; ++u) {
        const bool in = LANE_ROW(w, i, u) < ODE_N;
        xr[u] = in ? ar[LU_AT(LANE_ROW(w, i, u), j)] : 0.0;
        xi[u] = in ? ai[LU_AT(LANE_ROW(w, i, u), j)] : 0.0;
      }
      const int form = complex_form(sr, si);
      if (form == FORM_REAL)
        update_block_complex(ar, ai, w, i, j, FORM_REAL, lr, li, xr, xi, sr, si);
      else if (form == FORM_IMAGINARY)
        update_block_complex(ar, ai, w, i, j, FORM_IMAGINARY, lr, li, xr, xi, sr, si);
      else
        update_block_complex(ar, ai, w, i, j, FORM_GENERAL, lr, li, xr, xi, sr, si);
    }
  }
#else
  FOR_ROWS(i, k + 1, LU_ROWS) {
    double lr[LU_ROWS], li[LU_ROWS];
    for (int u = 0; u < LU_ROWS; ++u) {
      lr[u] = ROW_IN(i, u) ? ar[LU_AT(i + u, k)] : 0.0;
      li[u] = ROW_IN(i, u) ? ai[LU_AT(i + u, k)] : 0.0;
    }
    for (int j = k + 1; j < q; ++j) {
      const double sr = ar[LU_AT(k, j)], si = ai[LU_AT(k, j)];
      if (fabs(sr) + fabs(si) == 0.0) continue;
      double xr[LU_ROWS], xi[LU_ROWS];
      for (int u = 0; u < LU_ROWS; ++u)
        if (ROW_IN(i, u)) {
          xr[u] = ar[LU_AT(i + u, j)];
          xi[u] = ai[LU_AT(i + u, j)];
        }
      for (int u = 0; u < LU_ROWS; ++u)
        if (ROW_IN(i, u)) {
          const double2 q = complex_update(lr[u], li[u], sr, si);
          ar[LU_AT(i + u, j)] = xr[u] + q.x;
          ai[LU_AT(i + u, j)] = xi[u] + q.y;
        }
    }
  }
#endif
}

// |a[i]|, or |re| + |im| where ai is given (DECC's magnitude).
double magnitude(const MATRIX_SPACE double* ar, const MATRIX_SPACE double* ai, int i) {
  return ai ? fabs(ar[i]) + fabs(ai[i]) : fabs(ar[i]);
}

#if ODE_WARP_PIVOT
// NVIDIA's warp shuffle (inline PTX), 32 bits at a time: the value of the lane whose index differs in
// the bits of `mask`, or of lane 0.
int shuffle_xor(int v, int mask) {
  int r;
  asm volatile("shfl.sync.bfly.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(r) : "r"(v), "r"(mask));
  return r;
}
double shuffle_xor_double(double v, int mask) {
  const int2 h = as_int2(v);
  return as_double((int2)(shuffle_xor(h.x, mask), shuffle_xor(h.y, mask)));
}
int shuffle_first(int v) {
  int r;
  asm volatile("shfl.sync.idx.b32 %0, %1, 0, 0x1f, 0xffffffff;" : "=r"(r) : "r"(v));
  return r;
}

// DEC's pivot row, found by each warp of a group (ODE_WARP_PIVOT: NVIDIA, groups of whole warps): each
// lane scans its rows of column k (row k in lane 0), then five exchanges keep the larger magnitude, the
// earlier row of equal ones, so every lane ends with DEC's choice, the first row of largest magnitude;
// lane 0's is taken, whose first row is k. The exchanges replace a scan of the whole column by every
// work-item, in which each comparison waits on the last. (With NaN entries the choice can differ from
// DEC's; the factors are NaN either way.)
int pivot_row(const MATRIX_SPACE double* ar, const MATRIX_SPACE double* ai, int k) {
  const int lane = (int)get_local_id(0) % 32;
  int m = ODE_N;
  double largest = -1.0;
  // A fixed count of candidates per lane, unrolled: as a loop over so few rows (two for n = 54) it
  // compiled to about 30 instructions of set-up per warp and step.
#pragma unroll
  for (int t = 0; t < (ODE_N + 31) / 32; ++t) {
    const int i = k + lane + 32 * t;
    if (i >= ODE_N) continue;
    const double v = magnitude(ar, ai, LU_AT(i, k));
    if (m == ODE_N || v > largest) {
      largest = v;
      m = i;
    }
  }
  for (int mask = 16; mask > 0; mask /= 2) {
    const double v = shuffle_xor_double(largest, mask);
    const int i = shuffle_xor(m, mask);
    if (v > largest || (v == largest && i < m)) {
      largest = v;
      m = i;
    }
  }
  return shuffle_first(m);
}
#else
// DEC's pivot row: the first entry of largest magnitude in column k from row k on. The largest so far
// stays in a register, so the loads of the column do not wait for each other.
int pivot_row(const MATRIX_SPACE double* ar, const MATRIX_SPACE double* ai, int k) {
  int m = k;
  double largest = magnitude(ar, ai, LU_AT(k, k));
  for (int i = k + 1; i < ODE_N; ++i) {
    const double v = magnitude(ar, ai, LU_AT(i, k));
    if (v > largest) {
      largest = v;
      m = i;
    }
  }
  return m;
}
#endif

// DEC's step k on columns k to q - 1: the pivot search in column k, its multipliers, the row swap and
// the elimination. Returns 0, or k + 1 for an exactly zero pivot. The pivot's reciprocal is taken
// before the barrier, which hides its latency.
int decompose_step(MATRIX_SPACE double* a, MATRIX_SPACE int* pivot, int k, int q) {
  SYNC();  // column k is final
  const int m = pivot_row(a, 0, k);
  const double p = a[LU_AT(m, k)], displaced = a[LU_AT(k, k)];
  const double t = 1.0 / p;
  SYNC();  // every work-item has read column k before it changes
  if (p == 0.0) return k + 1;
  if (LEADER) {
    pivot[k] = m;
    a[LU_AT(k, k)] = p;
  }
  // Row m receives the displaced diagonal entry: DEC's swap and multiplier in one write.
  FOR_OWN(i, k + 1, ODE_N) a[LU_AT(i, k)] = -(i == m ? displaced : a[LU_AT(i, k)]) * t;
  FOR_OWN(j, k + 1, q) {
    const double s = a[LU_AT(m, j)];
    a[LU_AT(m, j)] = a[LU_AT(k, j)];
    a[LU_AT(k, j)] = s;
  }
  SYNC();  // the multipliers and the swapped rows are complete
  eliminate(a, k, q);
  return 0;
}

#if ODE_LU_PANEL
// With ODE_LU_PANEL (set by the host) the decompositions work in panels of ODE_LU_PANEL columns: DEC's
// steps run on a panel's columns only, then reach the columns right of the panel all at once, so the
// trailing matrix (mapping 1's in private memory far past the caches) is read and written once per
// panel rather than once per step. Every element still takes DEC's swaps and updates in DEC's order, so the
// factors keep their bits:
// - the panel's rows and the rows below it that its pivots name take the steps one at a time, swaps
//   included (the first loop of apply_panel, whose columns mapping 2 spreads over its work-items);
// - every other row below the panel takes the panel's updates in step order, LU_PANEL_ROWS rows at a
//   time with their multipliers in registers (the second loop, whose rows mapping 2 spreads), since no
//   swap of the panel touches it.

// The rows below panel p that its pivots name, each once, as a list and as a mask.
typedef struct {
  int rows[ODE_LU_PANEL], count;
  ulong mask[(ODE_N + 63) / 64];
} SwappedRows;

SwappedRows swapped_rows(const MATRIX_SPACE int* pivot, int p) {
  SwappedRows w;
  for (int v = 0; v < (ODE_N + 63) / 64; ++v) w.mask[v] = 0;
  w.count = 0;
  for (int k = p; k < p + ODE_LU_PANEL; ++k) {
    const int m = pivot[k];
    if (m < p + ODE_LU_PANEL || (w.mask[m / 64] >> (m % 64) & 1)) continue;
    w.mask[m / 64] |= 1UL << (m % 64);
    w.rows[w.count++] = m;
  }
  return w;
}
#define PANEL_ROW_IN(w, i, u) (ROW_IN(i, u) && !((w).mask[((i) + (u)) / 64] >> (((i) + (u)) % 64) & 1))

#if ODE_GROUP
// A group updates the rows below panel p that no pivot of the panel names, right of the panel, in tiles
// of TILE_ROWS x TILE_COLS entries per work-item (lane (rl, cl) holds rows rl + row_lanes u and columns
// cl + col_lanes v of the tile): each entry stays in a register through the panel's steps, so the trailing
// matrix is read and written once per panel, and each step's multipliers and pivot-row entries are
// loaded once per tile row and column rather than once per entry. Each entry still takes the steps in
// order and skips a zero pivot-row entry, as DEC does.
#define TILE_ROWS 4
#define TILE_COLS 4
#define TILE_COLS_COMPLEX 2
bool named_by_panel(const MATRIX_SPACE int* pivot, int p, int row) {
  for (int k = p; k < p + ODE_LU_PANEL; ++k)
    if (pivot[k] == row) return true;
  return false;
}

// Which of the tile's rows from i0 the update writes: those in the matrix that no pivot of panel p names.
void tile_rows(const MATRIX_SPACE int* pivot, int p, Lanes w, int i0, bool* row_in) {
  for (int u = 0; u < TILE_ROWS; ++u) {
    const int i = LANE_ROW(w, i0, u);
    row_in[u] = i < ODE_N && !named_by_panel(pivot, p, i);
  }
}

void update_trailing(MATRIX_SPACE double* a, const MATRIX_SPACE int* pivot, int p) {
  const int q = p + ODE_LU_PANEL;
  const Lanes w = lanes();
  if (w.cl >= w.col_lanes) return;
  for (int i0 = q + w.rl; i0 < ODE_N; i0 += w.row_lanes * TILE_ROWS) {
    bool row_in[TILE_ROWS];
    tile_rows(pivot, p, w, i0, row_in);
    for (int j0 = q + w.cl; j0 < ODE_N; j0 += w.col_lanes * TILE_COLS) {
      double x[TILE_ROWS][TILE_COLS];
      for (int u = 0; u < TILE_ROWS; ++u)
        for (int v = 0; v < TILE_COLS; ++v) {
          const int j = j0 + v * w.col_lanes;
          x[u][v] = row_in[u] && j < ODE_N ? a[LU_AT(LANE_ROW(w, i0, u), j)] : 0.0;
        }
      for (int k = p; k < q; ++k) {
        double l[TILE_ROWS], s[TILE_COLS];
        for (int u = 0; u < TILE_ROWS; ++u) l[u] = row_in[u] ? a[LU_AT(LANE_ROW(w, i0, u), k)] : 0.0;
        for (int v = 0; v < TILE_COLS; ++v) {
          const int j = j0 + v * w.col_lanes;
          s[v] = j < ODE_N ? a[LU_AT(k, j)] : 0.0;
        }
        for (int u = 0; u < TILE_ROWS; ++u)
          for (int v = 0; v < TILE_COLS; ++v)
            if (s[v] != 0.0) x[u][v] = x[u][v] + l[u] * s[v];
      }
      for (int u = 0; u < TILE_ROWS; ++u)
        for (int v = 0; v < TILE_COLS; ++v) {
          const int j = j0 + v * w.col_lanes;
          if (row_in[u] && j < ODE_N) a[LU_AT(LANE_ROW(w, i0, u), j)] = x[u][v];
        }
    }
  }
}

void update_trailing_complex(MATRIX_SPACE double* ar, MATRIX_SPACE double* ai, const MATRIX_SPACE int* pivot, int p) {
  const int q = p + ODE_LU_PANEL;
  const Lanes w = lanes();
  if (w.cl >= w.col_lanes) return;
  for (int i0 = q + w.rl; i0 < ODE_N; i0 += w.row_lanes * TILE_ROWS) {
    bool row_in[TILE_ROWS];
    tile_rows(pivot, p, w, i0, row_in);
    for (int j0 = q + w.cl; j0 < ODE_N; j0 += w.col_lanes * TILE_COLS_COMPLEX) {
      double xr[TILE_ROWS][TILE_COLS_COMPLEX], xi[TILE_ROWS][TILE_COLS_COMPLEX];
      for (int u = 0; u < TILE_ROWS; ++u)
        for (int v = 0; v < TILE_COLS_COMPLEX; ++v) {
          const int j = j0 + v * w.col_lanes;
          const bool in = row_in[u] && j < ODE_N;
          xr[u][v] = in ? ar[LU_AT(LANE_ROW(w, i0, u), j)] : 0.0;
          xi[u][v] = in ? ai[LU_AT(LANE_ROW(w, i0, u), j)] : 0.0;
        }
      for (int k = p; k < q; ++k) {
        double lr[TILE_ROWS], li[TILE_ROWS], sr[TILE_COLS_COMPLEX], si[TILE_COLS_COMPLEX];
        for (int u = 0; u < TILE_ROWS; ++u) {
          lr[u] = row_in[u] ? ar[LU_AT(LANE_ROW(w, i0, u), k)] : 0.0;
          li[u] = row_in[u] ? ai[LU_AT(LANE_ROW(w, i0, u), k)] : 0.0;
        }
        for (int v = 0; v < TILE_COLS_COMPLEX; ++v) {
          const int j = j0 + v * w.col_lanes;
          sr[v] = j < ODE_N ? ar[LU_AT(k, j)] : 0.0;
          si[v] = j < ODE_N ? ai[LU_AT(k, j)] : 0.0;
        }
        for (int v = 0; v < TILE_COLS_COMPLEX; ++v) {
          if (fabs(sr[v]) + fabs(si[v]) == 0.0) continue;
          const int form = complex_form(sr[v], si[v]);
          for (int u = 0; u < TILE_ROWS; ++u) {
            const double2 d = complex_product(form, lr[u], li[u], sr[v], si[v]);
            xr[u][v] = xr[u][v] + d.x;
            xi[u][v] = xi[u][v] + d.y;
          }
        }
      }
      for (int u = 0; u < TILE_ROWS; ++u)
        for (int v = 0; v < TILE_COLS_COMPLEX; ++v) {
          const int j = j0 + v * w.col_lanes;
          if (row_in[u] && j < ODE_N) {
            ar[LU_AT(LANE_ROW(w, i0, u), j)] = xr[u][v];
            ai[LU_AT(LANE_ROW(w, i0, u), j)] = xi[u][v];
          }
        }
    }
  }
}
#endif

// Panel p's steps (columns p to q - 1, q = p + ODE_LU_PANEL < ODE_N) on the columns from q on.
void apply_panel(MATRIX_SPACE double* a, const MATRIX_SPACE int* pivot, int p) {
  const int q = p + ODE_LU_PANEL;
  SYNC();  // the panel's steps are complete
  const SwappedRows w = swapped_rows(pivot, p);
  FOR_OWN(j, q, ODE_N)
    for (int k = p; k < q; ++k) {
      const int m = pivot[k];
      const double s = a[LU_AT(m, j)];
      a[LU_AT(m, j)] = a[LU_AT(k, j)];
      a[LU_AT(k, j)] = s;
      if (s == 0.0) continue;
      for (int i = k + 1; i < q; ++i) a[LU_AT(i, j)] = a[LU_AT(i, j)] + a[LU_AT(i, k)] * s;
      for (int u = 0; u < w.count; ++u) a[LU_AT(w.rows[u], j)] = a[LU_AT(w.rows[u], j)] + a[LU_AT(w.rows[u], k)] * s;
    }
  SYNC();  // the panel's rows are final right of it
#if ODE_GROUP
  update_trailing(a, pivot, p);
#else
  FOR_ROWS(i, q, LU_PANEL_ROWS) {
    double l[LU_PANEL_ROWS][ODE_LU_PANEL];
    for (int u = 0; u < LU_PANEL_ROWS; ++u)
      for (int k = 0; k < ODE_LU_PANEL; ++k) l[u][k] = PANEL_ROW_IN(w, i, u) ? a[LU_AT(i + u, p + k)] : 0.0;
    for (int j = q; j < ODE_N; ++j) {
      double s[ODE_LU_PANEL], x[LU_PANEL_ROWS];
      for (int k = 0; k < ODE_LU_PANEL; ++k) s[k] = a[LU_AT(p + k, j)];
      for (int u = 0; u < LU_PANEL_ROWS; ++u)
        if (PANEL_ROW_IN(w, i, u)) x[u] = a[LU_AT(i + u, j)];
      for (int u = 0; u < LU_PANEL_ROWS; ++u)
        if (PANEL_ROW_IN(w, i, u)) {
          for (int k = 0; k < ODE_LU_PANEL; ++k)
            if (s[k] != 0.0) x[u] = x[u] + l[u][k] * s[k];
          a[LU_AT(i + u, j)] = x[u];
        }
    }
  }
#endif
}
#endif

#if ODE_FINAL_ROWS
// The interchanges of the steps after each column's, applied to its multipliers (LAPACK's order of the
// rows), after a complete decomposition; a work-item per column.
void interchange_multipliers(MATRIX_SPACE double* a, const MATRIX_SPACE int* pivot) {
  FOR_OWN(j, 0, ODE_N - 2)
    for (int k = j + 1; k < ODE_N - 1; ++k) {
      const int m = pivot[k];
      const double s = a[LU_AT(m, j)];
      a[LU_AT(m, j)] = a[LU_AT(k, j)];
      a[LU_AT(k, j)] = s;
    }
  SYNC();  // every column is in its final rows
}
#else
#define interchange_multipliers(a, pivot)
#endif

// Returns 0, or the 1-based column of the first exactly zero pivot (a is then partly overwritten, its
// multipliers in DEC's rows).
int lu_decompose(MATRIX_SPACE double* a, MATRIX_SPACE int* pivot) {
#if ODE_LU_PANEL
  for (int p = 0; p < ODE_N - 1; p += ODE_LU_PANEL) {
    const int q = min(p + ODE_LU_PANEL, ODE_N);
    for (int k = p; k < min(q, ODE_N - 1); ++k) {
      const int zero = decompose_step(a, pivot, k, q);
      if (zero) return zero;
    }
    if (q < ODE_N) apply_panel(a, pivot, p);
  }
#else
  for (int k = 0; k < ODE_N - 1; ++k) {
    const int zero = decompose_step(a, pivot, k, ODE_N);
    if (zero) return zero;
  }
#endif
  SYNC();
  if (a[LU_AT(ODE_N - 1, ODE_N - 1)] == 0.0) return ODE_N;
  interchange_multipliers(a, pivot);
  return 0;
}

#if ODE_FINAL_ROWS && !ODE_GROUP
// b <- P b: DEC's interchanges in step order, which SOL makes between its updates.
void permute(const MATRIX_SPACE int* pivot, SHARED double* b) {
  for (int k = 0; k < ODE_N - 1; ++k) {
    const int m = pivot[k];
    const double t = b[m];
    b[m] = b[k];
    b[k] = t;
  }
}

// The sweeps take SOLVE_ROWS rows of b at a time in registers, each row's sum running over the columns
// in SOL's order, so b is read once per block and column rather than read and written once per entry
// of the factors; 8 rows balance the registers held against the reads saved (radau5_launch.cpp's
// final_rows says where it is used).
#define SOLVE_ROWS 8
#define BLOCK_ROW_IN(i0, u) ((i0) + (u) < ODE_N)

// b <- A^-1 b with the factors of lu_decompose.
void lu_solve(const MATRIX_SPACE double* a, const MATRIX_SPACE int* pivot, SHARED double* b) {
  permute(pivot, b);
  for (int i0 = 0; i0 < ODE_N; i0 += SOLVE_ROWS) {
    double x[SOLVE_ROWS];
    for (int u = 0; u < SOLVE_ROWS; ++u) x[u] = BLOCK_ROW_IN(i0, u) ? b[i0 + u] : 0.0;
    for (int k = 0; k < i0; ++k) {
      const double t = b[k];
      for (int u = 0; u < SOLVE_ROWS; ++u)
        if (BLOCK_ROW_IN(i0, u)) x[u] = x[u] + a[LU_AT(i0 + u, k)] * t;
    }
    for (int v = 0; v < SOLVE_ROWS - 1; ++v)
      for (int u = v + 1; u < SOLVE_ROWS; ++u)
        if (BLOCK_ROW_IN(i0, u)) x[u] = x[u] + a[LU_AT(i0 + u, i0 + v)] * x[v];
    for (int u = 0; u < SOLVE_ROWS; ++u)
      if (BLOCK_ROW_IN(i0, u)) b[i0 + u] = x[u];
  }
  for (int i0 = (ODE_N - 1) / SOLVE_ROWS * SOLVE_ROWS; i0 >= 0; i0 -= SOLVE_ROWS) {
    double x[SOLVE_ROWS];
    for (int u = 0; u < SOLVE_ROWS; ++u) x[u] = BLOCK_ROW_IN(i0, u) ? b[i0 + u] : 0.0;
    for (int k = ODE_N - 1; k >= i0 + SOLVE_ROWS; --k) {
      const double t = -b[k];
      for (int u = 0; u < SOLVE_ROWS; ++u) x[u] = x[u] + a[LU_AT(i0 + u, k)] * t;
    }
    for (int v = SOLVE_ROWS - 1; v >= 0; --v) {
      if (!BLOCK_ROW_IN(i0, v)) continue;
      x[v] = x[v] / a[LU_AT(i0 + v, i0 + v)];
      const double t = -x[v];
      for (int u = 0; u < v; ++u) x[u] = x[u] + a[LU_AT(i0 + u, i0 + v)] * t;
    }
    for (int u = 0; u < SOLVE_ROWS; ++u)
      if (BLOCK_ROW_IN(i0, u)) b[i0 + u] = x[u];
  }
}
#else
// b <- A^-1 b with the factors of lu_decompose.
void lu_solve(const MATRIX_SPACE double* a, const MATRIX_SPACE int* pivot, SHARED double* b) {
  for (int k = 0; k < ODE_N - 1; ++k) {
    SYNC();  // b is up to date
    const int m = pivot[k];
    const double t = b[m], displaced = b[k];
    SYNC();  // every work-item has read b[m] and b[k] before they change
    if (LEADER) b[k] = t;
    FOR_OWN(i, k + 1, ODE_N) b[i] = (i == m ? displaced : b[i]) + a[LU_AT(i, k)] * t;
  }
  for (int k = ODE_N - 1; k >= 0; --k) {
    SYNC();
    if (LEADER) b[k] = b[k] / a[LU_AT(k, k)];
    SYNC();  // b[k] is final
    const double t = -b[k];
    FOR_OWN(i, 0, k) b[i] = b[i] + a[LU_AT(i, k)] * t;
  }
  SYNC();
}
#endif

// The complex twins for the matrix ar + i ai; the pivot is the entry of largest |re| + |im|, and its
// reciprocal (tr, ti) DECC's.
int decompose_step_complex(MATRIX_SPACE double* ar, MATRIX_SPACE double* ai, MATRIX_SPACE int* pivot, int k, int q) {
  SYNC();  // column k is final
  const int m = pivot_row(ar, ai, k);
  const double pr = ar[LU_AT(m, k)], pim = ai[LU_AT(m, k)];
  const double dr = ar[LU_AT(k, k)], di = ai[LU_AT(k, k)];
  const double den = pr * pr + pim * pim;
  const double tr = pr / den, ti = -pim / den;
  SYNC();  // every work-item has read column k before it changes
  if (fabs(pr) + fabs(pim) == 0.0) return k + 1;
  if (LEADER) {
    pivot[k] = m;
    ar[LU_AT(k, k)] = pr;
    ai[LU_AT(k, k)] = pim;
  }
  FOR_OWN(i, k + 1, ODE_N) {
    const double xr = i == m ? dr : ar[LU_AT(i, k)], xi = i == m ? di : ai[LU_AT(i, k)];
    const double qr = xr * tr - xi * ti;
    const double qi = xi * tr + xr * ti;
    ar[LU_AT(i, k)] = -qr;
    ai[LU_AT(i, k)] = -qi;
  }
  FOR_OWN(j, k + 1, q) {
    const double sr = ar[LU_AT(m, j)], si = ai[LU_AT(m, j)];
    ar[LU_AT(m, j)] = ar[LU_AT(k, j)];
    ai[LU_AT(m, j)] = ai[LU_AT(k, j)];
    ar[LU_AT(k, j)] = sr;
    ai[LU_AT(k, j)] = si;
  }
  SYNC();  // the multipliers and the swapped rows are complete
  eliminate_complex(ar, ai, k, q);
  return 0;
}

#if ODE_LU_PANEL
// a[i,j] += a[i,k] (sr + i si), as eliminate_complex updates one element.
void update_complex(MATRIX_SPACE double* ar, MATRIX_SPACE double* ai, int i, int j, int k, double sr, double si) {
  const double2 d = complex_update(ar[LU_AT(i, k)], ai[LU_AT(i, k)], sr, si);
  ar[LU_AT(i, j)] = ar[LU_AT(i, j)] + d.x;
  ai[LU_AT(i, j)] = ai[LU_AT(i, j)] + d.y;
}

void apply_panel_complex(MATRIX_SPACE double* ar, MATRIX_SPACE double* ai, const MATRIX_SPACE int* pivot, int p) {
  const int q = p + ODE_LU_PANEL;
  SYNC();  // the panel's steps are complete
  const SwappedRows w = swapped_rows(pivot, p);
  FOR_OWN(j, q, ODE_N)
    for (int k = p; k < q; ++k) {
      const int m = pivot[k];
      const double sr = ar[LU_AT(m, j)], si = ai[LU_AT(m, j)];
      ar[LU_AT(m, j)] = ar[LU_AT(k, j)];
      ai[LU_AT(m, j)] = ai[LU_AT(k, j)];
      ar[LU_AT(k, j)] = sr;
      ai[LU_AT(k, j)] = si;
      if (fabs(sr) + fabs(si) == 0.0) continue;
      for (int i = k + 1; i < q; ++i) update_complex(ar, ai, i, j, k, sr, si);
      for (int u = 0; u < w.count; ++u) update_complex(ar, ai, w.rows[u], j, k, sr, si);
    }
  SYNC();  // the panel's rows are final right of it
#if ODE_GROUP
  update_trailing_complex(ar, ai, pivot, p);
#else
  FOR_ROWS(i, q, LU_PANEL_ROWS) {
    double lr[LU_PANEL_ROWS][ODE_LU_PANEL], li[LU_PANEL_ROWS][ODE_LU_PANEL];
    for (int u = 0; u < LU_PANEL_ROWS; ++u)
      for (int k = 0; k < ODE_LU_PANEL; ++k) {
        lr[u][k] = PANEL_ROW_IN(w, i, u) ? ar[LU_AT(i + u, p + k)] : 0.0;
        li[u][k] = PANEL_ROW_IN(w, i, u) ? ai[LU_AT(i + u, p + k)] : 0.0;
      }
    for (int j = q; j < ODE_N; ++j) {
      double sr[ODE_LU_PANEL], si[ODE_LU_PANEL], xr[LU_PANEL_ROWS], xi[LU_PANEL_ROWS];
      for (int k = 0; k < ODE_LU_PANEL; ++k) {
        sr[k] = ar[LU_AT(p + k, j)];
        si[k] = ai[LU_AT(p + k, j)];
      }
      for (int u = 0; u < LU_PANEL_ROWS; ++u)
        if (PANEL_ROW_IN(w, i, u)) {
          xr[u] = ar[LU_AT(i + u, j)];
          xi[u] = ai[LU_AT(i + u, j)];
        }
      for (int u = 0; u < LU_PANEL_ROWS; ++u)
        if (PANEL_ROW_IN(w, i, u)) {
          for (int k = 0; k < ODE_LU_PANEL; ++k)
            if (fabs(sr[k]) + fabs(si[k]) != 0.0) {
              const double2 d = complex_update(lr[u][k], li[u][k], sr[k], si[k]);
              xr[u] = xr[u] + d.x;
              xi[u] = xi[u] + d.y;
            }
          ar[LU_AT(i + u, j)] = xr[u];
          ai[LU_AT(i + u, j)] = xi[u];
        }
    }
  }
#endif
}
#endif

int lu_decompose_complex(MATRIX_SPACE double* ar, MATRIX_SPACE double* ai, MATRIX_SPACE int* pivot) {
#if ODE_LU_PANEL
  for (int p = 0; p < ODE_N - 1; p += ODE_LU_PANEL) {
    const int q = min(p + ODE_LU_PANEL, ODE_N);
    for (int k = p; k < min(q, ODE_N - 1); ++k) {
      const int zero = decompose_step_complex(ar, ai, pivot, k, q);
      if (zero) return zero;
    }
    if (q < ODE_N) apply_panel_complex(ar, ai, pivot, p);
  }
#else
  for (int k = 0; k < ODE_N - 1; ++k) {
    const int zero = decompose_step_complex(ar, ai, pivot, k, ODE_N);
    if (zero) return zero;
  }
#endif
  SYNC();
  const int last = LU_AT(ODE_N - 1, ODE_N - 1);
  if (fabs(ar[last]) + fabs(ai[last]) == 0.0) return ODE_N;
  interchange_multipliers(ar, pivot);
  interchange_multipliers(ai, pivot);
  return 0;
}

#if ODE_FINAL_ROWS && !ODE_GROUP
// x + (ar + i ai) t, in SOLC's form.
double2 solve_update(double xr, double xi, double ar, double ai, double tr, double ti) {
  return (double2)(xr + (ar * tr - ai * ti), xi + (ai * tr + ar * ti));
}

// x / (pr + i pim), as SOLC divides: the conjugate product over |pivot|^2.
double2 solve_divide(double xr, double xi, double pr, double pim) {
  const double den = pr * pr + pim * pim;
  const double re = xr * pr + xi * pim;
  const double im = xi * pr - xr * pim;
  return (double2)(re / den, im / den);
}

// (br + i bi) <- A^-1 (br + i bi) with the factors of lu_decompose_complex.
void lu_solve_complex(const MATRIX_SPACE double* ar, const MATRIX_SPACE double* ai, const MATRIX_SPACE int* pivot,
                      SHARED double* br, SHARED double* bi) {
  permute(pivot, br);
  permute(pivot, bi);
  for (int i0 = 0; i0 < ODE_N; i0 += SOLVE_ROWS) {
    double2 x[SOLVE_ROWS];
    for (int u = 0; u < SOLVE_ROWS; ++u)
      x[u] = BLOCK_ROW_IN(i0, u) ? (double2)(br[i0 + u], bi[i0 + u]) : (double2)(0.0, 0.0);
    for (int k = 0; k < i0; ++k) {
      const double tr = br[k], ti = bi[k];
      for (int u = 0; u < SOLVE_ROWS; ++u)
        if (BLOCK_ROW_IN(i0, u)) x[u] = solve_update(x[u].x, x[u].y, ar[LU_AT(i0 + u, k)], ai[LU_AT(i0 + u, k)], tr, ti);
    }
    for (int v = 0; v < SOLVE_ROWS - 1; ++v)
      for (int u = v + 1; u < SOLVE_ROWS; ++u)
        if (BLOCK_ROW_IN(i0, u))
          x[u] = solve_update(x[u].x, x[u].y, ar[LU_AT(i0 + u, i0 + v)], ai[LU_AT(i0 + u, i0 + v)], x[v].x, x[v].y);
    for (int u = 0; u < SOLVE_ROWS; ++u)
      if (BLOCK_ROW_IN(i0, u)) {
        br[i0 + u] = x[u].x;
        bi[i0 + u] = x[u].y;
      }
  }
  for (int i0 = (ODE_N - 1) / SOLVE_ROWS * SOLVE_ROWS; i0 >= 0; i0 -= SOLVE_ROWS) {
    double2 x[SOLVE_ROWS];
    for (int u = 0; u < SOLVE_ROWS; ++u)
      x[u] = BLOCK_ROW_IN(i0, u) ? (double2)(br[i0 + u], bi[i0 + u]) : (double2)(0.0, 0.0);
    for (int k = ODE_N - 1; k >= i0 + SOLVE_ROWS; --k) {
      const double tr = -br[k], ti = -bi[k];
      for (int u = 0; u < SOLVE_ROWS; ++u)
        x[u] = solve_update(x[u].x, x[u].y, ar[LU_AT(i0 + u, k)], ai[LU_AT(i0 + u, k)], tr, ti);
    }
    for (int v = SOLVE_ROWS - 1; v >= 0; --v) {
      if (!BLOCK_ROW_IN(i0, v)) continue;
      x[v] = solve_divide(x[v].x, x[v].y, ar[LU_AT(i0 + v, i0 + v)], ai[LU_AT(i0 + v, i0 + v)]);
      const double tr = -x[v].x, ti = -x[v].y;
      for (int u = 0; u < v; ++u)
        x[u] = solve_update(x[u].x, x[u].y, ar[LU_AT(i0 + u, i0 + v)], ai[LU_AT(i0 + u, i0 + v)], tr, ti);
    }
    for (int u = 0; u < SOLVE_ROWS; ++u)
      if (BLOCK_ROW_IN(i0, u)) {
        br[i0 + u] = x[u].x;
        bi[i0 + u] = x[u].y;
      }
  }
}
#else
// (br + i bi) <- A^-1 (br + i bi) with the factors of lu_decompose_complex.
void lu_solve_complex(const MATRIX_SPACE double* ar, const MATRIX_SPACE double* ai, const MATRIX_SPACE int* pivot,
                      SHARED double* br, SHARED double* bi) {
  for (int k = 0; k < ODE_N - 1; ++k) {
    SYNC();  // b is up to date
    const int m = pivot[k];
    const double tr = br[m], ti = bi[m], dr = br[k], di = bi[k];
    SYNC();  // every work-item has read b[m] and b[k] before they change
    if (LEADER) {
      br[k] = tr;
      bi[k] = ti;
    }
    FOR_OWN(i, k + 1, ODE_N) {
      const double xr = i == m ? dr : br[i], xi = i == m ? di : bi[i];
      br[i] = xr + (ar[LU_AT(i, k)] * tr - ai[LU_AT(i, k)] * ti);
      bi[i] = xi + (ai[LU_AT(i, k)] * tr + ar[LU_AT(i, k)] * ti);
    }
  }
  for (int k = ODE_N - 1; k >= 0; --k) {
    SYNC();
    if (LEADER) {
      // SOLC's division: the conjugate product over |pivot|^2.
      const double pr = ar[LU_AT(k, k)], pim = ai[LU_AT(k, k)];
      const double den = pr * pr + pim * pim;
      const double re = br[k] * pr + bi[k] * pim;
      const double im = bi[k] * pr - br[k] * pim;
      br[k] = re / den;
      bi[k] = im / den;
    }
    SYNC();  // b[k] is final
    const double tr = -br[k], ti = -bi[k];
    FOR_OWN(i, 0, k) {
      br[i] = br[i] + (ar[LU_AT(i, k)] * tr - ai[LU_AT(i, k)] * ti);
      bi[i] = bi[i] + (ai[LU_AT(i, k)] * tr + ar[LU_AT(i, k)] * ti);
    }
  }
  SYNC();
}
#endif
