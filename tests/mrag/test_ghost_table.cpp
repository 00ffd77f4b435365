#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "hetflow/core/error.hpp"
#include "hetflow/mrag/block_tree.hpp"
#include "hetflow/mrag/device_ghosts.hpp"
#include "hetflow/mrag/ghost_recipes.hpp"
#include "hetflow/mrag/ghost_table.hpp"

namespace hetflow::mrag {
namespace {

constexpr int s = 8;

// The average of (1 + x + x² − x³ + x⁴/2)(2 − y + 3y² + y⁴) over a cell, a product of quartics (exact
// for the wavelets' prediction), from the antiderivatives.
double cell_average(double x0, double x1, double y0, double y1) {
  const auto fx = [](double x) { return x + x * x / 2 + x * x * x / 3 - x * x * x * x / 4 + std::pow(x, 5) / 10; };
  const auto fy = [](double y) { return 2 * y - y * y / 2 + y * y * y + std::pow(y, 5) / 5; };
  return (fx(x1) - fx(x0)) / (x1 - x0) * (fy(y1) - fy(y0)) / (y1 - y0);
}

// The leaves' cells, filled with their exact averages on a domain of roots × roots unit blocks at level 0.
std::vector<std::vector<double>> fill(const BlockTree& tree) {
  std::vector<std::vector<double>> data;
  for (const BlockKey& leaf : tree.leaves()) {
    const double size = 1.0 / (1 << leaf.level), h = size / s;
    std::vector<double> cells;
    for (int j = 0; j < s; ++j)
      for (int i = 0; i < s; ++i) {
        const double x0 = leaf.x * size + i * h, y0 = leaf.y * size + j * h;
        cells.push_back(cell_average(x0, x0 + h, y0, y0 + h));
      }
    data.push_back(cells);
  }
  return data;
}

// A 4 × 4 root domain refined in its middle to levels 1, 2 and 3, so that ghosts meet leaves one and two
// levels apart away from the domain's edge.
BlockTree adapted_tree() {
  BlockTree tree(4, 4, 3);
  tree.refine({0, 1, 1});
  tree.refine({0, 2, 1});
  tree.refine({1, 3, 3});
  tree.refine({2, 6, 6});
  return tree;
}

// Σ weight × source over sources [first, last), the sources leaf cells of `data` or entries of `nodes`.
double sum(const std::vector<GhostSource>& sources, std::uint32_t first, std::uint32_t last,
           const std::vector<std::vector<double>>& data, const std::vector<double>& nodes) {
  double value = 0;
  for (std::uint32_t k = first; k < last; ++k)
    value += sources[k].weight *
             (sources[k].block == GhostSource::node ? nodes[sources[k].cell] : data[sources[k].block][sources[k].cell]);
  return value;
}

// Ghosts inside the domain, whatever the levels they cross, equal the exact averages of their cells.
TEST(MragGhostTable, GhostsOfQuarticDataAreExactAcrossLevelJumps) {
  const BlockTree tree = adapted_tree();
  ASSERT_EQ(tree.max_jump(), 2);
  const std::vector<std::vector<double>> data = fill(tree);
  for (const bool corners : {false, true}) {
    const int width = corners ? 4 : 3;
    const GhostTable table = ghost_table(tree, s, width, corners, sides(Edge::outflow, Edge::outflow));
    // Nodes in order: each names only nodes before it.
    std::vector<double> nodes;
    for (std::size_t n = 0; n < table.nodes(); ++n)
      nodes.push_back(sum(table.node_sources, table.node_start[n], table.node_start[n + 1], data, nodes));
    EXPECT_GT(table.nodes(), 0u);
    std::size_t checked = 0, b = 0;
    for (const BlockKey& leaf : tree.leaves()) {
      const double size = 1.0 / (1 << leaf.level), h = size / s;
      for (std::size_t g = 0; g < table.ghost_cells.size(); ++g) {
        const auto [i, j] = table.ghost_cells[g];
        const double x0 = leaf.x * size + i * h, y0 = leaf.y * size + j * h;
        if (x0 < 0 || y0 < 0 || x0 + h > 4 + 1e-12 || y0 + h > 4 + 1e-12) continue;
        const std::size_t row = b * table.ghost_cells.size() + g;
        const double value = sum(table.sources, table.start[row], table.start[row + 1], data, nodes);
        const double exact = cell_average(x0, x0 + h, y0, y0 + h);
        EXPECT_NEAR(value, exact, 1e-11 * std::abs(exact)) << "leaf " << b << " ghost (" << i << ", " << j << ")";
        ++checked;
      }
      ++b;
    }
    EXPECT_GT(checked, 1000u);
  }
}

// On a uniform periodic grid every ghost is one cell of a neighbour, wrapped at the edges.
TEST(MragGhostTable, UniformPeriodicGhostsCopyOneNeighbourCell) {
  BlockTree tree(2, 1, 1);
  const GhostTable table = ghost_table(tree, s, 3, false, sides(Edge::periodic, Edge::periodic));
  ASSERT_EQ(table.start.size(), 2 * table.ghost_cells.size() + 1);
  for (std::size_t g = 0; g + 1 < table.start.size(); ++g) {
    ASSERT_EQ(table.start[g + 1] - table.start[g], 1u) << g;
    EXPECT_EQ(table.sources[table.start[g]].weight, 1.0);
  }
  // Block 0's ghost (−1, 0) is block 1's cell (7, 0); its ghost (0, −1) its own cell (0, 7).
  const auto find = [&](int i, int j) {
    for (std::size_t g = 0; g < table.ghost_cells.size(); ++g)
      if (table.ghost_cells[g] == std::pair{i, j}) return table.sources[table.start[g]];
    return GhostSource{};
  };
  EXPECT_EQ(find(-1, 0), (GhostSource{1, 7, 1.0}));
  EXPECT_EQ(find(0, -1), (GhostSource{0, 7 * s, 1.0}));
}

// Past a wall a ghost is the mirror image of an inside cell, its normal momentum negated.
TEST(MragGhostTable, WallGhostsMirrorTheCellsInside) {
  const BlockTree tree(1, 1, 0);
  const GhostTable table = ghost_table(tree, s, 3, false, sides(Edge::wall, Edge::wall));
  const auto find = [&](int i, int j) {
    for (std::size_t g = 0; g < table.ghost_cells.size(); ++g)
      if (table.ghost_cells[g] == std::pair{i, j}) {
        EXPECT_EQ(table.start[g + 1] - table.start[g], 1u);
        return table.sources[table.start[g]];
      }
    return GhostSource{};
  };
  EXPECT_EQ(find(-1, 0), (GhostSource{0, 0, 1.0, GhostSource::flip_x}));
  EXPECT_EQ(find(-3, 2), (GhostSource{0, 2 + 2 * s, 1.0, GhostSource::flip_x}));
  EXPECT_EQ(find(s, 3), (GhostSource{0, s - 1 + 3 * s, 1.0, GhostSource::flip_x}));
  EXPECT_EQ(find(4, -2), (GhostSource{0, 4 + s, 1.0, GhostSource::flip_y}));
}

// Past an inflow side a ghost is the prescribed state: one term naming the side.
TEST(MragGhostTable, InflowGhostsAreThePrescribedState) {
  Sides domain = sides(Edge::outflow, Edge::periodic);
  domain.west = Edge::inflow;
  const GhostTable table = ghost_table(BlockTree(2, 1, 0), s, 3, false, domain);
  for (std::size_t g = 0; g < table.ghost_cells.size(); ++g)
    if (table.ghost_cells[g].first < 0) {
      ASSERT_EQ(table.start[g + 1] - table.start[g], 1u);
      EXPECT_EQ(table.sources[table.start[g]], (GhostSource{GhostSource::inflow, 0, 1.0, 0}));
    }
}

TEST(MragGhostTable, RefusesAPeriodicSideAgainstAnotherKind) {
  Sides domain = sides(Edge::periodic, Edge::wall);
  domain.east = Edge::outflow;
  try {
    ghost_table(BlockTree(1, 1, 0), s, 3, false, domain);
    FAIL() << "no error";
  } catch (const core::Error& e) {
    EXPECT_STREQ(e.what(), "domain sides: west and east must both be periodic or neither");
  }
}

TEST(MragGhostTable, ARebuildAfterSplitAndCollapseIsIdentical) {
  BlockTree tree = adapted_tree();
  const GhostTable before = ghost_table(tree, s, 3, false, sides(Edge::periodic, Edge::outflow));
  tree.refine({1, 2, 2});
  ASSERT_TRUE(tree.collapse({1, 2, 2}));
  EXPECT_EQ(ghost_table(tree, s, 3, false, sides(Edge::periodic, Edge::outflow)), before);
}

}  // namespace
}  // namespace hetflow::mrag

