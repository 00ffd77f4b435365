// Shared by the mrag kernels: the layout of block data. Compile-time BLOCK is s, the cells per side; field
// f of cell x + s y of block b sits at data[(b FIELDS + f) s² + x + s y], the fields being the conserved
// ρ, ρu, ρv, ρE, Γ, Π (mrag/block_rhs.hpp).
#include "core/common.cl"

#define FIELDS 6
#define CELLS (BLOCK * BLOCK)
// The values of a boundary-face record (mrag_rhs.cl): the fields' fluxes and u*.
#define FACE_VALUES (FIELDS + 1)

// Γ of a cell from its closure field (field 4): Γ itself, or with COLOUR_FUNCTION 1 (mrag/colour_function.hpp)
// the colour φ, whose γ(φ) = GAMMA1 H(φ) + GAMMA2 (1 − H(φ)) with the mollified Heaviside H of width
// PHI_EPSILON.
#ifndef COLOUR_FUNCTION
#define COLOUR_FUNCTION 0
#endif
real_t closure_big_gamma(const real_t field) {
#if COLOUR_FUNCTION
  const real_t pi = (real_t)3.14159265358979323846, e = (real_t)PHI_EPSILON;
  const real_t h = field < -e  ? (real_t)0
                   : field > e ? (real_t)1
                               : (real_t)0.5 + field / (2 * e) + sin(pi * field / e) / (2 * pi);
  return 1 / ((real_t)GAMMA1 * h + (real_t)GAMMA2 * (1 - h) - 1);
#else
  return field;
#endif
}

// The larger of two rates, NaN if either is.
real_t nan_max(const real_t x, const real_t y) { return isnan(x) || isnan(y) ? NAN : fmax(x, y); }

// A cell's (|u| + |v| + 2c)/h from its conserved fields, for the CFL number: NaN where the state is not
// finite or has ρ ≤ 0 or c² ≤ 0, which the host reports.
real_t signal_rate(const real_t* q, const real_t inv_h) {
  const real_t rho = q[0], u = q[1] / rho, v = q[2] / rho, gamma = closure_big_gamma(q[4]), pi = q[5];
  const real_t p = (q[3] - (real_t)0.5 * rho * (u * u + v * v) - pi) / gamma;
  const real_t c2 = ((gamma + 1) * p + pi) / (gamma * rho);
  return rho > 0 && c2 > 0 ? (fabs(u) + fabs(v) + 2 * sqrt(c2)) * inv_h : NAN;
}
