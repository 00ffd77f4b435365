// SVC, singular value composition (Myre 2013, Sec. 5.3 and App. D): the device side of
// nnls::SvcGenerator. The host reference svc_host (svc.cpp) does the same floating-point operations in
// the same order, so both give the same matrix bit for bit; change the two together.
//
// The matrix is addressed as the algorithm's working matrix (rows >= columns; A^T when A is wide):
// element (i, j) at i * row_stride + j * col_stride. Every rotation kernel rotates pairs of "lines"
// (rows or columns: line_stride, element_stride say which) over a run of elements, with the rotations
// of one launch on disjoint lines. `lines_fast` puts the line index in dimension 0 when lines are
// contiguous in memory (line_stride 1), else the element index: neighbouring work-items then touch
// neighbouring addresses either way. Dimension 1 steps through its range by the global size, so the
// host can keep it under the 65535 work-groups that NVIDIA's grids allow there.
#pragma OPENCL FP_CONTRACT OFF
#include "core/common.cl"
#include "nnls/philox.cl"

// Keep in step with svc_rotation() in svc.cpp (the reasons are there): theta from Irwin-Hall(12) on
// (0, pi/2), cos and sin from Taylor polynomials with explicit fma, normalised with correctly rounded
// sqrt and division. `right` (column steps) negates s.
double2 svc_rotation(uint2 key, uint phase, uint step, uint index, uint right) {
  ulong sum = 0;
  for (uint d = 0; d < 3; ++d) {
    const uint4 u = philox4x32_10((uint4)(index, step, phase, d), key);
    sum += (ulong)u.x + u.y + u.z + u.w;
  }
  const double z = (double)(sum + 6) * 0x1p-32 - 6.0;
  const double t = z * 0x1.0c152382d7366p-3;  // pi/24
  const double t2 = t * t;
  double ps = 0x1.952c77030ad4ap-49;
  ps = fma(ps, t2, -0x1.ae7f3e733b81fp-41);
  ps = fma(ps, t2, 0x1.6124613a86d09p-33);
  ps = fma(ps, t2, -0x1.ae64567f544e4p-26);
  ps = fma(ps, t2, 0x1.71de3a556c734p-19);
  ps = fma(ps, t2, -0x1.a01a01a01a01ap-13);
  ps = fma(ps, t2, 0x1.1111111111111p-7);
  ps = fma(ps, t2, -0x1.5555555555555p-3);
  const double st = fma(t * t2, ps, t);
  double pc = -0x1.6827863b97d97p-53;
  pc = fma(pc, t2, 0x1.ae7f3e733b81fp-45);
  pc = fma(pc, t2, -0x1.93974a8c07c9dp-37);
  pc = fma(pc, t2, 0x1.1eed8eff8d898p-29);
  pc = fma(pc, t2, -0x1.27e4fb7789f5cp-22);
  pc = fma(pc, t2, 0x1.a01a01a01a01ap-16);
  pc = fma(pc, t2, -0x1.6c16c16c16c17p-10);
  pc = fma(pc, t2, 0x1.5555555555555p-5);
  pc = fma(pc, t2, -0x1p-1);
  const double ct = fma(t2, pc, 1.0);
  const double a = ct - st, b = ct + st;
  const double h = sqrt(fma(a, a, b * b));
  const double s = b / h;
  return (double2)(a / h, right ? -s : s);
}

// (x, y) -> (c x - s y, s x + c y), as svc.cpp's rotate().
void svc_rotate(global double* x, global double* y, double2 g) {
  const double xv = *x, yv = *y;
  *x = fma(g.x, xv, -(g.y * yv));
  *y = fma(g.y, xv, g.x * yv);
}

// The diagonal of the k x k square: the (permuted) singular values; the rest is zero already.
kernel void svc_diagonal(global double* w, global const double* sigma, uint k, ulong diagonal_stride) {
  const uint i = get_global_id(0);
  if (i < k) w[i * diagonal_stride] = sigma[i];
}

// The `count` rotations of one step, drawn once per rotation instead of once per element.
kernel void svc_angles(global double2* rotations, uint2 key, uint phase, uint step, uint count, uint right) {
  const uint q = get_global_id(0);
  if (q < count) rotations[q] = svc_rotation(key, phase, step, q, right);
}

// One fill_pow2 level over every power-of-two square of the diagonal at once (they are disjoint and
// aligned: together they cover [0, 2 * pairs) in blocks of 2 * stride). Rotation q pairs line
// r = q + (q / stride) * stride with r + stride over the block's elements.
kernel void svc_level(global double* w, global const double2* rotations, ulong line_stride, ulong element_stride,
                      uint stride, uint pairs, uint lines_fast) {
  const uint f = get_global_id(0), block = 2 * stride;
  if (f >= (lines_fast ? pairs : block)) return;
  for (uint g = get_global_id(1); g < (lines_fast ? block : pairs); g += get_global_size(1)) {
    const uint q = lines_fast ? f : g, e = lines_fast ? g : f;
    const ulong b = q / stride;
    const ulong r = q + b * stride;
    global double* x = w + r * line_stride + (b * block + e) * element_stride;
    svc_rotate(x, x + stride * line_stride, rotations[q]);
  }
}

// Rotation i (i < count) pairs line a0 + i with line b0 + ((mul (i mod partners) + add) mod partners),
// over elements [e0, e0 + length). Lines with one partner form a chain i = c, c + partners, ... that
// must go in order of i: one work-item per chain and element keeps the partner's value in a register.
kernel void svc_chains(global double* w, global const double2* rotations, ulong line_stride, ulong element_stride,
                       ulong a0, uint count, ulong b0, uint partners, ulong mul, ulong add, ulong e0, uint length,
                       uint lines_fast) {
  const uint f = get_global_id(0), chains = min(count, partners);
  if (f >= (lines_fast ? chains : length)) return;
  for (uint g = get_global_id(1); g < (lines_fast ? length : chains); g += get_global_size(1)) {
    const uint c = lines_fast ? f : g, e = lines_fast ? g : f;
    const ulong element = (e0 + e) * element_stride;
    global double* y = w + (b0 + (mul * c + add) % partners) * line_stride + element;
    double yv = *y;
    for (uint i = c; i < count; i += partners) {
      global double* x = w + (a0 + i) * line_stride + element;
      const double2 rot = rotations[i];
      const double xv = *x;
      *x = fma(rot.x, xv, -(rot.y * yv));
      yv = fma(rot.y, xv, rot.x * yv);
    }
    *y = yv;
  }
}

// Rotation t (t < pairs) pairs lines pi(2t) and pi(2t + 1), pi(x) = (mul x + add) mod lines, over all
// `length` elements.
kernel void svc_matching(global double* w, global const double2* rotations, ulong line_stride,
                         ulong element_stride, uint lines, ulong mul, ulong add, uint pairs, uint length,
                         uint lines_fast) {
  const uint f = get_global_id(0);
  if (f >= (lines_fast ? pairs : length)) return;
  for (uint g = get_global_id(1); g < (lines_fast ? length : pairs); g += get_global_size(1)) {
    const uint t = lines_fast ? f : g, e = lines_fast ? g : f;
    const ulong x = (mul * (2 * (ulong)t) + add) % lines, y = (mul * (2 * (ulong)t + 1) + add) % lines;
    svc_rotate(w + x * line_stride + e * element_stride, w + y * line_stride + e * element_stride, rotations[t]);
  }
}