namespace hetflow::mrag {
namespace {

// Sides whose ghosts copy a same-level neighbour unflipped are read directly by the right-hand side: on 2 × 1
// roots, periodic in x with walls in y, each root's west and east sides name the other root and its south
// and north sides (mirrors) none; after refining root 0, the sides facing the jump name none.
TEST(MragGhostTable, DirectSidesAreSameLevelCopies) {
  BlockTree tree(2, 1, 1);
  GhostRecipes recipes(s, 3, false, sides(Edge::periodic, Edge::wall));
  const auto direct_neighbours = [&](const GhostPlan& plan) {
    std::vector<std::array<cl_uint, 4>> kinds;
    for (std::uint32_t k = 0; k < recipes.kinds(); ++k) kinds.push_back(direct_sides(recipes.kind(k), s, 3));
    return mrag::direct_neighbours(kinds, plan);
  };
  std::vector<cl_uint> n = direct_neighbours(recipes.plan(LeafGrid(tree)));
  EXPECT_EQ(n, (std::vector<cl_uint>{1, 1, no_neighbour, no_neighbour, 0, 0, no_neighbour, no_neighbour}));
  tree.refine({0, 0, 0});
  n = direct_neighbours(recipes.plan(LeafGrid(tree)));
  // Leaves: the root (1, 0) at level 0, then the children (0, 0), (0, 1), (1, 0), (1, 1) at level 1.
  ASSERT_EQ(n.size(), 4u * 5);
  EXPECT_EQ(n[0], no_neighbour);  // the root's west and east face the refined root
  EXPECT_EQ(n[1], no_neighbour);
  EXPECT_EQ(n[4 * 1 + 1], 3u);            // child (0, 0)'s east is child (1, 0)
  EXPECT_EQ(n[4 * 1 + 3], 2u);            // its north is child (0, 1)
  EXPECT_EQ(n[4 * 1 + 0], no_neighbour);  // its west faces the coarse root across the periodic side
  EXPECT_EQ(n[4 * 1 + 2], no_neighbour);  // its south is a wall
  EXPECT_EQ(n[4 * 3 + 1], no_neighbour);  // child (1, 0)'s east faces the coarse root
}

// A side whose ghosts are each one node of weight 1 (predicted cells, whose node number may equal the cell
// a copy would read) is filled, not read from a block.
TEST(MragGhostTable, ASideOfNodesIsNotReadDirectly) {
  GhostRecipes recipes(s, 3, false, sides(Edge::periodic, Edge::periodic));
  const BlockTree tree(2, 1, 0);
  const GhostPlan plan = recipes.plan(LeafGrid(tree));
  GhostRecipe recipe = recipes.kind(plan.kind[0]);
  const std::vector<std::pair<int, int>> cells = ghost_cells(s, 3, false);
  for (std::size_t g = 0; g < cells.size(); ++g)
    if (cells[g].first < 0) recipe.sources[recipe.first[g]].block = GhostSource::node;  // the same cells as nodes
  const std::array<cl_uint, 4> n = direct_sides(recipe, s, 3);
  EXPECT_EQ(n[0], no_neighbour);
  EXPECT_NE(n[1], no_neighbour);  // its east side still copies the other block
}

}  // namespace
}  // namespace hetflow::mrag
