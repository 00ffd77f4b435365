#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "hetflow/core/error.hpp"
#include "hetflow/mrag/block_flow.hpp"
#include "hetflow/mrag/block_parts.hpp"
#include "hetflow/mrag/ghost_recipes.hpp"
#include "hetflow/mrag/ghost_table.hpp"
#include "hetflow/mrag/reflux_table.hpp"
#include "shock_and_disc.hpp"
#include "test_devices.hpp"

namespace hetflow::mrag {
namespace {

constexpr int s = 8;

BlockParts split(const BlockTree& tree, const Sides& domain, std::vector<double> weights) {
  GhostRecipes recipes(s, rhs_ghosts, false, domain);
  const LeafGrid grid(tree);
  const GhostPlan plan = recipes.plan(grid);
  return block_parts(tree, recipes, plan, reflux_table(grid, s, domain), s, weights);
}

// The cells (leaf × s² + cell) of other parts that part p's ghosts read, from the whole tree's table: each
// of its leaves' ghosts' sources, and those of every node they reach.
std::vector<std::vector<std::uint32_t>> cells_read(const GhostTable& table, const BlockParts& parts, std::size_t p) {
  std::vector<std::vector<std::uint32_t>> read(parts.parts());
  std::vector<char> reached(table.nodes(), 0);
  const auto visit = [&](std::uint32_t first, std::uint32_t last, const std::vector<GhostSource>& sources) {
    for (std::uint32_t k = first; k < last; ++k) {
      const GhostSource& g = sources[k];
      if (g.block == GhostSource::node)
        reached[g.cell] = 1;
      else if (g.block != GhostSource::inflow && parts.part[g.block] != p)
        read[parts.part[g.block]].push_back(g.block * s * s + g.cell);
    }
  };
  const std::size_t count = table.ghost_cells.size();
  for (const std::uint32_t leaf : parts.leaves[p])
    visit(table.start[leaf * count], table.start[(leaf + 1) * count], table.sources);
  for (std::size_t n = table.nodes(); n-- > 0;)  // a node names only earlier ones
    if (reached[n]) visit(table.node_start[n], table.node_start[n + 1], table.node_sources);
  for (std::vector<std::uint32_t>& list : read) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
  }
  return read;
}

// A tree of 3 × 2 roots with an inflow, an outflow and walls, refined at pseudo-random leaves to level 3
// (jumps meeting each other and the sides), split 1 : 2 : 1: what each part reads of the others, found
// from the leaves' recipes, is what the whole tree's table names, cell for cell.
TEST(MragBlockParts, TheCellsEachPartReadsAreThoseOfTheWholeTreesTable) {
  Sides domain = sides(Edge::wall, Edge::wall);
  domain.west = Edge::inflow;
  domain.east = Edge::outflow;
  for (const std::uint64_t start : {3u, 8u, 21u}) {
    BlockTree tree(3, 2, 3);
    std::uint64_t seed = start;
    for (int round = 0; round < 24; ++round) {
      const std::vector<BlockKey> leaves(tree.leaves().begin(), tree.leaves().end());
      seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
      const BlockKey& leaf = leaves[(seed >> 33) % leaves.size()];
      if (leaf.level < 3) tree.refine(leaf);
    }
    const BlockParts parts = split(tree, domain, {1, 2, 1});
    const GhostTable table = ghost_table(tree, s, rhs_ghosts, false, domain);
    std::size_t total = 0;
    for (std::size_t p = 0; p < parts.parts(); ++p) {
      const std::vector<std::vector<std::uint32_t>> expected = cells_read(table, parts, p);
      for (std::size_t r = 0; r < parts.parts(); ++r) {
        EXPECT_EQ(parts.cells[p][r], expected[r]) << "seed " << start << ", part " << p << " reading part " << r;
        total += expected[r].size();
      }
    }
    EXPECT_GT(total, 0u) << "seed " << start;
  }
}

// 4 × 4 periodic leaves in halves along the Z-order curve: part 0 holds rows 0 and 1 (leaves go by column,
// leaf x 4 + y). Its ghosts read three cells deep into row 2 (north) and, across the periodic side, row 3
// (south): 3 × 8 cells of each of 8 blocks; no faces, as no resolution jumps.
TEST(MragBlockParts, APeriodicSplitReadsThreeRowsOfCellsOnEitherSide) {
  const BlockParts parts = split(BlockTree(4, 4, 0), sides(Edge::periodic, Edge::periodic), {1, 1});
  ASSERT_EQ(parts.parts(), 2u);
  EXPECT_EQ(parts.leaves[0], (LeafList{0, 1, 4, 5, 8, 9, 12, 13}));
  EXPECT_EQ(parts.leaves[1], (LeafList{2, 3, 6, 7, 10, 11, 14, 15}));
  EXPECT_EQ(parts.part[5], 0u);
  EXPECT_EQ(parts.part[6], 1u);
  EXPECT_EQ(parts.cells[0][1].size(), 2u * 4 * 3 * s);
  EXPECT_EQ(parts.cells[1][0].size(), 2u * 4 * 3 * s);
  EXPECT_TRUE(parts.cells[0][0].empty());
  for (const std::uint32_t cell : parts.cells[0][1]) {
    const std::uint32_t block = cell / (s * s), j = cell % (s * s) / s;
    EXPECT_TRUE((block % 4 == 2 && j < 3) || (block % 4 == 3 && j >= s - 3)) << "cell " << cell;
  }
  EXPECT_TRUE(parts.faces[0][1].empty());
  EXPECT_TRUE(parts.faces[1][0].empty());
}

// 2 × 2 outflow roots, the first refined: leaves 0 .. 2 are roots (0, 1), (1, 0), (1, 1), leaves 3 .. 6 the
// children (0, 0) .. (1, 1) of root (0, 0). Split 4 : 3 along the Z-order curve, part 0 holds the children.
// The coarse root (1, 0) of part 1 corrects its west faces by the east faces of children (1, 0) and (1, 1),
// and root (0, 1) its south faces by the north faces of children (0, 1) and (1, 1): 4 fine blocks × 8 faces.
TEST(MragBlockParts, ACoarsePartReadsTheFinerFacesOfTheOtherPart) {
  BlockTree tree(2, 2, 1);
  tree.refine({0, 0, 0});
  const BlockParts parts = split(tree, sides(Edge::outflow, Edge::outflow), {4, 3});
  ASSERT_EQ(parts.leaves[0], (LeafList{3, 4, 5, 6}));
  const std::vector<std::uint32_t>& faces = parts.faces[1][0];
  ASSERT_EQ(faces.size(), 4u * s);
  const auto record = [](std::uint32_t leaf, Side side, std::uint32_t k) { return (leaf * 4 + side) * s + k; };
  for (std::uint32_t k = 0; k < s; ++k) {
    EXPECT_EQ(faces[k], record(4, north, k));
    EXPECT_EQ(faces[s + k], record(5, east, k));
    EXPECT_EQ(faces[2 * s + k], record(6, east, k));
    EXPECT_EQ(faces[3 * s + k], record(6, north, k));
  }
  EXPECT_TRUE(parts.faces[0][1].empty());
}

// The shock meeting a helium disc of shock_and_disc.hpp, with `scheme`'s fluxes, run on one device and split
// over several by `weights` (equal when empty): the same leaves and, on one platform, bit for bit the same cells;
// across platforms (the GPU machine's NVIDIA GPU beside PoCL, whose arithmetic differs in the last bits) within 1e-9 in
// FP64 and 1e-4 in FP32 of fields between 0.1 and 4, and the time within 1e-12 and 1e-6 of itself: each step's dt
// follows from the largest wave speed, whose last bits differ there too.
void expect_split_run_matches(core::Precision precision, std::vector<double> weights,
                              const SpatialScheme& scheme = {}) {
  const core::DeviceSet one = test::test_device(), several = test::test_devices();
  if (several.size() < 2) GTEST_SKIP() << "needs two devices (HETFLOW_TEST_DEVICES)";
  weights.resize(several.size(), 1.0);
  BlockFlow whole = test::shock_and_disc_flow(one, precision, {1}, nullptr, scheme);
  BlockFlow split = test::shock_and_disc_flow(several, precision, weights, nullptr, scheme);
  for (BlockFlow* flow : {&whole, &split}) test::run_shock_and_disc(*flow);
  ASSERT_EQ(split.tree().leaves(), whole.tree().leaves());
  const bool f32 = precision == core::Precision::f32, same_platform = test::one_platform(one, several);
  EXPECT_NEAR(split.time(), whole.time(), same_platform ? 0 : (f32 ? 1e-6 : 1e-12) * whole.time());
  const std::vector<double> a = whole.conserved(), b = split.conserved();
  ASSERT_EQ(a.size(), b.size());
  const double tolerance = same_platform ? 0 : f32 ? 1e-4 : 1e-9;
  std::size_t differing = 0;
  for (std::size_t k = 0; k < a.size(); ++k) differing += std::abs(a[k] - b[k]) > tolerance;
  EXPECT_EQ(differing, 0u) << "of " << a.size() << " values, leaves " << whole.tree().leaves().size();
}

TEST(MragBlockParts, AnAdaptingRunSplitOverDevicesMatchesOneDevice) {
  expect_split_run_matches(core::Precision::f64, {});
}

TEST(MragBlockParts, AnUnevenSplitInFp32MatchesOneDevice) { expect_split_run_matches(core::Precision::f32, {1, 3}); }

TEST(MragBlockParts, ASplitRunWithHllcMatchesOneDevice) {
  expect_split_run_matches(core::Precision::f64, {}, SpatialScheme{.riemann = RiemannSolver::hllc, .colour = {}});
}

// One root split over two devices leaves the second part without leaves until an adaptation refines the
// root; it still takes part in every exchange, and the run ends bit for bit as on one device (on one
// platform; within 1e-9 across platforms).
TEST(MragBlockParts, APartWithoutLeavesTakesPartAndTheRunMatchesOneDevice) {
  const core::DeviceSet one = test::test_device(), several = test::test_devices();
  if (several.size() < 2) GTEST_SKIP() << "needs two devices (HETFLOW_TEST_DEVICES)";
  const auto bump = [](double x, double y) {
    return FaceState{1 + 0.5 * std::exp(-40 * ((x - 0.5) * (x - 0.5) + (y - 0.4) * (y - 0.4))), 0.3, 0, 1, 2.5, 0};
  };
  const std::vector<double> equal(several.size(), 1.0);
  BlockFlow whole(one, BlockTree(1, 1, 1), s, sides(Edge::periodic, Edge::periodic), 1.0, TimeScheme::ssp_rk3,
                  core::Precision::f64, {}, std::vector<double>{1});
  BlockFlow split(several, BlockTree(1, 1, 1), s, sides(Edge::periodic, Edge::periodic), 1.0, TimeScheme::ssp_rk3,
                  core::Precision::f64, {}, equal);
  for (BlockFlow* flow : {&whole, &split}) {
    flow->set(bump);
    flow->step(flow->stable_dt(0.5));
    flow->adapt(1e-3, 1e-4);
    for (int step = 0; step < 3; ++step) flow->step(flow->stable_dt(0.5));
  }
  ASSERT_EQ(split.tree().leaves().size(), 4u);
  const std::vector<double> a = whole.conserved(), b = split.conserved();
  ASSERT_EQ(a.size(), b.size());
  const double tolerance = test::one_platform(one, several) ? 0 : 1e-9;
  std::size_t differing = 0;
  for (std::size_t k = 0; k < a.size(); ++k) differing += std::abs(a[k] - b[k]) > tolerance;
  EXPECT_EQ(differing, 0u) << "of " << a.size() << " values";
}

// A cell with ρ < 0 in the second part's leaf stops a split run with the message one device gives,
// naming that leaf and cell.
TEST(MragBlockParts, ANonPhysicalStateStopsASplitRunAsItStopsOneDevice) {
  const core::DeviceSet one = test::test_device(), several = test::test_devices();
  if (several.size() < 2) GTEST_SKIP() << "needs two devices (HETFLOW_TEST_DEVICES)";
  const auto bad = [](double x, double) { return FaceState{x < 1.5 ? 1.0 : -1.0, 0, 0, 1, 2.5, 0}; };
  const std::vector<double> equal(several.size(), 1.0);
  std::vector<std::string> messages;
  for (const core::DeviceSet* devices : {&one, &several}) {
    BlockFlow flow(*devices, BlockTree(2, 1, 0), s, sides(Edge::periodic, Edge::periodic), 1.0, TimeScheme::ssp_rk3,
                   core::Precision::f64, {}, devices == &one ? std::vector<double>{1} : equal);
    flow.set(bad);
    try {
      flow.stable_dt(0.5);
      messages.push_back("no error");
    } catch (const core::Error& e) {
      messages.push_back(e.what());
    }
  }
  EXPECT_EQ(messages[1], messages[0]);
  EXPECT_NE(messages[0].find("leaf 1 (level 0, block 1, 0), cell (4, 0) holds rho -1"), std::string::npos)
      << messages[0];
}

}  // namespace
}  // namespace hetflow::mrag
