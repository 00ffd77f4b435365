// D3Q19 lattice Boltzmann: BGK collision with Guo forcing, half-way bounce-back on wall nodes, periodic
// edges, in three memory-access patterns (thesis App. B). The state between steps is always the
// pre-collision populations at the current step, held as follows:
//   AB          two arrays in natural order; a step reads the node's packets from `src`, collides and
//               pushes each to the node it moves to in `dst` (towards a wall: back into the node, reversed);
//   AA          one array, two kernels: even steps collide in place and store each packet in its
//               opposite slot; odd steps read the reversed packets from the neighbours, collide, and push
//               each to the slot of the node it moves to; after an even step readers use the odd rule;
//   LAGRANGIAN  one array; the packet moving in direction i that is at node x at step t lives in slot
//               (x - t c_i) mod size for the whole run, so a node reads and writes its own slots; a packet
//               bounced by a wall goes to the slot it will occupy next step, which only the wall owns now.
// All patterns feed the same collision the same numbers, so their fields are bit-identical.
//
// Populations are stored shifted by their weights (f_i - w_i): near rest they are small numbers, which
// keeps the low bits that FP32 and FP16 storage would otherwise lose (mass drift). Density is carried as
// drho = rho - 1 for the same reason. Layout: per z-plane, direction-major: slot (i, x, y, z) sits at
// (z * 19 + i) * nx * ny + y * nx + x, so x is contiguous (coalesced) and a z-plane of all directions is
// one contiguous block (the unit of slab decomposition).
//
// Build options: REAL (float|double, arithmetic), STORE_HALF (populations as IEEE half through
// vload_half/vstore_half; otherwise stored as real_t).
#include "core/common.cl"

// Identical operations in every kernel keep the patterns bit-identical to each other.
#pragma OPENCL FP_CONTRACT OFF

#ifdef STORE_HALF
typedef half store_t;
#define LOAD(p, k) ((real_t)vload_half((k), (p)))
#define STORE(p, k, v) vstore_half_rte((float)(v), (k), (p))
#else
typedef real_t store_t;
#define LOAD(p, k) ((p)[k])
#define STORE(p, k, v) ((p)[k] = (v))
#endif

#define WALL 1

// Direction table: index, cx, cy, cz, opposite. Opposites are neighbours (1-2, 3-4, ...).
#define D3Q19(X)                                                                                          \
  X(0, 0, 0, 0, 0)                                                                                        \
  X(1, 1, 0, 0, 2) X(2, -1, 0, 0, 1) X(3, 0, 1, 0, 4) X(4, 0, -1, 0, 3) X(5, 0, 0, 1, 6) X(6, 0, 0, -1, 5) \
  X(7, 1, 1, 0, 8) X(8, -1, -1, 0, 7) X(9, 1, 0, 1, 10) X(10, -1, 0, -1, 9) X(11, 0, 1, 1, 12)           \
  X(12, 0, -1, -1, 11) X(13, 1, -1, 0, 14) X(14, -1, 1, 0, 13) X(15, 1, 0, -1, 16) X(16, -1, 0, 1, 15)     \
  X(17, 0, 1, -1, 18) X(18, 0, -1, 1, 17)

#define W0 ((real_t)1 / (real_t)3)
#define W1 ((real_t)1 / (real_t)18)
#define W2 ((real_t)1 / (real_t)36)
#define WEIGHT(i) ((i) == 0 ? W0 : (i) <= 6 ? W1 : W2)

typedef struct {
  int nx, ny, nz;
  ulong plane;  // nx * ny
} Grid;

inline Grid grid_of(int nx, int ny, int nz) {
  Grid g = {nx, ny, nz, (ulong)nx * (ulong)ny};
  return g;
}

inline ulong slot(Grid g, int i, int x, int y, int z) {
  return ((ulong)z * 19 + (ulong)i) * g.plane + (ulong)y * (ulong)g.nx + (ulong)x;
}

