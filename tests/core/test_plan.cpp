#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <ostream>

#include "error_of.hpp"
#include "hetflow/core/plan.hpp"
#include "hetflow/core/thread_link.hpp"
#include "test_devices.hpp"

namespace hetflow::core {
namespace {

std::vector<std::int32_t> iota(std::size_t n, std::int32_t start = 1) {
  std::vector<std::int32_t> v(n);
  std::iota(v.begin(), v.end(), start);
  return v;
}

class CorePlan : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_GE(devices.size(), 2u) << "multi-device tests need two devices: " << test::test_device_spec(true);
  }
  DeviceSet devices = test::test_devices();
};

TEST_F(CorePlan, RoundTripIsBitExactForEveryDistribution) {
  const std::vector<double> custom = {1.0, 2.5, 0.7, 3.0, 1.1, 0.2, 1, 1};
  for (Distribution d : {Distribution::uniform, Distribution::memory, Distribution::bandwidth, Distribution::custom}) {
    for (std::size_t n : {1u, 7u, 1001u, 65537u}) {
      PlanOptions o;
      o.distribution = d;
      o.weights.assign(custom.begin(), custom.begin() + static_cast<std::ptrdiff_t>(devices.size()));
      Plan<double> plan(devices, n, o);
      std::vector<double> host(n);
      for (std::size_t i = 0; i < n; ++i) host[i] = 1.0 / static_cast<double>(i + 3) - 1e-300 * static_cast<double>(i);
      plan.scatter(host);
      std::vector<double> back(n, -1);
      plan.gather(back);
      EXPECT_EQ(std::memcmp(back.data(), host.data(), n * sizeof(double)), 0)
          << "distribution " << static_cast<int>(d) << ", n = " << n;
    }
  }
}

TEST_F(CorePlan, GranulesStayOnOneDevice) {
  PlanOptions o;
  o.granule = 12;  // e.g. a 3 x 4 lattice plane
  Plan<std::int32_t> plan(devices, 12 * 9, o);
  for (std::size_t k = 0; k < plan.parts(); ++k) EXPECT_EQ(plan.share(k).count % 12, 0u);
  const auto host = iota(12 * 9);
  plan.scatter(host);
  std::vector<std::int32_t> back(host.size());
  plan.gather(back);
  EXPECT_EQ(back, host);
}

TEST_F(CorePlan, DeviceRootedScatterAndGather) {
  const std::size_t n = 999;
  const auto host = iota(n, -400);
  Buffer<std::int32_t> whole(devices.context(1), n);
  whole.write(devices.compute(1), host);
  Plan<std::int32_t> plan(devices, n);
  plan.scatter_from(whole, 1);
  std::vector<std::int32_t> back(n);
  plan.gather(back);
  EXPECT_EQ(back, host);

  Buffer<std::int32_t> collected(devices.context(0), n);
  collected.fill(devices.compute(0), 0);
  plan.gather_to(collected, 0);
  EXPECT_EQ(collected.to_vector(devices.compute(0)), host);
}

TEST_F(CorePlan, BroadcastFillsEveryDevice) {
  const auto host = iota(513);
  Mirror<std::int32_t> mirror(devices, host.size());
  mirror.broadcast(host);
  for (std::size_t k = 0; k < devices.size(); ++k) EXPECT_EQ(mirror.buffer(k).to_vector(devices.compute(k)), host);

  const auto other = iota(513, 1000);
  mirror.buffer(1).write(devices.compute(1), other);
  mirror.broadcast(1);
  for (std::size_t k = 0; k < devices.size(); ++k) EXPECT_EQ(mirror.buffer(k).to_vector(devices.compute(k)), other);
}

