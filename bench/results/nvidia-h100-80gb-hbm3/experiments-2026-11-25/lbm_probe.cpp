// Memory probe: 19 streams read and written in place as the A-A even step (own slots) or the odd
// step (neighbours' slots), with shifts switched on per axis, in two layouts and three storages.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

static const char* src = R"CLC(
#ifdef DOUBLE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double T;
#define LD(k) f[k]
#define ST(k, v) f[k] = (v)
#elif defined(HALF)
typedef float T;
#define LD(k) vload_half(k, f)
#define ST(k, v) vstore_half(v, k, f)
#else
typedef float T;
#define LD(k) f[k]
#define ST(k, v) f[k] = (v)
#endif
#ifdef HALF
#define BUF __global half*
#else
#define BUF __global T*
#endif
#define W(c, s, n) ((c) + (s) < 0 ? (c) + (s) + (n) : (c) + (s) >= (n) ? (c) + (s) - (n) : (c) + (s))
#if LAYOUT == 0
#define SLOT(i, X, Y, Z) (((uint)(Z) * 19u + (i)) * plane + (uint)(Y) * (uint)nx + (uint)(X))
#else
#define SLOT(i, X, Y, Z) ((uint)(i) * (plane * (uint)nz) + (uint)(Z) * plane + (uint)(Y) * (uint)nx + (uint)(X))
#endif
#ifndef LOCALX
#define DIR(i, cx, cy, cz) const uint k##i = SLOT(i, W(x, -(cx) * SX, nx), W(y, -(cy) * SY, ny), W(z, -(cz) * SZ, nz)); const T v##i = LD(k##i);
#define PUT(i, cx, v) ST(k##i, v);
#else
// x-shifted slots go through local tiles: aligned loads/stores of the row segment, one edge element.
#define DIR(i, cx, cy, cz) const uint k##i = SLOT(i, x, W(y, -(cy), ny), W(z, -(cz), nz)); T v##i; \
  if ((cx) == 0) v##i = LD(k##i); else { tile[TI(i)][1 + lx] = LD(k##i); \
    if ((cx) == 1 && lx == 0) tile[TI(i)][0] = LD(k##i - x + W(x, -1, nx)); \
    if ((cx) == -1 && lx == WG - 1) tile[TI(i)][WG + 1] = LD(k##i - x + W(x, 1, nx)); }
#define GET(i, cx) if ((cx) != 0) v##i = tile[TI(i)][1 + lx - (cx)];
#define PUT(i, cx, v) if ((cx) == 0) ST(k##i, v); else tile[TI(i)][1 + lx - (cx)] = (v);
#define FLUSH(i, cx) if ((cx) != 0) { if (!((cx) == -1 && lx == 0) && !((cx) == 1 && lx == WG - 1)) ST(k##i, tile[TI(i)][1 + lx]); \
    if ((cx) == -1 && lx == WG - 1) ST(k##i - x + W(x, 1, nx), tile[TI(i)][WG + 1]); \
    if ((cx) == 1 && lx == 0) ST(k##i - x + W(x, -1, nx), tile[TI(i)][0]); }
#endif
#define TI(i) ((i) == 1 ? 0 : (i) == 2 ? 1 : (i) <= 6 ? 99 : (i) <= 10 ? (i) - 5 : (i) <= 12 ? 99 : (i) - 7)
__kernel void probe(BUF f, const int nx, const int ny, const int nz) {
  const int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  const uint plane = (uint)nx * (uint)ny;
#ifdef LOCALX
  __local T tile[10][WG + 2];
  const int lx = get_local_id(0);
#endif
  DIR(0, 0, 0, 0) DIR(1, 1, 0, 0) DIR(2, -1, 0, 0) DIR(3, 0, 1, 0) DIR(4, 0, -1, 0) DIR(5, 0, 0, 1) DIR(6, 0, 0, -1)
  DIR(7, 1, 1, 0) DIR(8, -1, -1, 0) DIR(9, 1, 0, 1) DIR(10, -1, 0, -1) DIR(11, 0, 1, 1) DIR(12, 0, -1, -1)
  DIR(13, 1, -1, 0) DIR(14, -1, 1, 0) DIR(15, 1, 0, -1) DIR(16, -1, 0, 1) DIR(17, 0, 1, -1) DIR(18, 0, -1, 1)
#ifdef LOCALX
  barrier(CLK_LOCAL_MEM_FENCE);
  GET(1, 1) GET(2, -1) GET(7, 1) GET(8, -1) GET(9, 1) GET(10, -1) GET(13, 1) GET(14, -1) GET(15, 1) GET(16, -1)
  barrier(CLK_LOCAL_MEM_FENCE);
#endif
  const T s = (v0 + v1 + v2 + v3 + v4 + v5 + v6 + v7 + v8 + v9 + v10 + v11 + v12 + v13 + v14 + v15 + v16 + v17 + v18) * (T)1e-3;
  ST(k0, v0 * (T)0.5 + s);
#define SW(a, ca, b, cb) PUT(a, ca, v##b * (T)0.5 + s) PUT(b, cb, v##a * (T)0.5 + s)
  SW(1, 1, 2, -1) SW(3, 0, 4, 0) SW(5, 0, 6, 0) SW(7, 1, 8, -1) SW(9, 1, 10, -1) SW(11, 0, 12, 0) SW(13, 1, 14, -1)
  SW(15, 1, 16, -1) SW(17, 0, 18, 0)
#ifdef LOCALX
  barrier(CLK_LOCAL_MEM_FENCE);
  FLUSH(1, 1) FLUSH(2, -1) FLUSH(7, 1) FLUSH(8, -1) FLUSH(9, 1) FLUSH(10, -1) FLUSH(13, 1) FLUSH(14, -1) FLUSH(15, 1) FLUSH(16, -1)
#endif
}
__kernel void copy(__global const float4* a, __global float4* b) { b[get_global_id(0)] = a[get_global_id(0)]; }
)CLC";

#define CHECK(e) do { cl_int r_ = (e); if (r_ != CL_SUCCESS) { std::printf("error %d at line %d\n", r_, __LINE__); return 1; } } while (0)

static double median(std::vector<double> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; }

static double timed(cl_command_queue q, cl_kernel k, int dims, const size_t* g, const size_t* l, int reps) {
  std::vector<double> t;
  for (int r = 0; r < reps + 2; ++r) {
    cl_event e;
    if (clEnqueueNDRangeKernel(q, k, dims, nullptr, g, l, 0, nullptr, &e) != CL_SUCCESS) return -1;
    clWaitForEvents(1, &e);
    cl_ulong a, b;
    clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, sizeof a, &a, nullptr);
    clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof b, &b, nullptr);
    clReleaseEvent(e);
    if (r >= 2) t.push_back((b - a) * 1e-9);
  }
  return median(t);
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 256;
  cl_platform_id platforms[8];
  cl_uint np = 0;
  CHECK(clGetPlatformIDs(8, platforms, &np));
  cl_device_id dev = nullptr;
  for (cl_uint p = 0; p < np && !dev; ++p) clGetDeviceIDs(platforms[p], getenv("PROBE_CPU") ? CL_DEVICE_TYPE_CPU : CL_DEVICE_TYPE_GPU, 1, &dev, nullptr);
  if (!dev) { std::printf("no GPU\n"); return 1; }
  char name[256];
  clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, nullptr);
  cl_int err;
  cl_context ctx = clCreateContext(nullptr, 1, &dev, nullptr, nullptr, &err);
  CHECK(err);
  cl_command_queue q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
  CHECK(err);
  const size_t nodes = (size_t)n * n * n;
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, nodes * 19 * 8, nullptr, &err);
  CHECK(err);
  // Zero-fill so no NaNs or denormals slow anything.
  const double zero = 0;
  CHECK(clEnqueueFillBuffer(q, buf, &zero, sizeof zero, 0, nodes * 19 * 8, 0, nullptr, nullptr));
  std::printf("device %s, %d^3\n", name, n);
  {  // copy reference: two halves of the buffer, float4
    cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 1ull << 30, nullptr, &err);
    cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 1ull << 30, nullptr, &err);
    CHECK(clEnqueueFillBuffer(q, a, &zero, sizeof zero, 0, 1ull << 30, 0, nullptr, nullptr));
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, nullptr, &err);
    CHECK(clBuildProgram(p, 1, &dev, "-DLAYOUT=0 -DSX=0 -DSY=0 -DSZ=0", nullptr, nullptr));
    cl_kernel k = clCreateKernel(p, "copy", &err);
    clSetKernelArg(k, 0, sizeof a, &a);
    clSetKernelArg(k, 1, sizeof b, &b);
    size_t g = (1ull << 30) / 16, l = 256;
    double t = timed(q, k, 1, &g, &l, 10);
    std::printf("copy float4 1 GiB: %.0f GB/s\n", 2.0 * (1ull << 30) / t * 1e-9);
    clReleaseKernel(k); clReleaseProgram(p); clReleaseMemObject(a); clReleaseMemObject(b);
  }
  if (getenv("PROBE_CHECK")) {  // odd and odd-local must leave the same bits
    std::vector<float> init(nodes * 19), a(nodes * 19), b(nodes * 19);
    for (size_t k = 0; k < init.size(); ++k) init[k] = (float)((k * 2654435761u) % 1000) * 1e-3f;
    for (int v = 0; v < 2; ++v) {
      CHECK(clEnqueueWriteBuffer(q, buf, CL_TRUE, 0, init.size() * 4, init.data(), 0, nullptr, nullptr));
      std::string opts = std::string("-DLAYOUT=0 -DWG=32 -DSX=1 -DSY=1 -DSZ=1") + (v ? " -DLOCALX" : "");
      cl_program p = clCreateProgramWithSource(ctx, 1, &src, nullptr, &err);
      CHECK(clBuildProgram(p, 1, &dev, opts.c_str(), nullptr, nullptr));
      cl_kernel k = clCreateKernel(p, "probe", &err);
      clSetKernelArg(k, 0, sizeof buf, &buf);
      clSetKernelArg(k, 1, sizeof n, &n);
      clSetKernelArg(k, 2, sizeof n, &n);
      clSetKernelArg(k, 3, sizeof n, &n);
      size_t g[3] = {(size_t)n, (size_t)n, (size_t)n}, l[3] = {32, 1, 1};
      CHECK(clEnqueueNDRangeKernel(q, k, 3, nullptr, g, l, 0, nullptr, nullptr));
      CHECK(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, init.size() * 4, v ? b.data() : a.data(), 0, nullptr, nullptr));
    }
    size_t diff = 0;
    for (size_t k = 0; k < a.size(); ++k) diff += a[k] != b[k];
    std::printf("check: %zu of %zu values differ\n", diff, a.size());
    return diff != 0;
  }
  const char* storages[] = {"", "-DHALF", "-DDOUBLE"};
  const int bytes[] = {4, 2, 8};
  struct Config { const char* name; const char* opts; size_t lx, ly; };
  const Config configs[] = {
      {"even", "-DSX=0 -DSY=0 -DSZ=0", 32, 4},  {"even", "-DSX=0 -DSY=0 -DSZ=0", 128, 1},
      {"odd", "-DSX=1 -DSY=1 -DSZ=1", 32, 4},   {"odd", "-DSX=1 -DSY=1 -DSZ=1", 64, 2},
      {"odd", "-DSX=1 -DSY=1 -DSZ=1", 128, 1},  {"odd", "-DSX=1 -DSY=1 -DSZ=1", 192, 1},
      {"odd", "-DSX=1 -DSY=1 -DSZ=1", 384, 1},  {"odd-local", "-DLOCALX -DSX=1 -DSY=1 -DSZ=1", 32, 1},
      {"odd-local", "-DLOCALX -DSX=1 -DSY=1 -DSZ=1", 64, 1}, {"odd-local", "-DLOCALX -DSX=1 -DSY=1 -DSZ=1", 128, 1},
      {"odd-local", "-DLOCALX -DSX=1 -DSY=1 -DSZ=1", 192, 1}, {"odd-local", "-DLOCALX -DSX=1 -DSY=1 -DSZ=1", 384, 1}};
  for (int s = 0; s < 3; ++s)
    for (const Config& c : configs) {
          if ((size_t)n % c.lx) continue;
          std::string opts = std::string(storages[s]) + " -DLAYOUT=0 -DWG=" + std::to_string(c.lx) + " " + c.opts;
          cl_program p = clCreateProgramWithSource(ctx, 1, &src, nullptr, &err);
          if (clBuildProgram(p, 1, &dev, opts.c_str(), nullptr, nullptr) != CL_SUCCESS) {
            char log[8192];
            clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, nullptr);
            std::printf("build failed %s: %s\n", opts.c_str(), log);
            return 1;
          }
          cl_kernel k = clCreateKernel(p, "probe", &err);
          clSetKernelArg(k, 0, sizeof buf, &buf);
          clSetKernelArg(k, 1, sizeof n, &n);
          clSetKernelArg(k, 2, sizeof n, &n);
          clSetKernelArg(k, 3, sizeof n, &n);
          size_t g[3] = {(size_t)n, (size_t)n, (size_t)n}, l[3] = {c.lx, c.ly, 1};
          double t = timed(q, k, 3, g, l, 10);
          std::printf("%-5s %-10s wg %3zux%zu: %7.0f GB/s  %7.0f MLUPs/s\n", s == 0 ? "fp32" : s == 1 ? "fp16" : "fp64",
                      c.name, c.lx, c.ly, nodes * 19.0 * 2 * bytes[s] / t * 1e-9, nodes / t * 1e-6);
          clReleaseKernel(k);
          clReleaseProgram(p);
    }
  return 0;
}
