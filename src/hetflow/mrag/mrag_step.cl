// The time step of the mrag flow on blocks (docs/mrag.md, Time integration): the largest signal rate for
// the CFL step (the stages are mrag_rhs.cl's update).
#include "mrag/mrag_blocks.cl"

// Each work-group's largest (|u| + c + |v| + c) / h over its cells, for the time step; the host takes the
// maximum of the few partials. A cell whose state is not finite or has ρ ≤ 0 or p + Π/(Γ + 1) ≤ 0 makes
// the partial NaN, which the host reports.
__kernel void mrag_max_rate(const uint blocks, __global const real_t* restrict inv_h,
                            __global const real_t* restrict data, __local real_t* restrict part,
                            __global real_t* restrict partial) {
  real_t rate = 0;
  for (uint id = get_global_id(0); id < blocks * CELLS; id += get_global_size(0)) {
    const uint b = id / CELLS;
    __global const real_t* q = data + (size_t)b * FIELDS * CELLS + id % CELLS;
    const real_t rho = q[0], u = q[CELLS] / rho, v = q[2 * CELLS] / rho, gamma = closure_big_gamma(q[4 * CELLS]);
    const real_t pi = q[5 * CELLS];
    const real_t p = (q[3 * CELLS] - (real_t)0.5 * rho * (u * u + v * v) - pi) / gamma;
    const real_t c2 = ((gamma + 1) * p + pi) / (gamma * rho);
    const real_t cell = rho > 0 && c2 > 0 ? (fabs(u) + fabs(v) + 2 * sqrt(c2)) * inv_h[b] : NAN;
    rate = isnan(cell) || isnan(rate) ? NAN : fmax(rate, cell);
  }
  const uint lid = get_local_id(0);
  part[lid] = rate;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint stride = get_local_size(0) / 2; stride > 0; stride /= 2) {
    if (lid < stride)
      part[lid] = isnan(part[lid]) || isnan(part[lid + stride]) ? NAN : fmax(part[lid], part[lid + stride]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) partial[get_group_id(0)] = part[0];
}
