// Device self-test: explicit diffusion on a block of z-planes, u' = u + r * (sum of 6 neighbours - 6 u).
// Mirror (zero-flux) boundaries make the total exactly conserved in exact arithmetic, which the test
// checks. The block holds one halo plane below and above its nz_local own planes.
#include "core/common.cl"

// No fused multiply-add: +, - and * are correctly rounded on every OpenCL device, so a GPU and a CPU
// sharing the grid produce the same bits as one device alone.
#pragma OPENCL FP_CONTRACT OFF

__kernel void selftest_diffuse(__global real_t* restrict out, __global const real_t* restrict in, const int nx,
                               const int ny, const int nz_local, const int z0, const int nz, const real_t r) {
  const int x = get_global_id(0);
  const int y = get_global_id(1);
  const int zl = get_global_id(2);
  if (x >= nx || y >= ny || zl >= nz_local) return;
  const size_t plane = (size_t)nx * ny;
  const size_t c = (size_t)(zl + 1) * plane + (size_t)y * nx + x;
  const int z = z0 + zl;
  const real_t u = in[c];
  const real_t xm = x > 0 ? in[c - 1] : u;
  const real_t xp = x < nx - 1 ? in[c + 1] : u;
  const real_t ym = y > 0 ? in[c - nx] : u;
  const real_t yp = y < ny - 1 ? in[c + nx] : u;
  const real_t zm = z > 0 ? in[c - plane] : u;
  const real_t zp = z < nz - 1 ? in[c + plane] : u;
  out[c] = u + r * (((xm + xp) + (ym + yp)) + (zm + zp) - (real_t)6 * u);
}
