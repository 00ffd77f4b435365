// D3Q19 lattice Boltzmann: BGK collision with Guo forcing, half-way bounce-back on wall nodes, periodic
// edges, in three memory-access patterns (Myre 2013, App. B). The state between steps is always the
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
// one contiguous block (the unit of slab decomposition). With SHIFT_WEST, the five directions with
// c_x = -1 keep node x at column x + 1 of its row (wrapping): the A-A odd step reads and writes those
// slots at x - 1 + 1, aligned with the warp, and the even step reads and writes them one off instead,
// so each step has five of the ten slots shifted along x rather than none and all ten. Same total, but
// GPUs move it faster split so, except with FP16 storage, whose kernels are bound by their instructions
// and feel the extra index arithmetic (docs/lbm-validation.md, "Performance").
//
// Kernels run on a 3-D range (x rounded up to the work-group size) so no node index is divided. A node
// next to a wall (flag bit NEAR_WALL, set once by lbm_mark) reads one word whose bit i says that x + c_i
// is a wall, rather than 18 neighbour flags (fewer loads and, above all, fewer live registers); the
// other nodes take the word as zero without reading it.
//
// Build options: REAL (float|double, arithmetic), STORE_HALF (populations as IEEE half through
// vload_half/vstore_half; otherwise stored as real_t), INDEX64 (64-bit slot indices, needed once
// 19 x nodes exceeds 2^32), SHIFT_WEST (above), BOUNCE_INTO_WALLS (the A-A steps' walls, see
// WRITE_OPPOSITE_WALLS), SHAN_CHEN or TWO_COMPONENT (multiphase forces, see NODE_FORCE).
#include "core/common.cl"

// Fused multiply-adds are allowed (they are faster): the patterns stay bit-identical because
// every kernel inlines the same collision. LBM_NO_FMA forbids fusing, for bit-identical fields across
// devices of different kinds.
#ifdef LBM_NO_FMA
#pragma OPENCL FP_CONTRACT OFF
#endif

#ifdef STORE_HALF
typedef half store_t;
#define LOAD(p, k) ((real_t)vload_half((k), (p)))
#define STORE(p, k, v) vstore_half((float)(v), (k), (p))
#else
typedef real_t store_t;
#define LOAD(p, k) ((p)[k])
#define STORE(p, k, v) ((p)[k] = (v))
#endif

#ifdef INDEX64
typedef ulong idx_t;
#else
typedef uint idx_t;
#endif

#define TYPE_MASK 0x7f
#define WALL 1
#define INLET 2
#define OUTLET 3
// Set by lbm_mark on nodes beside a wall and on inlet and outlet nodes: they take the slow path.
#define NEAR_WALL 0x80

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

// c . v for a lattice direction c written as literals (D3Q19: at most two non-zero components), as
// only its non-zero terms: IEEE rules forbid the compiler to drop a product with a literal zero.
#define CDOT(cx, cy, cz, vx, vy, vz)                                                                        \
  ((cx) == 0   ? ((cy) == 0   ? (real_t)(cz) * (vz)                                                         \
                  : (cz) == 0 ? (real_t)(cy) * (vy)                                                         \
                              : (real_t)(cy) * (vy) + (real_t)(cz) * (vz))                                  \
   : (cy) == 0 ? ((cz) == 0 ? (real_t)(cx) * (vx) : (real_t)(cx) * (vx) + (real_t)(cz) * (vz))             \
               : (real_t)(cx) * (vx) + (real_t)(cy) * (vy))
// acc + c v for a literal component c of -1, 0 or 1 (exactly what adding c * v gives, without the product).
#define ADD_C(acc, c, v) ((c) == 0 ? (acc) : (c) > 0 ? (acc) + (v) : (acc) - (v))
// Adds shifted population v of direction c to the moments drho, jx, jy, jz.
#define ADD_MOMENTS(v, cx, cy, cz) \
  drho += (v);                     \
  jx = ADD_C(jx, cx, v);           \
  jy = ADD_C(jy, cy, v);           \
  jz = ADD_C(jz, cz, v);

// Equilibrium of the shifted population of weight w, with cu = 3 c.u, at density rho = 1 + drho.
inline real_t equilibrium(const real_t w, const real_t drho, const real_t rho, const real_t cu, const real_t usq) {
  return w * (drho + rho * (cu + (real_t)0.5 * cu * cu - usq));
}

// The collision, defined by COLLISION(T, S) for lanes of type T: real_t (one node, S empty) and, on CPUs,
// a vector of nodes along x (LBM_VEC). It defines Relax##S, the state a collision needs from the moments
// of the shifted populations, and relax_state##S, relax_rest##S and relax_pair##S. Every lane of a
// vector sees the same operations as one node does, hence the same bits.
//
// relax_rest: BGK of the rest population fs = f_0 - w_0, with Guo's forcing term (one component).
// relax_pair: BGK of the shifted populations a (direction c, weight w) and b (direction -c), given
// cu1 = c.u and cf = c.F; with one component, plus Guo's forcing term w (1 - omega/2) [3 (c - u).F +
// 9 (c.u)(c.F)]. The two directions share the even parts of the equilibrium and of the forcing term,
// computed once: arithmetic, not memory, bounds the FP16-storage kernels. The velocity carries half the
// force (second-order accurate forcing).
// With TRT (Ginzburg's two relaxation times) the pair's even part (a + b)/2 relaxes with omega and its
// odd part (a - b)/2 with omega_minus, and Guo's term splits the same way: its even part is weighted by
// 1 - omega/2, its odd part by 1 - omega_minus/2. The rest population is even: BGK with omega.
#ifdef TWO_COMPONENT
#define WITH_GUO(term)
#else
#define WITH_GUO(term) term
#endif
#if (defined(TRT) || defined(MRT)) && defined(TWO_COMPONENT)
#error "TRT and MRT are built for one component only"
#endif
#ifdef TRT
#define WITH_TRT(field) , field
#define TRT_STATE                         \
  r.omega_minus = omega_minus;            \
  r.guo3_minus = (real_t)3 - (real_t)1.5 * omega_minus;
#define RELAX_PAIR(T)                                                                    \
  const T relax_even = r.omega * (even - (real_t)0.5 * (a + b)) + gw * s;             \
  const T relax_odd = r.omega_minus * (odd - (real_t)0.5 * (a - b)) + r.guo3_minus * w * cf; \
  p.a = a + (relax_even + relax_odd);                                                 \
  p.b = b + (relax_even - relax_odd);
#else
#define WITH_TRT(field)
#define TRT_STATE
#define RELAX_PAIR(T)                                                         \
  p.a = a + r.omega * ((even + odd) - a) WITH_GUO(+gw * (s + cf));         \
  p.b = b + r.omega * ((even - odd) - b) WITH_GUO(+gw * (s - cf));
#endif
#define COLLISION(T, S)                                                                                           \
  typedef struct {                                                                                                \
    T drho, rho, ux, uy, uz, usq, omega, guo3, fx, fy, fz, uf WITH_TRT(omega_minus) WITH_TRT(guo3_minus);            \
  } Relax##S;                                                                                                     \
  inline Relax##S relax_state##S(const T drho, const T jx, const T jy, const T jz, const real_t omega,             \
                                 const real_t omega_minus, const real_t fx, const real_t fy, const real_t fz) {   \
    Relax##S r;                                                                                                   \
    r.drho = drho;                                                                                                \
    r.rho = (real_t)1 + drho;                                                                                     \
    const T inv_rho = (real_t)1 / r.rho;                                                                          \
    r.ux = (jx + (real_t)0.5 * fx) * inv_rho;                                                                     \
    r.uy = (jy + (real_t)0.5 * fy) * inv_rho;                                                                     \
    r.uz = (jz + (real_t)0.5 * fz) * inv_rho;                                                                     \
    r.usq = (real_t)1.5 * (r.ux * r.ux + r.uy * r.uy + r.uz * r.uz);                                              \
    r.omega = omega;                                                                                              \
    r.guo3 = (real_t)3 - (real_t)1.5 * omega;                                                                     \
    TRT_STATE                                                                                                     \
    r.fx = fx;                                                                                                    \
    r.fy = fy;                                                                                                    \
    r.fz = fz;                                                                                                    \
    r.uf = r.ux * fx + r.uy * fy + r.uz * fz;                                                                     \
    return r;                                                                                                     \
  }                                                                                                               \
  inline T relax_rest##S(const Relax##S r, const T fs) {                                                          \
    const T feq = W0 * (r.drho - r.rho * r.usq);                                                                  \
    return fs + r.omega * (feq - fs) WITH_GUO(-r.guo3 * W0 * r.uf);                                              \
  }                                                                                                               \
  typedef struct {                                                                                                \
    T a, b;                                                                                                       \
  } Pair##S;                                                                                                      \
  inline Pair##S relax_pair##S(const Relax##S r, const T a, const T b, const real_t w, const T cu1, const T cf) { \
    const T cu = (real_t)3 * cu1;                                                                                 \
    const T even = w * (r.drho + r.rho * ((real_t)0.5 * cu * cu - r.usq));                                        \
    const T odd = w * r.rho * cu;                                                                                 \
    const T gw = r.guo3 * w;                                                                                      \
    const T s = cu * cf - r.uf; /* even part of the forcing term over 3 w (1 - omega/2) */                        \
    Pair##S p;                                                                                                    \
    RELAX_PAIR(T)                                                                                                 \
    return p;                                                                                                     \
  }
