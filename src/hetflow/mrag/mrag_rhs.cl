// The right-hand side of the one-fluid Euler equations on wavelet blocks (docs/mrag.md) fused with a
// Runge–Kutta stage: per tile of a block WENO5 of the primitives and the HLLE (or, with HLLC 1, HLLC) flux
// of each face once, the closure fields' source and the update, reading a ghost band of 3 without corners
// (from same-level neighbours directly, elsewhere as mrag_ghosts.cl fills it); then the flux correction at
// resolution jumps. The host references are mrag/weno5.hpp and mrag/hlle_flux.hpp.
#include "mrag/mrag_ghosts.cl"

// Primitives in a face's frame: density, normal and tangential velocity, pressure, Γ, Π.
typedef struct {
  real_t v[FIELDS];
} state_t;
#define RHO 0
#define UN 1
#define UT 2
#define P 3
#define BIG_GAMMA 4
#define BIG_PI 5

double square(const double x) { return x * x; }

// Jiang & Shu's WENO5 value at the face between c and d, seen from c (a..e: cells c−2..c+2). The
// smoothness indicators and weights are FP64 in either precision: in FP32 the ε = 1e-6 of the weights would
// sit below the rounding of the indicators of large values. The nonlinear weights C_k/(ε + IS_k)² are
// multiplied through by the product of the three denominators, which leaves one division; the products
// stay below 1e72 for jumps up to 1e9, far inside FP64's range.
real_t weno5(const real_t a, const real_t b, const real_t c, const real_t d, const real_t e) {
  const double A = a, B = b, C = c, D = d, E = e;
  const double is0 = 13.0 / 12 * square(A - 2 * B + C) + 0.25 * square(A - 4 * B + 3 * C);
  const double is1 = 13.0 / 12 * square(B - 2 * C + D) + 0.25 * square(B - D);
  const double is2 = 13.0 / 12 * square(C - 2 * D + E) + 0.25 * square(3 * C - 4 * D + E);
  const real_t q0 = 2 * a - 7 * b + 11 * c, q1 = -b + 5 * c + 2 * d, q2 = 2 * c + 5 * d - e;  // 6 × candidates
  const double d0 = square(1e-6 + is0), d1 = square(1e-6 + is1), d2 = square(1e-6 + is2);
  const double w0 = 0.1 * d1 * d2, w1 = 0.6 * d0 * d2, w2 = 0.3 * d0 * d1;
  return (real_t)((w0 * q0 + w1 * q1 + w2 * q2) / (6 * (w0 + w1 + w2)));
}

real_t total_energy(const state_t s) {
  return closure_big_gamma(s.v[BIG_GAMMA]) * s.v[P] + s.v[BIG_PI] +
         (real_t)0.5 * s.v[RHO] * (s.v[UN] * s.v[UN] + s.v[UT] * s.v[UT]);
}

real_t sound_speed(const state_t s) {
  const real_t big_gamma = closure_big_gamma(s.v[BIG_GAMMA]);
  return sqrt(((big_gamma + 1) * s.v[P] + s.v[BIG_PI]) / (big_gamma * s.v[RHO]));
}

// Einfeldt's wave speeds S_L = min(u_L − c_L, ũ − c̃), S_R = max(u_R + c_R, ũ + c̃) from Roe averages
// (mrag/hlle_flux.hpp); the division by the Roe weights' sum is a multiplication by its reciprocal.
void einfeldt_speeds(const state_t l, const state_t r, real_t* s_left, real_t* s_right) {
  const real_t wl = sqrt(l.v[RHO]), wr = sqrt(r.v[RHO]), inv_w = 1 / (wl + wr);
  const real_t un = (wl * l.v[UN] + wr * r.v[UN]) * inv_w, ut = (wl * l.v[UT] + wr * r.v[UT]) * inv_w;
  const real_t enthalpy = ((total_energy(l) + l.v[P]) / wl + (total_energy(r) + r.v[P]) / wr) * inv_w;
  const real_t gamma = (wl * closure_big_gamma(l.v[BIG_GAMMA]) + wr * closure_big_gamma(r.v[BIG_GAMMA])) * inv_w;
  const real_t c = sqrt(fmax((enthalpy - (real_t)0.5 * (un * un + ut * ut)) / gamma, (real_t)0));
  *s_left = fmin(l.v[UN] - sound_speed(l), un - c);
  *s_right = fmax(r.v[UN] + sound_speed(r), un + c);
}

