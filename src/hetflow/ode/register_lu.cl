// The phased mapping's decompositions on GPUs with each matrix in its work-group's registers
// (radau5_decompose.cl with ODE_REGISTER_LU; correct up to n = 64, used up to n = 16, radau5_launch.cpp
// says why). Work-item (c, h) holds column c's rows h, h + RL_PARTS, h + 2 RL_PARTS, ... (RL_ROWS of them;
// RL_PARTS is the host's ODE_RL_PARTS), so an elimination step updates registers only: the pivot
// column and the two rows that swap pass through local memory, with two barriers per step, where
// dense_lu.cl's group LU reads and writes every updated entry in local memory, three barriers a step.
//
// Every entry takes DEC's (DECC's) operations in DEC's order, as in dense_lu.cl, so the factors keep
// their bits. Each work-item computes the multipliers it needs from the shared pivot column with the
// very operation by which the column's owner stores them. The pivot is DEC's, the first row of largest
// magnitude from row k on: each part scans its own rows in order (the part holding row k from |a[k,k]|,
// as DEC starts, the others from nothing), and another part's candidate wins only if larger, or as
// large and earlier.
#define RL_PARTS ODE_RL_PARTS
#define RL_COLUMNS (((ODE_N + 31) / 32) * 32)  // column lanes in whole warps; a group has RL_PARTS times as many
#define RL_ROWS ((ODE_N + RL_PARTS - 1) / RL_PARTS)  // rows per work-item
#define RL_ROW(h, u) (RL_PARTS * (u) + (h))

// The shared values of one step: the pivot column, rows k and m before the swap, and the parts'
// candidates; two sets, used by even and odd steps, so a step's writes never meet the last step's reads.
typedef struct {
  double column[2][2 * ODE_N];  // real parts, then imaginary parts
  double row_k[2][2 * ODE_N];
  double row_m[2][2 * ODE_N];
  double largest[2][RL_PARTS];
  int best[2][RL_PARTS];
  double last[1];
} RegisterLuShare;

int rl_column(void) { return (int)get_local_id(0) % RL_COLUMNS; }
int rl_part(void) { return (int)get_local_id(0) / RL_COLUMNS; }

// This part's pivot candidate in column k, magnitudes |ar| (+ |ai| where ai is given) of its rows: DEC's
// scan restricted to them.
void rl_candidate(const double* ar, const double* ai, int k, __local RegisterLuShare* sh) {
  const int h = rl_part(), b = k & 1;
  double largest = -1.0;
  int m = -1;
#pragma unroll
  for (int u = 0; u < RL_ROWS; ++u) {
    const int i = RL_ROW(h, u);
    if (i >= ODE_N || i < k) continue;
    const double v = ai ? fabs(ar[u]) + fabs(ai[u]) : fabs(ar[u]);
    if (i == k) {
      largest = v;
      m = k;
    } else if (v > largest) {
      largest = v;
      m = i;
    }
  }
  sh->largest[b][h] = largest;
  sh->best[b][h] = m;
}

// DEC's pivot row from the parts' candidates (after the barrier that publishes them): the part holding
// row k is the base, as DEC's scan starts there.
int rl_pivot(int k, __local const RegisterLuShare* sh) {
  const int b = k & 1, base = k % RL_PARTS;
  int m = sh->best[b][base];
  double v0 = sh->largest[b][base];
  for (int h = 0; h < RL_PARTS; ++h) {
    const double v1 = sh->largest[b][h];
    const int m1 = sh->best[b][h];
    if (h != base && m1 >= 0 && (v1 > v0 || (v1 == v0 && m1 < m))) {
      m = m1;
      v0 = v1;
    }
  }
  return m;
}

// Column k, from its owners: the entries (imaginary parts after the real ones, where ai is given) and
// each part's candidate.
void rl_publish_column(const double* ar, const double* ai, int k, __local RegisterLuShare* sh) {
  const int h = rl_part(), b = k & 1;
  if (rl_column() != k) return;
#pragma unroll
  for (int u = 0; u < RL_ROWS; ++u)
    if (RL_ROW(h, u) < ODE_N) {
      sh->column[b][RL_ROW(h, u)] = ar[u];
      if (ai) sh->column[b][ODE_N + RL_ROW(h, u)] = ai[u];
    }
  rl_candidate(ar, ai, k, sh);
}

// Rows k and m of this work-item's column right of column k, before the swap, for the other parts.
void rl_publish_rows(const double* ar, const double* ai, int k, int m, __local RegisterLuShare* sh) {
  const int c = rl_column(), h = rl_part(), b = k & 1;
  if (c <= k || c >= ODE_N) return;
#pragma unroll
  for (int u = 0; u < RL_ROWS; ++u) {
    if (RL_ROW(h, u) == k) {
      sh->row_k[b][c] = ar[u];
      if (ai) sh->row_k[b][ODE_N + c] = ai[u];
    }
    if (RL_ROW(h, u) == m) {
      sh->row_m[b][c] = ar[u];
      if (ai) sh->row_m[b][ODE_N + c] = ai[u];
    }
  }
}

