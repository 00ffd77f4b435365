// Composition of intermediate flow maps (Brunton & Rowley 2010; Conti et al. 2012, Section 3.4): a short
// map phi_j over one interval is stored on the seed grid as its displacement d_j(x) = phi_j(x) - x, DIM
// reals per seed, seeds x-fastest. The map over several intervals is built seed by seed: start at
// x_0 + d_first(x_0), then x <- x + d_j(x) for each later map, with d_j interpolated at x (mesh-to-particle).
// Interpolating the displacement rather than phi itself is the same in the interior (both interpolants
// reproduce linear functions) and better behaved where the stencil is clamped at the grid's faces.
//
// ftle.cl supplies the interpolation and the FTLE, so the composed field uses exactly the Solver's
// formulas: it is built with FLOW = FLOW_GRID and BOUNDARY = BOUNDARY_CLAMP, and the seed grid plays the
// velocity grid, a short map's displacement one snapshot. Its to_grid clamps a position into the grid's
// box (a position outside takes the displacement of the nearest box point), sample_snapshot is the M4'
// (INTERP_M4) or linear tensor-product interpolation, and ftle_field turns the composed positions into
// ln(sigma_max(F)) / |T| with the same central / one-sided differences.
#include "ftle/ftle.cl"

// Positions after the first short map: seed + displacement, no interpolation.
__kernel void flow_map_start(__global real_t* pos, __global const real_t* disp, uint count, int4 seeds, real_t ox,
                             real_t oy, real_t oz, real_t hx, real_t hy, real_t hz) {
  const real_t o[3] = {ox, oy, oz};
  const real_t h[3] = {hx, hy, hz};
  FOR_EACH(i, count) {
    const ulong index[3] = {i % seeds.x, (i / seeds.x) % seeds.y, i / ((ulong)seeds.x * seeds.y)};
    for (int d = 0; d < DIM; ++d) pos[i * DIM + d] = o[d] + (real_t)index[d] * h[d] + disp[i * DIM + d];
  }
}

// out = in + d(in): one later short map applied to every tracer of the composition.
__kernel void flow_map_compose(__global const real_t* in, __global real_t* out, __global const real_t* disp,
                               uint count, int4 seeds, real_t ox, real_t oy, real_t oz, real_t inv_hx, real_t inv_hy,
                               real_t inv_hz) {
  const real_t o[3] = {ox, oy, oz};
  const real_t inv_h[3] = {inv_hx, inv_hy, inv_hz};
  const int n[3] = {seeds.x, seeds.y, seeds.z};
  FOR_EACH(i, count) {
    real_t s[3] = {0, 0, 0};
    for (int d = 0; d < DIM; ++d) s[d] = to_grid(in[i * DIM + d], o[d], inv_h[d], n[d]);
    const vec_t u = sample_snapshot(disp, 0, s, seeds);
    for (int d = 0; d < DIM; ++d) out[i * DIM + d] = in[i * DIM + d] + u.c[d];
  }
}

// Two maps stored as displacements on the seed grid, chained: "apply `first`, then `second`", seed by
// seed: x1 = x + d_first(x) (no interpolation), then d_second interpolated at x1 exactly as
// flow_map_compose does. Writes the chained map's displacement d_first(x) + d_second(x1), a map on the
// seed grid that a later chain can interpolate in turn (positions == 0), or its positions x1 + d_second(x1)
// for ftle_field (positions != 0). `second` may itself be a chained map; `out` must not alias either input.
__kernel void flow_map_chain(__global const real_t* first, __global const real_t* second, __global real_t* out,
                             uint count, int4 seeds, real_t ox, real_t oy, real_t oz, real_t hx, real_t hy, real_t hz,
                             real_t inv_hx, real_t inv_hy, real_t inv_hz, int positions) {
  const real_t o[3] = {ox, oy, oz};
  const real_t h[3] = {hx, hy, hz};
  const real_t inv_h[3] = {inv_hx, inv_hy, inv_hz};
  const int n[3] = {seeds.x, seeds.y, seeds.z};
  FOR_EACH(i, count) {
    const ulong index[3] = {i % seeds.x, (i / seeds.x) % seeds.y, i / ((ulong)seeds.x * seeds.y)};
    real_t x1[3] = {0, 0, 0}, s[3] = {0, 0, 0};
    for (int d = 0; d < DIM; ++d) {
      x1[d] = o[d] + (real_t)index[d] * h[d] + first[i * DIM + d];
      s[d] = to_grid(x1[d], o[d], inv_h[d], n[d]);
    }
    const vec_t u = sample_snapshot(second, 0, s, seeds);
    for (int d = 0; d < DIM; ++d)
      out[i * DIM + d] = positions ? x1[d] + u.c[d] : first[i * DIM + d] + u.c[d];
  }
}
