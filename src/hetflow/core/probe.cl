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
