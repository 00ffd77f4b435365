// Sparse LU without pivoting and its solves, real and complex, for E = c I - J with J = S + u vᵀ:
// S has the nonzero pattern that the host's plan (sparse_lu.cpp) was made for, and with ODE_LOW_RANK
// (set by the host) the Jacobian also holds u and v, a rank-one part whose every row and column would
// otherwise be full (a reactor's density and third-body couplings). E's factors come from A = c I - S,
// and the solves correct A⁻¹ b for the rank-one part by Sherman and Morrison:
//   E⁻¹ b = A⁻¹ b + z (vᵀ A⁻¹ b) / σ,   z = A⁻¹ u,   σ = 1 - vᵀ z,
// z and σ formed once per decomposition. J is the dense column-major matrix of the Jacobian (zero
// outside the pattern), u in the n doubles after it and v in the n after those.
//
// A matrix slot holds the factors (ODE_SPARSE_ENTRIES values in the plan's row order), then a permuted
// work vector, then z and σ. The factorisation runs pivot by pivot (right-looking): a work-group shares
// each pivot's updates of the entries below and right of it among its work-items and waits at the end of
// them; the substitutions run column by column likewise. Every entry still takes its updates in the
// order of its row's pivots, so the factors and solutions do not depend on the group's size, and both
// mappings give the same bits. Sums over all entries (vᵀ b, σ) run in index order in every work-item,
// as radau5.cl's norms do. Every function returns with its results visible to the group.
#include "ode/mapping.cl"

// The plan's header (sparse_lu.cpp's Header): offsets of its parts.
#define SP_GATHER 1
#define SP_ROWS 2
#define SP_DIAGONAL 3
#define SP_ORDER 4
#define SP_LOWER 5
#define SP_UPPER 6
#define SP_UPDATES 7
#define SP_PART(sp, part) ((sp) + (sp)[part])
// A column list (sparse_lu.cpp's append_columns): the start of column k, and entry e's place and row.
#define SP_START(list, k) ((list)[k])
#define SP_PLACE(list, e) ((list)[ODE_N + 1 + 2 * (e)])
#define SP_LIST_ROW(list, e) ((list)[ODE_N + 2 + 2 * (e)])

#define SP_WORK ODE_SPARSE_ENTRIES
#define SP_Z (ODE_SPARSE_ENTRIES + ODE_N)
#define SP_SIGMA (ODE_SPARSE_ENTRIES + 2 * ODE_N)
#define SP_U(fjac) ((fjac) + ODE_N * ODE_N)
#define SP_V(fjac) ((fjac) + ODE_N * ODE_N + ODE_N)