COLLISION(real_t, )
// The node update below is written for lanes of type LANE through the functions COLLIDE(name): one node
// here; the CPU kernels at the end of the file redefine both for vectors of nodes.
#define LANE real_t
#define COLLIDE(name) name

// Two components (TWO_COMPONENT): Shan-Chen's forcing, the equilibrium of the component at the common
// velocity u' of the mixture shifted by tau times the component's force per mass (ax, ay, az), with no
// source term; the shift is written without dividing by the component's density, which may be tiny.
inline Relax relax_shifted(const real_t drho, const real_t ux, const real_t uy, const real_t uz, const real_t omega,
                           const real_t ax, const real_t ay, const real_t az) {
  Relax r;
  r.drho = drho;
  r.rho = (real_t)1 + drho;
  const real_t tau = (real_t)1 / omega;
  r.ux = ux + tau * ax;
  r.uy = uy + tau * ay;
  r.uz = uz + tau * az;
  r.usq = (real_t)1.5 * (r.ux * r.ux + r.uy * r.uy + r.uz * r.uz);
  r.omega = omega;
  r.guo3 = r.fx = r.fy = r.fz = r.uf = 0;
  return r;
}

// A box of a device grid has halo layers at 0 and n - 1 of every split axis, which the host keeps
// current; its kernels are launched over a region of own nodes, so neighbours wrap only along axes
// left whole. Every node kernel takes `region` first: the region's first node (s0, s1, s2) and its
// ends along x and y (s3, s4), whose ranges are rounded up to whole work-groups. The origin is an
// argument, not a global offset: PoCL 3.1 loads one copy of a kernel for launches with a zero offset
// and another for the rest, releases them by kernel alone, and aborts when both run at once
// (core/kernel.hpp).
// The node of this work-item, its periodic neighbours' coordinates and the index pieces they share.
// Slot (i, x, y, z) = (z * 19 + i) * plane + y * nx + x.
#define NODE_SETUP                                                                              \
  const int x = region.s0 + (int)get_global_id(0), y = region.s1 + (int)get_global_id(1);       \
  const int z = region.s2 + (int)get_global_id(2);                                              \
  if (x >= region.s3 || y >= region.s4) return;                                                 \
  NODE_AT
// The same for node (x, y, z) given.
#define NODE_AT                                                                                 \
  const idx_t plane = (idx_t)nx * (idx_t)ny;                                                    \
  const int xm = x == 0 ? nx - 1 : x - 1, xp = x == nx - 1 ? 0 : x + 1;                         \
  const int ym = y == 0 ? ny - 1 : y - 1, yp = y == ny - 1 ? 0 : y + 1;                         \
  const int zm = z == 0 ? nz - 1 : z - 1, zp = z == nz - 1 ? 0 : z + 1;                         \
  const idx_t n = (idx_t)z * plane + (idx_t)y * (idx_t)nx + (idx_t)x;                           \
  const uchar flag = flags[n];                                                                  \
  NEIGHBOUR_STEPS
// What SLOT_NEAR adds to this node's slot 0 to reach a neighbour's, per axis and side, wrapping
// periodically (idx_t arithmetic is modular, so a step back is a large unsigned number).
#define NEIGHBOUR_STEPS                                                                                        \
  const idx_t slot0 = (idx_t)z * 19 * plane + (idx_t)y * (idx_t)nx + (idx_t)x, layer = 19 * plane;         \
  const idx_t dxp = x == nx - 1 ? (idx_t)1 - (idx_t)nx : (idx_t)1, dxm = x == 0 ? (idx_t)nx - 1 : ~(idx_t)0; \
  const idx_t dyp = y == ny - 1 ? ((idx_t)1 - (idx_t)ny) * (idx_t)nx : (idx_t)nx;                          \
  const idx_t dym = y == 0 ? ((idx_t)ny - 1) * (idx_t)nx : (idx_t)0 - (idx_t)nx;                           \
  const idx_t dzp = z == nz - 1 ? ((idx_t)1 - (idx_t)nz) * layer : layer;                                  \
  const idx_t dzm = z == 0 ? ((idx_t)nz - 1) * layer : (idx_t)0 - layer;

// Coordinates of x + c (c = +1, 0, -1 as a literal).
#define AT_X(c) ((c) == 1 ? xp : (c) == -1 ? xm : x)
#define AT_Y(c) ((c) == 1 ? yp : (c) == -1 ? ym : y)
#define AT_Z(c) ((c) == 1 ? zp : (c) == -1 ? zm : z)
// Is direction i stored one column east (SHIFT_WEST: the directions with c_x = -1)?
#ifdef SHIFT_WEST
#define WEST(i) ((i) == 2 || (i) == 8 || (i) == 10 || (i) == 14 || (i) == 16)
#else
#define WEST(i) 0
#endif
// Column of node X's packet of direction i in its row (X + 1 for WEST(i), wrapping).
inline int column(const int i, const int X, const int nx) {
  if (WEST(i)) return X + 1 == nx ? 0 : X + 1;
  return X;
}
#define SLOT(i, X, Y, Z) (((idx_t)(Z) * 19 + (idx_t)(i)) * plane + (idx_t)(Y) * (idx_t)nx + (idx_t)column(i, X, nx))
// SLOT(i, x + dx, y + dy, z + dz) for literal offsets of -1, 0 or 1, as this node's slot 0 plus steps
// (NEIGHBOUR_STEPS): a column offset dx + WEST(i) is never 2 in the rules below. Fewer integer
// instructions than SLOT's products and wrapped coordinates, which the FP16-storage kernels, bound by
// their instructions, feel most (docs/lbm-validation.md, "Performance").
#define STEP_X(d) ((d) == 1 ? dxp : (d) == -1 ? dxm : (idx_t)0)
#define STEP_Y(d) ((d) == 1 ? dyp : (d) == -1 ? dym : (idx_t)0)
#define STEP_Z(d) ((d) == 1 ? dzp : (d) == -1 ? dzm : (idx_t)0)
#define SLOT_NEAR(i, dx, dy, dz) \
  (slot0 + (idx_t)(i) * plane + STEP_X((dx) + WEST(i)) + STEP_Y(dy) + STEP_Z(dz))
#define NODE(X, Y, Z) ((idx_t)(Z) * plane + (idx_t)(Y) * (idx_t)nx + (idx_t)(X))
// Is the neighbour at x + c_i a wall? `walls` is zero on nodes not flagged NEAR_WALL.
#define WALL_TOWARDS(i) ((walls >> (i)) & 1u)

// One node update through the pattern's READ(i, cx, cy, cz, o) and WRITE(i, cx, cy, cz, o, value)
// rules: every population is read once into f0 .. f18 and the moments are summed, then each pair
// (i, opposite) is relaxed and written. The pair's two slots are the pair's two destinations in every
// pattern, so reading both before writing either is all the in-place patterns need. (Reading each pair
// a second time instead of holding it saves registers but runs slower, on GPUs and on CPUs alike.)
#define LOAD_PACKET(i, cx, cy, cz, o) LANE f##i = READ(i, cx, cy, cz, o) JUMPED(i, cz, o);
#define ADD_PACKET(i, cx, cy, cz, o) ADD_MOMENTS(f##i, cx, cy, cz)
#define HELD(i, cx, cy, cz, o) f##i
// Relaxes and writes the pair (i, o) of shifted populations VALUE(i, ...), VALUE(o, ...).
#define UPDATE_PAIR_WITH(VALUE, i, cx, cy, cz, o)                                                               \
  {                                                                                                             \
    const COLLIDE(Pair) p_ = COLLIDE(relax_pair)(r, VALUE(i, cx, cy, cz, o), VALUE(o, -(cx), -(cy), -(cz), i), WEIGHT(i),         \
                               CDOT(cx, cy, cz, r.ux, r.uy, r.uz), CDOT(cx, cy, cz, r.fx, r.fy, r.fz));         \
    WRITE(i, cx, cy, cz, o, p_.a)                                                                               \
    WRITE(o, -(cx), -(cy), -(cz), i, p_.b)                                                                      \
  }
#define UPDATE_PAIR(i, cx, cy, cz, o) UPDATE_PAIR_WITH(HELD, i, cx, cy, cz, o)
#define D3Q19_PAIRS(X)                                                                                     \
  X(1, 1, 0, 0, 2) X(3, 0, 1, 0, 4) X(5, 0, 0, 1, 6) X(7, 1, 1, 0, 8) X(9, 1, 0, 1, 10) X(11, 0, 1, 1, 12) \
  X(13, 1, -1, 0, 14) X(15, 1, 0, -1, 16) X(17, 0, 1, -1, 18)
#define UPDATE_NODE                                  \
  {                                                  \
    D3Q19(LOAD_PACKET)                               \
    LANE drho = 0, jx = 0, jy = 0, jz = 0;           \
    D3Q19(ADD_PACKET)                                \
    NODE_FORCE                                       \
    NODE_RELAX                                       \
    COLLIDE_AND_WRITE                                \
  }
