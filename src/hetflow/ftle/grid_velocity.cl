// Gridded velocity for ftle/ftle.cl, included there when FLOW == FLOW_GRID (after its vector types and
// tracer status codes): interpolation in space and time, and the boundary modes at and beyond the data
// box's faces (docs/ftle.md, "Boundary modes"). params: origin[3], 1/spacing[3], the upper faces[3] (then the
// free stream);
// dims: nodes per axis (z = 1 in 2D). Snapshot k holds nodes x-fastest, the DIM components of a node
// together. Between snapshots the velocity is linear in time.

// Box [0, n - 1] in node units. Clamp, stop and freeze see the velocity outside it as that of its
// nearest point, and extrapolate continues it from there (continued_velocity). Free stream reads zero
// disturbance at the nodes beyond the faces; points farther out than the interpolation's taps reach
// are pulled to where every tap is such a node, so far tracers need no large indices.
inline real_t to_grid(real_t x, real_t origin, real_t inv_h, int n) {
  const real_t s = (x - origin) * inv_h;
#if BOUNDARY == BOUNDARY_PERIODIC
  return s;
#elif BOUNDARY == BOUNDARY_FREE_STREAM
  return clamp(s, (real_t)-3, (real_t)(n + 1));
#else
  return clamp(s, (real_t)0, (real_t)(n - 1));
#endif
}

#ifdef INTERP_M4
#define TAPS 4
// M4' (Monaghan 1985; Conti et al. 2012, Eq. 11) weights of nodes i0 - 1 .. i0 + 2 at fraction f of the
// cell [i0, i0 + 1].
inline void weights(real_t f, real_t* w) {
  const real_t g = 1 - f;
  w[0] = -(real_t)0.5 * f * g * g;
  w[1] = 1 - (real_t)2.5 * f * f + (real_t)1.5 * f * f * f;
  w[2] = 1 - (real_t)2.5 * g * g + (real_t)1.5 * g * g * g;
  w[3] = -(real_t)0.5 * f * f * g;
}
#define FIRST_TAP(i0) ((i0) - 1)
#else
#define TAPS 2
inline void weights(real_t f, real_t* w) {
  w[0] = 1 - f;
  w[1] = f;
}
#define FIRST_TAP(i0) (i0)
#endif

// The TAPS node indices along one axis from node `first` on, in 32-bit arithmetic (an axis has fewer
// than 2^31 nodes; 64-bit division and products cost GPUs several instructions each).
inline void axis_nodes(int first, int n, int* idx) {
#if BOUNDARY == BOUNDARY_PERIODIC
  // The grid repeats with period n (node n is node 0 again): one remainder, then wrap by comparison.
  int m = first % n;
  if (m < 0) m += n;
  for (int a = 0; a < TAPS; ++a) {
    idx[a] = m;
    m = m + 1 == n ? 0 : m + 1;
  }
#else
  for (int a = 0; a < TAPS; ++a) idx[a] = clamp(first + a, 0, n - 1);
#endif
}

// Free stream: the nodes beyond the faces hold no disturbance, so their taps weigh nothing (their
// clamped indices read some node, times zero). The data part then falls from its face value to 0 within
// the taps' reach beyond the face, continuously, like any other interpolated values.
inline void pad_with_zeros(int first, int n, real_t* w) {
#if BOUNDARY == BOUNDARY_FREE_STREAM
  for (int a = 0; a < TAPS; ++a) {
    if (first + a < 0 || first + a >= n) w[a] = 0;
  }
#endif
}

// Indices into a velocity series: 32-bit (cheaper address arithmetic) unless the host says the series
// holds 2^31 reals or more.
#ifdef VELOCITY_INDEX64
typedef long vidx_t;
#else
typedef int vidx_t;
#endif

