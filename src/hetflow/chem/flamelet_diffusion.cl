// The diffusion sub-step of the flamelet's operator splitting (chem::FlameletDiffusion, docs/chem.md,
// Flamelets): du/dt = L u on the interior nodes of the z-grid for every component of the state, with the
// boundary nodes held (Dirichlet). One work-item owns one component (a species' mass fraction or T) and
// solves its tridiagonal systems down the grid by Thomas' algorithm; every component shares L, so the
// host factors (I - h L) once per step size and the kernel only substitutes.
//
// The step is Richardson-extrapolated backward Euler, u(dt) = 2 BE(dt/2)^2 u - BE(dt) u: second order
// and L-stable, so a Strang splitting keeps its second order and the stiff modes of a kinked profile
// decay instead of ringing as under Crank-Nicolson.
#pragma OPENCL FP_CONTRACT OFF
#include "core/common.cl"

// Solves (I - h L) x = u in place along one component: u holds the node values at stride `stride`,
// u[0] and u[(points + 1) stride] the boundary values. `f` holds the factors of (I - h L): the lower
// diagonal (-h a_i), the modified upper diagonal c'_i and the inverse pivots, `points` values each.
void flamelet_thomas(__global double* u, uint stride, uint points, __global const double* f) {
  __global const double* lower = f;
  __global const double* upper = f + points;
  __global const double* pivot = f + 2 * points;
  // Forward: d'_i = (u_i - lower_i d'_{i-1}) / pivot_i, d'_0 = the boundary value.
  double previous = u[0];
  for (uint i = 1; i <= points; ++i) {
    previous = (u[i * stride] - lower[i - 1] * previous) * pivot[i - 1];
    u[i * stride] = previous;
  }
  // Back: x_i = d'_i - c'_i x_{i+1}, x_{points+1} = the boundary value.
  double next = u[(points + 1) * stride];
  for (uint i = points; i >= 1; --i) {
    next = u[i * stride] - upper[i - 1] * next;
    u[i * stride] = next;
  }
}

// state: (points + 2) nodes x components, node-major; scratch: the same size. factors: those of
// (I - dt L) then of (I - dt/2 L), 3 points values each.
__kernel void flamelet_diffuse(__global double* state, __global double* scratch, __global const double* factors,
                               uint points, uint components) {
  const uint k = get_global_id(0);
  if (k >= components) return;
  __global double* u = state + k;
  __global double* full = scratch + k;
  for (uint i = 0; i < points + 2; ++i) full[i * components] = u[i * components];
  flamelet_thomas(full, components, points, factors);
  flamelet_thomas(u, components, points, factors + 3 * points);
  flamelet_thomas(u, components, points, factors + 3 * points);
  for (uint i = 1; i <= points; ++i) u[i * components] = 2.0 * u[i * components] - full[i * components];
}