inline ulong node(Grid g, int x, int y, int z) { return (ulong)z * g.plane + (ulong)y * (ulong)g.nx + (ulong)x; }

// Periodic neighbour coordinate x + c for c in {-1, 0, 1}.
inline int wrap(int x, int c, int n) {
  const int v = x + c;
  return v < 0 ? v + n : v >= n ? v - n : v;
}

// BGK with Guo's forcing on shifted populations fs[i] = f_i - w_i; returns shifted post-collision values.
inline void collide(real_t* fs, const real_t omega, const real_t fx, const real_t fy, const real_t fz) {
  real_t drho = 0, jx = 0, jy = 0, jz = 0;
#define MOMENTS(i, cx, cy, cz, o) \
  drho += fs[i];                  \
  jx += (real_t)(cx) * fs[i];     \
  jy += (real_t)(cy) * fs[i];     \
  jz += (real_t)(cz) * fs[i];
  D3Q19(MOMENTS)
#undef MOMENTS
  const real_t rho = (real_t)1 + drho;
  const real_t inv_rho = (real_t)1 / rho;
  // Velocity with half the force (second-order accurate forcing).
  const real_t ux = (jx + (real_t)0.5 * fx) * inv_rho;
  const real_t uy = (jy + (real_t)0.5 * fy) * inv_rho;
  const real_t uz = (jz + (real_t)0.5 * fz) * inv_rho;
  const real_t usq = (real_t)1.5 * (ux * ux + uy * uy + uz * uz);
  const real_t guo = (real_t)1 - (real_t)0.5 * omega;
#define RELAX(i, cx, cy, cz, o)                                                                               \
  {                                                                                                           \
    const real_t cu = (real_t)3 * ((real_t)(cx) * ux + (real_t)(cy) * uy + (real_t)(cz) * uz);               \
    const real_t feq = WEIGHT(i) * (drho + rho * (cu + (real_t)0.5 * cu * cu - usq));                         \
    const real_t cf = (real_t)3 * (((real_t)(cx) - ux) * fx + ((real_t)(cy) - uy) * fy + ((real_t)(cz) - uz) * fz) + \
                      (real_t)3 * cu * ((real_t)(cx) * fx + (real_t)(cy) * fy + (real_t)(cz) * fz);           \
    fs[i] = fs[i] + omega * (feq - fs[i]) + guo * WEIGHT(i) * cf;                                             \
  }
  D3Q19(RELAX)
#undef RELAX
}

#define NODE_PROLOGUE                                                              \
  const Grid g = grid_of(nx, ny, nz);                                              \
  const ulong n = get_global_id(0);                                                \
  if (n >= (ulong)nx * (ulong)ny * (ulong)nz) return;                              \
  const int x = (int)(n % (ulong)nx);                                              \
  const int y = (int)((n / (ulong)nx) % (ulong)ny);                                \
  const int z = (int)(n / g.plane);                                                \
  if (flags[n] == WALL) return;                                                    \
  real_t f[19];

#define LOAD_OWN(i, cx, cy, cz, o) f[i] = LOAD(fin, slot(g, i, x, y, z));

// The packet arriving in direction i left x - c_i, whose A-A even step stored it reversed; a wall
// returns the node's own packet, stored reversed in the node itself.
#define PULL_REVERSED(i, cx, cy, cz, o)                                                                     \
  {                                                                                                         \
    const int xs = wrap(x, -(cx), nx), ys = wrap(y, -(cy), ny), zs = wrap(z, -(cz), nz);                    \
    f[i] = flags[node(g, xs, ys, zs)] == WALL ? LOAD(fin, slot(g, i, x, y, z)) : LOAD(fin, slot(g, o, xs, ys, zs)); \
  }

