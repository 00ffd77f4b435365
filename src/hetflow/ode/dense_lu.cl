// Dense LU factorisation with partial pivoting and its solve, real and complex, for one work-item's
// private ODE_N x ODE_N matrices stored column-major (a[i + j * ODE_N] is row i, column j).
//
// The operations are those of Moler's DEC/SOL and their complex twins DECC/SOLC, which RADAU5 uses, in
// the same order: RADAU5's step statistics depend on every rounding, so the multipliers are stored
// negated as -a[i,k] * (1 / pivot), the forward sweep adds them to the right-hand side, and the complex
// pivot's reciprocal is (tr, -ti) / (tr^2 + ti^2). A matrix is singular only for an exactly zero pivot.
// The caller builds with FP contraction off (radau5.cl), so no product-sum is fused.

#define LU_AT(i, j) ((i) + (j) * ODE_N)

// Returns 0, or the 1-based column of the first exactly zero pivot (a is then partly overwritten).
int lu_decompose(double* a, int* pivot) {
  for (int k = 0; k < ODE_N - 1; ++k) {
    int m = k;
    for (int i = k + 1; i < ODE_N; ++i)
      if (fabs(a[LU_AT(i, k)]) > fabs(a[LU_AT(m, k)])) m = i;
    pivot[k] = m;
    double t = a[LU_AT(m, k)];
    a[LU_AT(m, k)] = a[LU_AT(k, k)];
    a[LU_AT(k, k)] = t;
    if (t == 0.0) return k + 1;
    t = 1.0 / t;
    for (int i = k + 1; i < ODE_N; ++i) a[LU_AT(i, k)] = -a[LU_AT(i, k)] * t;
    for (int j = k + 1; j < ODE_N; ++j) {
      t = a[LU_AT(m, j)];
      a[LU_AT(m, j)] = a[LU_AT(k, j)];
      a[LU_AT(k, j)] = t;
      // A zero in the pivot row leaves the column unchanged; skipping it also keeps -0.0 signs as DEC.
      if (t != 0.0)
        for (int i = k + 1; i < ODE_N; ++i) a[LU_AT(i, j)] = a[LU_AT(i, j)] + a[LU_AT(i, k)] * t;
    }
  }
  return a[LU_AT(ODE_N - 1, ODE_N - 1)] == 0.0 ? ODE_N : 0;
}

// b <- A^-1 b with the factors of lu_decompose.
void lu_solve(const double* a, const int* pivot, double* b) {
  for (int k = 0; k < ODE_N - 1; ++k) {
    const int m = pivot[k];
    const double t = b[m];
    b[m] = b[k];
    b[k] = t;
    for (int i = k + 1; i < ODE_N; ++i) b[i] = b[i] + a[LU_AT(i, k)] * t;
  }
  for (int k = ODE_N - 1; k > 0; --k) {
    b[k] = b[k] / a[LU_AT(k, k)];
    const double t = -b[k];
    for (int i = 0; i < k; ++i) b[i] = b[i] + a[LU_AT(i, k)] * t;
  }
  b[0] = b[0] / a[LU_AT(0, 0)];
}

