// LANES tracers per work-item in vector types, for CPU devices and analytic flows (included by ftle.cl
// when the host defines LANES). A CPU compiler turns the vector builtins (sincos, exp, ...) into SIMD
// code but calls the scalar ones out of line, one tracer at a time. The lanes take the same steps and
// substeps as ftle_advect's scalar path and stop a tracer for the same reasons; masks keep the lanes
// apart.

typedef FTLE_CAT(REAL, LANES) lane_real;
typedef __typeof__(isfinite((lane_real)0)) lane_mask;  // -1 (true) or 0 per lane
typedef __typeof__(((lane_mask)0).s0) lane_mask_elem;

#if DIM == 2
typedef struct { lane_real c[2]; } lanes_t;
#else
typedef struct { lane_real c[3]; } lanes_t;
#endif

inline lanes_t lanes_velocity(lanes_t x, lane_real t, __global const real_t* p) {
  lanes_t u;
  ANALYTIC_VELOCITY(lane_real, u, x, t, p)
  return u;
}

inline lane_mask lanes_finite(lanes_t v) {
  lane_mask ok = isfinite(v.c[0]);
  for (int d = 1; d < DIM; ++d) ok &= isfinite(v.c[d]);
  return ok;
}

// a where m is false, b where it is true, per component.
inline lanes_t lanes_select(lanes_t a, lanes_t b, lane_mask m) {
  for (int d = 0; d < DIM; ++d) a.c[d] = select(a.c[d], b.c[d], m);
  return a;
}

inline lanes_t lanes_axpy(lanes_t a, lane_real s, lanes_t b) {
  for (int d = 0; d < DIM; ++d) a.c[d] += s * b.c[d];
  return a;
}

// Why each lane stopped, as masks of the lanes that stopped for that reason.
typedef struct {
  lane_mask bad_velocity, bad_position, underflow;
} lane_stops;

// Takes the lanes in `failed` out of *moving with the reason `why`.
inline void lanes_stop(lane_mask* moving, lane_mask failed, lane_mask* why) {
  *why |= failed & *moving;
  *moving &= ~failed;
}

#ifndef ADAPTIVE
// One fixed step of dt from time t for the lanes in *moving (as step()).
inline void lanes_step(lanes_t* x, real_t t, real_t dt, lane_mask* moving, lane_stops* stops,
                       __global const real_t* p) {
  const lane_real now = (lane_real)t;
  const lanes_t k1 = lanes_velocity(*x, now, p);
  lane_mask ok = lanes_finite(k1);
#if INTEGRATOR == 1
  const lanes_t next = lanes_axpy(*x, dt, k1);
#elif INTEGRATOR == 2
  const lanes_t k2 = lanes_velocity(lanes_axpy(*x, dt, k1), now + dt, p);
  ok &= lanes_finite(k2);
  lanes_t next;
  for (int d = 0; d < DIM; ++d) next.c[d] = x->c[d] + dt * (real_t)0.5 * (k1.c[d] + k2.c[d]);
#else
  const real_t mid = (real_t)0.5 * dt;
  const lanes_t k2 = lanes_velocity(lanes_axpy(*x, mid, k1), now + mid, p);
  const lanes_t k3 = lanes_velocity(lanes_axpy(*x, mid, k2), now + mid, p);
  const lanes_t k4 = lanes_velocity(lanes_axpy(*x, dt, k3), now + dt, p);
  ok &= lanes_finite(k2) & lanes_finite(k3) & lanes_finite(k4);
  lanes_t next;
  for (int d = 0; d < DIM; ++d) next.c[d] = x->c[d] + dt / 6 * (k1.c[d] + 2 * (k2.c[d] + k3.c[d]) + k4.c[d]);
#endif
  lanes_stop(moving, ~ok, &stops->bad_velocity);
  lanes_stop(moving, ~lanes_finite(next), &stops->bad_position);
  *x = lanes_select(*x, next, *moving);
}
#else
DEFINE_PAIR_ARITHMETIC(lanes, lanes_t, lane_real)