TEST_F(CorePlan, AllToAllEqualsHostTranspose) {
  for (auto [rows, cols] : {std::pair<std::size_t, std::size_t>{7, 5}, {16, 16}, {3, 11}}) {
    PlanOptions by_rows, by_cols;
    by_rows.granule = cols;
    by_cols.granule = rows;
    Plan<std::int32_t> a(devices, rows * cols, by_rows);
    Plan<std::int32_t> t(devices, rows * cols, by_cols);
    const auto host = iota(rows * cols);
    a.scatter(host);
    a.all_to_all(t, rows, cols);
    std::vector<std::int32_t> back(rows * cols);
    t.gather(back);
    for (std::size_t r = 0; r < rows; ++r) {
      for (std::size_t c = 0; c < cols; ++c) ASSERT_EQ(back[c * rows + r], host[r * cols + c]) << r << "," << c;
    }
  }
  PlanOptions fours;
  fours.granule = 4;
  Plan<std::int32_t> a(devices, 12, fours);
  Plan<std::int32_t> wrong(devices, 12, fours);
  EXPECT_THROW(a.all_to_all(wrong, 3, 4), Error);
}

// Each part's halos must hold its neighbours' boundary planes after an exchange.
void check_halos(Plan<std::int32_t>& plan, const DeviceSet& devices, const std::vector<std::int32_t>& host,
                 bool periodic) {
  const std::size_t h = plan.halo_elements();
  const std::size_t n = host.size();
  for (std::size_t k = 0; k < plan.parts(); ++k) {
    const auto buf = plan.buffer(k).to_vector(devices.compute(k));
    const Share s = plan.share(k);
    for (std::size_t i = 0; i < h; ++i) {
      const bool has_lower = k > 0 || periodic;
      const bool has_upper = k + 1 < plan.parts() || periodic;
      const std::int32_t lower = has_lower ? host[(s.offset + n - h + i) % n] : -1;  // -1: the domain end is left alone
      const std::int32_t upper = has_upper ? host[(s.offset + s.count + i) % n] : -1;
      EXPECT_EQ(buf[i], lower) << "part " << k << " lower halo " << i;
      EXPECT_EQ(buf[h + s.count + i], upper) << "part " << k << " upper halo " << i;
    }
  }
}

TEST_F(CorePlan, HaloExchangeCopiesNeighbourPlanes) {
  for (bool periodic : {false, true}) {
    for (std::size_t planes : {6u, 9u}) {
      PlanOptions o;
      o.granule = 4;
      o.halo = 2;
      o.periodic = periodic;
      Plan<std::int32_t> plan(devices, planes * 4, o);
      for (std::size_t k = 0; k < plan.parts(); ++k) plan.buffer(k).fill(devices.compute(k), -1);
      for (std::size_t k = 0; k < plan.parts(); ++k) devices.compute(k).finish();
      const auto host = iota(planes * 4);
      plan.scatter(host);
      plan.exchange_halos();
      check_halos(plan, devices, host, periodic);
    }
  }
}

TEST_F(CorePlan, HaloExchangeWaitsForReadyEventsAndReturnsWriteEvents) {
  PlanOptions o;
  o.granule = 3;
  o.halo = 1;
  Plan<std::int32_t> plan(devices, 3 * 10, o);
  for (std::size_t k = 0; k < plan.parts(); ++k) plan.buffer(k).fill(devices.compute(k), -1);
  const auto host = iota(30);
  // The boundary data arrives on the compute queues; the exchange must wait for those events.
  std::vector<Event> ready;
  for (std::size_t k = 0; k < plan.parts(); ++k) {
    const Share s = plan.share(k);
    ready.push_back(plan.buffer(k).write(devices.compute(k), std::span(host).subspan(s.offset, s.count),
                                         plan.halo_elements(), Blocking::no));
  }
  plan.begin_halo_exchange(ready);
  const std::vector<Event> done = plan.end_halo_exchange();
  ASSERT_EQ(done.size(), plan.parts());
  wait_all(done);
  check_halos(plan, devices, host, false);
}

