// The neighbours of a local time step's group at a stage's time (mrag/local_steps.hpp): blocks of other
// groups formed from their step's start qⁿ, first stage q⁽¹⁾ and state q with the host's weights.
#include "mrag/mrag_blocks.cl"

// Block `view_first` + k of `view` from leaf leaves[first + k], k < count. A weight of zero adds nothing,
// so a buffer no step has written yet is not read.
__kernel void mrag_local_view(const uint first, const uint count, const uint view_first, const uint per_leaf,
                              __global const uint* restrict leaves, const real_t weight_start,
                              const real_t weight_first, const real_t weight_state,
                              __global const real_t* restrict start, __global const real_t* restrict first_stage,
                              __global const real_t* restrict state, __global real_t* restrict view) {
  for (size_t id = get_global_id(0); id < (size_t)count * per_leaf; id += get_global_size(0)) {
    const size_t k = id / per_leaf, at = id % per_leaf;
    const size_t from = (size_t)leaves[first + k] * per_leaf + at;
    real_t value = 0;
    if (weight_start != 0) value += weight_start * start[from];
    if (weight_first != 0) value += weight_first * first_stage[from];
    if (weight_state != 0) value += weight_state * state[from];
    view[(view_first + k) * per_leaf + at] = value;
  }
}