#ifdef MRT
#define COLLIDE_AND_WRITE MRT_COLLIDE
#else
#define COLLIDE_AND_WRITE                                             \
  WRITE(0, 0, 0, 0, 0, COLLIDE(relax_rest)(r, HELD(0, 0, 0, 0, 0))) \
  D3Q19_PAIRS(UPDATE_PAIR)
#endif

// MRT (d'Humieres, Ginzburg, Krafczyk, Lallemand & Luo 2002): the populations' departure from equilibrium
// is taken to 19 orthogonal moments, each relaxed at its own rate, and back. MRT_MOMENTS lists for each
// moment k its basis polynomial of the lattice direction (cx, cy, cz), which multiplies population c in
// the transform, its rate and 1 / (its squared norm over the 19 directions): density, energy e, its
// square epsilon, momentum j and energy flux q along x, y, z, the stresses 3p_xx, p_ww, p_xy, p_yz,
// p_xz, their fourth-order partners 3pi_xx, pi_ww, and the third-order m_x, m_y, m_z. The stresses
// relax with omega (the viscosity), the others at the paper's rates: e 1.19, epsilon 1.4, q 1.2, pi 1.4,
// m 1.98, which keep the non-hydrodynamic moments damped as omega nears 2, where BGK and TRT with a fixed
// magic parameter leave the odd moments almost undamped. Guo's force term F_c enters as (1 - s_k / 2) of
// its moments. Coefficients are integer literals and ADD_TERM adds only the non-zero ones (IEEE rules
// keep a product with a literal zero).
#define C2(cx, cy, cz) ((cx) * (cx) + (cy) * (cy) + (cz) * (cz))
#define MRT_MOMENTS(X, cx, cy, cz)                                                                         \
  X(0, 1, omega, (real_t)1 / 19)                                                                           \
  X(1, 19 * C2(cx, cy, cz) - 30, (real_t)1.19, (real_t)1 / 2394)                                           \
  X(2, (21 * C2(cx, cy, cz) * C2(cx, cy, cz) - 53 * C2(cx, cy, cz) + 24) / 2, (real_t)1.4, (real_t)1 / 252) \
  X(3, (cx), omega, (real_t)1 / 10)                                                                        \
  X(4, (5 * C2(cx, cy, cz) - 9) * (cx), (real_t)1.2, (real_t)1 / 40)                                       \
  X(5, (cy), omega, (real_t)1 / 10)                                                                        \
  X(6, (5 * C2(cx, cy, cz) - 9) * (cy), (real_t)1.2, (real_t)1 / 40)                                       \
  X(7, (cz), omega, (real_t)1 / 10)                                                                        \
  X(8, (5 * C2(cx, cy, cz) - 9) * (cz), (real_t)1.2, (real_t)1 / 40)                                       \
  X(9, 3 * (cx) * (cx) - C2(cx, cy, cz), omega, (real_t)1 / 36)                                            \
  X(10, (3 * C2(cx, cy, cz) - 5) * (3 * (cx) * (cx) - C2(cx, cy, cz)), (real_t)1.4, (real_t)1 / 72)         \
  X(11, (cy) * (cy) - (cz) * (cz), omega, (real_t)1 / 12)                                                  \
  X(12, (3 * C2(cx, cy, cz) - 5) * ((cy) * (cy) - (cz) * (cz)), (real_t)1.4, (real_t)1 / 24)                \
  X(13, (cx) * (cy), omega, (real_t)1 / 4)                                                                 \
  X(14, (cy) * (cz), omega, (real_t)1 / 4)                                                                 \
  X(15, (cx) * (cz), omega, (real_t)1 / 4)                                                                 \
  X(16, ((cy) * (cy) - (cz) * (cz)) * (cx), (real_t)1.98, (real_t)1 / 8)                                    \
  X(17, ((cz) * (cz) - (cx) * (cx)) * (cy), (real_t)1.98, (real_t)1 / 8)                                    \
  X(18, ((cx) * (cx) - (cy) * (cy)) * (cz), (real_t)1.98, (real_t)1 / 8)
#define ADD_TERM(acc, coef, v) \
  ((coef) == 0 ? (acc) : (coef) == 1 ? (acc) + (v) : (coef) == -1 ? (acc) - (v) : (acc) + (real_t)(coef) * (v))
#define MRT_DECLARE(k, coef, rate, inv_norm) LANE m##k = 0, g##k = 0;
#define MRT_ADD(k, coef, rate, inv_norm) \
  m##k = ADD_TERM(m##k, coef, d_);       \
  g##k = ADD_TERM(g##k, coef, force_);
// Departure d = f - f_eq and Guo's term 3 w [(3 c.u) (c.F) - u.F + c.F] of direction c, into every moment.
#define MRT_PROJECT(i, cx, cy, cz, o)                                                                      \
  {                                                                                                        \
    const LANE cu_ = (real_t)3 * CDOT(cx, cy, cz, r.ux, r.uy, r.uz);                                       \
    const LANE cf_ = CDOT(cx, cy, cz, r.fx, r.fy, r.fz);                                                   \
    const LANE d_ = f##i - WEIGHT(i) * (r.drho + r.rho * (cu_ + (real_t)0.5 * cu_ * cu_ - r.usq));         \
    const LANE force_ = (real_t)3 * WEIGHT(i) * ((cu_ * cf_ - r.uf) + cf_);                                \
    MRT_MOMENTS(MRT_ADD, cx, cy, cz)                                                                       \
  }
#define MRT_RELAX(k, coef, rate, inv_norm) \
  m##k = ((rate) * m##k - ((real_t)1 - (real_t)0.5 * (rate)) * g##k) * (inv_norm);
