// The explicit momentum part of the fractional step (docs/fem.md, Momentum): the nodal stabilisation τ,
// the convective projection Π, the momentum residual F, the RK4 stage updates and the Dirichlet velocity
// values. Edge loops run one work-item per node over its row (fem_edges.cl's pattern), summing
// differences so a constant field gives exactly zero; node kernels touch one node each.
#include "fem/fem_nodes.cl"

// τ_I = 1 / (c_t/Δt + c_ν ν/h_I² + c_u ‖u_I‖/h_I) with h_I = M_I^{1/3}.
__kernel void fem_stabilisation_tau(const uint nodes, __global const real_t* restrict mass,
                                    __global const real_t* restrict u, const real_t dt, const real_t viscosity,
                                    const real_t c_time, const real_t c_viscous, const real_t c_convective,
                                    __global real_t* restrict tau) {
  FOR_EACH_NODE(i, nodes) {
    const real3_t u_i = vload3(i, u);
    const real_t h = cbrt(mass[i]);
    tau[i] = 1 / (c_time / dt + c_viscous * viscosity / (h * h) + c_convective * sqrt(dot(u_i, u_i)) / h);
  }
}

// Π_I = (1/M_I) Σ_J (u_I·d_IJ)(u_J − u_I): the lumped projection of (u·∇)u.
__kernel void fem_convective_projection(const uint nodes, __global const uint* restrict slice_start,
                                        __global const uint* restrict col, __global const edge_t* restrict records,
                                        __global const real_t* restrict inv_mass, __global const real_t* restrict u,
                                        __global real_t* restrict projection) {
  FOR_EACH_NODE(i, nodes) {
    const real3_t u_i = vload3(i, u);
    real3_t sum = (real3_t)(0);
    FOR_ROW_EDGES_UNROLLED(k, i, slice_start) {
      sum += (vload3(col[k], u) - u_i) * dot(u_i, load_record(k, records).d);
    }
    vstore3(sum * inv_mass[i], i, projection);
  }
}

// F_I = M_I f − A_I − ν K(U)_I − (1/ρ) π(p)_I − τ_I (S^low_I − S^high_I), the paper's eq. 44 with the
// strong gradient of eq. 29, with the advecting velocity a = U_I frozen at the node:
//   A_I      = Σ_J (a·d_IJ)(U_J − U_I)        (eq. 38–39)
//   K(U)_I   = Σ_J tr Λ_IJ (U_J − U_I)         (eq. 34–36)
//   π(p)_I   = Σ_J d_IJ (p_J − p_I)            (eq. 29)
//   S^low_I  = Σ_J (aᵀ Λ_IJ a)(U_J − U_I)      (eq. 42)
//   S^high_I = −Σ_J (a·d_IJ)(Π_J − Π_I)        (eq. 43)
// Terms with the same factor share a sum, so that three vectors accumulate instead of five (fewer
// registers leave more work-items in flight; the host reference sums the five apart, and the two agree
// to rounding):
//   F_I = M_I f − Σ_J (a·d_IJ)[(U_J − U_I) + τ_I (Π_J − Π_I)] − Σ_J (ν tr Λ_IJ + τ_I aᵀΛ_IJ a)(U_J − U_I)
//         − (1/ρ) Σ_J d_IJ (p_J − p_I).
__kernel void fem_momentum_residual(const uint nodes, __global const uint* restrict slice_start,
                                    __global const uint* restrict col, __global const edge_t* restrict records,
                                    __global const real_t* restrict mass, const real_t viscosity,
                                    const real_t density, const real_t f_x, const real_t f_y, const real_t f_z,
                                    __global const real_t* restrict tau, __global const real_t* restrict projection,
                                    __global const real_t* restrict velocity, __global const real_t* restrict pressure,
                                    __global real_t* restrict residual) {
  FOR_EACH_NODE(i, nodes) {
    const real3_t a = vload3(i, velocity);
    const real3_t projection_i = vload3(i, projection);
    const real_t p_i = pressure[i];
    const real_t tau_i = tau[i];
    real3_t transport = (real3_t)(0), diffusion = (real3_t)(0), gradient = (real3_t)(0);
    FOR_ROW_EDGES(k, i, slice_start) {
      const edge_record_t r = load_record(k, records);
      const uint j = col[k];
      const real3_t du = vload3(j, velocity) - a;
      transport += dot(a, r.d) * (du + tau_i * (vload3(j, projection) - projection_i));
      diffusion += (viscosity * edge_trace(r) + tau_i * edge_form(r, a)) * du;
      gradient += r.d * (pressure[j] - p_i);
    }
    const real3_t f = (real3_t)(f_x, f_y, f_z);
    vstore3(mass[i] * f - transport - diffusion - gradient / density, i, residual);
  }
}

// One RK stage's updates with the stage's residual R: W_I += (w_s Δt / M_I) R_I, and unless `last`,
// U_I = uⁿ_I + (c_s Δt / M_I) R_I.
__kernel void fem_rk_stage(const uint nodes, __global const real_t* restrict inv_mass,
                           __global const real_t* restrict u_n, __global const real_t* restrict residual,
                           const real_t w_dt, const real_t c_dt, const uint last, __global real_t* restrict w,
                           __global real_t* restrict u) {
  FOR_EACH_NODE(i, nodes) {
    const real3_t r = vload3(i, residual);
    vstore3(vload3(i, w) + (w_dt * inv_mass[i]) * r, i, w);
    if (!last) vstore3(vload3(i, u_n) + (c_dt * inv_mass[i]) * r, i, u);
  }
}
