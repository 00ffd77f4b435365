// The time step of the mrag flow on blocks (docs/mrag.md, Time integration): the largest signal rate for
// the CFL step (the stages are mrag_rhs.cl's update, which leaves each tile's largest rate of its new cells).
#include "mrag/mrag_blocks.cl"

// The work-group's largest of `rate` over its items into partial[group]; NaN if any item's is.
void reduce_group(real_t rate, __local real_t* restrict part, __global real_t* restrict partial) {
  const uint lid = get_local_id(0);
  part[lid] = rate;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint stride = get_local_size(0) / 2; stride > 0; stride /= 2) {
    if (lid < stride) part[lid] = nan_max(part[lid], part[lid + stride]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) partial[get_group_id(0)] = part[0];
}

// Each work-group's largest signal rate (mrag_blocks.cl) over its cells, for the time step of a state no
// stage has produced (after it is set or adapted), over blocks own[0 .. blocks − 1]; the host takes the
// maximum of the few partials.
__kernel void mrag_max_rate(const uint blocks, __global const uint* restrict own, __global const real_t* restrict inv_h,
                            __global const real_t* restrict data, __local real_t* restrict part,
                            __global real_t* restrict partial) {
  real_t rate = 0;
  for (uint id = get_global_id(0); id < blocks * CELLS; id += get_global_size(0)) {
    const uint b = own[id / CELLS];
    __global const real_t* cell = data + (size_t)b * FIELDS * CELLS + id % CELLS;
    real_t q[FIELDS];
    for (int f = 0; f < FIELDS; ++f) q[f] = cell[f * CELLS];
    rate = nan_max(rate, signal_rate(q, inv_h[b]));
  }
  reduce_group(rate, part, partial);
}

// Each work-group's largest of the n rates the last stage left per tile.
__kernel void mrag_max_rates(const uint n, __global const real_t* restrict rates, __local real_t* restrict part,
                             __global real_t* restrict partial) {
  real_t rate = 0;
  for (uint k = get_global_id(0); k < n; k += get_global_size(0)) rate = nan_max(rate, rates[k]);
  reduce_group(rate, part, partial);
}
