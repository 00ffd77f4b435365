// The pressure step of the fractional-step scheme (docs/fem.md, Fractional step; Rossi, Mossaiby &
// Idelsohn 2013, eqs. 15–16, 45–48), one work-item per node striding over the nodes, looping over the
// node's row of the edge graph (without the diagonal) as fem_edges.cl does; fem/pressure_system.hpp is
// the host reference and states the equations. 3-vectors per node are packed x, y, z.
#include "fem/fem_nodes.cl"

// The CG's matrix, preconditioner, right-hand side and increment are cg_real_t: the build's real_t, or
// float with CG_REAL=float (solver.cg_precision: fp32), converted on store and load.
#ifndef CG_REAL
#define CG_REAL REAL
#endif
typedef CG_REAL cg_real_t;

// The matrix values of row i on the pressure pattern, the Jacobi preconditioner 1/H_ii, and the
// right-hand side of the increment:
//   H_ij = (θΔt + τ_ij) ℓ_ij, H_ii = −Σ_j H_ij, τ_ij = (τ_i + τ_j)/2, ℓ_ij = tr Λ_ij;
//   b_i = −ρ D(û)_i + Σ_j τ_ij [g_ij·ξ_j − d_ij·ξ_i − ℓ_ij (p_j − p_i)], and with the mass correction
//   also −ρ D(uⁿ)_i, the divergence the last step left.
// A fixed node's row and column become the identity's and its b_i is 0 (symmetric elimination).
// The matrix is sliced as the edges are, with one more entry per row: the diagonal in its sorted place,
// so the entry of the edge at e (q-th of row i) sits q or q + 1 places along the matrix row, as
// (matrix_start − edge_start) + e or one slice width further, and the diagonal `below` places along,
// below being the count of the row's columns under i. Padding edges (column i) store nothing.
__kernel void fem_pressure_assemble(const uint nodes, __global const uint* restrict slice_start,
                                    __global const uint* restrict col, __global const edge_t* restrict records,
                                    __global const uchar* restrict fixed, __global const real_t* restrict tau,
                                    const real_t theta_dt, const real_t density,
                                    __global const real_t* restrict u_hat, __global const real_t* restrict u_n,
                                    const uint mass_correction, __global const real_t* restrict xi,
                                    __global const real_t* restrict p, __global const int* restrict matrix_start,
                                    __global cg_real_t* restrict values, __global cg_real_t* restrict inv_diag,
                                    __global cg_real_t* restrict rhs) {
  FOR_EACH_NODE(i, nodes) {
    const bool fixed_i = fixed[i] != 0;
    const real_t tau_i = tau[i];
    const real_t p_i = p[i];
    const real3_t u_i = vload3(i, u_hat);
    const real3_t u_n_i = vload3(i, u_n);
    const real3_t xi_i = vload3(i, xi);
    real_t diagonal = 0, divergence = 0, stabilisation = 0;
    uint below = 0;
    const uint slice = i >> EDGE_SLICE_BITS;
    const uint shift = (uint)matrix_start[slice] - slice_start[slice];
    FOR_ROW_EDGES(k, i, slice_start) {
      const uint j = col[k];
      const edge_record_t r = load_record(k, records);
      const real_t l = edge_trace(r);
      const real_t tau_ij = (real_t)0.5 * (tau_i + tau[j]);
      const real_t h = (theta_dt + tau_ij) * l;
      diagonal -= h;
      if (j < i) ++below;
      if (j != i)
        values[shift + k + (j > i ? EDGE_SLICE : 0u)] = (cg_real_t)((fixed_i || fixed[j] != 0) ? (real_t)0 : h);
      divergence += dot(r.d, vload3(j, u_hat) - u_i);
      if (mass_correction) divergence += dot(r.d, vload3(j, u_n) - u_n_i);
      stabilisation += tau_ij * (dot(r.g, vload3(j, xi)) - dot(r.d, xi_i) - l * (p[j] - p_i));
    }
    values[matrix_start[slice] + EDGE_LANE(i) + below * EDGE_SLICE] = (cg_real_t)(fixed_i ? (real_t)1 : diagonal);
    inv_diag[i] = (cg_real_t)(fixed_i ? (real_t)1 : (real_t)1 / diagonal);
    rhs[i] = (cg_real_t)(fixed_i ? (real_t)0 : -density * divergence + stabilisation);
  }
}

// Σ_j d_ij (φ_j − φ_i) = π(φ)_i: the strong gradient, of a field stored as T.
#define ROW_STRONG_GRADIENT(name, T)                                                                 \
  real3_t name(const uint i, __global const uint* restrict slice_start, __global const uint* restrict col, \
               __global const edge_t* restrict records, __global const T* restrict phi) {          \
    const real_t phi_i = phi[i];                                                                   \
    real3_t sum = (real3_t)(0);                                                                    \
    FOR_ROW_EDGES_UNROLLED(k, i, slice_start)                                                      \
      sum += load_record(k, records).d * ((real_t)phi[col[k]] - phi_i);                         \
    return sum;                                                                                    \
  }
ROW_STRONG_GRADIENT(row_strong_gradient, real_t)
ROW_STRONG_GRADIENT(increment_gradient, cg_real_t)

// The end of the step: u_i = û_i − (θΔt/ρ) π(δ)_i / M_i and p_i += δ_i. Each work-item writes only its
// own node's p and reads δ, so the update in place is free of races.
__kernel void fem_pressure_correct(const uint nodes, __global const uint* restrict slice_start,
                                   __global const uint* restrict col, __global const edge_t* restrict records,
                                   __global const real_t* restrict inv_mass, const real_t theta_dt_over_density,
                                   __global const cg_real_t* restrict delta, __global const real_t* restrict u_hat,
                                   __global real_t* restrict u, __global real_t* restrict p) {
  FOR_EACH_NODE(i, nodes) {
    const real3_t grad = increment_gradient(i, slice_start, col, records, delta);
    vstore3(vload3(i, u_hat) - (theta_dt_over_density * inv_mass[i]) * grad, i, u);
    p[i] += delta[i];
  }
}

// ξ_i = π(p)_i / M_i: the lumped projection of the pressure gradient, used in the next step.
__kernel void fem_pressure_projection(const uint nodes, __global const uint* restrict slice_start,
                                      __global const uint* restrict col, __global const edge_t* restrict records,
                                      __global const real_t* restrict inv_mass, __global const real_t* restrict p,
                                      __global real_t* restrict xi) {
  FOR_EACH_NODE(i, nodes) vstore3(inv_mass[i] * row_strong_gradient(i, slice_start, col, records, p), i, xi);
}

