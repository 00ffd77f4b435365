#include <gtest/gtest.h>

#include <numeric>

#include "hetflow/core/plan.hpp"
#include "test_devices.hpp"
#include "world.hpp"

namespace hetflow::core {
namespace {

TEST(MpiPartPlacement, PutsEachRanksPartsInRankOrder) {
  mpi::Communicator& world = test::world();
  // Rank r brings r + 1 parts of weight r + 1.
  const std::vector<double> mine(world.rank() + 1, static_cast<double>(world.rank() + 1));
  const PartPlacement placement(&world, mine);
  std::size_t first = 0;
  for (std::size_t r = 0; r < world.rank(); ++r) first += r + 1;
  EXPECT_EQ(placement.first(), first);
  EXPECT_EQ(placement.local(), world.rank() + 1);
  EXPECT_EQ(placement.parts(), world.size() * (world.size() + 1) / 2);
  for (std::size_t part = 0, r = 0; r < world.size(); ++r) {
    for (std::size_t i = 0; i <= r; ++i, ++part) {
      EXPECT_EQ(placement.rank_of(part), r) << "part " << part;
      EXPECT_EQ(placement.weights()[part], static_cast<double>(r + 1)) << "part " << part;
      EXPECT_EQ(placement.is_local(part), r == world.rank()) << "part " << part;
    }
  }
}

// Granules of 3 elements hold their global index; after a fill every halo holds the neighbouring
// granule's value, whether the neighbour is a device of this process or of another one.
void check_halos(const DeviceSet& devices, bool periodic) {
  mpi::Communicator& world = test::world();
  const std::size_t granule = 3, granules = 11;
  PlanOptions o;
  o.granule = granule;
  o.halo = 1;
  o.periodic = periodic;
  o.link = &world;
  Plan<std::int32_t> plan(devices, granule * granules, o);
  EXPECT_EQ(plan.parts(), devices.size());
  EXPECT_EQ(plan.partition().parts(), devices.size() * world.size());
  std::vector<std::int32_t> host(granule * granules);
  for (std::size_t i = 0; i < host.size(); ++i) host[i] = static_cast<std::int32_t>(i / granule);
  for (std::size_t k = 0; k < plan.parts(); ++k) {
    const std::vector<std::int32_t> unset(plan.buffer(k).size(), -1);
    plan.buffer(k).write(devices.transfer(k), unset);
  }
  plan.scatter(host);
  plan.exchange_halos();
  for (std::size_t k = 0; k < plan.parts(); ++k) {
    std::vector<std::int32_t> local(plan.buffer(k).size());
    plan.buffer(k).read(devices.transfer(k), local);
    const auto g0 = static_cast<std::int32_t>(plan.share(k).offset / granule);
    const auto g1 = static_cast<std::int32_t>((plan.share(k).offset + plan.share(k).count) / granule);
    const std::int32_t n = granules;
    const std::int32_t below = g0 > 0 ? g0 - 1 : periodic ? n - 1 : -1;
    const std::int32_t above = g1 < n ? g1 : periodic ? 0 : -1;
    const std::vector<std::int32_t> lower(local.begin(), local.begin() + granule);
    const std::vector<std::int32_t> upper(local.end() - granule, local.end());
    EXPECT_EQ(lower, std::vector<std::int32_t>(granule, below)) << "part " << plan.first_part() + k;
    EXPECT_EQ(upper, std::vector<std::int32_t>(granule, above)) << "part " << plan.first_part() + k;
  }
}

TEST(MpiPlan, FillsHalosFromOtherProcesses) {
  for (bool periodic : {true, false}) {
    check_halos(test::test_device(), periodic);
    check_halos(test::test_devices(), periodic);  // neighbours on this process and on the other
  }
}

TEST(MpiPlan, RefusesAnAllToAllAcrossProcesses) {
  PlanOptions o;
  o.link = &test::world();
  const DeviceSet devices = test::test_device();
  Plan<float> a(devices, 4 * 2, o), b(devices, 4 * 2, o);
  EXPECT_THROW(a.all_to_all(b, 4, 2), Error);
}

}  // namespace
}  // namespace hetflow::core
