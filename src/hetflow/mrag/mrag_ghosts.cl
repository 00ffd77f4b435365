// Ghost cells of wavelet blocks (docs/mrag.md, Ghosts): the fill from ghost recipes, and the read of a
// cell that may lie in the band. Compile-time: BLOCK (mrag_blocks.cl), GHOSTS (the band's width),
// GHOST_COUNT (ghost cells per block, with or without the corners) and RECIPE_SLICE; ghost g of field f of
// block b sits at ghosts[(b FIELDS + f) GHOST_COUNT + g], and ghost_slot[(j + GHOSTS) SPAN + i + GHOSTS]
// gives g for cell (i, j) of the band.
#include "mrag/mrag_blocks.cl"

#define SPAN (BLOCK + 2 * GHOSTS)

// The sources of a recipe's entry summed for every field: weight × source, with ρu (flip bit 0) and ρv
// (bit 1) negated for a source seen through a wall. head = (first, count) names the entry's sources, first +
// t RECIPE_SLICE for t < count, interleaved with those of the other entries of its slice
// (mrag/device_recipes.hpp). A source word holds its flip (bits 0-1), its type (bits 2-3) and its place: a
// cell (type 0) of slot bits 4-11 of the block, whose leaf is slots[slot], cell bits 12-31; the
// conserved state inflow[FIELDS side ..] of an inflow side (INFLOW_SOURCE); or the block's node (bits 4+),
// field f at nodes[f node_count + node] of the block's nodes (NODE_SOURCE). A stage of local time steps
// (mrag/local_steps.hpp, `group` below ALL_GROUPS) reads the leaves of other groups than `group` at its
// time: w0 start + w1 first_stage + w2 state, (w0, w1, w2) = time_weights[weight_first + 3 groups[leaf] ..]
// (a zero weight reads nothing, so a buffer no step has written yet is not read).
#define NODE_SOURCE 1u
#define INFLOW_SOURCE 2u
#define ALL_GROUPS 0xFFFFFFFFu
// Sources gathered at once: the loads of a batch are all issued before any of its values is summed.
#define GATHER_BATCH 2
typedef struct {
  __global const real_t* start;
  __global const real_t* first_stage;
  __global const real_t* state;
  __global const uint* groups;
  uint group;
  __global const real_t* weights;
} stage_time_t;

real_t at_stage_time(const stage_time_t t, const uint leaf, const size_t at) {
  __global const real_t* w = t.weights + 3 * t.groups[leaf];
  real_t value = 0;
  if (w[0] != 0) value += w[0] * t.start[at];
  if (w[1] != 0) value += w[1] * t.first_stage[at];
  if (w[2] != 0) value += w[2] * t.state[at];
  return value;
}

// The FIELDS values of source `word` (flips not applied).
void source_value(const uint word, __global const uint* restrict slots, __global const real_t* restrict inflow,
                  __global const real_t* restrict data, const stage_time_t time,
                  __global const real_t* restrict nodes, const uint node_count, real_t value[FIELDS]) {
  const uint type = (word >> 2) & 3;
  if (type == INFLOW_SOURCE) {
    for (int f = 0; f < FIELDS; ++f) value[f] = inflow[FIELDS * (word >> 4) + f];
  } else if (type == NODE_SOURCE) {
    for (int f = 0; f < FIELDS; ++f) value[f] = nodes[f * node_count + (word >> 4)];
  } else {
    const uint leaf = slots[(word >> 4) & 0xFF];
    const size_t at = (size_t)leaf * FIELDS * CELLS + (word >> 12);
    if (time.group == ALL_GROUPS || time.groups[leaf] == time.group) {
      for (int f = 0; f < FIELDS; ++f) value[f] = data[at + f * CELLS];
    } else {
      for (int f = 0; f < FIELDS; ++f) value[f] = at_stage_time(time, leaf, at + f * CELLS);
    }
  }
}