void conserved_of(const state_t s, real_t* q) {
  q[0] = s.v[RHO];
  q[1] = s.v[RHO] * s.v[UN];
  q[2] = s.v[RHO] * s.v[UT];
  q[3] = total_energy(s);
  q[4] = s.v[BIG_GAMMA];
  q[5] = s.v[BIG_PI];
}

void physical_flux(const state_t s, const real_t* q, real_t* f) {
  f[0] = q[1];
  f[1] = q[1] * s.v[UN] + s.v[P];
  f[2] = q[2] * s.v[UN];
  f[3] = (q[3] + s.v[P]) * s.v[UN];
  f[4] = s.v[BIG_GAMMA] * s.v[UN];
  f[5] = s.v[BIG_PI] * s.v[UN];
}

#if HLLC
// The HLLC flux (ρ, ρu_n, ρu_t, ρE, Γ, Π) and u* (mrag/hlle_flux.hpp, hllc_flux): the star state of the side
// upwind of the contact, u* the same flux of the constant 1, Γ's and Π's fluxes Γ_K u* and Π_K u*.
void riemann_flux(const state_t l, const state_t r, real_t* flux, real_t* u_star) {
  real_t s_left, s_right;
  einfeldt_speeds(l, r, &s_left, &s_right);
  const real_t ml = l.v[RHO] * (s_left - l.v[UN]), mr = r.v[RHO] * (s_right - r.v[UN]);
  const real_t s_star = (r.v[P] - l.v[P] + l.v[UN] * ml - r.v[UN] * mr) / (ml - mr);
  const bool from_left = s_star >= 0;
  const state_t k = from_left ? l : r;
  const real_t sk = from_left ? s_left : s_right;
  real_t q[FIELDS], f[FIELDS];
  conserved_of(k, q);
  physical_flux(k, q, f);
  if (s_left >= 0 || s_right <= 0) {  // supersonic: the upwind side's flux
    for (int i = 0; i < FIELDS; ++i) flux[i] = f[i];
    *u_star = k.v[UN];
    return;
  }
  // The star state is the side's state compressed by c = (S_K − u_K)/(S_K − S*), moving at S*.
  const real_t c = (sk - k.v[UN]) / (sk - s_star), rho = k.v[RHO] * c;
  const real_t star[4] = {rho, rho * s_star, rho * k.v[UT],
                          c * (q[3] + (s_star - k.v[UN]) * (k.v[RHO] * s_star + k.v[P] / (sk - k.v[UN])))};
  for (int i = 0; i < 4; ++i) flux[i] = f[i] + sk * (star[i] - q[i]);
  *u_star = k.v[UN] + sk * (c - 1);
  flux[4] = k.v[BIG_GAMMA] * *u_star;
  flux[5] = k.v[BIG_PI] * *u_star;
}
#else
// The HLLE flux (ρ, ρu_n, ρu_t, ρE, Γ, Π) between two face states, and the interface velocity u*
// (mrag/hlle_flux.hpp); the division by the fan's span is a multiplication by its reciprocal.
void riemann_flux(const state_t l, const state_t r, real_t* flux, real_t* u_star) {
  real_t s_left, s_right;
  einfeldt_speeds(l, r, &s_left, &s_right);
  const real_t b_minus = fmin(s_left, (real_t)0), b_plus = fmax(s_right, (real_t)0);
  real_t ql[FIELDS], qr[FIELDS], fl[FIELDS], fr[FIELDS];
  conserved_of(l, ql);
  conserved_of(r, qr);
  physical_flux(l, ql, fl);
  physical_flux(r, qr, fr);
  const real_t inv_span = 1 / (b_plus - b_minus);
  for (int f = 0; f < FIELDS; ++f)
    flux[f] = (b_plus * fl[f] - b_minus * fr[f] + b_plus * b_minus * (qr[f] - ql[f])) * inv_span;
  *u_star = (b_plus * l.v[UN] - b_minus * r.v[UN]) * inv_span;
}
#endif

