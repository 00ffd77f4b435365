// Edge-based operators (docs/fem.md, Edge operators): one work-item per node, striding over the nodes,
// loops over the node's row of the sliced edge graph without the diagonal and sums differences φ_J − φ_I
// weighted by the edge record, so a constant field gives exactly zero and no two work-items write the
// same node (fem_nodes.cl gives the record and vector layouts).
#include "fem/fem_nodes.cl"

// grad_I = Σ_J d_IJ (p_J − p_I): the strong gradient π(p), ∫ N_I ∇p_h.
__kernel void fem_strong_gradient(const uint nodes, __global const uint* restrict slice_start,
                                  __global const uint* restrict col, __global const edge_t* restrict records,
                                  __global const real_t* restrict p, __global real_t* restrict grad) {
  FOR_EACH_NODE(i, nodes) {
    const real_t p_i = p[i];
    real3_t sum = (real3_t)(0);
    FOR_ROW_EDGES_UNROLLED(k, i, slice_start) {
      sum += load_record(k, records).d * (p[col[k]] - p_i);
    }
    vstore3(sum, i, grad);
  }
}

// out_I = Σ_J ℓ_IJ (φ_J − φ_I) with ℓ_IJ = tr Λ_IJ: the stiffness operator K(φ), Σ_J ∫ ∇N_I·∇N_J φ_J.
__kernel void fem_stiffness(const uint nodes, __global const uint* restrict slice_start,
                            __global const uint* restrict col, __global const edge_t* restrict records,
                            __global const real_t* restrict phi, __global real_t* restrict out) {
  FOR_EACH_NODE(i, nodes) {
    const real_t phi_i = phi[i];
    real_t sum = 0;
    FOR_ROW_EDGES_UNROLLED(k, i, slice_start) {
      sum += edge_trace(load_record(k, records)) * (phi[col[k]] - phi_i);
    }
    out[i] = sum;
  }
}