#define MRT_BACK(k, coef, rate, inv_norm) back_ = ADD_TERM(back_, coef, m##k);
#define MRT_WRITE(i, cx, cy, cz, o)                \
  {                                                \
    LANE back_ = 0;                                \
    MRT_MOMENTS(MRT_BACK, cx, cy, cz)              \
    WRITE(i, cx, cy, cz, o, f##i - back_)          \
  }
#define MRT_COLLIDE                                        \
  {                                                        \
    const LANE omega = r.omega;                            \
    MRT_MOMENTS(MRT_DECLARE, 0, 0, 0)                      \
    D3Q19(MRT_PROJECT)                                     \
    MRT_MOMENTS(MRT_RELAX, 0, 0, 0)                        \
    D3Q19(MRT_WRITE)                                       \
  }

// The force on the node: the body force, plus with SHAN_CHEN the Shan-Chen interaction
// F = -G psi(x) sum_i w_i psi(x + c_i) c_i, from the psi field lbm_psi wrote for this step; with
// TWO_COMPONENT the pull between the components, from the mixture field lbm_mix wrote.
#ifdef SHAN_CHEN
#define SC_SUM(i, cx, cy, cz, o)                                 \
  {                                                              \
    const real_t p_ = WEIGHT(i) * psi[NODE(AT_X(cx), AT_Y(cy), AT_Z(cz))]; \
    sx = ADD_C(sx, cx, p_);                                      \
    sy = ADD_C(sy, cy, p_);                                      \
    sz = ADD_C(sz, cz, p_);                                      \
  }
#define NODE_FORCE                                   \
  real_t Fx = fx, Fy = fy, Fz = fz;                  \
  {                                                  \
    real_t sx = 0, sy = 0, sz = 0;                   \
    D3Q19(SC_SUM)                                    \
    const real_t k_ = -sc_g * psi[n];                \
    Fx += k_ * sx;                                   \
    Fy += k_ * sy;                                   \
    Fz += k_ * sz;                                   \
  }
#elif defined(TWO_COMPONENT)
// The mixture field lbm_mix wrote for this step (`psi` in the kernels' arguments), per z-plane field
// by field: the densities of components 0 and 1 (walls: their wall densities), then the common
// velocity u'. A collision updates one component; `other` is the index of the other one.
#define MIX_FIELDS 5
#define MIX(k, X, Y, Z) psi[((idx_t)(Z) * MIX_FIELDS + (idx_t)(k)) * plane + (idx_t)(Y) * (idx_t)nx + (idx_t)(X)]
#define MIX_SUM(i, cx, cy, cz, o)                                \
  {                                                              \
    const real_t p_ = WEIGHT(i) * MIX(other, AT_X(cx), AT_Y(cy), AT_Z(cz)); \
    sx = ADD_C(sx, cx, p_);                                      \
    sy = ADD_C(sy, cy, p_);                                      \
    sz = ADD_C(sz, cz, p_);                                      \
  }
// Force per mass of the component: its share rho_s / rho of the body force density, plus the pull of
// the other component, F_s / rho_s = -G sum_i w_i rho_other(x + c_i) c_i.
#define NODE_FORCE                                                   \
  real_t Ax, Ay, Az;                                                 \
  {                                                                  \
    real_t sx = 0, sy = 0, sz = 0;                                   \
    D3Q19(MIX_SUM)                                                   \
    const real_t inv_ = (real_t)1 / (MIX(0, x, y, z) + MIX(1, x, y, z)); \
    Ax = fx * inv_ - sc_g * sx;                                      \
    Ay = fy * inv_ - sc_g * sy;                                      \
    Az = fz * inv_ - sc_g * sz;                                      \
  }
#else
#define NODE_FORCE const real_t Fx = fx, Fy = fy, Fz = fz;
#endif
#ifdef TWO_COMPONENT
#define NODE_RELAX \
  const Relax r = relax_shifted(drho, MIX(2, x, y, z), MIX(3, x, y, z), MIX(4, x, y, z), omega, Ax, Ay, Az);
#define MIX_ARG , const int other
#define MIX_PASS , other
#else
#define NODE_RELAX const COLLIDE(Relax) r = COLLIDE(relax_state)(drho, jx, jy, jz, omega, omega_minus, Fx, Fy, Fz);
#define MIX_ARG
#define MIX_PASS
#endif

// The boundary values of the node kernels: the Zou-He inlet velocity and outlet density, and the pressure
// jump across the periodic z boundary (PRESSURE_JUMP): the local z of the planes just inside it
// (jump_low after the crossing upwards, jump_high after the crossing downwards; -1 where this part has
// no such plane) and the density jump 3 dp.
#define BOUNDARY_ARGS                                                                                   \
  const real_t in_ux, const real_t in_uy, const real_t in_uz, const real_t out_rho, const int jump_low, \
      const int jump_high, const real_t jump_drho
// A population read in direction i at node z, which left z - c_z: if it crossed the periodic z boundary
// it arrives with its equilibrium share w_i of the density jump, gained upwards and lost downwards (a
// packet bounced by a wall, from the node itself, crossed nothing). So every crossing shifts the pressure
// by dp and keeps the mass, and the flow feels the mean gradient dp / nz.
#ifdef PRESSURE_JUMP
#define JUMPED(i, cz, o)                                                                              \
  +((cz) > 0 && z == jump_low && !WALL_TOWARDS(o)    ? WEIGHT(i) * jump_drho                          \
    : (cz) < 0 && z == jump_high && !WALL_TOWARDS(o) ? -WEIGHT(i) * jump_drho                         \
                                                     : (real_t)0)
#define OFF_JUMP_PLANES(z) && (z) != jump_low && (z) != jump_high
#else
#define JUMPED(i, cz, o)
#define OFF_JUMP_PLANES(z)
#endif

// Read and write rules. OWN: the node's own slot. REVERSED: the packet arriving in direction i left
// x - c_i, whose A-A even step stored it reversed; a wall returns the node's own packet, stored reversed
// in the node itself. PUSH: each packet goes to the slot of the node it moves to; towards a wall it
// comes back reversed. OPPOSITE: the node's own opposite slot (A-A even step). A wall picks the address,
// so that the lanes of a warp beside a wall and away from it issue one load or store together.
#define READ_OWN(i, cx, cy, cz, o) LOAD(fin, SLOT_NEAR(i, 0, 0, 0))
#define READ_REVERSED_WALLS(i, cx, cy, cz, o) \
  LOAD(fin, WALL_TOWARDS(o) ? SLOT_NEAR(i, 0, 0, 0) : SLOT_NEAR(o, -(cx), -(cy), -(cz)))
#define WRITE_PUSH_WALLS(i, cx, cy, cz, o, v) \
  STORE(fout, WALL_TOWARDS(i) ? SLOT_NEAR(o, 0, 0, 0) : SLOT_NEAR(i, cx, cy, cz), v);
#define WRITE_OPPOSITE(i, cx, cy, cz, o, v) STORE(fout, SLOT_NEAR(o, 0, 0, 0), v);
// BOUNCE_INTO_WALLS: the A-A even step stores a packet that moves towards a wall in the wall's slot,
// where the odd step reads it as from any other node (only this node uses that slot), so the odd step
// reads every packet from the neighbour it came from, walls or not: an address chosen by the wall bits
// held every load of the odd step back until those bits arrived, while stores wait for nothing. The
// state after an even step is then read through READ_REVERSED too (READ_AFTER_EVEN), and a halo fill
// leaves the walls' slots alone (lbm_unpack). The host sets it with SHIFT_WEST, not for FP16 storage,
// whose kernels, bound by their instructions, lose by it: the even step then computes its neighbours'
// addresses too (docs/lbm-validation.md, "Performance").
#define WRITE_OPPOSITE_WALLS(i, cx, cy, cz, o, v) \
  STORE(fout, WALL_TOWARDS(i) ? SLOT_NEAR(i, cx, cy, cz) : SLOT_NEAR(o, 0, 0, 0), v);
#define READ_REVERSED(i, cx, cy, cz, o) LOAD(fin, SLOT_NEAR(o, -(cx), -(cy), -(cz)))
#ifdef BOUNCE_INTO_WALLS
#define READ_AFTER_EVEN READ_REVERSED
#define WRITE_EVEN WRITE_OPPOSITE_WALLS
#else
#define READ_AFTER_EVEN READ_REVERSED_WALLS
#define WRITE_EVEN WRITE_OPPOSITE
#endif

// Zou-He boundaries (Zou & He 1997, in the D3Q19 form of Hecht & Harting 2010) on the z-faces, for
// unshifted populations: an inlet node (z = 0) gets the packets that come from outside (c_z = +1) so
// that its velocity is (ux, uy, uz); an outlet node (z = nz - 1) gets the packets with c_z = -1 so that
// its density is rho_out with no tangential velocity. N corrects the transverse momentum.
inline void zou_he(real_t* f, const bool inlet, const real_t ux, const real_t uy, const real_t uz_in,
                   const real_t rho_out) {
  const real_t s0 = f[0] + f[1] + f[2] + f[3] + f[4] + f[7] + f[8] + f[13] + f[14];
  const real_t tx = (f[1] + f[7] + f[13]) - (f[2] + f[8] + f[14]);
  const real_t ty = (f[3] + f[7] + f[14]) - (f[4] + f[8] + f[13]);
  const real_t sixth = (real_t)1 / (real_t)6, third = (real_t)1 / (real_t)3;
  if (inlet) {
    const real_t rho = (s0 + (real_t)2 * (f[6] + f[10] + f[12] + f[15] + f[17])) / ((real_t)1 - uz_in);
    const real_t nx_ = (real_t)0.5 * tx - rho * ux * third, ny_ = (real_t)0.5 * ty - rho * uy * third;
    f[5] = f[6] + rho * uz_in * third;
    f[9] = f[10] + rho * sixth * (uz_in + ux) - nx_;
    f[16] = f[15] + rho * sixth * (uz_in - ux) + nx_;
    f[11] = f[12] + rho * sixth * (uz_in + uy) - ny_;
    f[18] = f[17] + rho * sixth * (uz_in - uy) + ny_;
  } else {
    const real_t uz = (s0 + (real_t)2 * (f[5] + f[9] + f[11] + f[16] + f[18])) / rho_out - (real_t)1;
    const real_t nx_ = (real_t)0.5 * tx, ny_ = (real_t)0.5 * ty;
    f[6] = f[5] - rho_out * uz * third;
    f[10] = f[9] - rho_out * sixth * uz + nx_;
    f[15] = f[16] - rho_out * sixth * uz - nx_;
    f[12] = f[11] - rho_out * sixth * uz + ny_;
    f[17] = f[18] - rho_out * sixth * uz - ny_;
  }
}

// An inlet or outlet node: all packets read at once (the boundary replaces some before the collision),
// then relaxed and written through the pattern's rules.
#define LOAD_UNSHIFTED(i, cx, cy, cz, o) f[i] = READ(i, cx, cy, cz, o) + WEIGHT(i);
#define MOMENTS_OF_ARRAY(i, cx, cy, cz, o) \
  {                                        \
    const real_t v = f[i] - WEIGHT(i);     \
    ADD_MOMENTS(v, cx, cy, cz)             \
  }
#define SHIFTED_FROM_ARRAY(i, cx, cy, cz, o) (f[i] - WEIGHT(i))
#define UPDATE_PAIR_FROM_ARRAY(i, cx, cy, cz, o) UPDATE_PAIR_WITH(SHIFTED_FROM_ARRAY, i, cx, cy, cz, o)
#define UPDATE_OPEN_NODE                                                          \
  {                                                                               \
    real_t f[19];                                                                 \
    D3Q19(LOAD_UNSHIFTED)                                                         \
    zou_he(f, (flag & TYPE_MASK) == INLET, in_ux, in_uy, in_uz, out_rho);         \
    real_t drho = 0, jx = 0, jy = 0, jz = 0;                                      \
    D3Q19(MOMENTS_OF_ARRAY)                                                       \
    NODE_FORCE                                                                    \
    NODE_RELAX                                                                    \
    WRITE(0, 0, 0, 0, 0, relax_rest(r, f[0] - W0))                                \
    D3Q19_PAIRS(UPDATE_PAIR_FROM_ARRAY)                                           \
  }
// Beside a wall, or on an open boundary (compiled only for lattices that have one: OPEN_BOUNDARIES).
#ifdef OPEN_BOUNDARIES
#define UPDATE_SLOW_NODE                                           \
  if ((flag & TYPE_MASK) == INLET || (flag & TYPE_MASK) == OUTLET) \
    UPDATE_OPEN_NODE                                               \
  else                                                             \
    UPDATE_NODE
#else
#define UPDATE_SLOW_NODE UPDATE_NODE
#endif

// How a node kernel updates its node: through its wall-aware rules READ_RULE / WRITE_RULE, which read
// `walls` (zero away from walls). GPUs return from wall nodes and read wall_bits only beside a wall,
// but run one path otherwise: splitting nodes beside walls off into a branch of their own serializes
// the two paths in every warp that holds both (the first and last warp of each row of a duct), which
// slows the A-A odd kernel (docs/lbm-validation.md, "Performance"). CPUs (UNIFORM_NODES) run
// work-items in SIMD lanes, which the compiler only forms from straight-line code: wall nodes take the
// same rules with their writes masked off. Both give the same arithmetic, hence the same bits.
#define READ(i, cx, cy, cz, o) READ_RULE(i, cx, cy, cz, o)
#define WRITE(i, cx, cy, cz, o, v)  \
  {                                 \
    const LANE v_ = (v);            \
    if (live) {                     \
      WRITE_RULE(i, cx, cy, cz, o, v_) \
    }                               \
  }
#ifdef UNIFORM_NODES
#define DISPATCH                                \
  const bool live = (flag & TYPE_MASK) != WALL; \
  const uint walls = wall_bits[n];              \
  UPDATE_SLOW_NODE
#else
#define DISPATCH                                             \
  if ((flag & TYPE_MASK) == WALL) return;                    \
  const bool live = true;                                    \
  const uint walls = (flag & NEAR_WALL) ? wall_bits[n] : 0u; \
  UPDATE_SLOW_NODE
#endif

#define FLAG_ARGS __global const uchar* restrict flags, __global const uint* restrict wall_bits
#define PHYSICS_ARGS                                                                                     \
  const int nx, const int ny, const int nz, const real_t omega, const real_t omega_minus, const real_t fx,        \
      const real_t fy, const real_t fz,                                                                    \
      __global const real_t* restrict psi, const real_t sc_g, BOUNDARY_ARGS MIX_ARG

// The update of one node is a function per kernel, which the CPU kernels at the end of the file also
// call for the nodes they cannot take as vectors. Inlined always: a call left in a kernel stops PoCL
// from running its work-items in SIMD lanes.
#define NODE_UPDATE inline __attribute__((always_inline))
#define PHYSICS_PASS                                                                                   \
  nx, ny, nz, omega, omega_minus, fx, fy, fz, psi, sc_g, in_ux, in_uy, in_uz, out_rho, jump_low, jump_high, \
      jump_drho MIX_PASS
#define AB_PARAMS __global store_t *restrict fout, __global const store_t *restrict fin, FLAG_ARGS, PHYSICS_ARGS
#define AB_ARGS fout, fin, flags, wall_bits, PHYSICS_PASS
#define AA_PARAMS __global store_t *fbuf, FLAG_ARGS, PHYSICS_ARGS
#define AA_ARGS fbuf, flags, wall_bits, PHYSICS_PASS

// A-B: read the node's own packets from `fin`, push them to their destinations in `fout`.
NODE_UPDATE void ab_node(const int x, const int y, const int z, AB_PARAMS) {
  NODE_AT
#define READ_RULE READ_OWN
#define WRITE_RULE WRITE_PUSH_WALLS
  DISPATCH
#undef READ_RULE
#undef WRITE_RULE
}

// A-A even step: collide in place, store each packet in the opposite slot of the same node.
NODE_UPDATE void aa_even_node(const int x, const int y, const int z, AA_PARAMS) {
  NODE_AT
  __global store_t* fin = fbuf;
  __global store_t* fout = fbuf;
#define READ_RULE READ_OWN
#define WRITE_RULE WRITE_EVEN
  DISPATCH
#undef READ_RULE
#undef WRITE_RULE
}

// A-A odd step: read the reversed packets from the neighbours, push each to where it moves.
NODE_UPDATE void aa_odd_node(const int x, const int y, const int z, AA_PARAMS) {
  NODE_AT
  __global store_t* fin = fbuf;
  __global store_t* fout = fbuf;
#define READ_RULE READ_AFTER_EVEN
#define WRITE_RULE WRITE_PUSH_WALLS
  DISPATCH
#undef READ_RULE
#undef WRITE_RULE
}

#define NODE_KERNEL(name, node, PARAMS, ARGS)             \
  __kernel void name(const int8 region, PARAMS) {         \
    const int x = region.s0 + (int)get_global_id(0);      \
    const int y = region.s1 + (int)get_global_id(1);      \
    const int z = region.s2 + (int)get_global_id(2);      \
    if (x < region.s3 && y < region.s4) node(x, y, z, ARGS); \
  }
NODE_KERNEL(lbm_ab, ab_node, AB_PARAMS, AB_ARGS)
NODE_KERNEL(lbm_aa_even, aa_even_node, AA_PARAMS, AA_ARGS)
NODE_KERNEL(lbm_aa_odd, aa_odd_node, AA_PARAMS, AA_ARGS)

// x + c * s on the torus for c in {-1, 0, 1} and 0 <= s < n.
inline int wrap_shift(int x, int c, int s, int n) {
  const int v = x + c * s;
  return v < 0 ? v + n : v >= n ? v - n : v;
}

// Lagrangian slot of the packet moving in direction i that is at the node at the step whose shift
// (t mod size) is (sx, sy, sz): (x - t c_i) on the torus.
#define LAG_SLOT(i, cx, cy, cz, sx, sy, sz) \
  SLOT(i, wrap_shift(x, -(cx), sx, nx), wrap_shift(y, -(cy), sy, ny), wrap_shift(z, -(cz), sz, nz))
#define READ_LAG(i, cx, cy, cz, o) LOAD(fin, LAG_SLOT(i, cx, cy, cz, tx, ty, tz))
// A packet bounced by a wall waits in the slot it occupies next step, which only the wall owns now.
#define WRITE_LAG_WALLS(i, cx, cy, cz, o, v) \
  STORE(fout, WALL_TOWARDS(i) ? LAG_SLOT(o, -(cx), -(cy), -(cz), ux, uy, uz) : LAG_SLOT(i, cx, cy, cz, tx, ty, tz), v);

#define LAG_PARAMS __global store_t *fbuf, FLAG_ARGS, const int tx, const int ty, const int tz, PHYSICS_ARGS
#define LAG_ARGS fbuf, flags, wall_bits, tx, ty, tz, PHYSICS_PASS
// Shift (ux, uy, uz) of the next step.
#define NEXT_SHIFT \
  const int ux = tx + 1 == nx ? 0 : tx + 1, uy = ty + 1 == ny ? 0 : ty + 1, uz = tz + 1 == nz ? 0 : tz + 1;
NODE_UPDATE void lagrangian_node(const int x, const int y, const int z, LAG_PARAMS) {
  NODE_AT
  __global store_t* fin = fbuf;
  __global store_t* fout = fbuf;
  NEXT_SHIFT
#define READ_RULE READ_LAG
#define WRITE_RULE WRITE_LAG_WALLS
  DISPATCH
#undef READ_RULE
#undef WRITE_RULE
}
NODE_KERNEL(lbm_lagrangian, lagrangian_node, LAG_PARAMS, LAG_ARGS)
#undef NODE_KERNEL

// Halo faces (halo_exchange.cpp): a face is local layer `at` of `axis` over the whole local extent of
// the other two axes (their halos too, so that what crosses an edge travels on with the next axis),
// U x V cells. Of a field with `per_plane` values per node laid out like the populations
// ((z * per_plane + i) * plane + y * nx + x, populations at their columns), a face carries the values
// i whose bit is set in `mask`, the k-th of them at face index (k * V + v) * U + u, in node order, so
// devices may store their columns differently. Every launch has one width per device and its
// work-items stride over the face (core/kernel.hpp says why). Elements are moved as unsigned integers
// of their size, so one kernel serves every storage.
#define C_ENTRY(i, cx, cy, cz, o) cx, cy, cz,
__constant int C_TABLE[57] = {D3Q19(C_ENTRY)};
#undef C_ENTRY

inline int face_value(const uint mask, const int k) {
  int seen = 0, found = 0;
  for (int i = 0; i < 19; ++i) {
    if ((mask >> i) & 1u) {
      if (seen == k) found = i;
      ++seen;
    }
  }
  return found;
}

#define FACE_ARGS                                                                                   \
  const int nx, const int ny, const int per_plane, const int axis, const int at, const uint mask, \
      const int U, const int V
// Runs the body for every value of the face; it sees the node (x, y, z), the value i, its field index
// `cell` and its face index `at_face`.
#define FOR_EACH_FACE_VALUE(...)                                                                         \
  const idx_t plane = (idx_t)nx * (idx_t)ny;                                                           \
  const uint count = (uint)U * (uint)V * popcount(mask);                                               \
  for (uint at_face = get_global_id(0); at_face < count; at_face += get_global_size(0)) {              \
    const int u = (int)(at_face % (uint)U), v = (int)(at_face / (uint)U % (uint)V);                    \
    const int x = axis == 0 ? at : u, y = axis == 0 ? u : axis == 1 ? at : v, z = axis == 2 ? at : v; \
    const int i = face_value(mask, (int)(at_face / ((uint)U * (uint)V)));                             \
    const int col = per_plane == 19 ? column(i, x, nx) : x; /* populations: their columns */          \
    const idx_t cell = ((idx_t)z * (idx_t)per_plane + (idx_t)i) * plane + (idx_t)y * (idx_t)nx + (idx_t)col; \
    __VA_ARGS__                                                                                        \
  }

// pack: face <- field; unpack: field <- face (a halo filled from a neighbour's boundary layer), but for
// the populations of a wall node, which hold what this box's own fluid nodes stored there for
// themselves (BOUNCE_INTO_WALLS) or nothing anyone reads.
// merge (populations, after a swap): the face holds the packets the neighbour pushed into its halo
// towards this box's boundary layer `at`; copies those that a fluid node pushed. Where the pusher
// (at x - c_i, in this box's facing halo) is a wall, the boundary node bounced its own packet into
// that slot, which stands.
#define FACE_KERNELS(T, BYTES)                                                                               \
  __kernel void lbm_pack_##BYTES(__global const T* restrict field, __global T* restrict face, FACE_ARGS) {   \
    FOR_EACH_FACE_VALUE(face[at_face] = field[cell];)                                                        \
  }                                                                                                          \
  __kernel void lbm_unpack_##BYTES(__global T* restrict field, __global const T* restrict face, FACE_ARGS,   \
                                   __global const uchar* restrict flags) {                                  \
    FOR_EACH_FACE_VALUE(                                                                                     \
        if (per_plane != 19 || (flags[NODE(x, y, z)] & TYPE_MASK) != WALL) field[cell] = face[at_face];)    \
  }                                                                                                          \
  __kernel void lbm_merge_##BYTES(__global T* restrict field, __global const T* restrict face, FACE_ARGS,    \
                                  __global const uchar* restrict flags, const int nz) {                     \
    FOR_EACH_FACE_VALUE(                                                                                     \
        const int px = (x - C_TABLE[3 * i] + nx) % nx, py = (y - C_TABLE[3 * i + 1] + ny) % ny;             \
        const int pz = (z - C_TABLE[3 * i + 2] + nz) % nz;                                                   \
        if ((flags[NODE(px, py, pz)] & TYPE_MASK) != WALL) field[cell] = face[at_face];)                    \
  }