// The complex matrix ar + i ai; the pivot is the entry of largest |re| + |im|.
int lu_decompose_complex(double* ar, double* ai, int* pivot) {
  for (int k = 0; k < ODE_N - 1; ++k) {
    int m = k;
    for (int i = k + 1; i < ODE_N; ++i)
      if (fabs(ar[LU_AT(i, k)]) + fabs(ai[LU_AT(i, k)]) > fabs(ar[LU_AT(m, k)]) + fabs(ai[LU_AT(m, k)])) m = i;
    pivot[k] = m;
    double tr = ar[LU_AT(m, k)], ti = ai[LU_AT(m, k)];
    ar[LU_AT(m, k)] = ar[LU_AT(k, k)];
    ai[LU_AT(m, k)] = ai[LU_AT(k, k)];
    ar[LU_AT(k, k)] = tr;
    ai[LU_AT(k, k)] = ti;
    if (fabs(tr) + fabs(ti) == 0.0) return k + 1;
    const double den = tr * tr + ti * ti;
    tr = tr / den;
    ti = -ti / den;
    for (int i = k + 1; i < ODE_N; ++i) {
      const double pr = ar[LU_AT(i, k)] * tr - ai[LU_AT(i, k)] * ti;
      const double pi = ai[LU_AT(i, k)] * tr + ar[LU_AT(i, k)] * ti;
      ar[LU_AT(i, k)] = -pr;
      ai[LU_AT(i, k)] = -pi;
    }
    for (int j = k + 1; j < ODE_N; ++j) {
      tr = ar[LU_AT(m, j)];
      ti = ai[LU_AT(m, j)];
      ar[LU_AT(m, j)] = ar[LU_AT(k, j)];
      ai[LU_AT(m, j)] = ai[LU_AT(k, j)];
      ar[LU_AT(k, j)] = tr;
      ai[LU_AT(k, j)] = ti;
      if (fabs(tr) + fabs(ti) == 0.0) continue;
      // Purely real or purely imaginary pivot-row entries drop the zero products, as DECC does; the
      // sums differ from the general formula only in the sign of zero results.
      for (int i = k + 1; i < ODE_N; ++i) {
        double pr, pi;
        if (ti == 0.0) {
          pr = ar[LU_AT(i, k)] * tr;
          pi = ai[LU_AT(i, k)] * tr;
        } else if (tr == 0.0) {
          pr = -ai[LU_AT(i, k)] * ti;
          pi = ar[LU_AT(i, k)] * ti;
        } else {
          pr = ar[LU_AT(i, k)] * tr - ai[LU_AT(i, k)] * ti;
          pi = ai[LU_AT(i, k)] * tr + ar[LU_AT(i, k)] * ti;
        }
        ar[LU_AT(i, j)] = ar[LU_AT(i, j)] + pr;
        ai[LU_AT(i, j)] = ai[LU_AT(i, j)] + pi;
      }
    }
  }
  const int last = LU_AT(ODE_N - 1, ODE_N - 1);
  return fabs(ar[last]) + fabs(ai[last]) == 0.0 ? ODE_N : 0;
}

// (br + i bi) / (ar[k,k] + i ai[k,k]) in place, as SOLC divides: conj product over |pivot|^2.
void lu_divide_complex(const double* ar, const double* ai, int k, double* br, double* bi) {
  const double pr = ar[LU_AT(k, k)], pim = ai[LU_AT(k, k)];
  const double den = pr * pr + pim * pim;
  const double re = br[k] * pr + bi[k] * pim;
  const double im = bi[k] * pr - br[k] * pim;
  br[k] = re / den;
  bi[k] = im / den;
}

// (br + i bi) <- A^-1 (br + i bi) with the factors of lu_decompose_complex.
void lu_solve_complex(const double* ar, const double* ai, const int* pivot, double* br, double* bi) {
  for (int k = 0; k < ODE_N - 1; ++k) {
    const int m = pivot[k];
    const double tr = br[m], ti = bi[m];
    br[m] = br[k];
    bi[m] = bi[k];
    br[k] = tr;
    bi[k] = ti;
    for (int i = k + 1; i < ODE_N; ++i) {
      br[i] = br[i] + (ar[LU_AT(i, k)] * tr - ai[LU_AT(i, k)] * ti);
      bi[i] = bi[i] + (ai[LU_AT(i, k)] * tr + ar[LU_AT(i, k)] * ti);
    }
  }
  for (int k = ODE_N - 1; k > 0; --k) {
    lu_divide_complex(ar, ai, k, br, bi);
    const double tr = -br[k], ti = -bi[k];
    for (int i = 0; i < k; ++i) {
      br[i] = br[i] + (ar[LU_AT(i, k)] * tr - ai[LU_AT(i, k)] * ti);
      bi[i] = bi[i] + (ai[LU_AT(i, k)] * tr + ar[LU_AT(i, k)] * ti);
    }
  }
  lu_divide_complex(ar, ai, 0, br, bi);
}
