#include <gtest/gtest.h>

#include <map>
#include <utility>
#include <vector>

#include "hetflow/core/error.hpp"
#include "hetflow/mrag/reflux_table.hpp"

namespace hetflow::mrag {
namespace {

constexpr int s = 8;

// Two roots side by side, the right one refined and its lower-left child (1, 2, 0) again; leaves in order
// (0, 0, 0), (1, 2, 1), (1, 3, 0), (1, 3, 1), (2, 4, 0), (2, 4, 1), (2, 5, 0), (2, 5, 1). The left root's
// east side meets the west sides of (2, 4, 0) and (2, 4, 1), two levels finer, and of (1, 2, 1); through
// the periodic x edge its west side meets (1, 3, 0) and (1, 3, 1). (1, 3, 0)'s west side and (1, 2, 1)'s
// south side meet two of (1, 2, 0)'s children each. The y edges are outflow: nothing across them.
TEST(MragRefluxTable, FineSidesAtJumpsCoverEachCoarseSideOnce) {
  BlockTree tree(2, 1, 2);
  tree.refine({0, 1, 0});
  tree.refine({1, 2, 0});
  const RefluxTable table = reflux_table(LeafGrid(tree), s, sides(Edge::periodic, Edge::outflow));
  EXPECT_EQ(table.x_entries, 7u);
  ASSERT_EQ(table.size(), 9u);
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<int>> covered;  // (coarse leaf, side) → cells
  for (std::size_t e = 0; e < table.size(); ++e) {
    const RefluxEntry& r = table.entries[e];
    EXPECT_EQ(e < table.x_entries, r.side == west || r.side == east) << "entry " << e;
    std::vector<int>& cells = covered[{r.coarse_block, r.side}];
    cells.resize(s, 0);
    for (std::uint32_t k = r.first_cell; k < r.first_cell + (s >> r.depth); ++k) ++cells.at(k);
  }
  EXPECT_EQ(covered.size(), 4u);
  for (const auto& [side, cells] : covered)
    EXPECT_EQ(cells, std::vector<int>(s, 1)) << "leaf " << side.first << " side " << side.second;
  EXPECT_EQ(table.entries[0], (RefluxEntry{0, west, 2, 1, 0}));
  EXPECT_EQ(table.entries[2], (RefluxEntry{0, east, 4, 2, 0}));
  EXPECT_EQ(table.entries[3], (RefluxEntry{0, east, 5, 2, s / 4}));
  EXPECT_EQ(table.entries[4], (RefluxEntry{0, east, 1, 1, s / 2}));
  EXPECT_EQ(table.entries[7], (RefluxEntry{1, south, 5, 1, 0}));
}

// A uniform tree has no jumps, so no corrections.
TEST(MragRefluxTable, AUniformTreeHasNone) {
  const BlockTree uniform(3, 2, 1);
  EXPECT_EQ(reflux_table(LeafGrid(uniform), s, sides(Edge::periodic, Edge::periodic)).size(), 0u);
}

// Blocks of 2 cells cannot take a jump of two levels: a fine side would be half a coarse cell.
TEST(MragRefluxTable, ASideShorterThanACoarseCellIsAnError) {
  BlockTree tree(2, 1, 2);
  tree.refine({0, 1, 0});
  tree.refine({1, 2, 0});
  EXPECT_THROW(reflux_table(LeafGrid(tree), 2, sides(Edge::outflow, Edge::outflow)), core::Error);
}

}  // namespace
}  // namespace hetflow::mrag