// Each packet goes to the slot of the node it moves to; towards a wall it comes back reversed.
#define PUSH(i, cx, cy, cz, o)                                                                              \
  {                                                                                                         \
    const int xd = wrap(x, cx, nx), yd = wrap(y, cy, ny), zd = wrap(z, cz, nz);                             \
    if (flags[node(g, xd, yd, zd)] == WALL) STORE(fout, slot(g, o, x, y, z), f[i]);                         \
    else STORE(fout, slot(g, i, xd, yd, zd), f[i]);                                                         \
  }

__kernel void lbm_ab(__global store_t* restrict fout, __global const store_t* restrict fin,
                     __global const uchar* restrict flags, const int nx, const int ny, const int nz,
                     const real_t omega, const real_t fx, const real_t fy, const real_t fz) {
  NODE_PROLOGUE
  D3Q19(LOAD_OWN)
  collide(f, omega, fx, fy, fz);
  D3Q19(PUSH)
}

// A-A even step: collide in place, store each packet in the opposite slot of the same node.
__kernel void lbm_aa_even(__global store_t* fbuf, __global const uchar* restrict flags, const int nx,
                          const int ny, const int nz, const real_t omega, const real_t fx, const real_t fy,
                          const real_t fz) {
  NODE_PROLOGUE
  __global store_t* fin = fbuf;
  __global store_t* fout = fbuf;
  D3Q19(LOAD_OWN)
  collide(f, omega, fx, fy, fz);
#define STORE_OPP(i, cx, cy, cz, o) STORE(fout, slot(g, o, x, y, z), f[i]);
  D3Q19(STORE_OPP)
#undef STORE_OPP
}

__kernel void lbm_aa_odd(__global store_t* fbuf, __global const uchar* restrict flags, const int nx,
                         const int ny, const int nz, const real_t omega, const real_t fx, const real_t fy,
                         const real_t fz) {
  NODE_PROLOGUE
  __global store_t* fin = fbuf;
  __global store_t* fout = fbuf;
  D3Q19(PULL_REVERSED)
  collide(f, omega, fx, fy, fz);
  D3Q19(PUSH)
}

// x + c * s on the torus for c in {-1, 0, 1} and 0 <= s < n.
inline int wrap_shift(int x, int c, int s, int n) {
  const int v = x + c * s;
  return v < 0 ? v + n : v >= n ? v - n : v;
}

// Lagrangian slot of the packet moving in direction i that is at (px, py, pz) at the step whose shift
// (t mod size) is (sx, sy, sz): (p - t c_i) on the torus.
#define LAG_SLOT(i, cx, cy, cz, px, py, pz, sx, sy, sz) \
  slot(g, i, wrap_shift(px, -(cx), sx, nx), wrap_shift(py, -(cy), sy, ny), wrap_shift(pz, -(cz), sz, nz))

__kernel void lbm_lagrangian(__global store_t* fbuf, __global const uchar* restrict flags, const int nx,
                             const int ny, const int nz, const real_t omega, const real_t fx, const real_t fy,
                             const real_t fz, const int tx, const int ty, const int tz) {
  NODE_PROLOGUE
  // Shift of the next step, where a bounced packet waits.
  const int ux = tx + 1 == nx ? 0 : tx + 1, uy = ty + 1 == ny ? 0 : ty + 1, uz = tz + 1 == nz ? 0 : tz + 1;
#define LOAD_LAG(i, cx, cy, cz, o) f[i] = LOAD(fbuf, LAG_SLOT(i, cx, cy, cz, x, y, z, tx, ty, tz));
  D3Q19(LOAD_LAG)
#undef LOAD_LAG
  collide(f, omega, fx, fy, fz);
#define STORE_LAG(i, cx, cy, cz, o)                                                                         \
  if (flags[node(g, wrap(x, cx, nx), wrap(y, cy, ny), wrap(z, cz, nz))] == WALL)                            \
    STORE(fbuf, LAG_SLOT(o, -(cx), -(cy), -(cz), x, y, z, ux, uy, uz), f[i]);                               \
  else                                                                                                      \
    STORE(fbuf, LAG_SLOT(i, cx, cy, cz, x, y, z, tx, ty, tz), f[i]);
  D3Q19(STORE_LAG)
#undef STORE_LAG
}

