// Karst-conduit heat and solute transport (Myre 2013, Ch. 4; docs/karst.md): the device side of
// karst::KarstDevice. One work-group runs one parameter set through every step, so a launch holds the
// whole batch and the whole time loop (OpenCL 1.2 has no grid-wide barrier; a forward model never needs
// one). Per step:
//   rock (heat): work-item l owns the columns j = l, l + wg, ...; each column is a Thomas solve down
//   its M rock nodes in global memory, in place, with the step's factorisation (same for all columns)
//   from local memory; the same work-item then forms row j of the water right-hand side from the new
//   wall temperature, so rock data never crosses work-items and needs no global fence;
//   water: work-item 0 solves the N x N system by Thomas in local memory (one system per set, N
//   sequential steps) while work-item 1 factors the next step's rock matrix.
// The arithmetic is that of HostSolver (host_solver.cpp) operation by operation, so results equal the
// host reference bit for bit; keep the two in step. FP_CONTRACT OFF keeps a*b+c from becoming an fma.
#pragma OPENCL FP_CONTRACT OFF
#include "core/common.cl"

// Factors the rock matrix of a step into inverse pivots r and modified upper diagonal cp.
void karst_rock_factor(__local double* cp, __local double* r, uint m, double dt, double theta, double psi,
                       double st, double dr, uint fixed_far) {
  const double fo = dt / (theta * dr * dr);
  const double fobi = psi * st * dt / (2.0 * dr);
  const double two_fobi = 2.0 * fobi;
  const double diag = 1.0 + 2.0 * fo, off = -fo;
  const double lower_last = fixed_far ? 0.0 : -2.0 * fo, diag_last = fixed_far ? 1.0 : diag;
  r[0] = 1.0 / (diag + two_fobi);
  cp[0] = -2.0 * fo * r[0];
  for (uint i = 1; i + 1 < m; ++i) {
    r[i] = 1.0 / (diag - off * cp[i - 1]);
    cp[i] = off * r[i];
  }
  r[m - 1] = 1.0 / (diag_last - lower_last * cp[m - 2]);
}

// sets: P x 5 (Pe, St, Theta, Psi, Da); forcing: dt[K], v[K], inlet[K]; rock: P x M x N (row i of set p
// at (p M + i) N), theta = T - t_ref, zero on entry; out: P x K outlet values.
// Local: water and wcp N doubles each, rock_cp and rock_r M doubles each (heat only).
__kernel void karst_run(__global const double* sets, __global const double* forcing, __global double* rock,
                        __global double* out, __local double* water, __local double* wcp, __local double* rock_cp,
                        __local double* rock_r, uint n, uint m, uint steps, uint heat, uint thesis_outlet,
                        uint fixed_far, double dx, double dr, double t_ref) {
  const uint p = get_group_id(0), lid = get_local_id(0), wg = get_local_size(0);
  const uint factor_item = wg > 1 ? 1 : 0;
  const double pe = sets[5 * p], st = sets[5 * p + 1], theta = sets[5 * p + 2], psi = sets[5 * p + 3],
               da = sets[5 * p + 4];
  __global double* rk = rock + (ulong)p * m * n;
  __global const double* f_dt = forcing;
  __global const double* f_v = forcing + steps;
  __global const double* f_in = forcing + 2 * (ulong)steps;

  for (uint j = lid; j < n; j += wg) water[j] = 0.0;
  if (heat && lid == 0) karst_rock_factor(rock_cp, rock_r, m, f_dt[0], theta, psi, st, dr, fixed_far);
  barrier(CLK_LOCAL_MEM_FENCE);

  for (uint k = 0; k < steps; ++k) {
    const double dt = f_dt[k], velocity = f_v[k], theta_in = f_in[k] - t_ref;

    // Water coefficients, as HostSolver::water_step.
    const double a = dt / (pe * dx * dx);
    const double c = velocity * dt / (2.0 * dx);
    const double ds = heat ? dt * st : -(dt * da);
    const double diag = 1.0 + 2.0 * a + ds, lower = -a - c, upper = c - a;
    const double src = heat ? 0.0 : dt * da * t_ref;
    double lower_n, diag_n, src_n;
    if (thesis_outlet) {
      lower_n = -2.0 * c;
      diag_n = diag;
      src_n = src + t_ref * (2.0 * c - 2.0 * a);
    } else {
      lower_n = -(2.0 * a + 2.0 * c);
      diag_n = 1.0 + 2.0 * a + 2.0 * c + ds;
      src_n = src;
    }

    if (heat) {
      const double fobi = psi * st * dt / (2.0 * dr);
      const double two_fobi = 2.0 * fobi;
      const double fo = dt / (theta * dr * dr), off = -fo;
      const double lower_last = fixed_far ? 0.0 : -2.0 * fo;
      for (uint j = lid; j < n; j += wg) {
        __global double* t = rk + j;
        // Forward sweep in place (t[i n] becomes d_i), then back substitution.
        double d = (t[0] + two_fobi * water[j]) * rock_r[0];
        t[0] = d;
        for (uint i = 1; i + 1 < m; ++i) {
          d = (t[(ulong)i * n] - off * d) * rock_r[i];
          t[(ulong)i * n] = d;
        }
        double x = (t[(ulong)(m - 1) * n] - lower_last * d) * rock_r[m - 1];
        t[(ulong)(m - 1) * n] = x;
        for (uint i = m - 1; i-- > 0;) {
          x = t[(ulong)i * n] - rock_cp[i] * x;
          t[(ulong)i * n] = x;
        }
        water[j] += ds * x;  // x: the new wall temperature
      }
    }
    for (uint j = lid; j < n; j += wg) {
      double b = water[j];
      b += j + 1 == n ? src_n : src;
      if (j == 0) b -= lower * theta_in;
      water[j] = b;
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    if (lid == 0) {
      double r = 1.0 / diag;
      wcp[0] = upper * r;
      water[0] = water[0] * r;
      for (uint j = 1; j + 1 < n; ++j) {
        r = 1.0 / (diag - lower * wcp[j - 1]);
        wcp[j] = upper * r;
        water[j] = (water[j] - lower * water[j - 1]) * r;
      }
      r = 1.0 / (diag_n - lower_n * wcp[n - 2]);
      double x = (water[n - 1] - lower_n * water[n - 2]) * r;
      water[n - 1] = x;
      for (uint j = n - 1; j-- > 0;) {
        x = water[j] - wcp[j] * x;
        water[j] = x;
      }
      out[(ulong)p * steps + k] = water[n - 1] + t_ref;
    }
    if (heat && k + 1 < steps && lid == factor_item)
      karst_rock_factor(rock_cp, rock_r, m, f_dt[k + 1], theta, psi, st, dr, fixed_far);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
