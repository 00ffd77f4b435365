// The right-hand side of the one-fluid Euler equations on wavelet blocks (docs/mrag.md): per cell WENO5 of
// the primitives on its four faces, HLLE fluxes and the closure fields' source, reading a ghost band of 3
// without corners (mrag_ghosts.cl fills it); then the flux correction at resolution jumps. The host
// references are mrag/weno5.hpp and mrag/hlle_flux.hpp.
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

// The primitives of cell (i, j) of block b, i and j within the ghost band, with the velocity components
// ordered for `axis` (0: x normal, 1: y normal).
state_t load(const uint b, const int i, const int j, const int axis, __global const real_t* restrict data,
             __global const real_t* restrict ghosts, __global const int* restrict ghost_slot) {
  real_t q[FIELDS];
  for (int f = 0; f < FIELDS; ++f) q[f] = cell_value(b, i, j, f, data, ghosts, ghost_slot);
  state_t s;
  const real_t u = q[1] / q[0], v = q[2] / q[0];
  s.v[RHO] = q[0];
  s.v[UN] = axis == 0 ? u : v;
  s.v[UT] = axis == 0 ? v : u;
  s.v[P] = (q[3] - (real_t)0.5 * q[0] * (u * u + v * v) - q[5]) / q[4];
  s.v[BIG_GAMMA] = q[4];
  s.v[BIG_PI] = q[5];
  return s;
}

real_t square(const real_t x) { return x * x; }

// Jiang & Shu's WENO5 value at the face between c and d, seen from c (a..e: cells c−2..c+2).
real_t weno5(const real_t a, const real_t b, const real_t c, const real_t d, const real_t e) {
  const real_t is0 = (real_t)(13.0 / 12) * square(a - 2 * b + c) + (real_t)0.25 * square(a - 4 * b + 3 * c);
  const real_t is1 = (real_t)(13.0 / 12) * square(b - 2 * c + d) + (real_t)0.25 * square(b - d);
  const real_t is2 = (real_t)(13.0 / 12) * square(c - 2 * d + e) + (real_t)0.25 * square(3 * c - 4 * d + e);
  const real_t q0 = a / 3 - 7 * b / 6 + 11 * c / 6;
  const real_t q1 = -b / 6 + 5 * c / 6 + d / 3;
  const real_t q2 = c / 3 + 5 * d / 6 - e / 6;
  const real_t w0 = (real_t)0.1 / square((real_t)1e-6 + is0);
  const real_t w1 = (real_t)0.6 / square((real_t)1e-6 + is1);
  const real_t w2 = (real_t)0.3 / square((real_t)1e-6 + is2);
  return (w0 * q0 + w1 * q1 + w2 * q2) / (w0 + w1 + w2);
}

real_t total_energy(const state_t s) {
  return s.v[BIG_GAMMA] * s.v[P] + s.v[BIG_PI] + (real_t)0.5 * s.v[RHO] * (s.v[UN] * s.v[UN] + s.v[UT] * s.v[UT]);
}

real_t sound_speed(const state_t s) {
  return sqrt(((s.v[BIG_GAMMA] + 1) * s.v[P] + s.v[BIG_PI]) / (s.v[BIG_GAMMA] * s.v[RHO]));
}

