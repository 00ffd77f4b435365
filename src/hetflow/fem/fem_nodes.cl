// Shared by the fem node-loop kernels: the real vector types, the loop that strides one work-item over
// the nodes, and the row loop with several lanes per node. A record is 16 consecutive edge_t in the order
// of fem/edge_data.hpp (edge_slot): m, Λ row-major, d, g; it is read with one vload16 (LOAD_RECORD).
// 3-vectors per node are packed x, y, z (vload3/vstore3).
#include "core/common.cl"

#define VEC_TYPE_(t, n) t##n
#define VEC_TYPE(t, n) VEC_TYPE_(t, n)
typedef VEC_TYPE(REAL, 16) real16_t;
typedef VEC_TYPE(REAL, 3) real3_t;

// Edge records are stored in edge_t, the build's real_t unless EDGE_REAL says otherwise (FP32 edge data
// with FP64 arithmetic halves the bytes every edge loop reads), and read into real16_t.
#ifndef EDGE_REAL
#define EDGE_REAL REAL
#endif
typedef EDGE_REAL edge_t;
#define CONVERT_(t, n) convert_##t##n
#define CONVERT(t, n) CONVERT_(t, n)
#define LOAD_RECORD(k, records) CONVERT(REAL, 16)(vload16((k), (records)))

#define FOR_EACH_NODE(i, count) for (uint i = get_global_id(0); i < (count); i += get_global_size(0))

// The row loop with lanes: EDGE_LANE_BITS (compile-time, default 0) gives L = 2^EDGE_LANE_BITS consecutive
// work-items of a work-group of EDGE_WG per node. Lane t sums the row's edges begin + t, begin + t + L, ...,
// so consecutive lanes read consecutive records; LANE_SUMS then adds the lanes' sums over local memory in
// a fixed tree and lane 0 (ROW_WRITES) writes the node's results. The groups stride over blocks of
// EDGE_WG / L nodes, uniformly within a group, so every work-item reaches every barrier; in the last block
// the rows past the node count repeat the last node's reads and write nothing (ROW_OWNED is false there).
// With L = 1 the row loop is FOR_EACH_NODE, a work-item sums its row in order and the lane macros vanish.
// A kernel declares its local slots with LANE_SPACE, stores each lane sum with LANE_STORE(3), calls
// LANE_SUMS and loads the row sums back with LANE_LOAD(3), valid in lane 0.
#ifndef EDGE_LANE_BITS
#define EDGE_LANE_BITS 0
#endif
#define EDGE_LANES (1u << EDGE_LANE_BITS)

#if EDGE_LANE_BITS == 0
#define LANE_ID 0u
#define FOR_EACH_ROW(i, count) FOR_EACH_NODE(i, count)
#define ROW_OWNED(count) true
#define ROW_WRITES(count) true
#define LANE_SPACE(part, slots)
#define LANE_STORE(part, slot, x)
#define LANE_STORE3(part, slot, v)
#define LANE_SUMS(part, slots)
#define LANE_LOAD(part, slot, x)
#define LANE_LOAD3(part, slot, v)
#else
#ifndef EDGE_WG
#error "EDGE_LANE_BITS > 0 needs the work-group size EDGE_WG"
#endif
#define EDGE_ROWS (EDGE_WG >> EDGE_LANE_BITS)
#define LANE_ID ((uint)get_local_id(0) & (EDGE_LANES - 1))
#define ROW_OF_BLOCK_(block) ((block) * EDGE_ROWS + ((uint)get_local_id(0) >> EDGE_LANE_BITS))
#define FOR_EACH_ROW(i, count)                                                                          \
  for (uint block_ = get_group_id(0), row_ = ROW_OF_BLOCK_(block_), i = min(row_, (count) - 1);         \
       block_ < ((count) + EDGE_ROWS - 1) / EDGE_ROWS;                                                  \
       block_ += get_num_groups(0), row_ = ROW_OF_BLOCK_(block_), i = min(row_, (count) - 1))
#define ROW_OWNED(count) (row_ < (count))
#define ROW_WRITES(count) (LANE_ID == 0 && row_ < (count))
#define LANE_SPACE(part, slots) __local real_t part[(slots) * EDGE_WG]
#define LANE_SLOT_(part, slot) part[(slot) * EDGE_WG + get_local_id(0)]
#define LANE_STORE(part, slot, x) LANE_SLOT_(part, slot) = (x)
#define LANE_STORE3(part, slot, v) \
  (LANE_STORE(part, slot, (v).x), LANE_STORE(part, (slot) + 1, (v).y), LANE_STORE(part, (slot) + 2, (v).z))
#define LANE_SUMS(part, slots) lane_sums(part, slots)
#define LANE_LOAD(part, slot, x) (x) = LANE_SLOT_(part, slot)
#define LANE_LOAD3(part, slot, v) \
  (v) = (real3_t)(LANE_SLOT_(part, slot), LANE_SLOT_(part, (slot) + 1), LANE_SLOT_(part, (slot) + 2))

// Adds the first `slots` slots over the lanes of each row, a barrier after every level of the tree: the
// lanes are not assumed to run in lock-step. Each work-item then reads only its own slots, so the next
// block's stores need no barrier before them.
void lane_sums(__local real_t* part, const uint slots) {
  const uint lid = get_local_id(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint stride = EDGE_LANES >> 1; stride > 0; stride >>= 1) {
    if (LANE_ID < stride)
      for (uint s = 0; s < slots; ++s) part[s * EDGE_WG + lid] += part[s * EDGE_WG + lid + stride];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
#endif

// The edges of row i that this lane sums, from `begin` to `end`.
#define FOR_ROW_EDGES(k, begin, end) for (uint k = (begin) + LANE_ID; k < (end); k += EDGE_LANES)