FACE_KERNELS(ushort, 2)
FACE_KERNELS(uint, 4)
FACE_KERNELS(ulong, 8)
#undef FACE_KERNELS

// Records, for every node, which neighbours are walls (bit i: x + c_i) and sets NEAR_WALL on the
// non-wall nodes that have any. Reads `flags`, writes `marked`: no node reads what another writes.
__kernel void lbm_mark(const int8 region, __global uchar* restrict marked, __global uint* restrict wall_bits,
                       __global const uchar* restrict flags, const int nx, const int ny, const int nz) {
  NODE_SETUP
  uint walls = 0;
#define CHECK(i, cx, cy, cz, o) \
  walls |= (uint)((flags[NODE(AT_X(cx), AT_Y(cy), AT_Z(cz))] & TYPE_MASK) == WALL) << (i);
  D3Q19(CHECK)
#undef CHECK
  wall_bits[n] = walls;
  const uchar type = flag & TYPE_MASK;
  const bool near = type != WALL && (walls != 0 || type == INLET || type == OUTLET);
  marked[n] = near ? (uchar)(flag | NEAR_WALL) : (uchar)(flag & TYPE_MASK);
}

// Equilibrium at state (rho, u) in every node's natural slots: the pre-collision state of step 0 for
// every pattern.
// With use_rho_field each node's density comes from rho_field (the nodes' layout), with use_u_field its
// velocity from u_field (3 per node).
__kernel void lbm_init(__global store_t* fbuf, const int nx, const int ny, const int nz, const real_t rho_uniform,
                       const real_t ux_uniform, const real_t uy_uniform, const real_t uz_uniform,
                       __global const real_t* restrict rho_field, const int use_rho_field,
                       __global const real_t* restrict u_field, const int use_u_field) {
  const int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  if (x >= nx) return;
  const idx_t plane = (idx_t)nx * (idx_t)ny;
  const real_t rho = use_rho_field ? rho_field[NODE(x, y, z)] : rho_uniform;
  const real_t ux = use_u_field ? u_field[3 * NODE(x, y, z)] : ux_uniform;
  const real_t uy = use_u_field ? u_field[3 * NODE(x, y, z) + 1] : uy_uniform;
  const real_t uz = use_u_field ? u_field[3 * NODE(x, y, z) + 2] : uz_uniform;
  const real_t usq = (real_t)1.5 * (ux * ux + uy * uy + uz * uz);
#define INIT(i, cx, cy, cz, o) \
  STORE(fbuf, SLOT(i, x, y, z), equilibrium(WEIGHT(i), rho - (real_t)1, rho, (real_t)3 * CDOT(cx, cy, cz, ux, uy, uz), usq));
  D3Q19(INIT)
#undef INIT
}