void gather(const uint2 head, __global const uint* restrict slots, __global const uint* restrict source,
            __global const real_t* restrict weight, __global const real_t* restrict inflow,
            __global const real_t* restrict data, const stage_time_t time, __global const real_t* restrict nodes,
            const uint node_count, real_t sum[FIELDS]) {
  for (int f = 0; f < FIELDS; ++f) sum[f] = 0;
  for (uint t0 = 0; t0 < head.y; t0 += GATHER_BATCH) {
    uint word[GATHER_BATCH];
    real_t w[GATHER_BATCH], value[GATHER_BATCH][FIELDS];
#pragma unroll
    for (int u = 0; u < GATHER_BATCH; ++u) {
      const uint k = head.x + (t0 + u) * RECIPE_SLICE;
      word[u] = t0 + u < head.y ? source[k] : 0;
      w[u] = t0 + u < head.y ? weight[k] : 0;
    }
#pragma unroll
    for (int u = 0; u < GATHER_BATCH; ++u)
      if (t0 + u < head.y) source_value(word[u], slots, inflow, data, time, nodes, node_count, value[u]);
#pragma unroll
    for (int u = 0; u < GATHER_BATCH; ++u)
      if (t0 + u < head.y)
        for (int f = 0; f < FIELDS; ++f) {
          const int negated = (f == 1 && (word[u] & 1)) || (f == 2 && (word[u] & 2));
          sum[f] += (negated ? -w[u] : w[u]) * value[u][f];
        }
  }
}

// The ghosts of the listed blocks from their recipes (device_recipes.hpp), a work-group per block: the
// block's nodes depth by depth, each depth read by the next after a barrier, then its ghosts but those of
// a side that neighbours names a block for (read directly by the kernels of the band). Listed block
// `item` is blocks[item] = (block, kind, first slot in slot_leaf, first node in nodes); a block's nodes lie
// field by field, so that a depth's work-items write each field to consecutive places.
__kernel void mrag_fill_ghosts(const uint count, __global const uint4* restrict blocks,
                               __global const uint* restrict slot_leaf, __global const uint* restrict neighbours,
                               __global const uchar* restrict ghost_side, __global const uint4* restrict info,
                               __global const uint2* restrict heads, __global const uint* restrict depth_first,
                               __global const uint* restrict source, __global const real_t* restrict weight,
                               __global const real_t* restrict inflow,
                               __global const real_t* restrict data, __global const real_t* restrict start,
                               __global const real_t* restrict first_stage, __global const real_t* restrict state,
                               __global const uint* restrict groups, const uint group,
                               __global const real_t* restrict time_weights, const uint weight_first,
                               __global real_t* restrict nodes, __global real_t* restrict ghosts) {
  const stage_time_t time = {start, first_stage, state, groups, group, time_weights + weight_first};
  for (uint item = get_group_id(0); item < count; item += get_num_groups(0)) {
    const uint4 at = blocks[item], kind = info[at.y];
    __global const uint* slots = slot_leaf + at.z;
    const uint node_count = depth_first[kind.z + kind.w];
    __global real_t* block_nodes = nodes + (size_t)FIELDS * at.w;
    real_t sum[FIELDS];
    for (uint d = 0; d < kind.w; ++d) {
      for (uint n = depth_first[kind.z + d] + get_local_id(0); n < depth_first[kind.z + d + 1];
           n += get_local_size(0)) {
        gather(heads[kind.y + n], slots, source, weight, inflow, data, time, block_nodes, node_count, sum);
        for (int f = 0; f < FIELDS; ++f) block_nodes[f * node_count + n] = sum[f];
      }
      barrier(CLK_GLOBAL_MEM_FENCE);
    }
    for (uint g = get_local_id(0); g < GHOST_COUNT; g += get_local_size(0)) {
      if (neighbours[4 * at.x + ghost_side[g]] != NO_NEIGHBOUR) continue;
      gather(heads[kind.x + g], slots, source, weight, inflow, data, time, block_nodes, node_count, sum);
      for (int f = 0; f < FIELDS; ++f) ghosts[((size_t)at.x * FIELDS + f) * GHOST_COUNT + g] = sum[f];
    }
  }
}

// Field f of cell (i, j) of block b, read from the block or, in the band, from its ghosts.
real_t cell_value(const uint b, const int i, const int j, const int f, __global const real_t* restrict data,
                  __global const real_t* restrict ghosts, __global const int* restrict ghost_slot) {
  if (i >= 0 && i < BLOCK && j >= 0 && j < BLOCK) return data[((size_t)b * FIELDS + f) * CELLS + i + BLOCK * j];
  return ghosts[((size_t)b * FIELDS + f) * GHOST_COUNT + ghost_slot[(j + GHOSTS) * SPAN + i + GHOSTS]];
}
