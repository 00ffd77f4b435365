#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "amg_problems.hpp"
#include "hetflow/core/thread_link.hpp"
#include "hetflow/fem/amg_hierarchy.hpp"
#include "hetflow/fem/amg_part.hpp"
#include "hetflow/fem/device_amg.hpp"
#include "hetflow/fem/node_halo.hpp"
#include "hetflow/fem/node_partition.hpp"
#include "sparse_problems.hpp"
#include "test_devices.hpp"

namespace hetflow::fem {
namespace {

using test::max_abs;
using test::max_difference;

// z = B b by the cycles of a run split over the devices by `weights`, one part each, the parts' own entries
// of z put together.
std::vector<double> split_cycle(const core::DeviceSet& devices, const BoxStiffness& box, const AmgHierarchy& h,
                                const std::vector<double>& b, const std::vector<double>& weights) {
  const std::size_t parts = weights.size();
  core::ThreadHub hub(parts);
  std::vector<std::unique_ptr<core::ThreadLink>> links;
  std::vector<NodePart> nodes;
  for (std::size_t k = 0; k < parts; ++k) {
    links.push_back(std::make_unique<core::ThreadLink>(hub, k));
    nodes.push_back(make_node_part(box.data, {}, weights, k));
  }
  std::vector<double> z(b.size());
  core::run_on_threads(hub, [&](std::size_t k) {
    const NodePart& part = nodes[k];
    NodeHalo halo(devices, k, *links[k], part);
    const core::Queue& q = devices.compute(k);
    core::Buffer<cl_int> running(q.context(), 2);
    running.fill(q, 0);
    DeviceAmg<double> amg(q, h, SpmvShape{6, 3}, running, &halo);
    std::vector<double> local;
    for (std::size_t i = 0; i < part.local_count(); ++i) local.push_back(b[part.global(i)]);
    core::Buffer<double> db(q.context(), local.size()), dz(q.context(), local.size());
    db.write(q, local);
    amg.enqueue(q, db, dz);
    const std::vector<double> mine = dz.to_vector(q);
    for (std::size_t i = 0; i < part.owned; ++i) z[part.first + i] = mine[i];
  });
  return z;
}

// The split cycle is the whole hierarchy's: with two levels the parts split the finest, with more the
// first coarse one too, and either way z is the host cycle's to rounding.
TEST(FemAmg, SplitVCycleEqualsHostVCycle) {
  const core::DeviceSet devices = test::test_devices();
  if (devices.size() < 2) GTEST_SKIP() << "needs two devices (HETFLOW_TEST_DEVICES)";
  const BoxStiffness box = box_stiffness(14);
  std::vector<double> b = test::random_vector(box.k.n, 9);
  for (std::uint32_t i : box.fixed) b[i] = 0;
  const std::vector<double> weights(devices.size(), 1.0);
  const NodePart first = make_node_part(box.data, {}, weights, 0);
  std::vector<std::size_t> starts{0};
  for (std::size_t k = 0; k < devices.size(); ++k) {
    const NodePart part = make_node_part(box.data, {}, weights, k);
    starts.push_back(part.first + part.owned);
  }
  for (const std::size_t coarse : {std::size_t{20}, std::size_t{400}, std::size_t{2000}}) {
    AmgOptions o;
    o.coarse_size = coarse;
    const AmgHierarchy h(box.k, o);
    const std::size_t split = amg_part(h, first, starts).levels.size();
    EXPECT_EQ(split, h.levels().size() > 2 ? 2u : 1u) << h.levels().size() << " levels";
    const std::vector<double> host = h.apply(b);
    EXPECT_LE(max_difference(split_cycle(devices, box, h, b, weights), host), 1e-12 * max_abs(host))
        << h.levels().size() << " levels, " << split << " split";
  }
  // A part of a few corner nodes owns no coarse unknown, so four levels split the finest only (as
  // FemAmgPart.APartWithoutCoarseUnknownsLeavesTheCoarseLevelWhole checks).
  AmgOptions o;
  o.coarse_size = 20;
  const AmgHierarchy h(box.k, o);
  const std::vector<double> host = h.apply(b);
  EXPECT_LE(max_difference(split_cycle(devices, box, h, b, {1, 0.001}), host), 1e-12 * max_abs(host));
}

}  // namespace
}  // namespace hetflow::fem
