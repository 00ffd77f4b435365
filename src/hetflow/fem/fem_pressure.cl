// The pressure step of the fractional-step scheme (docs/fem.md, Fractional step; Rossi, Mossaiby &
// Idelsohn 2013, eqs. 15–16, 45–48), one work-item per node striding over the nodes (the assembly one
// or several, FOR_EACH_ROW), looping over the node's row of the edge graph (without the diagonal) as
// fem_edges.cl does; fem/pressure_system.hpp is the host reference and states the equations. Records
// are 16 real_t: m, Λ row-major (s1..s9), d (sa..sc), g (sd..sf). 3-vectors per node are packed x, y, z.
#include "fem/fem_nodes.cl"

// The CG's matrix, preconditioner, right-hand side and increment are cg_real_t: the build's real_t, or
// float with CG_REAL=float (solver.cg_precision: fp32), converted on store and load.
#ifndef CG_REAL
#define CG_REAL REAL
#endif
typedef CG_REAL cg_real_t;

// The matrix values of row i on the pressure pattern (the edge graph with the diagonal in its sorted
// place: the entry of edge k of row i sits at k + i + [col_k > i]), the Jacobi preconditioner 1/H_ii,
// and the right-hand side of the increment:
//   H_ij = (θΔt + τ_ij) ℓ_ij, H_ii = −Σ_j H_ij, τ_ij = (τ_i + τ_j)/2, ℓ_ij = tr Λ_ij;
//   b_i = −ρ D(û)_i + Σ_j τ_ij [g_ij·ξ_j − d_ij·ξ_i − ℓ_ij (p_j − p_i)], and with the mass correction
//   also −ρ D(uⁿ)_i, the divergence the last step left.
// A fixed node's row and column become the identity's and its b_i is 0 (symmetric elimination).
// With lanes (fem_nodes.cl, FOR_EACH_ROW) each lane stores its edges' values, so the lanes' stores are
// consecutive; the lanes' sums of the diagonal, the divergence, the stabilisation and the count of
// columns below i (which places the diagonal) are added, and lane 0 writes the diagonal, 1/H_ii and b_i.
__kernel void fem_pressure_assemble(const uint nodes, __global const uint* restrict row_start,
                                    __global const uint* restrict col, __global const edge_t* restrict records,
                                    __global const uchar* restrict fixed, __global const real_t* restrict tau,
                                    const real_t theta_dt, const real_t density,
                                    __global const real_t* restrict u_hat, __global const real_t* restrict u_n,
                                    const uint mass_correction, __global const real_t* restrict xi,
                                    __global const real_t* restrict p, __global cg_real_t* restrict values,
                                    __global cg_real_t* restrict inv_diag, __global cg_real_t* restrict rhs) {
  LANE_SPACE(part, 4);
  FOR_EACH_ROW(i, nodes) {
    const bool fixed_i = fixed[i] != 0;
    const real_t tau_i = tau[i];
    const real_t p_i = p[i];
    const real3_t u_i = vload3(i, u_hat);
    const real3_t u_n_i = vload3(i, u_n);
    const real3_t xi_i = vload3(i, xi);
    real_t diagonal = 0, divergence = 0, stabilisation = 0;
    uint below = 0;
    const uint begin = row_start[i];
    const uint end = row_start[i + 1];
    FOR_ROW_EDGES(k, begin, end) {
      const uint j = col[k];
      const real16_t r = LOAD_RECORD(k, records);
      const real_t l = r.s1 + r.s5 + r.s9;
      const real_t tau_ij = (real_t)0.5 * (tau_i + tau[j]);
      const real_t h = (theta_dt + tau_ij) * l;
      diagonal -= h;
      if (j < i) ++below;
      if (ROW_OWNED(nodes))
        values[k + i + (j > i ? 1u : 0u)] = (cg_real_t)((fixed_i || fixed[j] != 0) ? (real_t)0 : h);
      divergence += dot(r.sabc, vload3(j, u_hat) - u_i);
      if (mass_correction) divergence += dot(r.sabc, vload3(j, u_n) - u_n_i);
      stabilisation += tau_ij * (dot(r.sdef, vload3(j, xi)) - dot(r.sabc, xi_i) - l * (p[j] - p_i));
    }
    LANE_STORE(part, 0, diagonal);
    LANE_STORE(part, 1, divergence);
    LANE_STORE(part, 2, stabilisation);
    LANE_STORE(part, 3, (real_t)below);
    LANE_SUMS(part, 4);
    LANE_LOAD(part, 0, diagonal);
    LANE_LOAD(part, 1, divergence);
    LANE_LOAD(part, 2, stabilisation);
    LANE_LOAD(part, 3, below);
    if (ROW_WRITES(nodes)) {
      values[begin + i + below] = (cg_real_t)(fixed_i ? (real_t)1 : diagonal);
      inv_diag[i] = (cg_real_t)(fixed_i ? (real_t)1 : (real_t)1 / diagonal);
      rhs[i] = (cg_real_t)(fixed_i ? (real_t)0 : -density * divergence + stabilisation);
    }
  }
}

// Σ_j d_ij (φ_j − φ_i) = π(φ)_i: the strong gradient, of a field stored as T.
#define ROW_STRONG_GRADIENT(name, T)                                                                 \
  real3_t name(const uint i, __global const uint* restrict row_start, __global const uint* restrict col, \
               __global const edge_t* restrict records, __global const T* restrict phi) {          \
    const real_t phi_i = phi[i];                                                                   \
    real3_t sum = (real3_t)(0);                                                                    \
    const uint end = row_start[i + 1];                                                             \
    for (uint k = row_start[i]; k < end; ++k)                                                      \
      sum += LOAD_RECORD(k, records).sabc * ((real_t)phi[col[k]] - phi_i);                         \
    return sum;                                                                                    \
  }
ROW_STRONG_GRADIENT(row_strong_gradient, real_t)
ROW_STRONG_GRADIENT(increment_gradient, cg_real_t)

// The end of the step: u_i = û_i − (θΔt/ρ) π(δ)_i / M_i and p_i += δ_i. Each work-item writes only its
// own node's p and reads δ, so the update in place is free of races.
__kernel void fem_pressure_correct(const uint nodes, __global const uint* restrict row_start,
                                   __global const uint* restrict col, __global const edge_t* restrict records,
                                   __global const real_t* restrict inv_mass, const real_t theta_dt_over_density,
                                   __global const cg_real_t* restrict delta, __global const real_t* restrict u_hat,
                                   __global real_t* restrict u, __global real_t* restrict p) {
  FOR_EACH_NODE(i, nodes) {
    const real3_t grad = increment_gradient(i, row_start, col, records, delta);
    vstore3(vload3(i, u_hat) - (theta_dt_over_density * inv_mass[i]) * grad, i, u);
    p[i] += delta[i];
  }
}

// ξ_i = π(p)_i / M_i: the lumped projection of the pressure gradient, used in the next step.
__kernel void fem_pressure_projection(const uint nodes, __global const uint* restrict row_start,
                                      __global const uint* restrict col, __global const edge_t* restrict records,
                                      __global const real_t* restrict inv_mass, __global const real_t* restrict p,
                                      __global real_t* restrict xi) {
  FOR_EACH_NODE(i, nodes) vstore3(inv_mass[i] * row_strong_gradient(i, row_start, col, records, p), i, xi);
}