// Moments of the pre-collision state of node n: `layout` 0 reads natural slots (A-B, A-A after an odd
// step), 1 the A-A reversed layout after an even step, 2 Lagrangian slots with shift (tx, ty, tz).
#define STATE_MOMENTS                                                       \
  const uint walls = wall_bits[n];                                          \
  real_t drho = 0, jx = 0, jy = 0, jz = 0;                                  \
  if ((flag & TYPE_MASK) == INLET || (flag & TYPE_MASK) == OUTLET) {        \
    /* An open node's state is what its boundary condition makes of it. */  \
    real_t f[19];                                                           \
    if (layout == 1) {                                                      \
      D3Q19(LOAD_REVERSED_UNSHIFTED)                                        \
    } else if (layout == 2) {                                               \
      D3Q19(LOAD_LAG_UNSHIFTED)                                             \
    } else {                                                                \
      D3Q19(LOAD_OWN_UNSHIFTED)                                             \
    }                                                                       \
    zou_he(f, (flag & TYPE_MASK) == INLET, in_ux, in_uy, in_uz, out_rho);   \
    D3Q19(MOMENTS_OF_ARRAY)                                                 \
  } else if (layout == 1) {                                                 \
    D3Q19(ACCUMULATE_REVERSED)                                              \
  } else if (layout == 2) {                                                 \
    D3Q19(ACCUMULATE_LAG)                                                   \
  } else {                                                                  \
    D3Q19(ACCUMULATE_OWN)                                                   \
  }
#define LOAD_REVERSED_UNSHIFTED(i, cx, cy, cz, o) f[i] = READ_AFTER_EVEN(i, cx, cy, cz, o) + WEIGHT(i);
#define LOAD_LAG_UNSHIFTED(i, cx, cy, cz, o) f[i] = READ_LAG(i, cx, cy, cz, o) + WEIGHT(i);
#define LOAD_OWN_UNSHIFTED(i, cx, cy, cz, o) f[i] = READ_OWN(i, cx, cy, cz, o) + WEIGHT(i);
#define ACCUMULATE_WITH(READ_RULE, i, cx, cy, cz, o)               \
  {                                                                \
    const real_t v = READ_RULE(i, cx, cy, cz, o) JUMPED(i, cz, o); \
    ADD_MOMENTS(v, cx, cy, cz)                                     \
  }
#define ACCUMULATE_REVERSED(i, cx, cy, cz, o) ACCUMULATE_WITH(READ_AFTER_EVEN, i, cx, cy, cz, o)
#define ACCUMULATE_LAG(i, cx, cy, cz, o) ACCUMULATE_WITH(READ_LAG, i, cx, cy, cz, o)
#define ACCUMULATE_OWN(i, cx, cy, cz, o) ACCUMULATE_WITH(READ_OWN, i, cx, cy, cz, o)

#ifdef LBM_NO_FMA
// exp from correctly rounded +, -, * and exact rint/ldexp alone, so devices of different kinds agree to
// the bit (their built-in exp may differ by an ulp). x = k ln2 + r with ln2 split so that k ln2_hi is
// exact, |r| <= ln2 / 2; the Taylor series to degree 13 leaves a relative error below 1e-17.
inline real_t portable_exp(const real_t x) {
  const bool dbl = sizeof(real_t) == 8;
  const real_t ln2_hi = dbl ? (real_t)6.93147180369123816490e-01 : (real_t)0.693145751953125;
  const real_t ln2_lo = dbl ? (real_t)1.90821492927058770002e-10 : (real_t)1.428606765330187e-06;
  const real_t k = rint(x * (real_t)1.4426950408889634);
  const real_t r = (x - k * ln2_hi) - k * ln2_lo;
  // 1/j!, j = 0 .. 13, rounded once to real_t.
  const real_t c[14] = {1, 1, 0.5, 0.16666666666666666, 0.041666666666666664, 0.0083333333333333332, 0.0013888888888888889,
                        0.00019841269841269841, 2.4801587301587302e-05, 2.7557319223985893e-06, 2.7557319223985888e-07, 2.505210838544172e-08, 2.08767569878681e-09, 1.6059043836821613e-10};
  real_t p = c[13];
  for (int j = 12; j >= 0; --j) p = p * r + c[j];
  return ldexp(p, (int)k);
}
#define PSI_EXP portable_exp
#else
#define PSI_EXP exp
#endif

// The Shan-Chen pseudo-potential psi = psi0 exp(-rho0 / rho) (Shan & Chen 1993) of every fluid node,
// zero on walls (no wall adhesion), for the step that follows.
__kernel void lbm_psi(const int8 region, __global real_t* restrict psi_out, __global const store_t* restrict fin, FLAG_ARGS,
                      const int nx, const int ny, const int nz, const int layout, const int tx, const int ty,
                      const int tz, const real_t psi0, const real_t rho0, BOUNDARY_ARGS) {
  NODE_SETUP
  if ((flag & TYPE_MASK) == WALL) {
    psi_out[n] = 0;
    return;
  }
  STATE_MOMENTS
  psi_out[n] = psi0 * PSI_EXP(-rho0 / ((real_t)1 + drho));
}

