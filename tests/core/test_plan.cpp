#include <gtest/gtest.h>

#include <cstring>
#include <numeric>

#include "hetflow/core/plan.hpp"
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
