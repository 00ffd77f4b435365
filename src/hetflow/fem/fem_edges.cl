// Edge-based operators (docs/fem.md, Edge operators): one work-item per node, striding over the nodes,
// loops over the node's row of the CSR graph without the diagonal and sums differences φ_J − φ_I
// weighted by the edge record, so a constant field gives exactly zero and no two work-items write the
// same node. A record is 16 consecutive real_t in the order of fem/edge_data.hpp (edge_slot): m, Λ
// row-major, d, g; it is read with one vload16. 3-vectors per node are packed x, y, z (vload3/vstore3).
#include "core/common.cl"

#define VEC_TYPE_(t, n) t##n
#define VEC_TYPE(t, n) VEC_TYPE_(t, n)
typedef VEC_TYPE(REAL, 16) real16_t;
typedef VEC_TYPE(REAL, 3) real3_t;

#define FOR_EACH_NODE(i, count) for (uint i = get_global_id(0); i < (count); i += get_global_size(0))

// grad_I = Σ_J d_IJ (p_J − p_I): the strong gradient π(p), ∫ N_I ∇p_h.
__kernel void fem_strong_gradient(const uint nodes, __global const uint* restrict row_start,
                                  __global const uint* restrict col, __global const real_t* restrict records,
                                  __global const real_t* restrict p, __global real_t* restrict grad) {
  FOR_EACH_NODE(i, nodes) {
    const real_t p_i = p[i];
    real3_t sum = (real3_t)(0);
    const uint end = row_start[i + 1];
    for (uint k = row_start[i]; k < end; ++k) {
      const real16_t r = vload16(k, records);
      sum += r.sabc * (p[col[k]] - p_i);
    }
    vstore3(sum, i, grad);
  }
}

// out_I = Σ_J ℓ_IJ (φ_J − φ_I) with ℓ_IJ = tr Λ_IJ: the stiffness operator K(φ), Σ_J ∫ ∇N_I·∇N_J φ_J.
__kernel void fem_stiffness(const uint nodes, __global const uint* restrict row_start,
                            __global const uint* restrict col, __global const real_t* restrict records,
                            __global const real_t* restrict phi, __global real_t* restrict out) {
  FOR_EACH_NODE(i, nodes) {
    const real_t phi_i = phi[i];
    real_t sum = 0;
    const uint end = row_start[i + 1];
    for (uint k = row_start[i]; k < end; ++k) {
      const real16_t r = vload16(k, records);
      sum += (r.s1 + r.s5 + r.s9) * (phi[col[k]] - phi_i);
    }
    out[i] = sum;
  }
}