// DEC's last test, in every work-item: ODE_N if the last pivot is exactly zero, else 0.
int rl_last_pivot(const double* ar, const double* ai, __local RegisterLuShare* sh) {
  if (rl_column() == ODE_N - 1)
#pragma unroll
    for (int u = 0; u < RL_ROWS; ++u)
      if (RL_ROW(rl_part(), u) == ODE_N - 1) sh->last[0] = ai ? fabs(ar[u]) + fabs(ai[u]) : ar[u];
  barrier(CLK_LOCAL_MEM_FENCE);
  return sh->last[0] == 0.0 ? ODE_N : 0;
}

// DEC on the registers a (this work-item's rows of column rl_column()); pivots to pivot. Returns 0, or
// the 1-based column of the first exactly zero pivot, in every work-item. After a zero pivot the steps
// go on without changing anything, so that every barrier is met in code all work-items reach: with the
// loop left early (a condition PoCL 3.1 cannot prove uniform) PoCL's kernels corrupted the heap.
int register_lu(double* a, __global int* pivot, __local RegisterLuShare* sh) {
  const int c = rl_column(), h = rl_part();
  int zero = 0;
  for (int k = 0; k < ODE_N - 1; ++k) {
    const int b = k & 1;
    rl_publish_column(a, 0, k, sh);
    barrier(CLK_LOCAL_MEM_FENCE);  // the pivot column and the candidates are out
    const int m = rl_pivot(k, sh);
    const double p = sh->column[b][m], displaced = sh->column[b][k];
    if (!zero && p == 0.0) {
      zero = k + 1;
    } else if (!zero) {
      if (get_local_id(0) == 0) pivot[k] = m;
      rl_publish_rows(a, 0, k, m, sh);
    }
    barrier(CLK_LOCAL_MEM_FENCE);  // rows k and m are out
    if (!zero && c >= k && c < ODE_N) {
      const double t = 1.0 / p;
      const double s = c == k ? 0.0 : sh->row_m[b][c], moved = c == k ? 0.0 : sh->row_k[b][c];
#pragma unroll
      for (int u = 0; u < RL_ROWS; ++u) {
        const int i = RL_ROW(h, u);
        if (i == k) a[u] = c == k ? p : s;
        if (i <= k || i >= ODE_N) continue;
        const double l = -(i == m ? displaced : sh->column[b][i]) * t;
        const double x = i == m ? moved : a[u];
        a[u] = c == k ? l : s != 0.0 ? x + l * s : x;
      }
    }
  }
  const int last = rl_last_pivot(a, 0, sh);  // its barrier in every case
  return zero ? zero : last;
}

// DECC on ar + i ai, as register_lu: the magnitude is |re| + |im|, the reciprocal of the pivot
// (tr, ti) = (pr, -pim) / (pr^2 + pim^2), and complex_update (dense_lu.cl) forms each product.
int register_lu_complex(double* ar, double* ai, __global int* pivot, __local RegisterLuShare* sh) {
  const int c = rl_column(), h = rl_part();
  int zero = 0;
  for (int k = 0; k < ODE_N - 1; ++k) {
    const int b = k & 1;
    rl_publish_column(ar, ai, k, sh);
    barrier(CLK_LOCAL_MEM_FENCE);  // the pivot column and the candidates are out
    const int m = rl_pivot(k, sh);
    const double pr = sh->column[b][m], pim = sh->column[b][ODE_N + m];
    const double dr = sh->column[b][k], di = sh->column[b][ODE_N + k];
    if (!zero && fabs(pr) + fabs(pim) == 0.0) {
      zero = k + 1;
    } else if (!zero) {
      if (get_local_id(0) == 0) pivot[k] = m;
      rl_publish_rows(ar, ai, k, m, sh);
    }
    barrier(CLK_LOCAL_MEM_FENCE);  // rows k and m are out
    if (!zero && c >= k && c < ODE_N) {
      const bool pivot_column = c == k;
      const double den = pr * pr + pim * pim;
      const double tr = pr / den, ti = -pim / den;
      const double sr = pivot_column ? 0.0 : sh->row_m[b][c], si = pivot_column ? 0.0 : sh->row_m[b][ODE_N + c];
      const double mr = pivot_column ? 0.0 : sh->row_k[b][c], mi = pivot_column ? 0.0 : sh->row_k[b][ODE_N + c];
      const bool update = fabs(sr) + fabs(si) != 0.0;
#pragma unroll
      for (int u = 0; u < RL_ROWS; ++u) {
        const int i = RL_ROW(h, u);
        if (i == k) {
          ar[u] = pivot_column ? pr : sr;
          ai[u] = pivot_column ? pim : si;
        }
        if (i <= k || i >= ODE_N) continue;
        const double xr = i == m ? dr : sh->column[b][i], xi = i == m ? di : sh->column[b][ODE_N + i];
        const double qr = xr * tr - xi * ti;
        const double qi = xi * tr + xr * ti;
        const double lr = -qr, li = -qi;
        const double yr = i == m ? mr : ar[u], yi = i == m ? mi : ai[u];
        const double2 d = update ? complex_update(lr, li, sr, si) : (double2)(0.0, 0.0);
        ar[u] = pivot_column ? lr : update ? yr + d.x : yr;
        ai[u] = pivot_column ? li : update ? yi + d.y : yi;
      }
    }
  }
  const int last = rl_last_pivot(ar, ai, sh);  // its barrier in every case
  return zero ? zero : last;
}
