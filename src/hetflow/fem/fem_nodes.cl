// Shared by the fem node-loop kernels: the real vector types and the loop that strides one work-item
// over the nodes. A record is 16 consecutive real_t in the order of fem/edge_data.hpp (edge_slot): m, Λ
// row-major, d, g; it is read with one vload16. 3-vectors per node are packed x, y, z (vload3/vstore3).
#include "core/common.cl"

#define VEC_TYPE_(t, n) t##n
#define VEC_TYPE(t, n) VEC_TYPE_(t, n)
typedef VEC_TYPE(REAL, 16) real16_t;
typedef VEC_TYPE(REAL, 3) real3_t;

#define FOR_EACH_NODE(i, count) for (uint i = get_global_id(0); i < (count); i += get_global_size(0))
