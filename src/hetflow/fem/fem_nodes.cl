// Shared by the fem node-loop kernels: the real vector types, the loop that strides one work-item over
// the nodes, and the loop over a node's row of the sliced edge graph (fem/row_slices.hpp): slices of
// 2^EDGE_SLICE_BITS consecutive nodes (compile-time), entry q of node i at slice_start[i >> bits] +
// (i mod 2^bits) + q 2^bits, padding entries pointing at the node itself with zero records. A record is
// 16 edge_t in the order of fem/edge_data.hpp (edge_slot): m, Λ row-major, d, g; slot t of the entry at
// e sits at 16 (e - lane) + t 2^bits + lane, so the work-items of consecutive nodes read consecutive
// addresses. 3-vectors per node are packed x, y, z (vload3/vstore3).
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

#define FOR_EACH_NODE(i, count) for (uint i = get_global_id(0); i < (count); i += get_global_size(0))

// Programs that read the edge graph give its slice width (DeviceEdgeData::build_options).
#ifdef EDGE_SLICE_BITS
#define EDGE_SLICE (1u << EDGE_SLICE_BITS)
#define EDGE_LANE(e) ((e) & (EDGE_SLICE - 1))

real16_t load_record(const uint e, __global const edge_t* restrict records) {
  __global const edge_t* r = records + 16 * (size_t)(e - EDGE_LANE(e)) + EDGE_LANE(e);
#define SLOT_(t) (real_t) r[(t) * EDGE_SLICE]
  return (real16_t)(SLOT_(0), SLOT_(1), SLOT_(2), SLOT_(3), SLOT_(4), SLOT_(5), SLOT_(6), SLOT_(7), SLOT_(8), SLOT_(9),
                    SLOT_(10), SLOT_(11), SLOT_(12), SLOT_(13), SLOT_(14), SLOT_(15));
#undef SLOT_
}
#define LOAD_RECORD(e, records) load_record((e), (records))

// The entries e of node i's row, padding included (a padding entry's column is i, its record zero).
#define FOR_ROW_EDGES(e, i, slice_start)                                  \
  for (uint e = slice_start[(i) >> EDGE_SLICE_BITS] + EDGE_LANE(i),       \
            e##_end = slice_start[((i) >> EDGE_SLICE_BITS) + 1];          \
       e < e##_end; e += EDGE_SLICE)
#endif