// Velocity of snapshot `snap` at grid coordinate s (node units), interpolated with the tensor product of
// one-dimensional weights.
inline vec_t sample_snapshot(__global const real_t* velocity, long snap, const real_t* s, int4 dims) {
  real_t w[3][TAPS];
  int idx[3][TAPS];
  const int n[3] = {dims.x, dims.y, dims.z};
  for (int d = 0; d < DIM; ++d) {
    const real_t fl = floor(s[d]);
    weights(s[d] - fl, w[d]);
    axis_nodes(FIRST_TAP((int)fl), n[d], idx[d]);
    pad_with_zeros(FIRST_TAP((int)fl), n[d], w[d]);
  }
  vec_t u;
  for (int c = 0; c < DIM; ++c) u.c[c] = 0;
  const vidx_t nx = dims.x, ny = dims.y;
#ifdef VELOCITY_SLOTS
  // A streamed series: snapshot k sits in slot k % VELOCITY_SLOTS of a ring the host refills, and the
  // host launches each step only once the snapshots bracketing its stage times are there (solver.cpp).
  const vidx_t base = (vidx_t)(snap % VELOCITY_SLOTS) * nx * ny * (vidx_t)dims.z;
#else
  const vidx_t base = (vidx_t)snap * nx * ny * (vidx_t)dims.z;
#endif
#if DIM == 2
  // A node's (u, v) pair is read as one real2_t (one 8- or 16-byte load instead of two): the series
  // buffers start aligned and hold DIM reals per node.
  const __global real2_t* nodes = (const __global real2_t*)velocity;
  for (int b = 0; b < TAPS; ++b) {
    const vidx_t row = base + idx[1][b] * nx;
    for (int a = 0; a < TAPS; ++a) {
      const real_t wab = w[0][a] * w[1][b];
      const real2_t node = nodes[row + idx[0][a]];
      u.c[0] += wab * node.x;
      u.c[1] += wab * node.y;
    }
  }
#else
  for (int e = 0; e < TAPS; ++e) {
    for (int b = 0; b < TAPS; ++b) {
      const real_t wbe = w[1][b] * w[2][e];
      const vidx_t row = base + (idx[2][e] * ny + idx[1][b]) * nx;
      for (int a = 0; a < TAPS; ++a) {
        const real_t wabe = w[0][a] * wbe;
        const __global real_t* node = velocity + (row + idx[0][a]) * DIM;
        u.c[0] += wabe * node[0];
        u.c[1] += wabe * node[1];
        u.c[2] += wabe * node[2];
      }
    }
  }
#endif
  return u;
}

// The series at grid coordinate s (node units) and time t.
inline vec_t sample_series(const real_t* s, real_t t, __global const real_t* velocity, __global const real_t* times,
                           uint snapshots, int4 dims) {
  if (snapshots == 1) return sample_snapshot(velocity, 0, s, dims);
  // The interval [times[k], times[k + 1]] holding t; times outside the series take its end snapshots
  // (the host keeps the integration window inside the series, so only rounding gets there).
  uint lo = 0, hi = snapshots - 1;
  while (hi - lo > 1) {
    const uint mid = (lo + hi) / 2;
    if (times[mid] <= t) lo = mid;
    else hi = mid;
  }
  const real_t w = clamp((t - times[lo]) / (times[hi] - times[lo]), (real_t)0, (real_t)1);
  const vec_t u0 = sample_snapshot(velocity, lo, s, dims);
  const vec_t u1 = sample_snapshot(velocity, hi, s, dims);
  vec_t u;
  for (int c = 0; c < DIM; ++c) u.c[c] = (1 - w) * u0.c[c] + w * u1.c[c];
  return u;
}

#if BOUNDARY == BOUNDARY_EXTRAPOLATE
// Extrapolate: at x outside the box, the velocity at its nearest box point p plus, per axis along which x
// lies beyond a face, the distance beyond it (node units) times the difference across the last cell
// there, from the face's node plane to the one inside it. That difference reads data only (M4' and
// linear weights pick a single node plane at a node coordinate), so a linear field continues exactly,
// and the velocity is continuous across the faces. Inside the box it is the interpolated velocity.
inline vec_t continued_velocity(vec_t x, const real_t* p, real_t t, __global const real_t* params,
                                __global const real_t* velocity, __global const real_t* times, uint snapshots,
                                int4 dims) {
  const vec_t at_face = sample_series(p, t, velocity, times, snapshots, dims);
  vec_t u = at_face;
  for (int d = 0; d < DIM; ++d) {
    const real_t beyond = (x.c[d] - params[d]) * params[3 + d] - p[d];
    if (beyond == 0) continue;
    real_t q[3] = {p[0], p[1], p[2]};
    q[d] += beyond > 0 ? -1 : 1;
    const vec_t inner = sample_series(q, t, velocity, times, snapshots, dims);
    for (int c = 0; c < DIM; ++c) u.c[c] += fabs(beyond) * (at_face.c[c] - inner.c[c]);
  }
  return u;
}
#endif

