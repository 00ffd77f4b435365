// The owner's side of a halo exchange (fem/node_halo.hpp): the values of the own nodes that other parts
// hold in their halos, gathered into one contiguous block per neighbour, so each crosses in one transfer.
#include "fem/fem_nodes.cl"

// packed[k * components + c] = field[index[k] * components + c] for the count listed nodes.
__kernel void fem_halo_pack(const uint count, const uint components, __global const uint* restrict index,
                            __global const real_t* restrict field, __global real_t* restrict packed) {
  FOR_EACH_NODE(k, count * components) {
    const uint node = k / components;
    packed[k] = field[index[node] * components + (k - node * components)];
  }
}
