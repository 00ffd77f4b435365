// Shared by the fem node-loop kernels: the real vector types, the loop that strides one work-item over
// the nodes, the loop over a node's row of the sliced edge graph (fem/row_slices.hpp) and the edge
// record as the kernels read it. Slices hold 2^EDGE_SLICE_BITS consecutive nodes (compile-time), entry q
// of node i at slice_start[i >> bits] + (i mod 2^bits) + q 2^bits, padding entries pointing at the node
// itself with zero records. A record is EDGE_SLOTS edge_t in the order of fem/device_edge_data.hpp
// (device_slot); slot t of the entry at e sits at EDGE_SLOTS (e - lane) + t 2^bits + lane, so the
// work-items of consecutive nodes read consecutive addresses. 3-vectors per node are packed x, y, z
// (vload3/vstore3).
#include "core/common.cl"

#define VEC_TYPE_(t, n) t##n
#define VEC_TYPE(t, n) VEC_TYPE_(t, n)
typedef VEC_TYPE(REAL, 3) real3_t;

// Edge records are stored in edge_t, the build's real_t unless EDGE_REAL says otherwise (FP32 edge data
// with FP64 arithmetic halves the bytes every edge loop reads), and read into edge_record_t.
#ifndef EDGE_REAL
#define EDGE_REAL REAL
#endif
typedef EDGE_REAL edge_t;

#define FOR_EACH_NODE(i, count) for (uint i = get_global_id(0); i < (count); i += get_global_size(0))

// Programs that read the edge graph give its slice width (DeviceEdgeData::build_options).
#ifdef EDGE_SLICE_BITS
#define EDGE_SLICE (1u << EDGE_SLICE_BITS)
#define EDGE_LANE(e) ((e) & (EDGE_SLICE - 1))

#define EDGE_SLOTS 12

// The record of a directed edge IJ: the diagonal of Λ_IJ = ∫ ∇N_I ⊗ ∇N_J, the sums Λ_ab + Λ_ba of its
// off-diagonal pairs (the kernels use Λ only in tr Λ and aᵀΛa, which its symmetric part gives),
// d_IJ = ∫ N_I ∇N_J and g_IJ = ∫ ∇N_I N_J.
typedef struct {
  real_t xx, yy, zz, xy, xz, yz;
  real3_t d, g;
} edge_record_t;

// Loads every slot; a kernel's unused slots are never read, as the compiler drops their loads.
edge_record_t load_record(const uint e, __global const edge_t* restrict records) {
  __global const edge_t* r = records + EDGE_SLOTS * (size_t)(e - EDGE_LANE(e)) + EDGE_LANE(e);
#define SLOT_(t) (real_t) r[(t) * EDGE_SLICE]
  const edge_record_t record = {SLOT_(0), SLOT_(1), SLOT_(2), SLOT_(3), SLOT_(4), SLOT_(5),
                                (real3_t)(SLOT_(6), SLOT_(7), SLOT_(8)), (real3_t)(SLOT_(9), SLOT_(10), SLOT_(11))};
#undef SLOT_
  return record;
}

// ℓ_IJ = tr Λ_IJ, summed as the host sums the diagonal of its full record.
real_t edge_trace(const edge_record_t r) { return r.xx + r.yy + r.zz; }

// aᵀ Λ_IJ a.
real_t edge_form(const edge_record_t r, const real3_t a) {
  return a.x * (a.x * r.xx + a.y * r.xy + a.z * r.xz) + a.y * (a.y * r.yy + a.z * r.yz) + a.z * a.z * r.zz;
}

// The entries e of node i's row, padding included (a padding entry's column is i, its record zero).
#define FOR_ROW_EDGES(e, i, slice_start)                                  \
  for (uint e = slice_start[(i) >> EDGE_SLICE_BITS] + EDGE_LANE(i),       \
            e##_end = slice_start[((i) >> EDGE_SLICE_BITS) + 1];          \
       e < e##_end; e += EDGE_SLICE)

// The same loop unrolled twice, for the loops with light bodies: the next entry's column and record loads
// are issued while this one's gathers are in flight. The heavy bodies of the momentum residual and the
// pressure assembly lose by it, as the unrolled body's registers leave fewer work-items in flight
// (docs/fem.md, Performance).
#define FOR_ROW_EDGES_UNROLLED(e, i, slice_start) _Pragma("unroll 2") FOR_ROW_EDGES(e, i, slice_start)
#endif
