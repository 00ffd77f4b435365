#include <gtest/gtest.h>

#include <cmath>

#include "hetflow/core/buffer.hpp"
#include "hetflow/core/kernel.hpp"
#include "hetflow/core/probe.hpp"
#include "hetflow/core/program.hpp"
#include "hetflow/core/statistics.hpp"
#include "test_devices.hpp"

namespace hetflow::core {
namespace {

TEST(CoreStatistics, MedianAndSpread) {
  const Summary odd = summarize({5, 1, 3});
  EXPECT_EQ(odd.median, 3);
  EXPECT_EQ(odd.min, 1);
  EXPECT_EQ(odd.max, 5);
  EXPECT_EQ(odd.repeats, 3);
  EXPECT_EQ(summarize({4, 1, 3, 2}).median, 2.5);
  EXPECT_THROW(summarize({}), Error);
}

// The probe's kernels compute what their byte counts assume: copy moves b to a, triad a = b + s c.
TEST(CoreProbe, KernelsComputeCopyAndTriad) {
  const DeviceSet ds = test::test_device();
  const Context& ctx = ds.context(0);
  const Queue& q = ds.compute(0);
  const std::size_t n = 1000;  // not a multiple of the work-group: the guard must hold
  std::vector<cl_float4> b(n), c(n);
  for (std::size_t i = 0; i < n; ++i) {
    const float x = static_cast<float>(i);
    b[i] = cl_float4{{x, x + 0.5f, -x, 1}};
    c[i] = cl_float4{{1, 2, 3, x}};
  }
  Buffer<cl_float4> da(ctx, n + 1), db(ctx, n), dc(ctx, n);
  db.write(q, b);
  dc.write(q, c);
  da.fill(q, cl_float4{{-9, -9, -9, -9}});
  const Program& p = ctx.program("core/probe.cl");
  const cl_ulong count = n;
  p.kernel("probe_copy").args(da, db, count).launch(q, round_up(n, 64), 64).wait();
  auto a = da.to_vector(q);
  EXPECT_EQ(a[999].s[1], 999.5f);
  EXPECT_EQ(a[1000].s[0], -9.0f);  // nothing written past n
  p.kernel("probe_triad").args(da, db, dc, 3.0f, count).launch(q, round_up(n, 64), 64).wait();
  a = da.to_vector(q);
  EXPECT_EQ(a[10].s[0], 13.0f);
  EXPECT_EQ(a[10].s[3], 31.0f);
}

TEST(CoreProbe, MeasuresPositiveBandwidth) {
  const DeviceSet ds = test::test_device();
  ProbeOptions o;
  o.bytes_per_array = 8 << 20;
  o.repeats = 3;
  const Bandwidth bw = measure_bandwidth(ds.compute(0), o);
  EXPECT_EQ(bw.bytes_per_array, std::size_t{8} << 20);
  EXPECT_EQ(bw.copy.repeats, 3);
  EXPECT_GT(bw.copy.median, 0.01);  // GB/s: any working device moves far more
  EXPECT_LE(bw.copy.min, bw.copy.median);
  EXPECT_GT(bw.triad.median, 0.01);
}

// The FMA probe's chains converge to c / (1 - s) (s = 0.5, c = 1: 2), so each work-item writes the sum of
// probe_fma_chains values near 2; a chain the compiler dropped or shortened would not.
TEST(CoreProbe, FmaKernelRunsItsChains) {
  const DeviceSet ds = test::test_device();
  const Context& ctx = ds.context(0);
  const Queue& q = ds.compute(0);
  Buffer<float> out(ctx, 128);
  ctx.program("core/probe.cl", BuildOptions(Precision::f32))
      .kernel("probe_fma")
      .args(out, 0.5f, 1.0f, cl_uint{40})
      .launch(q, 128, 64)
      .wait();
  for (float v : out.to_vector(q)) EXPECT_NEAR(v, 2.0f * probe_fma_chains, 1e-4f);
}

// A positive, finite rate in each precision the device has; no order between FP32 and FP64 is assumed
// (CPUs and some GPUs run both at one rate, and timing noise on a shared CPU can swap them).
TEST(CoreProbe, MeasuresPositiveFlopRate) {
  const DeviceSet ds = test::test_device();
  FlopOptions o;
  o.work_items = 512;
  o.iterations = 256;
  o.repeats = 3;
  std::vector<Precision> precisions{Precision::f32};
  if (ds.device(0).info.fp64) precisions.push_back(Precision::f64);
  for (Precision p : precisions) {
    const FlopRate r = measure_flops(ds.compute(0), p, o);
    EXPECT_EQ(r.precision, p);
    EXPECT_EQ(r.work_items, 512u);
    EXPECT_EQ(r.iterations, 256u);
    EXPECT_EQ(r.gflops.repeats, 3);
    EXPECT_TRUE(std::isfinite(r.gflops.median));
    EXPECT_GT(r.gflops.median, 0.01);  // GFLOP/s: any working device does far more
    EXPECT_LE(r.gflops.min, r.gflops.median);
    EXPECT_LE(r.gflops.median, r.gflops.max);
  }
  if (!ds.device(0).info.fp64) {
    EXPECT_THROW(measure_flops(ds.compute(0), Precision::f64, o), Error);
  }
}

}  // namespace
}  // namespace hetflow::core