// A tile is ROWS rows of a block's cells (ROWS divides BLOCK); its work-group of TILE_GROUP work-items first
// holds the tile's primitives, with the three-cell band around it (no corners), in local memory, then
// computes each x face once, then each y face once, and updates each cell. STIFFENED 0 promises Π = 0
// everywhere: the faces then take Π = 0 without reconstructing it.
#define TILE_WIDTH (BLOCK + 2 * GHOSTS)
#define TILE_HEIGHT (ROWS + 2 * GHOSTS)
#define TILES (BLOCK / ROWS)
#define X_FACES ((BLOCK + 1) * ROWS)
#define Y_FACES (BLOCK * (ROWS + 1))

// The primitive state at tile cell (x, y) (band included) in a face's frame: axis 0 takes u normal.
state_t tile_state(__local const real_t* tile, const int x, const int y, const int axis) {
  state_t s;
  const int at = y * TILE_WIDTH + x;
  for (int f = 0; f < FIELDS; ++f) s.v[f] = tile[f * TILE_WIDTH * TILE_HEIGHT + at];
  if (axis == 1) {
    const real_t v = s.v[UT];
    s.v[UT] = s.v[UN];
    s.v[UN] = v;
  }
  return s;
}

// The flux through the face between tile cells (x − 1, y) and (x, y) (axis 0) or (x, y − 1) and (x, y)
// (axis 1), in x/y order (ρ, ρu, ρv, ρE, Γ, Π), then u*: WENO5 from the three cells before and two after on
// its left, mirrored on its right, and the Riemann flux.
void tile_face_flux(__local const real_t* tile, const int x, const int y, const int axis, real_t* out) {
  const int dx = axis == 0, dy = axis == 1;
  state_t line[6];
  for (int k = 0; k < 6; ++k) line[k] = tile_state(tile, x + (k - 3) * dx, y + (k - 3) * dy, axis);
  state_t l, r;
  l.v[BIG_PI] = r.v[BIG_PI] = 0;
  for (int f = 0; f < (STIFFENED ? FIELDS : BIG_PI); ++f) {
    l.v[f] = weno5(line[0].v[f], line[1].v[f], line[2].v[f], line[3].v[f], line[4].v[f]);
    r.v[f] = weno5(line[5].v[f], line[4].v[f], line[3].v[f], line[2].v[f], line[1].v[f]);
  }
  real_t flux[FIELDS];
  riemann_flux(l, r, flux, out + FIELDS);
  out[0] = flux[0];
  out[1] = axis == 0 ? flux[1] : flux[2];
  out[2] = axis == 0 ? flux[2] : flux[1];
  for (int f = 3; f < FIELDS; ++f) out[f] = flux[f];
}

// The fluxes (ρ, ρu, ρv, ρE, Γ, Π) and u* through a block's boundary face k on `side` (west, east, south,
// north), kept for the flux correction at resolution jumps: faces[((b 4 + side) BLOCK + k) FACE_VALUES ..].
// With FACE_SUMS (local time steps) the record sums weight × value over the stages instead, each stage's
// weight its share of the step times the step: the time integral the correction needs.
void keep_face(__global real_t* restrict faces, const uint b, const int side, const int k,
               __local const real_t* flux, const int face, const int faces_in_axis, const real_t weight) {
  __global real_t* to = faces + (((size_t)b * 4 + side) * BLOCK + k) * FACE_VALUES;
#if FACE_SUMS
  for (int v = 0; v < FACE_VALUES; ++v) to[v] += weight * flux[v * faces_in_axis + face];
#else
  for (int v = 0; v < FACE_VALUES; ++v) to[v] = flux[v * faces_in_axis + face];
#endif
}

