// Dense LU factorisation with partial pivoting and its solve, real and complex, for ODE_N x ODE_N
// matrices stored column-major (a[i + j * ODE_N] is row i, column j): one work-item's private matrices in
// mapping 1, one work-group's shared matrices in mapping 2 (mapping.cl).
//
// The operations are those of Moler's DEC/SOL and their complex twins DECC/SOLC, which RADAU5 uses, in
// the same order: RADAU5's step statistics depend on every rounding, so the multipliers are stored
// negated as -a[i,k] * (1 / pivot), the forward sweep adds them to the right-hand side, and the complex
// pivot's reciprocal is (tr, -ti) / (tr^2 + ti^2). A matrix is singular only for an exactly zero pivot.
// The caller builds with FP contraction off (radau5.cl), so no product-sum is fused.
//
// Mapping 2 spreads the rows of the multipliers, of the elimination and of the sweeps, and the columns
// of the row swap, over the work-items. Every element gets the same operations in the same order as in
// mapping 1, so both mappings give the same bits. Every work-item reads the whole pivot column (the same
// values, so the same pivot). Every function returns with its results visible to the group; the caller
// synchronises before it overwrites a matrix (a singular return skips the final barrier).
#include "ode/mapping.cl"

#define LU_AT(i, j) ((i) + (j) * ODE_N)
// The elimination updates the rows below the pivot. On CPUs (ODE_LU_BY_COLUMN, set by the host) it runs
// column by column, as DEC does, which PoCL vectorises across work-items best: the row blocks below ran
// GRI-Mech 3.0 at 3,181 systems/s against 5,199 on 2 PoCL cores. On GPUs it runs row by row: mapping 2
// gives each work-item one row, so a group's loads of a column are contiguous; mapping 1 updates LU_ROWS
// rows at a time and loads them all before it stores any, since its matrices live in local memory far
// past the caches and one row at a time left every update waiting a full memory latency (GRI-Mech 3.0 on
// an H200: 82,600 -> 142,600 systems/s at 1e5 systems, both in a build timing each phase).
#if ODE_GROUP
#define LU_ROWS 1
#define FOR_ROWS(i, first) FOR_OWN(i, first, ODE_N)
#else
#define LU_ROWS 8
#define FOR_ROWS(i, first) for (int i = (first); i < ODE_N; i += LU_ROWS)
#endif
#define ROW_IN(i, u) ((i) + (u) < ODE_N)

// The product of multiplier (lr, li) and pivot-row entry (sr, si). Purely real or purely imaginary
// entries drop the zero products, as DECC does; the sums differ from the general formula only in the
// sign of zero results.
double2 complex_update(double lr, double li, double sr, double si) {
  if (si == 0.0) return (double2)(lr * sr, li * sr);
  if (sr == 0.0) return (double2)(-li * si, lr * si);
  return (double2)(lr * sr - li * si, li * sr + lr * si);
}

