#include <gtest/gtest.h>

#include <numeric>

#include "hetflow/mrag/reflux_table.hpp"

namespace hetflow::mrag {
namespace {

constexpr int s = 8;

// Two roots side by side, the right one refined and its lower-left child (1, 2, 0) again. The left root's
// east faces 0-3 meet four faces of the level-2 blocks, faces 4-7 two of (1, 2, 1); through the periodic
// x edge its west faces meet two faces of (1, 3, 0) or (1, 3, 1). (1, 3, 0)'s west side and (1, 2, 1)'s
// south side meet (1, 2, 0)'s children. The y edges are outflow: nothing across them.
TEST(MragRefluxTable, CoarseFacesAtJumpsListTheFineFacesThatCoverThem) {
  BlockTree tree(2, 1, 2);
  tree.refine({0, 1, 0});
  tree.refine({1, 2, 0});
  const RefluxTable table = reflux_table(tree, LeafGrid(tree), s, sides(Edge::periodic, Edge::outflow));
  EXPECT_EQ(table.x_entries, 3u * s);
  EXPECT_EQ(table.entries(), 4u * s);
  for (std::size_t e = 0; e < table.entries(); ++e) {
    double weights = 0;
    for (std::uint32_t f = table.start[e]; f < table.start[e + 1]; ++f) weights += table.fine_weight[f];
    EXPECT_NEAR(weights, 1.0, 1e-15) << "entry " << e;
    const std::uint32_t faces = table.start[e + 1] - table.start[e];
    const bool root_east_low = table.coarse_block[e] == 0 && table.side[e] == east && table.coarse_cell[e] / s < 4;
    EXPECT_EQ(faces, root_east_low ? 4u : 2u) << "entry " << e;
  }
}

// A uniform tree has no jumps, so no corrections.
TEST(MragRefluxTable, AUniformTreeHasNone) {
  const BlockTree uniform(3, 2, 1);
  EXPECT_EQ(reflux_table(uniform, LeafGrid(uniform), s, sides(Edge::periodic, Edge::periodic)).entries(), 0u);
}

}  // namespace
}  // namespace hetflow::mrag