// The faces of one axis of a tile, each computed once into `flux`, then each of the tile's cells (items
// lid < BLOCK ROWS own one, cell (i, j) of block b, tile row `row`) subtracts their difference from `sum`
// and adds that of u* to `divergence`; cells at the block's edge keep their boundary face.
void tile_sweep(const int axis, __local const real_t* tile, __local real_t* flux, const uint b, const int lid,
                const int i, const int row, const int j, __global real_t* restrict faces, const real_t face_weight,
                real_t* sum, real_t* divergence) {
  const int faces_in_axis = axis == 0 ? X_FACES : Y_FACES;
  if (lid < faces_in_axis) {
    // Face `lid` lies before tile cell (x, y): x faces row by row, y faces line by line.
    const int x = axis == 0 ? lid % (BLOCK + 1) : lid % BLOCK, y = axis == 0 ? lid / (BLOCK + 1) : lid / BLOCK;
    real_t value[FACE_VALUES];
    tile_face_flux(tile, x + GHOSTS, y + GHOSTS, axis, value);
    for (int v = 0; v < FACE_VALUES; ++v) flux[v * faces_in_axis + lid] = value[v];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid < BLOCK * ROWS) {
    const int before = axis == 0 ? row * (BLOCK + 1) + i : row * BLOCK + i;
    const int after = before + (axis == 0 ? 1 : BLOCK);
    for (int f = 0; f < FIELDS; ++f) sum[f] -= flux[f * faces_in_axis + after] - flux[f * faces_in_axis + before];
    *divergence += flux[FIELDS * faces_in_axis + after] - flux[FIELDS * faces_in_axis + before];
    if (axis == 0 && i == 0) keep_face(faces, b, 0, j, flux, before, faces_in_axis, face_weight);
    if (axis == 0 && i == BLOCK - 1) keep_face(faces, b, 1, j, flux, after, faces_in_axis, face_weight);
    if (axis == 1 && j == 0) keep_face(faces, b, 2, i, flux, before, faces_in_axis, face_weight);
    if (axis == 1 && j == BLOCK - 1) keep_face(faces, b, 3, i, flux, after, faces_in_axis, face_weight);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
}

// out = a q0 + c data + d L(data) for every cell, L the right-hand side −ΔF/h − ΔG/h plus (Γ, Π) × (Δu* +
// Δv*)/h for the closure: a Runge–Kutta stage, or L itself (a = c = 0, d = 1). The fluxes through the
// blocks' boundary faces go to `faces` (keep_face, with face_weight), each tile's largest signal rate of its
// new cells (mrag_step.cl's signal_rate, for the next step's CFL number) to rates[tile]. The work-groups
// cover the blocks own[first], own[first + 1], …; block own[k] writes the rates of tiles k TILES to
// k TILES + TILES − 1. q0 may be out: each cell reads its own q0 before writing it.
__kernel __attribute__((reqd_work_group_size(TILE_GROUP, 1, 1))) void mrag_update(
    const real_t a, const real_t c, const real_t d, __global const real_t* restrict inv_h,
    __global const real_t* restrict data, __global const real_t* restrict ghosts,
    __global const int* restrict ghost_slot, __global const uint* restrict neighbour, __global const real_t* q0,
    __global real_t* out, __global real_t* restrict faces, __global real_t* restrict rates,
    __global const uint* restrict own, const uint first, const real_t face_weight) {
  __local real_t tile[FIELDS * TILE_WIDTH * TILE_HEIGHT];
  __local real_t flux[FACE_VALUES * Y_FACES];
  const uint b = own[first + get_group_id(0) / TILES], first_row = get_group_id(0) % TILES * ROWS;
  const int lid = get_local_id(0);
  // Item lid owns cell (i, j) of the block when lid < BLOCK ROWS. With EARLY_STAGE_LOADS its a q0 + c data
  // is read first, so that these loads overlap the tile's work rather than wait at its end; otherwise at
  // the end, which keeps the registers they would hold free through the sweeps (BlockRhs chooses per
  // precision).
  const int i = lid % BLOCK, row = lid / BLOCK, j = first_row + row;
  const bool owns_cell = lid < BLOCK * ROWS;
  const size_t at = (size_t)b * FIELDS * CELLS + i + BLOCK * j;
  real_t base[FIELDS];
#if EARLY_STAGE_LOADS
  if (owns_cell)
    for (int f = 0; f < FIELDS; ++f) base[f] = a * q0[at + f * CELLS] + c * data[at + f * CELLS];
#endif
  for (int k = lid; k < TILE_WIDTH * TILE_HEIGHT; k += TILE_GROUP) {
    const int x = k % TILE_WIDTH, y = k / TILE_WIDTH;
    const int ti = x - GHOSTS, tj = first_row + y - GHOSTS;
    if ((ti < 0 || ti >= BLOCK) && (y < GHOSTS || y >= ROWS + GHOSTS)) continue;
    real_t q[FIELDS];
    // A band cell of a side with a same-level neighbour is read from that neighbour, the rest from the ghosts.
    const bool band = ti < 0 || ti >= BLOCK || tj < 0 || tj >= BLOCK;
    const uint n = band ? neighbour[4 * b + (ti < 0 ? 0 : ti >= BLOCK ? 1 : tj < 0 ? 2 : 3)] : NO_NEIGHBOUR;
    if (n != NO_NEIGHBOUR) {
      const int nx = ti < 0 ? ti + BLOCK : ti >= BLOCK ? ti - BLOCK : ti;
      const int ny = tj < 0 ? tj + BLOCK : tj >= BLOCK ? tj - BLOCK : tj;
      for (int f = 0; f < FIELDS; ++f) q[f] = data[((size_t)n * FIELDS + f) * CELLS + nx + BLOCK * ny];
    } else {
      for (int f = 0; f < FIELDS; ++f) q[f] = cell_value(b, ti, tj, f, data, ghosts, ghost_slot);
    }
    const real_t u = q[1] / q[0], v = q[2] / q[0];
    const real_t p = (q[3] - (real_t)0.5 * q[0] * (u * u + v * v) - q[5]) / closure_big_gamma(q[4]);
    const real_t w[FIELDS] = {q[0], u, v, p, q[4], q[5]};
    for (int f = 0; f < FIELDS; ++f) tile[f * TILE_WIDTH * TILE_HEIGHT + k] = w[f];
  }
  barrier(CLK_LOCAL_MEM_FENCE);

  real_t sum[FIELDS] = {0, 0, 0, 0, 0, 0}, divergence = 0;
  // Two calls with a constant axis, so that each compiles with its own fixed indices.
  tile_sweep(0, tile, flux, b, lid, i, row, j, faces, face_weight, sum, &divergence);
  tile_sweep(1, tile, flux, b, lid, i, row, j, faces, face_weight, sum, &divergence);
  real_t rate = 0;
  if (owns_cell) {
    // Γ and Π of the source term are the cell's own, which the tile holds unchanged.
    const int t = (row + GHOSTS) * TILE_WIDTH + i + GHOSTS;
    sum[4] += tile[BIG_GAMMA * TILE_WIDTH * TILE_HEIGHT + t] * divergence;
    sum[5] += tile[BIG_PI * TILE_WIDTH * TILE_HEIGHT + t] * divergence;
#if !EARLY_STAGE_LOADS
    for (int f = 0; f < FIELDS; ++f) base[f] = a * q0[at + f * CELLS] + c * data[at + f * CELLS];
#endif
    real_t next[FIELDS];
    for (int f = 0; f < FIELDS; ++f) {
      next[f] = base[f] + d * (sum[f] * inv_h[b]);
      out[at + f * CELLS] = next[f];
    }
    rate = signal_rate(next, inv_h[b]);
  }
  // The tile's largest rate (NaN if any cell's is), reduced in the flux array the sweeps are done with.
  flux[lid] = rate;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int stride = TILE_REDUCTION / 2; stride > 0; stride /= 2) {
    if (lid < stride && lid + stride < TILE_GROUP) flux[lid] = nan_max(flux[lid], flux[lid + stride]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) rates[first * TILES + get_group_id(0)] = flux[0];
}

// The flux correction at resolution jumps (mrag/reflux_table.hpp): entries [first, first + count), each a
// fine leaf's side (coarse block, fine block, first coarse cell, side | depth << 2), replace the flux and u*
// of each coarse cell's face they cover by the mean of the 2^depth finer faces over it, in the cell's
// out = … + d L (mrag_update); a work-item per entry and coarse cell of a fine side one level finer (those
// of deeper entries beyond s / 2^depth idle). Entries of one launch touch distinct cells. With FACE_SUMS the
// records are time integrals over the coarse cell's step (d = 1), which the correction uses up: it zeroes
// them for the next step's sums.
__kernel void mrag_reflux(const uint first, const uint count, const real_t d, __global const uint4* restrict entries,
                          __global const real_t* restrict inv_h, __global const real_t* restrict data,
                          __global real_t* restrict faces, __global real_t* restrict out) {
  const uint items = count * (BLOCK / 2);
  for (uint item = get_global_id(0); item < items; item += get_global_size(0)) {
    const uint4 e = entries[first + item / (BLOCK / 2)];
    const uint b = e.x, sd = e.w & 3, depth = e.w >> 2, k = item % (BLOCK / 2);
    if (k >= (BLOCK >> depth)) continue;
    const uint along = e.z + k;
    const uint cell = sd == 0 ? BLOCK * along : sd == 1 ? BLOCK - 1 + BLOCK * along
                    : sd == 2 ? along : along + BLOCK * (BLOCK - 1);
    __global real_t* own = faces + (((size_t)b * 4 + sd) * BLOCK + along) * FACE_VALUES;
    // The fine faces of the facing side (sd ^ 1) over the cell, in order along it.
    const uint per_cell = 1u << depth;
    __global real_t* fine = faces + (((size_t)e.y * 4 + (sd ^ 1)) * BLOCK + k * per_cell) * FACE_VALUES;
    const real_t weight = (real_t)1 / per_cell;
    real_t mean[FACE_VALUES];
    for (int v = 0; v < FACE_VALUES; ++v) mean[v] = 0;
    for (uint f = 0; f < per_cell; ++f, fine += FACE_VALUES) {
      for (int v = 0; v < FACE_VALUES; ++v) mean[v] += weight * fine[v];
#if FACE_SUMS
      for (int v = 0; v < FACE_VALUES; ++v) fine[v] = 0;
#endif
    }
    // An east or north face enters the cell's rhs with −F/h and +(Γ, Π) u*/h, a west or south one opposite.
    const real_t sign = sd == 1 || sd == 3 ? -1 : 1;
    __global real_t* to = out + (size_t)b * FIELDS * CELLS + cell;
    __global const real_t* q = data + (size_t)b * FIELDS * CELLS + cell;
    const real_t du = mean[FIELDS] - own[FIELDS];
    for (int f = 0; f < FIELDS; ++f) to[f * CELLS] += d * (sign * (mean[f] - own[f]) * inv_h[b]);
    to[4 * CELLS] -= d * (sign * q[4 * CELLS] * du * inv_h[b]);
    to[5 * CELLS] -= d * (sign * q[5 * CELLS] * du * inv_h[b]);
#if FACE_SUMS
    for (int v = 0; v < FACE_VALUES; ++v) own[v] = 0;
#endif
  }
}
