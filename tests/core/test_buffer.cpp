#include <gtest/gtest.h>

#include <numeric>

#include "hetflow/core/buffer.hpp"
#include "test_devices.hpp"

namespace hetflow::core {
namespace {

TEST(CoreBuffer, WriteReadFillCopyMap) {
  const DeviceSet ds = test::test_device();
  const Queue& q = ds.compute(0);
  std::vector<double> host(1000);
  std::iota(host.begin(), host.end(), 0.5);

  Buffer<double> a(ds.context(0), host.size());
  EXPECT_EQ(a.size(), 1000u);
  EXPECT_EQ(a.bytes(), 8000u);
  a.write(q, host);
  EXPECT_EQ(a.to_vector(q), host);

  // Partial write at an offset, then a blocking partial read.
  const std::vector<double> patch = {-1, -2, -3};
  a.write(q, patch, 500);
  std::vector<double> back(5);
  a.read(q, back, 499);
  EXPECT_EQ(back, (std::vector<double>{499.5, -1, -2, -3, 503.5}));

  Buffer<double> b(ds.context(0), host.size());
  b.fill(q, 7.25);
  b.fill(q, -4.0, 10, 5);
  const auto filled = b.to_vector(q);
  EXPECT_EQ(filled[9], 7.25);
  EXPECT_EQ(filled[10], -4.0);
  EXPECT_EQ(filled[14], -4.0);
  EXPECT_EQ(filled[15], 7.25);

  b.copy_from(q, a, 500, 0, 3);
  EXPECT_EQ(b.to_vector(q)[2], -3);

  {
    auto m = a.map(q, MapMode::read_write, 100, 10);
    EXPECT_EQ(m.size(), 10u);
    EXPECT_EQ(m[0], 100.5);
    m[1] = 42;
  }
  EXPECT_EQ(a.to_vector(q)[101], 42);
}

TEST(CoreBuffer, NonBlockingTransfersCompleteThroughEvents) {
  const DeviceSet ds = test::test_device();
  const Queue& q = ds.transfer(0);
  std::vector<float> host(4096, 3.5f), back(4096, 0.0f);
  Buffer<float> a(ds.context(0), host.size());
  const Event w = a.write(q, host, 0, Blocking::no);
  const std::vector<Event> after_write = {w};
  const Event r = a.read(q, back, 0, Blocking::no, after_write);
  r.wait();
  EXPECT_TRUE(r.complete());
  EXPECT_EQ(back, host);
  EXPECT_GE(w.seconds(), 0.0);
}

// The enqueue_ forms ask for no event: an in-order queue's later blocking read shows that they ran, in order.
TEST(CoreBuffer, EventFreeCommandsRunInQueueOrder) {
  const DeviceSet ds = test::test_device();
  const Queue& q = ds.compute(0);
  const std::vector<double> host = {1, 2, 3, 4, 5, 6};
  std::vector<double> early(3, 0.0);
  Buffer<double> a(ds.context(0), 6), b(ds.context(0), 6);
  a.enqueue_write(q, std::span<const double>(host));
  b.enqueue_fill(q, -1.0);
  b.enqueue_copy_from(q, a, 1, 2, 3);  // b = -1 -1 2 3 4 -1
  a.enqueue_fill(q, 9.0, 4, 2);        // a = 1 2 3 4 9 9
  b.enqueue_read(q, std::span<double>(early), 1);
  EXPECT_EQ(a.to_vector(q), (std::vector<double>{1, 2, 3, 4, 9, 9}));
  EXPECT_EQ(early, (std::vector<double>{-1, 2, 3}));
  EXPECT_EQ(b.to_vector(q), (std::vector<double>{-1, -1, 2, 3, 4, -1}));
  EXPECT_THROW(a.enqueue_fill(q, 0.0, 5, 2), Error);
  EXPECT_THROW(b.enqueue_copy_from(q, a, 4, 0, 3), Error);
}

TEST(CoreBuffer, OutOfRangeTransfersAreRefused) {
  const DeviceSet ds = test::test_device();
  const Queue& q = ds.compute(0);
  Buffer<int> a(ds.context(0), 10);
  std::vector<int> five(5);
  EXPECT_THROW(a.write(q, five, 6), Error);
  EXPECT_THROW(a.read(q, five, 11), Error);
  EXPECT_THROW(a.fill(q, 1, 8, 3), Error);
  Buffer<int> b(ds.context(0), 4);
  EXPECT_THROW(b.copy_from(q, a, 0, 0, 5), Error);
  try {
    a.write(q, five, 6);
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("5 elements at offset 6 exceeds the buffer's 10"), std::string::npos);
  }
}

// at_least keeps a buffer large enough (the same memory, its contents intact) and replaces a smaller one by
// one an eighth larger than asked, so that a slightly larger request later keeps it.
// 100 sevens on the test device's first context.
Buffer<int> sevens(const DeviceSet& ds) {
  Buffer<int> a(ds.context(0), 100);
  a.fill(ds.compute(0), 7);
  return a;
}

TEST(CoreBuffer, AtLeastKeepsALargeEnoughBufferAndGrowsWithSlack) {
  const DeviceSet ds = test::test_device();
  const Queue& q = ds.compute(0);
  Buffer<int> a = sevens(ds);
  const cl_mem memory = a.get();
  Buffer<int> kept = at_least(ds.context(0), std::move(a), 80);
  EXPECT_EQ(kept.get(), memory);
  EXPECT_EQ(kept.size(), 100u);
  EXPECT_EQ(kept.to_vector(q), std::vector<int>(100, 7));
  Buffer<int> grown = at_least(ds.context(0), std::move(kept), 160);
  EXPECT_NE(grown.get(), memory);
  EXPECT_EQ(grown.size(), 180u);
  EXPECT_EQ(at_least(ds.context(0), Buffer<int>{}, 8).size(), 9u);
}

TEST(CoreBuffer, UploadIntoKeepsALargeEnoughBuffer) {
  const DeviceSet ds = test::test_device();
  const Queue& q = ds.compute(0);
  Buffer<int> a = sevens(ds);
  const cl_mem memory = a.get();
  Buffer<int> kept = upload_into(q, std::vector<int>(60, 3), std::move(a));
  EXPECT_EQ(kept.get(), memory);
  std::vector<int> expected(100, 7);
  std::fill_n(expected.begin(), 60, 3);
  EXPECT_EQ(kept.to_vector(q), expected);
  Buffer<int> grown = upload_into(q, std::vector<int>(120, 5), std::move(kept));
  EXPECT_NE(grown.get(), memory);
  EXPECT_EQ(grown.size(), 135u);
  const std::vector<int> values = grown.to_vector(q);
  EXPECT_EQ(std::vector<int>(values.begin(), values.begin() + 120), std::vector<int>(120, 5));
}

TEST(CoreBuffer, PinnedBufferIsHostVisible) {
  const DeviceSet ds = test::test_device();
  PinnedBuffer<int> pinned(ds.transfer(0), 64);
  std::iota(pinned.span().begin(), pinned.span().end(), 0);
  Buffer<int> dev(ds.context(0), 64);
  dev.write(ds.transfer(0), pinned.span());
  const auto v = dev.to_vector(ds.transfer(0));
  EXPECT_EQ(v[63], 63);
}

}  // namespace
}  // namespace hetflow::core