#ifdef TWO_COMPONENT
// The mixture field (see MIX) of the current state of components 0 (populations fa) and 1 (fb): their
// densities, and Shan-Chen's common velocity u' = sum_s j_s omega_s / sum_s rho_s omega_s. Wall nodes
// get the components' wall densities, which set the contact angle, and u' = 0.
__kernel void lbm_mix(const int8 region, __global real_t* restrict psi, __global const store_t* restrict fa, FLAG_ARGS, const int nx,
                      const int ny, const int nz, const int layout, const int tx, const int ty, const int tz,
                      __global const store_t* restrict fb, const real_t omega_a, const real_t omega_b,
                      const real_t wall_a, const real_t wall_b, BOUNDARY_ARGS) {
  NODE_SETUP
  real_t rho[2] = {wall_a, wall_b}, u[3] = {0, 0, 0};
  if ((flag & TYPE_MASK) != WALL) {
    real_t j[3] = {0, 0, 0};
    const real_t omegas[2] = {omega_a, omega_b};
    for (int s = 0; s < 2; ++s) {
      __global const store_t* restrict fin = s == 0 ? fa : fb;
      STATE_MOMENTS
      rho[s] = (real_t)1 + drho;
      j[0] += omegas[s] * jx;
      j[1] += omegas[s] * jy;
      j[2] += omegas[s] * jz;
    }
    const real_t inv = (real_t)1 / (omega_a * rho[0] + omega_b * rho[1]);
    for (int d = 0; d < 3; ++d) u[d] = j[d] * inv;
  }
  for (int k = 0; k < 2; ++k) MIX(k, x, y, z) = rho[k];
  for (int d = 0; d < 3; ++d) MIX(2 + d, x, y, z) = u[d];
}
#endif

// Density and velocity of the pre-collision state (velocity with half the force, the second-order
// velocity of Guo's scheme), u_out the first `components` (2 or 3) of it per node: 2 hands a flat
// lattice's velocity to a 2-D solver (in situ) as it lies. Walls get rho = 0, u = 0. With TWO_COMPONENT, of component `1 - other`,
// and u_out holds its momentum density with half its force, j + F/2: the host sums the components'
// and divides by the total density (the mixture's velocity), so no component density is divided by.
__kernel void lbm_fields(const int8 region, __global real_t* restrict rho_out, __global real_t* restrict u_out,
                         const int components, __global const store_t* restrict fin, FLAG_ARGS, const int nx, const int ny, const int nz,
                         const int layout, const int tx, const int ty, const int tz, const real_t fx,
                         const real_t fy, const real_t fz, __global const real_t* restrict psi, const real_t sc_g,
                         BOUNDARY_ARGS MIX_ARG) {
  NODE_SETUP
  const idx_t at = (idx_t)components * n;
  if ((flag & TYPE_MASK) == WALL) {
    rho_out[n] = 0;
    for (int c = 0; c < components; ++c) u_out[at + c] = 0;
    return;
  }
  STATE_MOMENTS
  NODE_FORCE
  const real_t rho = (real_t)1 + drho;
  rho_out[n] = rho;
#ifdef TWO_COMPONENT
  const real_t u[3] = {jx + (real_t)0.5 * rho * Ax, jy + (real_t)0.5 * rho * Ay, jz + (real_t)0.5 * rho * Az};
#else
  const real_t u[3] = {(jx + (real_t)0.5 * Fx) / rho, (jy + (real_t)0.5 * Fy) / rho, (jz + (real_t)0.5 * Fz) / rho};
#endif
  for (int c = 0; c < components; ++c) u_out[at + c] = u[c];
}