double2 sp_mul(double2 a, double2 b) { return (double2)(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }
double2 sp_div(double2 a, double2 b) {
  const double d = b.x * b.x + b.y * b.y;
  return (double2)((a.x * b.x + a.y * b.y) / d, (a.y * b.x - a.x * b.y) / d);
}

// a <- A = c I - S, real or the real part of the complex twin.
void sparse_assemble(MATRIX_SPACE double* a, const MATRIX_SPACE double* fjac, double c, __global const int* sp) {
  __global const int* gather = SP_PART(sp, SP_GATHER);
  __global const int* diagonal = SP_PART(sp, SP_DIAGONAL);
  FOR_OWN(p, 0, ODE_SPARSE_ENTRIES) a[p] = -fjac[gather[p]];
  SYNC();
  FOR_OWN(k, 0, ODE_N) a[diagonal[k]] = a[diagonal[k]] + c;
  SYNC();
}

// Whether a pivot vanished or left the finite numbers (the imaginary parts ai of the complex twin: 0 for
// the real one).
int sparse_singular(const MATRIX_SPACE double* ar, const MATRIX_SPACE double* ai, __global const int* sp) {
  __global const int* diagonal = SP_PART(sp, SP_DIAGONAL);
  for (int k = 0; k < ODE_N; ++k) {
    const double r = ar[diagonal[k]], i = ai ? ai[diagonal[k]] : 0.0;
    if (!(isfinite(r) && isfinite(i)) || (r == 0.0 && i == 0.0)) return 1;
  }
  return 0;
}

// Pivot k's updates a_ij -= (a_ik / a_kk) a_kj for the rows i of L's column k and the columns j of U's
// row k; the column's multipliers are stored once every update has read them. The multiplier takes the
// pivot's reciprocal, which every work-item forms alike. A work-item walks its share of the updates, nl
// rows of nu each, as (row l, column u) pairs (SparseWalk), dividing once per pivot rather than once per
// update, and forms a row's multiplier only where its walk enters a row (`fresh`; mapping 1 takes whole
// rows). Mapping 2 takes SP_BATCH updates at a time, every load of a batch before its stores: no update
// of a pivot reads what another writes (their targets differ, and none is in L's column k or U's row k),
// so a work-item has SP_BATCH loads in flight where it would wait for each in turn. A lone system leaves
// its multiprocessor too few warps to hide that wait. A slot past the end repeats the last update's
// loads and stores nothing.
#if ODE_GROUP
#define SP_BATCH 4
#else
#define SP_BATCH 1
#endif
typedef struct {
  int x, l, u, rows, columns, nu, fresh;
} SparseWalk;
SparseWalk sparse_walk(int nu) {
  const SparseWalk w = {OWN_FIRST, OWN_FIRST / nu, OWN_FIRST % nu, OWN_STRIDE / nu, OWN_STRIDE % nu, nu, 1};
  return w;
}
void sparse_step(SparseWalk* w) {
  const int l = w->l;
  w->x += OWN_STRIDE;
  w->l += w->rows;
  w->u += w->columns;
  if (w->u >= w->nu) {
    w->u -= w->nu;
    ++w->l;
  }
  w->fresh = w->l != l;
}
void sparse_factor(MATRIX_SPACE double* a, __global const int* sp) {
  __global const int *rows = SP_PART(sp, SP_ROWS), *diagonal = SP_PART(sp, SP_DIAGONAL);
  __global const int *lower = SP_PART(sp, SP_LOWER), *updates = SP_PART(sp, SP_UPDATES);
  for (int k = 0; k < ODE_N; ++k) {
    const int l0 = SP_START(lower, k), nl = SP_START(lower, k + 1) - l0;
    const int u0 = diagonal[k] + 1, nu = rows[k + 1] - u0, count = nl * nu;
    const double inverse = 1.0 / a[diagonal[k]];
    if (count > 0) {
      __global const int* target = updates + ODE_N + 1 + updates[k];
      double m = 0.0;
      for (SparseWalk w = sparse_walk(nu); w.x < count;) {
        int place[SP_BATCH], live[SP_BATCH];
        double multiplier[SP_BATCH], pivot_row[SP_BATCH], old[SP_BATCH];
#pragma unroll
        for (int b = 0; b < SP_BATCH; ++b) {
          live[b] = w.x < count;
          if (w.fresh) m = a[SP_PLACE(lower, l0 + min(w.l, nl - 1))] * inverse;
          place[b] = target[min(w.x, count - 1)];
          multiplier[b] = m;
          pivot_row[b] = a[u0 + w.u];
          sparse_step(&w);
        }
#pragma unroll
        for (int b = 0; b < SP_BATCH; ++b) old[b] = a[place[b]];
#pragma unroll
        for (int b = 0; b < SP_BATCH; ++b)
          if (live[b]) a[place[b]] = old[b] - multiplier[b] * pivot_row[b];
      }
      SYNC();
    }
    FOR_OWN(l, l0, l0 + nl) a[SP_PLACE(lower, l)] = a[SP_PLACE(lower, l)] * inverse;
  }
  SYNC();
}

void sparse_factor_complex(MATRIX_SPACE double* ar, MATRIX_SPACE double* ai, __global const int* sp) {
  __global const int *rows = SP_PART(sp, SP_ROWS), *diagonal = SP_PART(sp, SP_DIAGONAL);
  __global const int *lower = SP_PART(sp, SP_LOWER), *updates = SP_PART(sp, SP_UPDATES);
  for (int k = 0; k < ODE_N; ++k) {
    const int l0 = SP_START(lower, k), nl = SP_START(lower, k + 1) - l0;
    const int u0 = diagonal[k] + 1, nu = rows[k + 1] - u0, count = nl * nu;
    const double2 inverse = sp_div((double2)(1.0, 0.0), (double2)(ar[diagonal[k]], ai[diagonal[k]]));
    if (count > 0) {
      __global const int* target = updates + ODE_N + 1 + updates[k];
      double2 m = 0.0;
      for (SparseWalk w = sparse_walk(nu); w.x < count;) {
        int place[SP_BATCH], live[SP_BATCH];
        double2 multiplier[SP_BATCH], pivot_row[SP_BATCH], old[SP_BATCH];
#pragma unroll
        for (int b = 0; b < SP_BATCH; ++b) {
          live[b] = w.x < count;
          if (w.fresh) {
            const int p = SP_PLACE(lower, l0 + min(w.l, nl - 1));
            m = sp_mul((double2)(ar[p], ai[p]), inverse);
          }
          place[b] = target[min(w.x, count - 1)];
          multiplier[b] = m;
          pivot_row[b] = (double2)(ar[u0 + w.u], ai[u0 + w.u]);
          sparse_step(&w);
        }
#pragma unroll
        for (int b = 0; b < SP_BATCH; ++b) old[b] = (double2)(ar[place[b]], ai[place[b]]);
#pragma unroll
        for (int b = 0; b < SP_BATCH; ++b) {
          if (!live[b]) continue;
          const double2 d = sp_mul(multiplier[b], pivot_row[b]);
          ar[place[b]] = old[b].x - d.x;
          ai[place[b]] = old[b].y - d.y;
        }
      }
      SYNC();
    }
    FOR_OWN(l, l0, l0 + nl) {
      const int p = SP_PLACE(lower, l);
      const double2 m = sp_mul((double2)(ar[p], ai[p]), inverse);
      ar[p] = m.x;
      ai[p] = m.y;
    }
  }
  SYNC();
}

// t_i -= a_e x for the entries e of column k of a column list, i their rows.
void sparse_column(const MATRIX_SPACE double* a, __global const int* list, int k, double x, MATRIX_SPACE double* t) {
  FOR_OWN(e, SP_START(list, k), SP_START(list, k + 1))
  t[SP_LIST_ROW(list, e)] = t[SP_LIST_ROW(list, e)] - a[SP_PLACE(list, e)] * x;
}

void sparse_column_complex(const MATRIX_SPACE double* ar, const MATRIX_SPACE double* ai, __global const int* list,
                           int k, double2 x, MATRIX_SPACE double* tr, MATRIX_SPACE double* ti) {
  FOR_OWN(e, SP_START(list, k), SP_START(list, k + 1)) {
    const int i = SP_LIST_ROW(list, e), p = SP_PLACE(list, e);
    const double2 d = sp_mul((double2)(ar[p], ai[p]), x);
    tr[i] = tr[i] - d.x;
    ti[i] = ti[i] - d.y;
  }
}

// t <- A⁻¹ t in the permuted order: L's columns forward, then U's backward. Column j of U takes
// t_j / u_jj from the undivided t_j, which no later column reads, and t is divided by U's diagonal once
// the columns are done: a column with no entries then needs no barrier.
void sparse_substitute(const MATRIX_SPACE double* a, __global const int* sp, MATRIX_SPACE double* t) {
  __global const int *diagonal = SP_PART(sp, SP_DIAGONAL), *lower = SP_PART(sp, SP_LOWER);
  __global const int* upper = SP_PART(sp, SP_UPPER);
  for (int k = 0; k < ODE_N; ++k) {
    if (SP_START(lower, k + 1) == SP_START(lower, k)) continue;
    sparse_column(a, lower, k, t[k], t);
    SYNC();
  }
  for (int j = ODE_N - 1; j >= 0; --j) {
    if (SP_START(upper, j + 1) == SP_START(upper, j)) continue;
    sparse_column(a, upper, j, t[j] / a[diagonal[j]], t);
    SYNC();
  }
  FOR_OWN(j, 0, ODE_N) t[j] = t[j] / a[diagonal[j]];
  SYNC();
}

void sparse_substitute_complex(const MATRIX_SPACE double* ar, const MATRIX_SPACE double* ai, __global const int* sp,
                               MATRIX_SPACE double* tr, MATRIX_SPACE double* ti) {
  __global const int *diagonal = SP_PART(sp, SP_DIAGONAL), *lower = SP_PART(sp, SP_LOWER);
  __global const int* upper = SP_PART(sp, SP_UPPER);
  for (int k = 0; k < ODE_N; ++k) {
    if (SP_START(lower, k + 1) == SP_START(lower, k)) continue;
    sparse_column_complex(ar, ai, lower, k, (double2)(tr[k], ti[k]), tr, ti);
    SYNC();
  }
  for (int j = ODE_N - 1; j >= 0; --j) {
    if (SP_START(upper, j + 1) == SP_START(upper, j)) continue;
    const double2 tj = sp_div((double2)(tr[j], ti[j]), (double2)(ar[diagonal[j]], ai[diagonal[j]]));
    sparse_column_complex(ar, ai, upper, j, tj, tr, ti);
    SYNC();
  }
  FOR_OWN(j, 0, ODE_N) {
    const double2 tj = sp_div((double2)(tr[j], ti[j]), (double2)(ar[diagonal[j]], ai[diagonal[j]]));
    tr[j] = tj.x;
    ti[j] = tj.y;
  }
  SYNC();
}

// E1 = c I - J in the slot e; returns nonzero where it is singular.
int sparse_decompose(MATRIX_SPACE double* e, const MATRIX_SPACE double* fjac, double c, __global const int* sp) {
  sparse_assemble(e, fjac, c, sp);
  sparse_factor(e, sp);
  if (sparse_singular(e, 0, sp)) return 1;
#if ODE_LOW_RANK
  __global const int* order = SP_PART(sp, SP_ORDER);
  MATRIX_SPACE double *t = e + SP_WORK, *z = e + SP_Z;
  FOR_OWN(k, 0, ODE_N) t[k] = SP_U(fjac)[order[k]];
  SYNC();
  sparse_substitute(e, sp, t);
  FOR_OWN(k, 0, ODE_N) z[order[k]] = t[k];
  SYNC();
  double vz = 0.0;
  for (int i = 0; i < ODE_N; ++i) vz = vz + SP_V(fjac)[i] * z[i];
  const double sigma = 1.0 - vz;
  SYNC();  // every work-item has read z
  if (LEADER) e[SP_SIGMA] = sigma;
  SYNC();
  if (!isfinite(sigma) || sigma == 0.0) return 1;
#endif
  return 0;
}

// E2 = (cr + i ci) I - J in the slots er, ei.
int sparse_decompose_complex(MATRIX_SPACE double* er, MATRIX_SPACE double* ei, const MATRIX_SPACE double* fjac,
                             double cr, double ci, __global const int* sp) {
  sparse_assemble(er, fjac, cr, sp);
  __global const int* diagonal = SP_PART(sp, SP_DIAGONAL);
  FOR_OWN(p, 0, ODE_SPARSE_ENTRIES) ei[p] = 0.0;
  SYNC();
  FOR_OWN(k, 0, ODE_N) ei[diagonal[k]] = ci;
  SYNC();
  sparse_factor_complex(er, ei, sp);
  if (sparse_singular(er, ei, sp)) return 1;
#if ODE_LOW_RANK
  __global const int* order = SP_PART(sp, SP_ORDER);
  MATRIX_SPACE double *tr = er + SP_WORK, *ti = ei + SP_WORK, *zr = er + SP_Z, *zi = ei + SP_Z;
  FOR_OWN(k, 0, ODE_N) {
    tr[k] = SP_U(fjac)[order[k]];
    ti[k] = 0.0;
  }
  SYNC();
  sparse_substitute_complex(er, ei, sp, tr, ti);
  FOR_OWN(k, 0, ODE_N) {
    zr[order[k]] = tr[k];
    zi[order[k]] = ti[k];
  }
  SYNC();
  double vr = 0.0, vi = 0.0;
  for (int i = 0; i < ODE_N; ++i) {
    vr = vr + SP_V(fjac)[i] * zr[i];
    vi = vi + SP_V(fjac)[i] * zi[i];
  }
  SYNC();  // every work-item has read z
  if (LEADER) {
    er[SP_SIGMA] = 1.0 - vr;
    ei[SP_SIGMA] = -vi;
  }
  SYNC();
  if (!isfinite(vr) || !isfinite(vi) || (1.0 - vr == 0.0 && vi == 0.0)) return 1;
#endif
  return 0;
}

// b <- E1⁻¹ b with sparse_decompose's factors.
void sparse_solve(MATRIX_SPACE double* e, const MATRIX_SPACE double* fjac, __global const int* sp, SHARED double* b) {
  __global const int* order = SP_PART(sp, SP_ORDER);
  MATRIX_SPACE double* t = e + SP_WORK;
  SYNC();  // b is complete
  FOR_OWN(k, 0, ODE_N) t[k] = b[order[k]];
  SYNC();
  sparse_substitute(e, sp, t);
  FOR_OWN(k, 0, ODE_N) b[order[k]] = t[k];
  SYNC();
#if ODE_LOW_RANK
  double vb = 0.0;
  for (int i = 0; i < ODE_N; ++i) vb = vb + SP_V(fjac)[i] * b[i];
  const double g = vb / e[SP_SIGMA];
  SYNC();  // every work-item has read b
  FOR_EACH(i) b[i] = b[i] + e[SP_Z + i] * g;
  SYNC();
#endif
}

// (br + i bi) <- E2⁻¹ (br + i bi) with sparse_decompose_complex's factors.
void sparse_solve_complex(MATRIX_SPACE double* er, MATRIX_SPACE double* ei, const MATRIX_SPACE double* fjac,
                          __global const int* sp, SHARED double* br, SHARED double* bi) {
  __global const int* order = SP_PART(sp, SP_ORDER);
  MATRIX_SPACE double *tr = er + SP_WORK, *ti = ei + SP_WORK;
  SYNC();  // b is complete
  FOR_OWN(k, 0, ODE_N) {
    tr[k] = br[order[k]];
    ti[k] = bi[order[k]];
  }
  SYNC();
  sparse_substitute_complex(er, ei, sp, tr, ti);
  FOR_OWN(k, 0, ODE_N) {
    br[order[k]] = tr[k];
    bi[order[k]] = ti[k];
  }
  SYNC();
#if ODE_LOW_RANK
  double vr = 0.0, vi = 0.0;
  for (int i = 0; i < ODE_N; ++i) {
    vr = vr + SP_V(fjac)[i] * br[i];
    vi = vi + SP_V(fjac)[i] * bi[i];
  }
  const double2 g = sp_div((double2)(vr, vi), (double2)(er[SP_SIGMA], ei[SP_SIGMA]));
  SYNC();  // every work-item has read b
  FOR_EACH(i) {
    const double2 d = sp_mul((double2)(er[SP_Z + i], ei[SP_Z + i]), g);
    br[i] = br[i] + d.x;
    bi[i] = bi[i] + d.y;
  }
  SYNC();
#endif
}
