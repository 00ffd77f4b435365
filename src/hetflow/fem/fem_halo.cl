// The owner's side of the halo exchanges (fem/node_halo.hpp): the values of the own nodes that other parts
// hold in their halos, gathered into one contiguous block per neighbour, so each crosses in one transfer;
// and, in reverse, the neighbours' blocks added into the own nodes.
#include "fem/fem_nodes.cl"

// packed[k * components + c] = field[index[k] * components + c] for the count listed nodes.
__kernel void fem_halo_pack(const uint count, const uint components, __global const uint* restrict index,
                            __global const real_t* restrict field, __global real_t* restrict packed) {
  FOR_EACH_NODE(k, count * components) {
    const uint node = k / components;
    packed[k] = field[index[node] * components + (k - node * components)];
  }
}

// The owner's side of the reverse exchange (NodeHalo::add_halo): field[index[from + k]] += packed[from + k]
// for one neighbour's count values of the owner's entries in its halo.
__kernel void fem_halo_add(const uint count, const uint from, __global const uint* restrict index,
                           __global const real_t* restrict packed, __global real_t* restrict field) {
  FOR_EACH_NODE(k, count) field[index[from + k]] += packed[from + k];
}