// Equilibrium at rest-or-moving state (rho, u) in every node's natural slots: the pre-collision state of
// step 0 for every pattern.
__kernel void lbm_init(__global store_t* fbuf, const int nx, const int ny, const int nz, const real_t rho,
                       const real_t ux, const real_t uy, const real_t uz) {
  const Grid g = grid_of(nx, ny, nz);
  const ulong n = get_global_id(0);
  if (n >= (ulong)nx * (ulong)ny * (ulong)nz) return;
  const int x = (int)(n % (ulong)nx);
  const int y = (int)((n / (ulong)nx) % (ulong)ny);
  const int z = (int)(n / g.plane);
  const real_t usq = (real_t)1.5 * (ux * ux + uy * uy + uz * uz);
#define INIT(i, cx, cy, cz, o)                                                                        \
  {                                                                                                   \
    const real_t cu = (real_t)3 * ((real_t)(cx) * ux + (real_t)(cy) * uy + (real_t)(cz) * uz);       \
    STORE(fbuf, slot(g, i, x, y, z), WEIGHT(i) * ((rho - (real_t)1) + rho * (cu + (real_t)0.5 * cu * cu - usq))); \
  }
  D3Q19(INIT)
#undef INIT
}

// Density and velocity (with half the force, the second-order velocity of Guo's scheme) of the
// pre-collision state; `layout` 0 reads natural slots (A-B, A-A after an odd step), 1 the A-A reversed
// layout after an even step, 2 Lagrangian slots with shift (tx, ty, tz). Walls get rho = 0, u = 0.
__kernel void lbm_fields(__global real_t* restrict rho_out, __global real_t* restrict u_out,
                         __global const store_t* restrict fin, __global const uchar* restrict flags, const int nx,
                         const int ny, const int nz, const real_t fx, const real_t fy, const real_t fz,
                         const int layout, const int tx, const int ty, const int tz) {
  const Grid g = grid_of(nx, ny, nz);
  const ulong n = get_global_id(0);
  if (n >= (ulong)nx * (ulong)ny * (ulong)nz) return;
  const int x = (int)(n % (ulong)nx);
  const int y = (int)((n / (ulong)nx) % (ulong)ny);
  const int z = (int)(n / g.plane);
  if (flags[n] == WALL) {
    rho_out[n] = 0;
    u_out[3 * n] = u_out[3 * n + 1] = u_out[3 * n + 2] = 0;
    return;
  }
  real_t f[19];
  if (layout == 1) {
    D3Q19(PULL_REVERSED)
  } else if (layout == 2) {
#define LOAD_LAG(i, cx, cy, cz, o) f[i] = LOAD(fin, LAG_SLOT(i, cx, cy, cz, x, y, z, tx, ty, tz));
    D3Q19(LOAD_LAG)
#undef LOAD_LAG
  } else {
    D3Q19(LOAD_OWN)
  }
  real_t drho = 0, jx = 0, jy = 0, jz = 0;
#define MOMENTS(i, cx, cy, cz, o) \
  drho += f[i];                   \
  jx += (real_t)(cx) * f[i];      \
  jy += (real_t)(cy) * f[i];      \
  jz += (real_t)(cz) * f[i];
  D3Q19(MOMENTS)
#undef MOMENTS
  const real_t rho = (real_t)1 + drho;
  rho_out[n] = rho;
  u_out[3 * n] = (jx + (real_t)0.5 * fx) / rho;
  u_out[3 * n + 1] = (jy + (real_t)0.5 * fy) / rho;
  u_out[3 * n + 2] = (jz + (real_t)0.5 * fz) / rho;
}
