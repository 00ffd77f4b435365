// Bandwidth probe: the reference every benchmark divides by. float4 accesses give full-width loads on
// GPUs and vector loads on CPUs; one work-item per element keeps the kernels free of arithmetic.
#include "core/common.cl"

__kernel void probe_copy(__global float4* restrict dst, __global const float4* restrict src, const ulong n) {
  const size_t i = get_global_id(0);
  if (i < n) dst[i] = src[i];
}

__kernel void probe_triad(__global float4* restrict a, __global const float4* restrict b,
                          __global const float4* restrict c, const float s, const ulong n) {
  const size_t i = get_global_id(0);
  if (i < n) a[i] = b[i] + s * c[i];
}

// Peak multiply-add rate in real_t (built once per precision): PROBE_VECTORS independent chains of
// real8 per work-item, 32 scalar chains, hide the multiply-add latency and give CPU compilers explicit
// SIMD (GPUs split the vectors into scalar instructions). Each chain is updated twice per loop trip:
// 64 mads, 128 flops a trip. With |s| < 1 the chains converge to c / (1 - s): no overflow, no
// denormals. The sum written at the end keeps the compiler from dropping any chain.
#define PROBE_VECTORS 4
#define PROBE_CAT_(a, b) a##b
#define PROBE_CAT(a, b) PROBE_CAT_(a, b)
typedef PROBE_CAT(REAL, 8) real8_t;  // float8 or double8
typedef PROBE_CAT(REAL, 4) real4_v;
__kernel void probe_fma(__global real_t* restrict out, const real_t s, const real_t c, const uint iterations) {
  const size_t gid = get_global_id(0);
  const real8_t lane = (real8_t)(0, 1, 2, 3, 4, 5, 6, 7);
  real8_t a[PROBE_VECTORS];
  for (int k = 0; k < PROBE_VECTORS; ++k) a[k] = (real_t)(gid & 255) * (real_t)0.001 + lane + (real_t)(8 * k);
  for (uint i = 0; i < iterations; ++i) {
#pragma unroll
    for (int k = 0; k < PROBE_VECTORS; ++k) {
      a[k] = mad(a[k], (real8_t)s, (real8_t)c);
      a[k] = mad(a[k], (real8_t)s, (real8_t)c);
    }
  }
  real8_t v = a[0];
  for (int k = 1; k < PROBE_VECTORS; ++k) v += a[k];
  const real4_v h = v.lo + v.hi;
  out[gid] = (h.x + h.y) + (h.z + h.w);
}
