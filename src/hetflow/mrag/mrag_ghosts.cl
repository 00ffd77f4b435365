// Ghost cells of wavelet blocks (docs/mrag.md, Ghosts): the fill from a ghost table, and the read of a
// cell that may lie in the band. Compile-time: BLOCK (mrag_blocks.cl), GHOSTS (the band's width) and
// GHOST_COUNT (ghost cells per block, with or without the corners); ghost g of field f of block b sits at
// ghosts[(b FIELDS + f) GHOST_COUNT + g], and ghost_slot[(j + GHOSTS) SPAN + i + GHOSTS] gives g for cell
// (i, j) of the band.
#include "mrag/mrag_blocks.cl"

#define SPAN (BLOCK + 2 * GHOSTS)

// The sources [first, last) of the table summed for every field: weight × source, with ρu (flip bit 0) and
// ρv (bit 1) negated for a source seen through a wall. A source block INFLOW_SOURCE is the conserved state
// inflow[FIELDS side ..] of the inflow side its cell names, NODE_SOURCE the node nodes[FIELDS node ..].
#define INFLOW_SOURCE 0xFFFFFFFFu
#define NODE_SOURCE 0xFFFFFFFEu
void gather(const uint first, const uint last, __global const uint* restrict source_block,
            __global const uint* restrict source_cell, __global const real_t* restrict weight,
            __global const uchar* restrict flip, __global const real_t* restrict inflow,
            __global const real_t* restrict data, __global const real_t* restrict nodes, real_t sum[FIELDS]) {
  for (int f = 0; f < FIELDS; ++f) sum[f] = 0;
  for (uint k = first; k < last; ++k) {
    __global const real_t* cell;
    size_t stride = 1;
    if (source_block[k] == INFLOW_SOURCE) {
      cell = inflow + FIELDS * source_cell[k];
    } else if (source_block[k] == NODE_SOURCE) {
      cell = nodes + (size_t)FIELDS * source_cell[k];
    } else {
      cell = data + (size_t)source_block[k] * FIELDS * CELLS + source_cell[k];
      stride = CELLS;
    }
    for (int f = 0; f < FIELDS; ++f) {
      const int negated = (f == 1 && (flip[k] & 1)) || (f == 2 && (flip[k] & 2));
      sum[f] += (negated ? -weight[k] : weight[k]) * cell[f * stride];
    }
  }
}

// Nodes first .. first + count − 1, whose sources are the table's entries nodes_entry + node.
__kernel void mrag_fill_nodes(__global const uint* restrict start, __global const uint* restrict source_block,
                              __global const uint* restrict source_cell, __global const real_t* restrict weight,
                              __global const uchar* restrict flip, __global const real_t* restrict inflow,
                              __global const real_t* restrict data, __global real_t* restrict nodes,
                              const uint nodes_entry, const uint first, const uint count) {
  for (uint id = get_global_id(0); id < count; id += get_global_size(0)) {
    const uint n = first + id, e = nodes_entry + n;
    real_t sum[FIELDS];
    gather(start[e], start[e + 1], source_block, source_cell, weight, flip, inflow, data, nodes, sum);
    for (int f = 0; f < FIELDS; ++f) nodes[(size_t)FIELDS * n + f] = sum[f];
  }
}

// The ghosts of the table's entries filled[0 .. count − 1]: ghost g of block b is entry b GHOST_COUNT + g.
__kernel void mrag_fill_ghosts(__global const uint* restrict start, __global const uint* restrict source_block,
                               __global const uint* restrict source_cell, __global const real_t* restrict weight,
                               __global const uchar* restrict flip, __global const real_t* restrict inflow,
                               __global const real_t* restrict data, __global const real_t* restrict nodes,
                               const uint count, __global const uint* restrict filled,
                               __global real_t* restrict ghosts) {
  for (uint id = get_global_id(0); id < count; id += get_global_size(0)) {
    const uint e = filled[id], b = e / GHOST_COUNT, g = e % GHOST_COUNT;
    real_t sum[FIELDS];
    gather(start[e], start[e + 1], source_block, source_cell, weight, flip, inflow, data, nodes, sum);
    for (int f = 0; f < FIELDS; ++f) ghosts[((size_t)b * FIELDS + f) * GHOST_COUNT + g] = sum[f];
  }
}

// Field f of cell (i, j) of block b, read from the block or, in the band, from its ghosts.
real_t cell_value(const uint b, const int i, const int j, const int f, __global const real_t* restrict data,
                  __global const real_t* restrict ghosts, __global const int* restrict ghost_slot) {
  if (i >= 0 && i < BLOCK && j >= 0 && j < BLOCK) return data[((size_t)b * FIELDS + f) * CELLS + i + BLOCK * j];
  return ghosts[((size_t)b * FIELDS + f) * GHOST_COUNT + ghost_slot[(j + GHOSTS) * SPAN + i + GHOSTS]];
}
