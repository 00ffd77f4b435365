// Shared by the fem node-loop kernels: the real vector types and the loop that strides one work-item
// over the nodes. A record is 16 consecutive edge_t in the order of fem/edge_data.hpp (edge_slot): m, Λ
// row-major, d, g; it is read with one vload16 (LOAD_RECORD). 3-vectors per node are packed x, y, z (vload3/vstore3).
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