// a[i,j] += a[i,k] a[k,j] below and right of pivot k, after its multipliers and row swap; a zero in the
// pivot row leaves its column unchanged (skipping it also keeps -0.0 signs as DEC).
void eliminate(SHARED double* a, int k) {
#if ODE_LU_BY_COLUMN
  for (int j = k + 1; j < ODE_N; ++j) {
    const double s = a[LU_AT(k, j)];
    if (s != 0.0)
      for (int i = k + 1; i < ODE_N; ++i) a[LU_AT(i, j)] = a[LU_AT(i, j)] + a[LU_AT(i, k)] * s;
  }
#else
  FOR_ROWS(i, k + 1) {
    double l[LU_ROWS];
    for (int u = 0; u < LU_ROWS; ++u) l[u] = ROW_IN(i, u) ? a[LU_AT(i + u, k)] : 0.0;
    for (int j = k + 1; j < ODE_N; ++j) {
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
void eliminate_complex(SHARED double* ar, SHARED double* ai, int k) {
#if ODE_LU_BY_COLUMN
  for (int j = k + 1; j < ODE_N; ++j) {
    const double sr = ar[LU_AT(k, j)], si = ai[LU_AT(k, j)];
    if (fabs(sr) + fabs(si) == 0.0) continue;
    for (int i = k + 1; i < ODE_N; ++i) {
      const double2 q = complex_update(ar[LU_AT(i, k)], ai[LU_AT(i, k)], sr, si);
      ar[LU_AT(i, j)] = ar[LU_AT(i, j)] + q.x;
      ai[LU_AT(i, j)] = ai[LU_AT(i, j)] + q.y;
    }
  }
#else
  FOR_ROWS(i, k + 1) {
    double lr[LU_ROWS], li[LU_ROWS];
    for (int u = 0; u < LU_ROWS; ++u) {
      lr[u] = ROW_IN(i, u) ? ar[LU_AT(i + u, k)] : 0.0;
      li[u] = ROW_IN(i, u) ? ai[LU_AT(i + u, k)] : 0.0;
    }
    for (int j = k + 1; j < ODE_N; ++j) {
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

// Returns 0, or the 1-based column of the first exactly zero pivot (a is then partly overwritten).
int lu_decompose(SHARED double* a, SHARED int* pivot) {
  for (int k = 0; k < ODE_N - 1; ++k) {
    SYNC();  // column k is final
    int m = k;
    for (int i = k + 1; i < ODE_N; ++i)
      if (fabs(a[LU_AT(i, k)]) > fabs(a[LU_AT(m, k)])) m = i;
    const double p = a[LU_AT(m, k)], displaced = a[LU_AT(k, k)];
    SYNC();  // every work-item has read column k before it changes
    if (p == 0.0) return k + 1;
    if (LEADER) {
      pivot[k] = m;
      a[LU_AT(k, k)] = p;
    }
    const double t = 1.0 / p;
    // Row m receives the displaced diagonal entry: DEC's swap and multiplier in one write.
    FOR_OWN(i, k + 1, ODE_N) a[LU_AT(i, k)] = -(i == m ? displaced : a[LU_AT(i, k)]) * t;
    FOR_OWN(j, k + 1, ODE_N) {
      const double s = a[LU_AT(m, j)];
      a[LU_AT(m, j)] = a[LU_AT(k, j)];
      a[LU_AT(k, j)] = s;
    }
    SYNC();  // the multipliers and the swapped rows are complete
    eliminate(a, k);
  }
  SYNC();
  return a[LU_AT(ODE_N - 1, ODE_N - 1)] == 0.0 ? ODE_N : 0;
}

// b <- A^-1 b with the factors of lu_decompose.
void lu_solve(const SHARED double* a, const SHARED int* pivot, SHARED double* b) {
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

// The complex matrix ar + i ai; the pivot is the entry of largest |re| + |im|.
int lu_decompose_complex(SHARED double* ar, SHARED double* ai, SHARED int* pivot) {
  for (int k = 0; k < ODE_N - 1; ++k) {
    SYNC();  // column k is final
    int m = k;
    for (int i = k + 1; i < ODE_N; ++i)
      if (fabs(ar[LU_AT(i, k)]) + fabs(ai[LU_AT(i, k)]) > fabs(ar[LU_AT(m, k)]) + fabs(ai[LU_AT(m, k)])) m = i;
    const double pr = ar[LU_AT(m, k)], pim = ai[LU_AT(m, k)];
    const double dr = ar[LU_AT(k, k)], di = ai[LU_AT(k, k)];
    SYNC();  // every work-item has read column k before it changes
    if (fabs(pr) + fabs(pim) == 0.0) return k + 1;
    if (LEADER) {
      pivot[k] = m;
      ar[LU_AT(k, k)] = pr;
      ai[LU_AT(k, k)] = pim;
    }
    const double den = pr * pr + pim * pim;
    const double tr = pr / den, ti = -pim / den;
    FOR_OWN(i, k + 1, ODE_N) {
      const double xr = i == m ? dr : ar[LU_AT(i, k)], xi = i == m ? di : ai[LU_AT(i, k)];
      const double qr = xr * tr - xi * ti;
      const double qi = xi * tr + xr * ti;
      ar[LU_AT(i, k)] = -qr;
      ai[LU_AT(i, k)] = -qi;
    }
    FOR_OWN(j, k + 1, ODE_N) {
      const double sr = ar[LU_AT(m, j)], si = ai[LU_AT(m, j)];
      ar[LU_AT(m, j)] = ar[LU_AT(k, j)];
      ai[LU_AT(m, j)] = ai[LU_AT(k, j)];
      ar[LU_AT(k, j)] = sr;
      ai[LU_AT(k, j)] = si;
    }
    SYNC();  // the multipliers and the swapped rows are complete
    eliminate_complex(ar, ai, k);
  }
  SYNC();
  const int last = LU_AT(ODE_N - 1, ODE_N - 1);
  return fabs(ar[last]) + fabs(ai[last]) == 0.0 ? ODE_N : 0;
}

// (br + i bi) <- A^-1 (br + i bi) with the factors of lu_decompose_complex.
void lu_solve_complex(const SHARED double* ar, const SHARED double* ai, const SHARED int* pivot, SHARED double* br,
                      SHARED double* bi) {
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