#ifdef LBM_VEC
// The patterns on CPUs: a work-item updates LBM_VEC consecutive nodes along x as one vector of each quantity,
// through the node update above with LANE a vector. CPUs run work-items in SIMD lanes only where their
// OpenCL compiler's cost model says it pays, and PoCL 5 with LLVM 16 finds that it does not, which leaves
// these kernels scalar (docs/lbm-validation.md, "Performance"); explicit vectors need no such
// decision, and their loads along x are contiguous rather than gathered. A vector whose nodes would
// wrap along x or pass the region's end, or holding an inlet or outlet node, is updated node by node.
// Wall nodes are masked: the even step keeps their slots (a blend with what was there: only this
// work-item touches its nodes' own slots); in a vector holding a wall the pushing kernels store the
// other lanes' packets one by one, since the slots a wall lane would push into belong to other nodes.
#if defined(SHAN_CHEN) || defined(TWO_COMPONENT)
#error "LBM_VEC takes single-phase lattices only"
#endif
#define VCAT_(a, b) a##b
#define VCAT(a, b) VCAT_(a, b)
// The host sets LBM_VEC only for FP32 arithmetic (FP32 or FP16 storage): float lanes, int masks for
// select().
typedef VCAT(float, LBM_VEC) vreal_t;
typedef VCAT(int, LBM_VEC) vmask_t;
typedef VCAT(uint, LBM_VEC) vuint_t;
#define TO_MASK(c) VCAT(convert_int, LBM_VEC)(c)
#define VLOAD_RAW(p, k) VCAT(vload, LBM_VEC)(0, (p) + (k))
#define VSTORE_RAW(p, k, v) VCAT(vstore, LBM_VEC)(v, 0, (p) + (k))
#ifdef STORE_HALF
// IEEE half to float and back by integer operations, exact, rounding to nearest even as vstore_half
// does, on the halves' bits loaded as ushorts: PoCL 3.1 compiles vload_half8 to an aligned 16-byte
// load, which faults at the x-neighbours' addresses (OpenCL asks only for a half's alignment), and
// converting half by half through vload_half lost most of the vectors' gain (docs/lbm-validation.md).
inline vreal_t float_of_half_bits(const vuint_t h) {
  const vuint_t sign = (h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
  // A subnormal half is a normal float: shift its leading one onto bit 10, lower the exponent to match.
  const vuint_t s = clz(m) - 21u;
  const vuint_t subnormal = select(((113u - s) << 23) | (((m << s) & 0x3ffu) << 13), (vuint_t)0, m == 0u);
  const vuint_t normal = ((e + 112u) << 23) | (m << 13);
  const vuint_t special = 0x7f800000u | (m << 13);  // infinity, NaN
  return VCAT(as_float, LBM_VEC)(sign | select(select(normal, special, e == 31u), subnormal, e == 0u));
}
inline vuint_t half_bits_of_float(const vreal_t f) {
  const vuint_t x = VCAT(as_uint, LBM_VEC)(f), sign = (x >> 16) & 0x8000u, a = x & 0x7fffffffu;
  // Normal half: rebias the exponent, round the 13 dropped bits to nearest even (a carry may raise it).
  const vuint_t normal = (a - 0x38000000u + 0xfffu + ((a >> 13) & 1u)) >> 13;
  // Subnormal half, |f| < 2^-14: the 24-bit significand in units of 2^-24 is shifted right by r >= 14.
  const vuint_t r = 126u - (a >> 23), significand = (a & 0x7fffffu) | 0x800000u;
  const vuint_t q = significand >> r, rest = significand & (((vuint_t)1 << r) - 1u), tie = (vuint_t)1 << (r - 1u);
  const vuint_t subnormal = q + select((vuint_t)0, (vuint_t)1, (rest > tie) | ((rest == tie) & ((q & 1u) == 1u)));
  vuint_t h = select(normal, subnormal, a < 0x38800000u);
  h = select(h, (vuint_t)0, a < 0x33000000u);                                  // below 2^-25: zero
  h = select(h, (vuint_t)0x7c00u, a >= 0x477ff000u);                           // 65520 and up: infinity
  h = select(h, (vuint_t)0x7e00u | ((a >> 13) & 0x3ffu), a > 0x7f800000u);    // NaN stays quiet NaN
  return sign | h;
}
#define VLOAD(p, k) \
  float_of_half_bits(VCAT(convert_uint, LBM_VEC)(VLOAD_RAW((__global const ushort*)(p), k)))
#define VSTORE(p, k, v) VSTORE_RAW((__global ushort*)(p), k, VCAT(convert_ushort, LBM_VEC)(half_bits_of_float(v)))
#else
#define VLOAD(p, k) VLOAD_RAW(p, k)
#define VSTORE(p, k, v) VSTORE_RAW(p, k, v)
#endif

COLLISION(vreal_t, _vec)
#undef LANE
#undef COLLIDE
#define LANE vreal_t
#define COLLIDE(name) name##_vec
// The planes of a pressure jump take the node path (OFF_JUMP_PLANES in VEC_SETUP).
#undef JUMPED
#define JUMPED(i, cz, o)
// Vector kernels choose per vector between the rules READ_FAST / WRITE_FAST (no lane beside a wall) and
// READ_NEAR / WRITE_NEAR (reading `walls`): the wall tests cost the CPU's lanes more than a branch.
#undef READ
#undef WRITE
#define READ(i, cx, cy, cz, o) (near ? READ_NEAR(i, cx, cy, cz, o) : READ_FAST(i, cx, cy, cz, o))
#define WRITE(i, cx, cy, cz, o, v)                     \
  {                                                    \
    const LANE v_ = (v);                               \
    if (live) {                                        \
      if (near) {                                      \
        WRITE_NEAR(i, cx, cy, cz, o, v_)               \
      } else {                                         \
        WRITE_FAST(i, cx, cy, cz, o, v_)               \
      }                                                \
    }                                                  \
  }

// Stores lane l of vector v, for every lane where COND holds, at SLOT_OF_LANE (both may use l).
#define STORE_LANES(v, COND, SLOT_OF_LANE)                     \
  {                                                            \
    real_t lanes_[LBM_VEC];                                    \
    VCAT(vstore, LBM_VEC)(v, 0, lanes_);                       \
    for (int l = 0; l < LBM_VEC; ++l) {                        \
      if (COND) STORE(fout, SLOT_OF_LANE, lanes_[l]);          \
    }                                                          \
  }
#define LANE_LIVE ((flags[n + l] & TYPE_MASK) != WALL)
// The vector's own slots and its neighbours' (x - 1 and x + LBM_VEC exist: no lane wraps).
#define VREAD_OWN(i, cx, cy, cz, o) VLOAD(fin, SLOT(i, x, y, z))
#define VREAD_REVERSED(i, cx, cy, cz, o) VLOAD(fin, SLOT(o, x - (cx), AT_Y(-(cy)), AT_Z(-(cz))))
#define VREAD_REVERSED_WALLS(i, cx, cy, cz, o) \
  select(VREAD_REVERSED(i, cx, cy, cz, o), VREAD_OWN(i, cx, cy, cz, o), TO_MASK(((walls >> (o)) & 1u) != 0u))
#define VWRITE_OPPOSITE(i, cx, cy, cz, o, v)                                 \
  if (all_live) {                                                            \
    VSTORE(fout, SLOT(o, x, y, z), v);                                       \
  } else {                                                                   \
    VSTORE(fout, SLOT(o, x, y, z), select(VLOAD(fout, SLOT(o, x, y, z)), v, live_lanes)); \
  }
// A fluid lane's packet towards a wall also lands in the wall's slot, which nothing reads.
#define VWRITE_PUSH(i, cx, cy, cz, o, v)                                               \
  if (all_live) {                                                                      \
    VSTORE(fout, SLOT(i, x + (cx), AT_Y(cy), AT_Z(cz)), v);                            \
  } else {                                                                             \
    STORE_LANES(v, LANE_LIVE, SLOT(i, x + (cx) + l, AT_Y(cy), AT_Z(cz)))               \
  }
#define VWRITE_PUSH_WALLS(i, cx, cy, cz, o, v) \
  VWRITE_PUSH(i, cx, cy, cz, o, v)             \
  STORE_LANES(v, LANE_LIVE && ((wall_bits[n + l] >> (i)) & 1u), SLOT(o, x + l, y, z))

// The vector at x = region.s0 + LBM_VEC * id, or its nodes one by one through `node(..., ARGS)` (see
// above); `reach` is 1 where the update reads or writes the x-neighbours, and `fits` must hold too.
#define VEC_SETUP(node, reach, fits, ARGS)                                                                          \
  const int x = region.s0 + LBM_VEC * (int)get_global_id(0), y = region.s1 + (int)get_global_id(1);   \
  const int z = region.s2 + (int)get_global_id(2);                                                    \
  if (x >= region.s3 || y >= region.s4) return;                                                       \
  const idx_t plane = (idx_t)nx * (idx_t)ny;                                                          \
  const idx_t n = NODE(x, y, z);                                                                      \
  bool whole =                                                                                        \
      x + LBM_VEC <= region.s3 && x >= (reach) && x + LBM_VEC + (reach) <= nx && (fits) OFF_JUMP_PLANES(z); \
  VCAT(uchar, LBM_VEC) types = 0;                                                                     \
  if (whole) {                                                                                        \
    types = VLOAD_RAW(flags, n) & (uchar)TYPE_MASK;                                               \
    whole = !any((types == (uchar)INLET) | (types == (uchar)OUTLET));                                 \
  }                                                                                                   \
  if (!whole) {                                                                                       \
    for (int l = 0; l < LBM_VEC && x + l < region.s3; ++l) node(x + l, y, z, ARGS);                   \
    return;                                                                                           \
  }                                                                                                   \
  const vmask_t live_lanes = TO_MASK(types != (uchar)WALL);                                           \
  const bool all_live = all(live_lanes);                                                              \
  const bool live = true; /* per lane: live_lanes */                                                  \
  const int ym = y == 0 ? ny - 1 : y - 1, yp = y == ny - 1 ? 0 : y + 1;                               \
  const int zm = z == 0 ? nz - 1 : z - 1, zp = z == nz - 1 ? 0 : z + 1;

// A-B, the A-A odd step and Lagrangian treat walls only beside them.
#define PUSHING_UPDATE                         \
  const vuint_t walls = VLOAD_RAW(wall_bits, n); \
  if (any(walls != 0u)) {                      \
    const bool near = true;                    \
    UPDATE_NODE                                \
  } else {                                     \
    const bool near = false;                   \
    UPDATE_NODE                                \
  }

__kernel void lbm_ab_vec(const int8 region, AB_PARAMS) {
  VEC_SETUP(ab_node, 1, true, AB_ARGS)
#define READ_FAST VREAD_OWN
#define READ_NEAR VREAD_OWN
#define WRITE_FAST VWRITE_PUSH
#define WRITE_NEAR VWRITE_PUSH_WALLS
  PUSHING_UPDATE
#undef READ_FAST
#undef READ_NEAR
#undef WRITE_FAST
#undef WRITE_NEAR
}

__kernel void lbm_aa_even_vec(const int8 region, AA_PARAMS) {
  VEC_SETUP(aa_even_node, 0, true, AA_ARGS)
  __global store_t* fin = fbuf;
  __global store_t* fout = fbuf;
  const bool near = false;
#define READ_FAST VREAD_OWN
#define READ_NEAR VREAD_OWN
#define WRITE_FAST VWRITE_OPPOSITE
#define WRITE_NEAR VWRITE_OPPOSITE
  UPDATE_NODE
#undef READ_FAST
#undef READ_NEAR
#undef WRITE_FAST
#undef WRITE_NEAR
}

__kernel void lbm_aa_odd_vec(const int8 region, AA_PARAMS) {
  VEC_SETUP(aa_odd_node, 1, true, AA_ARGS)
  __global store_t* fin = fbuf;
  __global store_t* fout = fbuf;
#define READ_FAST VREAD_REVERSED
#define WRITE_FAST VWRITE_PUSH
#define READ_NEAR VREAD_REVERSED_WALLS
#define WRITE_NEAR VWRITE_PUSH_WALLS
  PUSHING_UPDATE
#undef READ_FAST
#undef WRITE_FAST
#undef READ_NEAR
#undef WRITE_NEAR
}

// Lagrangian: the nodes' own slots sit at x - t c_i, whole vectors where neither shift along x wraps
// inside the vector. A node whose neighbour towards i is a wall also writes its own slot of i, which no
// node reads next step (its reader would be that wall), besides the bounced packet.
#define VREAD_LAG(i, cx, cy, cz, o) VLOAD(fin, LAG_SLOT(i, cx, cy, cz, tx, ty, tz))
#define VWRITE_LAG(i, cx, cy, cz, o, v)                                               \
  if (all_live) {                                                                     \
    VSTORE(fout, LAG_SLOT(i, cx, cy, cz, tx, ty, tz), v);                             \
  } else {                                                                            \
    STORE_LANES(v, LANE_LIVE, LAG_SLOT(i, cx, cy, cz, tx, ty, tz) + l)                \
  }
#define VWRITE_LAG_WALLS(i, cx, cy, cz, o, v) \
  VWRITE_LAG(i, cx, cy, cz, o, v)             \
  STORE_LANES(v, LANE_LIVE && ((wall_bits[n + l] >> (i)) & 1u), LANE_BOUNCE_SLOT(i, cx, cy, cz, o))
// The slot of node x + l's packet towards a wall, bounced (WRITE_LAG_WALLS).
#define LANE_BOUNCE_SLOT(i, cx, cy, cz, o) \
  SLOT(o, wrap_shift(x + l, cx, ux, nx), wrap_shift(y, cy, uy, ny), wrap_shift(z, cz, uz, nz))

__kernel void lbm_lagrangian_vec(const int8 region, LAG_PARAMS) {
  VEC_SETUP(lagrangian_node, 0,
            wrap_shift(x, -1, tx, nx) + LBM_VEC <= nx && wrap_shift(x, 1, tx, nx) + LBM_VEC <= nx, LAG_ARGS)
  __global store_t* fin = fbuf;
  __global store_t* fout = fbuf;
  NEXT_SHIFT
#define READ_FAST VREAD_LAG
#define READ_NEAR VREAD_LAG
#define WRITE_FAST VWRITE_LAG
#define WRITE_NEAR VWRITE_LAG_WALLS
  PUSHING_UPDATE
#undef READ_FAST
#undef READ_NEAR
#undef WRITE_FAST
#undef WRITE_NEAR
}
#endif
