#include <gtest/gtest.h>

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

}  // namespace
}  // namespace hetflow::core
