#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <random>
#include <vector>

#include "hetflow/core/error.hpp"
#include "hetflow/mrag/leaf_grid.hpp"

namespace hetflow::mrag {
namespace {

// Every block position of every level of a randomly adapted tree: the grid names the leaf the tree finds
// covering it, with that leaf's index in leaf order, or none where finer leaves tile it.
TEST(MragLeafGrid, CoveringMatchesTheTreeEverywhere) {
  BlockTree tree(3, 2, 5);
  std::mt19937 random(3);
  for (int k = 0; k < 150; ++k) {
    const std::vector<BlockKey> leaves = tree.leaves();
    const BlockKey leaf = leaves[random() % leaves.size()];
    if (leaf.level < tree.max_level() && random() % 3 != 0)
      tree.refine(leaf);
    else if (leaf.level > 0)
      tree.collapse(leaf.parent());
  }
  const LeafGrid grid(tree);
  ASSERT_EQ(grid.leaves(), tree.leaves());
  std::size_t found = 0;
  for (int level = 0; level <= tree.max_level(); ++level)
    for (int y = 0; y < (tree.roots_y() << level); ++y)
      for (int x = 0; x < (tree.roots_x() << level); ++x) {
        const BlockKey key{level, x, y};
        const std::optional<BlockKey> expected = tree.covering_leaf(key);
        const std::optional<LeafGrid::Entry> got = grid.covering(key);
        ASSERT_EQ(got.has_value(), expected.has_value()) << level << " " << x << " " << y;
        if (!got) continue;
        ++found;
        EXPECT_EQ(got->leaf, *expected);
        EXPECT_EQ(tree.leaves()[got->index], *expected);
      }
  EXPECT_GT(found, tree.leaves().size());
}

TEST(MragLeafGrid, RefusesATreeWhoseKeysDoNotPack) {
  EXPECT_THROW(LeafGrid(BlockTree(1024, 1, 20)), core::Error);
  EXPECT_NO_THROW(LeafGrid(BlockTree(256, 1, 20)));
}

}  // namespace
}  // namespace hetflow::mrag