// One step from t to t_end for the lanes in *moving, each in substeps of its own size (as
// adaptive_step()): the loop runs while any lane has not reached t_end, and a lane that has sits it out.
inline void lanes_adaptive_step(lanes_t* x, real_t t, real_t t_end, lane_real* h, lane_mask* accepted,
                                lane_mask* rejected, real_t rtol, real_t atol, lane_mask* moving, lane_stops* stops,
                                __global const real_t* p) {
  const real_t span = t_end - t;
  lane_real size = select((lane_real)span, copysign(fabs(*h), (lane_real)span), *h != 0);
  lane_real now = (lane_real)t;
  lane_mask shrunk = (lane_mask)0;  // the lane's last substep was rejected
  lanes_t k[RK_STAGES];
  k[0] = lanes_velocity(*x, now, p);
  lanes_stop(moving, ~lanes_finite(k[0]), &stops->bad_velocity);
  lane_mask active = *moving;
  for (uint n = 0; any(active); ++n) {
    if (n == MAX_SUBSTEPS) {
      lanes_stop(moving, active, &stops->underflow);
      return;
    }
    const lane_real left = t_end - now;
    const lane_real wanted = size;
    const lane_mask last = (real_t)1.01 * fabs(size) >= fabs(left);
    size = select(size, left, last);
    const lane_mask tiny = fabs(size) <= (real_t)16 * REAL_EPSILON * fmax(fabs(now), (lane_real)fabs(t_end));
    lanes_stop(moving, active & tiny, &stops->underflow);
    active &= *moving;
    lane_mask ok = (lane_mask)(-1);
    for (int s = 1; s < RK_STAGES; ++s) {
      k[s] = lanes_velocity(lanes_combine(*x, size, RK_A[s], k, s), now + RK_C[s] * size, p);
      ok &= lanes_finite(k[s]);
    }
    const lanes_t next = lanes_combine(*x, size, RK_B, k, RK_STAGES);
    lanes_stop(moving, active & ~ok, &stops->bad_velocity);
    lanes_stop(moving, active & ~lanes_finite(next), &stops->bad_position);
    active &= *moving;
    const lane_real err = lanes_error(*x, next, size, k, rtol, atol);
    // err^-RK_EXPONENT as exp(-RK_EXPONENT log err): PoCL's vector pow returns 0 in lanes beside a lane
    // whose argument is 0 (docs/ftle.md, "Method").
    const lane_real positive = select((lane_real)1, err, err > 0);
    lane_real factor = select((lane_real)RK_GROW, (real_t)0.9 * exp(-RK_EXPONENT * log(positive)), err > 0);
    factor = fmin(fmax(select((lane_real)RK_SHRINK, factor, isfinite(factor)), (lane_real)RK_SHRINK),
                  (lane_real)RK_GROW);
    const lane_mask accept = active & (err <= 1);
    const lane_mask reject = active & ~accept;
    *accepted -= accept;  // a true lane is -1
    *rejected -= reject;
    *x = lanes_select(*x, next, accept);
    now = select(now, select(now + size, (lane_real)t_end, last), accept);
    const lane_real grown = size * select(factor, fmin(factor, (lane_real)1), shrunk);
    const lane_mask done = accept & last;
    // A lane that lands on t_end keeps its larger wish for the next step's first substep.
    *h = select(*h, select(wanted, grown, fabs(grown) > fabs(wanted)), done);
    size = select(select(size, size * fmin(factor, (lane_real)1), reject), grown, accept);
    shrunk = select(shrunk, reject, active);
    active &= ~done;
#if RK_LAST_IS_FIRST
    for (int d = 0; d < DIM; ++d) k[0].c[d] = select(k[0].c[d], k[RK_STAGES - 1].c[d], accept);
#else
    k[0] = lanes_select(k[0], lanes_velocity(*x, now, p), accept);
    lanes_stop(moving, accept & ~done & ~lanes_finite(k[0]), &stops->bad_velocity);
    active &= *moving;
#endif
  }
}
#endif