TEST_F(CorePlan, RefusesPartsSmallerThanTheirHalo) {
  PlanOptions o;
  o.halo = 3;
  EXPECT_THROW(Plan<float>(devices, 4, o), Error);
}

}  // namespace
}  // namespace hetflow::core

namespace hetflow::core {
namespace {

// Granules of 4 elements; the lower halo holds elements 0 and 2 of a granule, the upper 1 and 3.
PlanOptions segmented(bool periodic) {
  PlanOptions o;
  o.granule = 4;
  o.halo = 1;
  o.periodic = periodic;
  o.segments.lower = {{0, 1}, {2, 1}};
  o.segments.upper = {{1, 1}, {3, 1}};
  return o;
}

TEST_F(CorePlan, SegmentedFillCopiesOnlyTheSegments) {
  for (bool periodic : {false, true}) {
    Plan<std::int32_t> plan(devices, 4 * 7, segmented(periodic));
    for (std::size_t k = 0; k < plan.parts(); ++k) plan.buffer(k).fill(devices.compute(k), -1);
    for (std::size_t k = 0; k < plan.parts(); ++k) devices.compute(k).finish();
    const auto host = iota(4 * 7);
    plan.scatter(host);
    plan.exchange_halos(HaloFlow::fill);
    const std::size_t p = plan.parts(), n = host.size();
    for (std::size_t k = 0; k < p; ++k) {
      const auto buf = plan.buffer(k).to_vector(devices.compute(k));
      const Share s = plan.share(k);
      for (std::size_t e = 0; e < 4; ++e) {
        const bool lower_part = e % 2 == 0;  // elements 0, 2
        const bool has_lower = (k > 0 || periodic) && lower_part;
        const bool has_upper = (k + 1 < p || periodic) && !lower_part;
        EXPECT_EQ(buf[e], has_lower ? host[(s.offset + n - 4 + e) % n] : -1) << "part " << k << " lower " << e;
        EXPECT_EQ(buf[4 + s.count + e], has_upper ? host[(s.offset + s.count + e) % n] : -1)
            << "part " << k << " upper " << e;
      }
    }
  }
}

TEST_F(CorePlan, SwapMovesHaloSegmentsIntoTheFacingHalos) {
  for (bool periodic : {false, true}) {
    Plan<std::int32_t> plan(devices, 4 * 9, segmented(periodic));
    // What a push-style kernel would leave in the halos: 1000 * (part + 1) + 100 * (upper halo) + element.
    const std::size_t p = plan.parts();
    for (std::size_t k = 0; k < p; ++k) {
      const std::size_t size = plan.buffer(k).size();
      plan.buffer(k).fill(devices.compute(k), -1);
      for (int side = 0; side < 2; ++side) {
        std::vector<std::int32_t> halo(4);
        for (std::size_t e = 0; e < 4; ++e) halo[e] = static_cast<std::int32_t>(1000 * (k + 1) + 100 * side + e);
        plan.buffer(k).write(devices.compute(k), halo, side ? size - 4 : 0);
      }
    }
    plan.exchange_halos(HaloFlow::swap);
    for (std::size_t k = 0; k < p; ++k) {
      const auto buf = plan.buffer(k).to_vector(devices.compute(k));
      const std::size_t size = buf.size(), lower = (k + p - 1) % p, upper = (k + 1) % p;
      for (std::size_t e = 0; e < 4; ++e) {
        // My lower halo's upper segments (1, 3) now hold the lower neighbour's upper halo; the rest is mine.
        const bool from_lower = (k > 0 || periodic) && e % 2 == 1;
        EXPECT_EQ(buf[e], static_cast<std::int32_t>(from_lower ? 1000 * (lower + 1) + 100 + e : 1000 * (k + 1) + e))
            << "part " << k << " lower halo " << e;
        // My upper halo's lower segments (0, 2) now hold the upper neighbour's lower halo.
        const bool from_upper = (k + 1 < p || periodic) && e % 2 == 0;
        EXPECT_EQ(buf[size - 4 + e],
                  static_cast<std::int32_t>(from_upper ? 1000 * (upper + 1) + e : 1000 * (k + 1) + 100 + e))
            << "part " << k << " upper halo " << e;
      }
      for (std::size_t i = 4; i < size - 4; ++i) ASSERT_EQ(buf[i], -1) << "own element " << i << " untouched";
    }
  }
}

}  // namespace
}  // namespace hetflow::core

