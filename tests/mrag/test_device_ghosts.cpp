#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <vector>

#include "hetflow/core/error.hpp"
#include "hetflow/mrag/block_rhs.hpp"
#include "hetflow/mrag/device_ghosts.hpp"
#include "hetflow/mrag/device_recipes.hpp"
#include "hetflow/mrag/ghost_recipes.hpp"
#include "test_devices.hpp"

namespace hetflow::mrag {
namespace {

constexpr int s = 8;

// 3 × 2 roots refined at pseudo-random leaves up to level 3.
BlockTree random_tree(std::uint64_t seed) {
  BlockTree tree(3, 2, 3);
  for (int round = 0; round < 18; ++round) {
    const std::vector<BlockKey> leaves(tree.leaves().begin(), tree.leaves().end());
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    const BlockKey& leaf = leaves[(seed >> 33) % leaves.size()];
    if (leaf.level < 3) tree.refine(leaf);
  }
  return tree;
}

// Field f of cell c of block b, or of an inflow state or a node, as the table names it.
double source_value(const GhostSource& t, const std::vector<double>& data, const std::vector<double>& nodes,
                    const std::vector<double>& inflow, int f) {
  if (t.block == GhostSource::inflow) return inflow[fields * t.cell + f];
  if (t.block == GhostSource::node) return nodes[fields * t.cell + f];
  return data[(static_cast<std::size_t>(t.block) * fields + f) * s * s + t.cell];
}

double sum(const std::vector<GhostSource>& sources, std::uint32_t first, std::uint32_t last,
           const std::vector<double>& data, const std::vector<double>& nodes, const std::vector<double>& inflow,
           int f) {
  double value = 0;
  for (std::uint32_t k = first; k < last; ++k) {
    const bool negated = (f == 1 && (sources[k].flip & 1)) || (f == 2 && (sources[k].flip & 2));
    value += (negated ? -sources[k].weight : sources[k].weight) * source_value(sources[k], data, nodes, inflow, f);
  }
  return value;
}

// The device's fill from the recipes equals the table of the same recipes summed on the host, every field
// of every ghost of every leaf (within 8e-13, the data lying in [1, 2): the device may fuse multiply-adds), on
// random trees with walls, an inflow and an outflow, for the right-hand side's band (3 wide, no corners)
// and the adaptation's (4 wide, corners); the sides read directly are left out of the fill alone.
TEST(MragDeviceGhosts, TheFillFromRecipesEqualsTheTableSummedOnTheHost) {
  core::DeviceSet devices = test::test_device();
  const core::Queue& queue = devices.compute(0);
  Sides domain = sides(Edge::wall, Edge::wall);
  domain.west = Edge::inflow;
  domain.east = Edge::outflow;
  domain.inflow[0] = {1.5, 0.3, -0.1, 2.0, 2.5, 0};
  std::vector<double> inflow;
  for (const FaceState& w : domain.inflow)
    for (const double q : conserved(w)) inflow.push_back(q);
  // One set of recipes per band for both trees: the second tree's kinds grow the device's tables after the
  // first tree's were sent.
  std::map<int, std::shared_ptr<DeviceRecipes<double>>> kept;
  for (const auto& [width, corners] : {std::pair{3, false}, std::pair{4, true}})
    kept[width] = std::make_shared<DeviceRecipes<double>>(queue.context(), s, width, corners, domain);
  for (const std::uint64_t seed : {3u, 11u}) {
    const BlockTree tree = random_tree(seed);
    const std::size_t blocks = tree.leaves().size();
    std::vector<double> data(blocks * fields * s * s);
    std::uint64_t state = seed;
    for (double& v : data) {
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      v = 1 + static_cast<double>(state >> 11) * 0x1p-53;
    }
    core::Buffer<double> d(queue.context(), data.size());
    d.write(queue, std::span<const double>(data));
    for (const auto& [width, corners] : {std::pair{3, false}, std::pair{4, true}}) {
      const std::shared_ptr<DeviceRecipes<double>>& recipes = kept[width];
      const GhostPlan plan = recipes->plan(queue, LeafGrid(tree));
      DeviceGhosts<double> ghosts(queue, recipes, plan, all_leaves(blocks), !corners);
      ghosts.fill(queue, d);
      const std::vector<double> device = ghosts.ghosts().to_vector(queue);
      const std::vector<cl_uint> direct = ghosts.neighbours().to_vector(queue);
      const GhostTable table = recipes->recipes().table(tree);
      const std::size_t count = table.ghost_cells.size();
      std::vector<double> nodes(fields * table.nodes());
      for (std::size_t n = 0; n < table.nodes(); ++n)
        for (int f = 0; f < fields; ++f)
          nodes[fields * n + f] = sum(table.node_sources, table.node_start[n], table.node_start[n + 1], data, nodes,
                                      inflow, f);
      std::size_t checked = 0, skipped = 0;
      for (std::size_t b = 0; b < blocks; ++b)
        for (std::size_t g = 0; g < count; ++g) {
          const auto [i, j] = table.ghost_cells[g];
          const int side = i < 0 ? 0 : i >= s ? 1 : j < 0 ? 2 : 3;
          if (!corners && direct[4 * b + side] != no_neighbour) {
            ++skipped;
            continue;
          }
          for (int f = 0; f < fields; ++f) {
            const double host = sum(table.sources, table.start[b * count + g], table.start[b * count + g + 1], data,
                                    nodes, inflow, f);
            ASSERT_NEAR(device[(b * fields + f) * count + g], host, 1e-13 * 8)
                << "seed " << seed << ", band " << width << ", leaf " << b << ", ghost " << g << ", field " << f;
          }
          ++checked;
        }
      EXPECT_GT(checked, 0u);
      EXPECT_EQ(skipped > 0, !corners) << "band " << width;
    }
  }
}

// A source packs into the one word the fill reads: its flip, its type and its place; a slot past 255 or a
// cell past 2^20 is refused.
TEST(MragDeviceRecipes, ASourcePacksItsFlipTypeAndPlace) {
  EXPECT_EQ(pack_source({3, 1023, 0.5, GhostSource::flip_y}), 2u | 3u << 4 | 1023u << 12);
  EXPECT_EQ(pack_source({GhostSource::node, 70000, 1, GhostSource::flip_x}), 1u | 1u << 2 | 70000u << 4);
  EXPECT_EQ(pack_source({GhostSource::inflow, 3, 1, 0}), 2u << 2 | 3u << 4);
  EXPECT_THROW(pack_source({256, 0, 1, 0}), core::Error);
  EXPECT_THROW(pack_source({0, 1u << 20, 1, 0}), core::Error);
}

}  // namespace
}  // namespace hetflow::mrag