// ftle_advect's work for LANES tracers at a time: group g holds tracers g LANES .. g LANES + LANES - 1
// (those past `count` ride along and are not stored).
inline void advect_lanes(__global real_t* pos, __global uint2* status, uint count, real_t t_start, real_t dt,
                         uint steps, uint first_step, __global const real_t* params ADAPTIVE_ARGS) {
  const ulong groups = ((ulong)count + LANES - 1) / LANES;
  for (ulong g = get_global_id(0); g < groups; g += get_global_size(0)) {
    real_t xs[DIM][LANES];
    lane_mask_elem start[LANES];
    uint2 was[LANES];
#ifdef ADAPTIVE
    real_t hs[LANES];
    lane_mask_elem taken[2][LANES];
#endif
    for (int l = 0; l < LANES; ++l) {
      const ulong i = min(g * LANES + l, (ulong)count - 1);
      was[l] = status[i];
      start[l] = g * LANES + l < count && (was[l].x & TRACER_CODE_BITS) == TRACER_MOVING ? -1 : 0;
      for (int d = 0; d < DIM; ++d) xs[d][l] = pos[i * DIM + d];
#ifdef ADAPTIVE
      hs[l] = step_size[i];
      taken[0][l] = substeps[i].x;
      taken[1][l] = substeps[i].y;
#endif
    }
    lanes_t x;
    for (int d = 0; d < DIM; ++d) x.c[d] = FTLE_CAT(vload, LANES)(0, xs[d]);
    lane_mask moving = FTLE_CAT(vload, LANES)(0, start);
    lane_stops stops = {(lane_mask)0, (lane_mask)0, (lane_mask)0};
    lane_mask stop_step = (lane_mask)0;
#ifdef ADAPTIVE
    lane_real h = FTLE_CAT(vload, LANES)(0, hs);
    lane_mask accepted = FTLE_CAT(vload, LANES)(0, taken[0]), rejected = FTLE_CAT(vload, LANES)(0, taken[1]);
#endif
    for (uint s = 0; s < steps && any(moving); ++s) {
      const lane_mask before = moving;
      const real_t t = t_start + (real_t)(first_step + s) * dt;
#ifdef ADAPTIVE
      lanes_adaptive_step(&x, t, t_start + (real_t)(first_step + s + 1) * dt, &h, &accepted, &rejected, rtol, atol,
                          &moving, &stops, params);
#else
      lanes_step(&x, t, dt, &moving, &stops, params);
#endif
      stop_step = select(stop_step, (lane_mask)(first_step + s), before & ~moving);
    }
    for (int d = 0; d < DIM; ++d) FTLE_CAT(vstore, LANES)(x.c[d], 0, xs[d]);
    lane_mask_elem codes[LANES], stopped_in[LANES];
    FTLE_CAT(vstore, LANES)(select(select(select((lane_mask)TRACER_MOVING, (lane_mask)TRACER_STEP_UNDERFLOW,
                                                 stops.underflow),
                                          (lane_mask)TRACER_BAD_POSITION, stops.bad_position),
                                   (lane_mask)TRACER_BAD_VELOCITY, stops.bad_velocity),
                            0, codes);
    FTLE_CAT(vstore, LANES)(stop_step, 0, stopped_in);
#ifdef ADAPTIVE
    FTLE_CAT(vstore, LANES)(h, 0, hs);
    FTLE_CAT(vstore, LANES)(accepted, 0, taken[0]);
    FTLE_CAT(vstore, LANES)(rejected, 0, taken[1]);
#endif
    for (int l = 0; l < LANES; ++l) {
      const ulong i = g * LANES + l;
      if (i >= count || !start[l]) continue;
      for (int d = 0; d < DIM; ++d) pos[i * DIM + d] = xs[d][l];
      if (codes[l] != TRACER_MOVING)
        status[i] = (uint2)((was[l].x & ~TRACER_CODE_BITS) | (uint)codes[l], (uint)stopped_in[l]);
#ifdef ADAPTIVE
      step_size[i] = hs[l];
      substeps[i] = (uint2)((uint)taken[0][l], (uint)taken[1][l]);
#endif
    }
  }
}
