// The velocity constraints of the boundary nodes (docs/fem.md, Boundary conditions), one work-item per
// constrained node. The entries are ordered creases, corners, slip nodes, Dirichlet nodes, and a node has
// one entry at most, so they are independent of one another.
#include "fem/fem_nodes.cl"

// Entry k < count constrains node[k] with the 3-vector direction[k]:
//   k < crease_end   u ← (u·t) t, t the unit crease tangent;
//   k < corner_end   u ← 0;
//   k < slip_end     u ← u − (u·n) n, n the unit normal;
//   otherwise        u ← r(t) v, v the value and r = (1 − cos(π t/T))/2 for t < T, else 1 (T = ramp_time[k]).
__kernel void fem_velocity_constraints(const uint count, const uint crease_end, const uint corner_end,
                                       const uint slip_end, __global const uint* restrict node,
                                       __global const real_t* restrict direction,
                                       __global const real_t* restrict ramp_time, const real_t time,
                                       __global real_t* restrict velocity) {
  FOR_EACH_NODE(k, count) {
    const uint i = node[k];
    const real3_t v = vload3(k, direction);
    real3_t u = vload3(i, velocity);
    if (k < crease_end) {
      u = dot(u, v) * v;
    } else if (k < corner_end) {
      u = (real3_t)(0);
    } else if (k < slip_end) {
      u -= dot(u, v) * v;
    } else {
      const real_t ramp = ramp_time[k];
      u = ramp > 0 && time < ramp ? (real_t)0.5 * (1 - cos((real_t)M_PI * time / ramp)) * v : v;
    }
    vstore3(u, i, velocity);
  }
}