// The HLLE flux (ρ, ρu_n, ρu_t, ρE, Γ, Π) between two face states, and the interface velocity u*, with
// Einfeldt's wave speeds from Roe averages (mrag/hlle_flux.hpp).
void hlle(const state_t l, const state_t r, real_t* flux, real_t* u_star) {
  const real_t wl = sqrt(l.v[RHO]), wr = sqrt(r.v[RHO]), w = wl + wr;
  const real_t el = total_energy(l), er = total_energy(r);
  const real_t un = (wl * l.v[UN] + wr * r.v[UN]) / w, ut = (wl * l.v[UT] + wr * r.v[UT]) / w;
  const real_t enthalpy = (wl * (el + l.v[P]) / l.v[RHO] + wr * (er + r.v[P]) / r.v[RHO]) / w;
  const real_t gamma = (wl * l.v[BIG_GAMMA] + wr * r.v[BIG_GAMMA]) / w;
  const real_t c = sqrt(fmax((enthalpy - (real_t)0.5 * (un * un + ut * ut)) / gamma, (real_t)0));
  const real_t b_minus = fmin(fmin(l.v[UN] - sound_speed(l), un - c), (real_t)0);
  const real_t b_plus = fmax(fmax(r.v[UN] + sound_speed(r), un + c), (real_t)0);
  const real_t ql[FIELDS] = {l.v[RHO], l.v[RHO] * l.v[UN], l.v[RHO] * l.v[UT], el, l.v[BIG_GAMMA], l.v[BIG_PI]};
  const real_t qr[FIELDS] = {r.v[RHO], r.v[RHO] * r.v[UN], r.v[RHO] * r.v[UT], er, r.v[BIG_GAMMA], r.v[BIG_PI]};
  const real_t fl[FIELDS] = {ql[1], ql[1] * l.v[UN] + l.v[P], ql[2] * l.v[UN], (el + l.v[P]) * l.v[UN],
                             l.v[BIG_GAMMA] * l.v[UN], l.v[BIG_PI] * l.v[UN]};
  const real_t fr[FIELDS] = {qr[1], qr[1] * r.v[UN] + r.v[P], qr[2] * r.v[UN], (er + r.v[P]) * r.v[UN],
                             r.v[BIG_GAMMA] * r.v[UN], r.v[BIG_PI] * r.v[UN]};
  const real_t span = b_plus - b_minus;
  for (int f = 0; f < FIELDS; ++f)
    flux[f] = (b_plus * fl[f] - b_minus * fr[f] + b_plus * b_minus * (qr[f] - ql[f])) / span;
  *u_star = (b_plus * l.v[UN] - b_minus * r.v[UN]) / span;
}

// The flux through the face after s[o + 2] in a line of seven states: WENO from s[o..o+4] on its left and
// from s[o+5] down to s[o+1] on its right.
void face_flux(const state_t* s, const int offset, real_t* flux, real_t* u_star) {
  state_t l, r;
  for (int f = 0; f < FIELDS; ++f) {
    l.v[f] = weno5(s[offset].v[f], s[offset + 1].v[f], s[offset + 2].v[f], s[offset + 3].v[f], s[offset + 4].v[f]);
    r.v[f] = weno5(s[offset + 5].v[f], s[offset + 4].v[f], s[offset + 3].v[f], s[offset + 2].v[f], s[offset + 1].v[f]);
  }
  hlle(l, r, flux, u_star);
}

// The fluxes (ρ, ρu, ρv, ρE, Γ, Π) and u* through a block's boundary face k on `side` (west, east, south,
// north), kept for the flux correction at resolution jumps: faces[((b 4 + side) BLOCK + k) FACE_VALUES ..].
#define FACE_VALUES (FIELDS + 1)

void keep_face(__global real_t* restrict faces, const uint b, const int side, const int k, const int axis,
               const real_t* flux, const real_t u_star) {
  __global real_t* face = faces + (((size_t)b * 4 + side) * BLOCK + k) * FACE_VALUES;
  for (int f = 0; f < FIELDS; ++f) face[f == 1 ? 1 + axis : f == 2 ? 2 - axis : f] = flux[f];
  face[FIELDS] = u_star;
}