namespace hetflow::core {

void PrintTo(const CopyPiece& p, std::ostream* os) {
  const char* path = p.path == CopyPath::direct ? "direct" : p.path == CopyPath::staged ? "staged" : "link";
  *os << "{" << p.src_offset << " -> " << p.dst_offset << ", " << p.count << " elements, part " << p.src_part << " -> "
      << p.dst_part << ", " << path << "}";
}

namespace {

using Values = std::vector<std::int32_t>;
constexpr CopyPath direct = CopyPath::direct, staged = CopyPath::staged, link = CopyPath::link;

Values contents(const Plan<std::int32_t>& plan) {
  Values v(plan.size());
  plan.gather(v);
  return v;
}

// `before` after a copy of `count` elements from `src` to `dst`, as if the source were read first.
Values moved(Values before, std::size_t src, std::size_t dst, std::size_t count) {
  const Values source(before.begin() + static_cast<std::ptrdiff_t>(src),
                      before.begin() + static_cast<std::ptrdiff_t>(src + count));
  std::copy(source.begin(), source.end(), before.begin() + static_cast<std::ptrdiff_t>(dst));
  return before;
}

Values joined(Values a, const Values& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

PlanOptions options(Distribution d, std::size_t granule, std::vector<double> weights = {}, std::size_t halo = 0) {
  PlanOptions o;
  o.distribution = d;
  o.granule = granule;
  o.weights = std::move(weights);
  o.halo = halo;
  return o;
}

// Copies are checked piece by piece on the first two devices.
class CorePlanCopy : public CorePlan {
 protected:
  static DeviceSet first_two(const DeviceSet& all) {
    return all.size() < 2 ? all : DeviceSet(std::vector<Device>{all.device(0), all.device(1)});
  }
  DeviceSet two = first_two(devices);
};

// Source: 15 granules of 4, uniform: [0, 32) [32, 60). Destination: 10 granules of 5 weighted 1 : 3 with
// a halo of one granule: [0, 15) [15, 50). Parts k of both are on device k, in one context.
TEST_F(CorePlanCopy, CutsWherePartsChangeOwner) {
  Plan<std::int32_t> a(two, 60, options(Distribution::uniform, 4));
  Plan<std::int32_t> b(two, 50, options(Distribution::custom, 5, {1, 3}, 1));
  ASSERT_EQ(a.share(1).offset, 32u);
  ASSERT_EQ(b.share(1).offset, 15u);
  a.scatter(iota(60));
  for (std::size_t k = 0; k < 2; ++k) b.buffer(k).fill(two.transfer(k), -1);

  EXPECT_EQ(a.copy_to(b, 20, 10, 25),
            (std::vector<CopyPiece>{{20, 10, 5, 0, 0, direct}, {25, 15, 7, 0, 1, staged}, {32, 22, 13, 1, 1, direct}}));
  Values expected(50, -1);
  std::iota(expected.begin() + 10, expected.begin() + 35, 21);
  EXPECT_EQ(contents(b), expected);
  for (std::size_t k = 0; k < 2; ++k) {  // the halos stay as they were
    const Values buffer = b.buffer(k).to_vector(two.transfer(k));
    EXPECT_EQ(Values(buffer.begin(), buffer.begin() + 5), Values(5, -1)) << "part " << k;
    EXPECT_EQ(Values(buffer.end() - 5, buffer.end()), Values(5, -1)) << "part " << k;
  }

  EXPECT_EQ(b.copy_to(a, 12, 40, 10), (std::vector<CopyPiece>{{12, 40, 3, 0, 1, staged}, {15, 43, 7, 1, 1, direct}}));
  Values back = iota(60);
  std::iota(back.begin() + 40, back.begin() + 50, 23);
  EXPECT_EQ(contents(a), back);
}

// A DeviceSet that repeats a device gives each repetition a context of its own, and two DeviceSets
// never share one: such pieces are staged although both ends are on one device.
TEST_F(CorePlanCopy, StagesBetweenContextsOfOneDevice) {
  const DeviceSet twice(std::vector<Device>{two.device(0), two.device(0)});
  Plan<std::int32_t> x(twice, 40, options(Distribution::uniform, 1));         // [0, 20) [20, 40)
  Plan<std::int32_t> y(twice, 40, options(Distribution::custom, 2, {3, 1}));  // [0, 30) [30, 40)
  Plan<std::int32_t> z(two, 40, options(Distribution::uniform, 1));           // [0, 20) [20, 40)
  x.scatter(iota(40));
  y.scatter(Values(40, -1));
  EXPECT_EQ(x.copy_to(y, 5, 10, 25),
            (std::vector<CopyPiece>{{5, 10, 15, 0, 0, direct}, {20, 25, 5, 1, 0, staged}, {25, 30, 5, 1, 1, direct}}));
  Values expected(40, -1);
  std::iota(expected.begin() + 10, expected.begin() + 35, 6);
  EXPECT_EQ(contents(y), expected);

  z.scatter(Values(40, 0));
  EXPECT_EQ(y.copy_to(z, 0, 0, 40),
            (std::vector<CopyPiece>{{0, 0, 20, 0, 0, staged}, {20, 20, 10, 0, 1, staged}, {30, 30, 10, 1, 1, staged}}));
  EXPECT_EQ(contents(z), expected);
}

TEST_F(CorePlanCopy, ZeroElementsMoveNothing) {
  Plan<std::int32_t> a(two, 60, options(Distribution::uniform, 4));
  Plan<std::int32_t> b(two, 50, options(Distribution::custom, 5, {1, 3}));
  a.scatter(iota(60));
  b.scatter(iota(50, 100));
  EXPECT_EQ(a.copy_to(b, 0, 0, 0).size(), 0u);
  EXPECT_EQ(a.copy_to(b, 60, 50, 0).size(), 0u);  // at the ends
  EXPECT_EQ(a.copy_to(a, 7, 30, 0).size(), 0u);
  Buffer<std::int32_t> one(two.context(1), 4);
  EXPECT_EQ(a.copy_from(one, two.transfer(1), 4, 60, 0).size(), 0u);
  EXPECT_EQ(contents(a), iota(60));
  EXPECT_EQ(contents(b), iota(50, 100));
}

TEST_F(CorePlanCopy, RefusesRangesPastTheEnds) {
  Plan<std::int32_t> a(two, 60, options(Distribution::uniform, 4));
  Plan<std::int32_t> b(two, 50, options(Distribution::uniform, 1));
  const std::string prefix = "plan copy of ";
  EXPECT_EQ(test::error_of([&] { a.copy_to(b, 50, 0, 11); }),
            prefix +
                "11 elements from offset 50 of the source (a plan of 60 elements) to offset 0 of the destination "
                "(a plan of 50 elements) runs past the end of the source");
  EXPECT_EQ(test::error_of([&] { a.copy_to(b, 0, 45, 6); }),
            prefix +
                "6 elements from offset 0 of the source (a plan of 60 elements) to offset 45 of the destination "
                "(a plan of 50 elements) runs past the end of the destination");
  EXPECT_EQ(test::error_of([&] { a.copy_to(b, 61, 51, 0); }),
            prefix +
                "0 elements from offset 61 of the source (a plan of 60 elements) to offset 51 of the destination "
                "(a plan of 50 elements) runs past the end of the source and the destination");
  EXPECT_EQ(test::error_of([&] { a.copy_to(a, 1, 0, std::numeric_limits<std::size_t>::max()); }),
            prefix +
                "18446744073709551615 elements from offset 1 of the source (a plan of 60 elements) to offset 0 "
                "of the destination (a plan of 60 elements) runs past the end of the source and the destination");
  Buffer<std::int32_t> eight(two.context(0), 8);
  EXPECT_EQ(test::error_of([&] { a.copy_to(eight, two.transfer(0), 0, 4, 5); }),
            prefix +
                "5 elements from offset 0 of the source (a plan of 60 elements) to offset 4 of the destination "
                "(a buffer of 8 elements) runs past the end of the destination");
  EXPECT_EQ(test::error_of([&] { a.copy_from(eight, two.transfer(0), 9, 0, 0); }),
            prefix +
                "0 elements from offset 9 of the source (a buffer of 8 elements) to offset 0 of the destination "
                "(a plan of 60 elements) runs past the end of the source");

  ThreadHub hub(1);
  ThreadLink alone(hub, 0);
  PlanOptions linked;
  linked.link = &alone;
  Plan<std::int32_t> c(two, 50, linked);
  EXPECT_EQ(test::error_of([&] { c.copy_to(b, 0, 0, 1); }),
            "plan copy: both plans must span the same processes (the same link, or none)");
}

// Uniform over the two devices: [0, 30) [30, 60).
TEST_F(CorePlanCopy, OverlappingRangesOfOnePlanCopyAsIfReadFirst) {
  Plan<std::int32_t> p(two, 60, options(Distribution::uniform, 1));
  Values now = iota(60);
  p.scatter(now);
  // Upwards across the boundary, downwards across it, within one part: all staged.
  EXPECT_EQ(
      p.copy_to(p, 10, 20, 30),
      (std::vector<CopyPiece>{{10, 20, 10, 0, 0, staged}, {20, 30, 10, 0, 1, staged}, {30, 40, 10, 1, 1, staged}}));
  now = moved(now, 10, 20, 30);
  ASSERT_EQ(contents(p), now);
  EXPECT_EQ(now[49], 40);
  EXPECT_EQ(p.copy_to(p, 25, 5, 30),
            (std::vector<CopyPiece>{{25, 5, 5, 0, 0, staged}, {30, 10, 20, 1, 0, staged}, {50, 30, 5, 1, 1, staged}}));
  now = moved(now, 25, 5, 30);
  ASSERT_EQ(contents(p), now);
  EXPECT_EQ(now[5], 16);
  EXPECT_EQ(p.copy_to(p, 2, 4, 10), (std::vector<CopyPiece>{{2, 4, 10, 0, 0, staged}}));
  now = moved(now, 2, 4, 10);
  ASSERT_EQ(contents(p), now);
  EXPECT_EQ(p.copy_to(p, 7, 7, 10), (std::vector<CopyPiece>{{7, 7, 10, 0, 0, staged}}));
  ASSERT_EQ(contents(p), now);
  // Disjoint ranges of one part go direct.
  EXPECT_EQ(p.copy_to(p, 0, 10, 5), (std::vector<CopyPiece>{{0, 10, 5, 0, 0, direct}}));
  now = moved(now, 0, 10, 5);
  EXPECT_EQ(contents(p), now);
  EXPECT_EQ(now, (Values{1,  2,  3,  4,  3,  4,  5,  16, 17, 18, 1,  2,  3,  4,  3,  26, 27, 28, 29, 30,
                         31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 51, 52, 53, 54, 55, 26, 27, 28, 29, 30,
                         31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60}));
}

// Source: [0, 32) [32, 60); the buffer is on device 1.
TEST_F(CorePlanCopy, CopiesToAndFromASingleBuffer) {
  Plan<std::int32_t> a(two, 60, options(Distribution::uniform, 4));
  a.scatter(iota(60));
  Buffer<std::int32_t> field(two.context(1), 30);
  field.fill(two.compute(1), -1);
  EXPECT_EQ(a.copy_to(field, two.compute(1), 20, 3, 25),
            (std::vector<CopyPiece>{{20, 3, 12, 0, 0, staged}, {32, 15, 13, 1, 0, direct}}));
  Values expected(30, -1);
  std::iota(expected.begin() + 3, expected.begin() + 28, 21);
  EXPECT_EQ(field.to_vector(two.compute(1)), expected);

  EXPECT_EQ(a.copy_from(field, two.compute(1), 0, 28, 12),
            (std::vector<CopyPiece>{{0, 28, 4, 0, 0, staged}, {4, 32, 8, 0, 1, direct}}));
  Values now = iota(60);
  std::copy(expected.begin(), expected.begin() + 12, now.begin() + 28);
  EXPECT_EQ(contents(a), now);
  EXPECT_EQ(now[28], -1);
  EXPECT_EQ(now[39], 29);

  // A part's own buffer as the source: its elements overlap the destination range.
  EXPECT_EQ(a.copy_from(a.buffer(0), two.transfer(0), 0, 4, 8), (std::vector<CopyPiece>{{0, 4, 8, 0, 0, staged}}));
  now = moved(now, 0, 4, 8);
  EXPECT_EQ(contents(a), now);
  EXPECT_EQ(now[11], 8);
}

// Two processes (threads) with one device each. a: [0, 20) [20, 40); b, weighted 3 : 1: [0, 30) [30, 40).
TEST_F(CorePlanCopy, PiecesBetweenProcessesTravelThroughTheLink) {
  ThreadHub hub(2);
  std::array<std::vector<CopyPiece>, 2> between, within;
  std::array<Values, 2> b_own, a_own;
  run_on_threads(hub, [&](std::size_t rank) {
    ThreadLink process(hub, rank);
    const DeviceSet mine(std::vector<Device>{two.device(rank)});
    PlanOptions uniform, weighted = options(Distribution::custom, 1, {rank == 0 ? 3.0 : 1.0});
    uniform.link = weighted.link = &process;
    Plan<std::int32_t> a(mine, 40, uniform), b(mine, 40, weighted);
    a.scatter(iota(40));
    b.scatter(Values(40, -1));
    between[rank] = a.copy_to(b, 5, 8, 30);
    b_own[rank] = Values(40, 0);
    b.gather(b_own[rank]);
    within[rank] = a.copy_to(a, 10, 15, 20);
    a_own[rank] = Values(40, 0);
    a.gather(a_own[rank]);
  });
  EXPECT_EQ(between[0], (std::vector<CopyPiece>{{5, 8, 15, 0, 0, direct}, {20, 23, 7, 1, 0, link}}));
  EXPECT_EQ(between[1], (std::vector<CopyPiece>{{20, 23, 7, 1, 0, link}, {27, 30, 8, 1, 1, direct}}));
  Values b(40, -1);
  std::iota(b.begin() + 8, b.begin() + 38, 6);
  EXPECT_EQ(b_own[0], joined(Values(b.begin(), b.begin() + 30), Values(10, 0)));
  EXPECT_EQ(b_own[1], joined(Values(30, 0), Values(b.begin() + 30, b.end())));

  EXPECT_EQ(within[0], (std::vector<CopyPiece>{{10, 15, 5, 0, 0, staged}, {15, 20, 5, 0, 1, link}}));
  EXPECT_EQ(within[1], (std::vector<CopyPiece>{{15, 20, 5, 0, 1, link}, {20, 25, 10, 1, 1, staged}}));
  const Values a = moved(iota(40), 10, 15, 20);
  EXPECT_EQ(a[34], 30);
  EXPECT_EQ(a_own[0], joined(Values(a.begin(), a.begin() + 20), Values(20, 0)));
  EXPECT_EQ(a_own[1], joined(Values(20, 0), Values(a.begin() + 20, a.end())));
}

}  // namespace
}  // namespace hetflow::core