inline vec_t interpolated_velocity(vec_t x, real_t t, __global const real_t* params, __global const real_t* velocity,
                                   __global const real_t* times, uint snapshots, int4 dims) {
  const int n[3] = {dims.x, dims.y, dims.z};
  real_t s[3] = {0, 0, 0};
  for (int d = 0; d < DIM; ++d) s[d] = to_grid(x.c[d], params[d], params[3 + d], n[d]);
#if BOUNDARY == BOUNDARY_EXTRAPOLATE
  return continued_velocity(x, s, t, params, velocity, times, snapshots, dims);
#else
  return sample_series(s, t, velocity, times, snapshots, dims);
#endif
}

// The gridded velocity as the tracers see it. With FREE_STREAM, params[9 ..] hold a uniform velocity U
// added once to the interpolated value rather than to every node: U enters as given (one rounding of the
// sum), not through weights that sum to 1 only to rounding, and a run without it builds without the
// extra loads.
inline vec_t velocity_at(vec_t x, real_t t, __global const real_t* params, __global const real_t* velocity,
                         __global const real_t* times, uint snapshots, int4 dims) {
#ifdef FREE_STREAM
  vec_t u = interpolated_velocity(x, t, params, velocity, times, snapshots, dims);
  for (int c = 0; c < DIM; ++c) u.c[c] += params[9 + c];
  return u;
#else
  return interpolated_velocity(x, t, params, velocity, times, snapshots, dims);
#endif
}

// The data box along axis d is [params[d], params[6 + d]].
inline bool in_box(vec_t x, __global const real_t* params) {
  bool inside = true;
  for (int d = 0; d < DIM; ++d) inside = inside && x.c[d] >= params[d] && x.c[d] <= params[6 + d];
  return inside;
}

// Where a stage point or a step's end point may lie: clamp pulls it into the box, stop refuses a point
// outside it (the tracer then stays where its step began), the other modes take it where it is
// (periodic positions stay unwrapped, so the flow map's gradient sees the true separation; freeze ends
// a step that ends outside in step()). An end point outside marks the tracer in *code, and under stop,
// which ends the tracer there, any stage point; clamp leaves its stage points unmarked, since testing
// each of them slows the gridded kernel (docs/ftle.md, "Boundary modes").
inline bool admit(vec_t* x, bool end_point, uint* code, __global const real_t* params) {
#if BOUNDARY == BOUNDARY_PERIODIC
  return true;
#elif BOUNDARY == BOUNDARY_CLAMP
  // Every point is clamped, and a point the clamp moved was outside: cheaper than testing first.
  bool moved = false;
  for (int d = 0; d < DIM; ++d) {
    const real_t inside = clamp(x->c[d], params[d], params[6 + d]);
    moved = moved || inside != x->c[d];
    x->c[d] = inside;
  }
  if (moved && end_point) *code |= TRACER_MET_WALL;
  return true;
#else
  const bool inside = in_box(*x, params);
#if BOUNDARY == BOUNDARY_STOP
  if (!inside) *code |= TRACER_MET_WALL;
  return inside;
#else
  if (!inside && end_point) *code |= TRACER_MET_WALL;
  return true;
#endif
#endif
}

#if BOUNDARY == BOUNDARY_FREEZE
// Freeze: where the straight segment from a step's start a (in the box) to its end b (outside) first
// meets a face, and in *fraction the share of the step before that point. The path is taken as straight
// within the step, so a uniform flow's exit is exact and another's is off by the path's bend within one
// step (second order in dt). A start outside by rounding (seeds may lie within 1e-9 h of a face) exits
// where it is, pulled onto the box.
inline vec_t exit_point(vec_t a, vec_t b, real_t* fraction, __global const real_t* params) {
  real_t theta = 2, face = 0;
  int axis = -1;
  for (int d = 0; d < DIM; ++d) {
    const real_t lo = params[d], hi = params[6 + d], delta = b.c[d] - a.c[d];
    const real_t wall = b.c[d] > hi ? hi : lo;
    if ((b.c[d] > hi && delta > 0) || (b.c[d] < lo && delta < 0)) {
      const real_t f = (wall - a.c[d]) / delta;
      if (f < theta) theta = f, face = wall, axis = d;
    }
  }
  theta = axis < 0 ? 0 : clamp(theta, (real_t)0, (real_t)1);
  vec_t e;
  for (int d = 0; d < DIM; ++d)
    e.c[d] = d == axis ? face : clamp(a.c[d] + theta * (b.c[d] - a.c[d]), params[d], params[6 + d]);
  *fraction = theta;
  return e;
}
#endif