// rhs = dq/dt of every cell of every block: −ΔF/h − ΔG/h, plus (Γ, Π) × (Δu* + Δv*)/h for the closure; the
// fluxes through the blocks' boundary faces go to `faces`.
__kernel void mrag_rhs(const uint blocks, __global const real_t* restrict inv_h, __global const real_t* restrict data,
                       __global const real_t* restrict ghosts, __global const int* restrict ghost_slot,
                       __global real_t* restrict rhs, __global real_t* restrict faces) {
  for (uint id = get_global_id(0); id < blocks * CELLS; id += get_global_size(0)) {
    const uint b = id / CELLS, c = id % CELLS;
    const int i = c % BLOCK, j = c / BLOCK;
    real_t out[FIELDS] = {0, 0, 0, 0, 0, 0};
    real_t divergence = 0;
    for (int axis = 0; axis < 2; ++axis) {
      state_t line[7];
      for (int k = 0; k < 7; ++k)
        line[k] = axis == 0 ? load(b, i + k - 3, j, 0, data, ghosts, ghost_slot)
                            : load(b, i, j + k - 3, 1, data, ghosts, ghost_slot);
      real_t west[FIELDS], east[FIELDS], u_west, u_east;
      face_flux(line, 0, west, &u_west);  // line[k] is cell i + k − 3: the face i − ½ follows line[2]
      face_flux(line, 1, east, &u_east);
      const int at = axis == 0 ? i : j, along = axis == 0 ? j : i;
      if (at == 0) keep_face(faces, b, 2 * axis, along, axis, west, u_west);
      if (at == BLOCK - 1) keep_face(faces, b, 2 * axis + 1, along, axis, east, u_east);
      for (int f = 0; f < FIELDS; ++f) {
        // The normal momentum is ρu on x, ρv on y.
        const int to = f == 1 ? 1 + axis : f == 2 ? 2 - axis : f;
        out[to] -= east[f] - west[f];
      }
      divergence += u_east - u_west;
    }
    __global const real_t* q = data + (size_t)b * FIELDS * CELLS + c;
    out[4] += q[4 * CELLS] * divergence;
    out[5] += q[5 * CELLS] * divergence;
    for (int f = 0; f < FIELDS; ++f) rhs[((size_t)b * FIELDS + f) * CELLS + c] = out[f] * inv_h[b];
  }
}


// The flux correction at resolution jumps (mrag/reflux_table.hpp): entries [first, first + count) replace
// the flux and u* of a coarse cell's face by the weighted mean of the finer faces that cover it, in that
// cell's rhs. Entries of one launch touch distinct cells.
__kernel void mrag_reflux(const uint first, const uint count, __global const uint* restrict start,
                          __global const uint* restrict coarse_block, __global const uint* restrict coarse_cell,
                          __global const uint* restrict side, __global const uint* restrict fine_face,
                          __global const real_t* restrict fine_weight, __global const real_t* restrict inv_h,
                          __global const real_t* restrict data, __global const real_t* restrict faces,
                          __global real_t* restrict rhs) {
  for (uint e = first + get_global_id(0); e < first + count; e += get_global_size(0)) {
    const uint b = coarse_block[e], cell = coarse_cell[e], sd = side[e];
    const uint k = sd < 2 ? cell / BLOCK : cell % BLOCK;
    __global const real_t* own = faces + (((size_t)b * 4 + sd) * BLOCK + k) * FACE_VALUES;
    real_t mean[FACE_VALUES];
    for (int v = 0; v < FACE_VALUES; ++v) mean[v] = 0;
    for (uint f = start[e]; f < start[e + 1]; ++f)
      for (int v = 0; v < FACE_VALUES; ++v) mean[v] += fine_weight[f] * faces[(size_t)fine_face[f] * FACE_VALUES + v];
    // An east or north face enters the cell's rhs with −F/h and +(Γ, Π) u*/h, a west or south one opposite.
    const real_t sign = sd == 1 || sd == 3 ? -1 : 1;
    __global real_t* out = rhs + (size_t)b * FIELDS * CELLS + cell;
    __global const real_t* q = data + (size_t)b * FIELDS * CELLS + cell;
    const real_t du = mean[FIELDS] - own[FIELDS];
    for (int f = 0; f < FIELDS; ++f) out[f * CELLS] += sign * (mean[f] - own[f]) * inv_h[b];
    out[4 * CELLS] -= sign * q[4 * CELLS] * du * inv_h[b];
    out[5 * CELLS] -= sign * q[5 * CELLS] * du * inv_h[b];
  }
}
