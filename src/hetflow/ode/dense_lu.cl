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
// Mapping 2 spreads the rows of the multipliers and of the sweeps, and the columns of the elimination,
// over the work-items. Every element gets the same operations in the same order as in mapping 1, so
// both mappings give the same bits. The pivot search and the row swap stay with one reader/writer each:
// every work-item reads the pivot column (the same values, so the same pivot), and the swap is folded
// into the writes of the rows it moves. Every function returns with its results visible to the group;
// the caller synchronises before it overwrites a matrix (a singular return skips the final barrier).
#include "ode/mapping.cl"

#define LU_AT(i, j) ((i) + (j) * ODE_N)

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
    SYNC();  // the multipliers are complete
    FOR_OWN(j, k + 1, ODE_N) {
      const double s = a[LU_AT(m, j)];
      a[LU_AT(m, j)] = a[LU_AT(k, j)];
      a[LU_AT(k, j)] = s;
      // A zero in the pivot row leaves the column unchanged; skipping it also keeps -0.0 signs as DEC.
      if (s != 0.0)
        for (int i = k + 1; i < ODE_N; ++i) a[LU_AT(i, j)] = a[LU_AT(i, j)] + a[LU_AT(i, k)] * s;
    }
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
    SYNC();  // the multipliers are complete
    FOR_OWN(j, k + 1, ODE_N) {
      const double sr = ar[LU_AT(m, j)], si = ai[LU_AT(m, j)];
      ar[LU_AT(m, j)] = ar[LU_AT(k, j)];
      ai[LU_AT(m, j)] = ai[LU_AT(k, j)];
      ar[LU_AT(k, j)] = sr;
      ai[LU_AT(k, j)] = si;
      if (fabs(sr) + fabs(si) == 0.0) continue;
      // Purely real or purely imaginary pivot-row entries drop the zero products, as DECC does; the
      // sums differ from the general formula only in the sign of zero results.
      for (int i = k + 1; i < ODE_N; ++i) {
        double qr, qi;
        if (si == 0.0) {
          qr = ar[LU_AT(i, k)] * sr;
          qi = ai[LU_AT(i, k)] * sr;
        } else if (sr == 0.0) {
          qr = -ai[LU_AT(i, k)] * si;
          qi = ar[LU_AT(i, k)] * si;
        } else {
          qr = ar[LU_AT(i, k)] * sr - ai[LU_AT(i, k)] * si;
          qi = ai[LU_AT(i, k)] * sr + ar[LU_AT(i, k)] * si;
        }
        ar[LU_AT(i, j)] = ar[LU_AT(i, j)] + qr;
        ai[LU_AT(i, j)] = ai[LU_AT(i, j)] + qi;
      }
    }
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
