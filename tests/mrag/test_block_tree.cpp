#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "hetflow/core/error.hpp"
#include "hetflow/mrag/block_tree.hpp"

namespace hetflow::mrag {
namespace {

// Every pair of touching leaves differs by at most the tree's jump.
int largest_jump(const BlockTree& tree) {
  int largest = 0;
  for (const BlockKey& leaf : tree.leaves())
    for (const BlockKey& n : tree.neighbours(leaf)) largest = std::max(largest, std::abs(n.level - leaf.level));
  return largest;
}

TEST(MragBlockTree, RefiningNextToACoarseBlockRefinesItFirst) {
  BlockTree tree(2, 1, 4);
  tree.refine({0, 0, 0});
  tree.refine({1, 1, 0});
  tree.refine({2, 3, 1});  // level 3 beside the level-0 root (1, 0): that root goes to level 1 first
  EXPECT_FALSE(tree.is_leaf({0, 1, 0}));
  EXPECT_TRUE(tree.is_leaf({1, 2, 0}));
  EXPECT_EQ(largest_jump(tree), 2);
}

TEST(MragBlockTree, SplitThenCollapseReturnsTheTree) {
  BlockTree tree(2, 2, 3);
  tree.refine({0, 1, 1});
  const std::vector<BlockKey> before = tree.leaves();
  tree.refine({1, 2, 2});
  EXPECT_EQ(tree.leaves().size(), before.size() + 3);
  EXPECT_TRUE(tree.collapse({1, 2, 2}));
  EXPECT_EQ(tree.leaves(), before);
}

TEST(MragBlockTree, RefusesACollapseThatBreaksTheJump) {
  BlockTree tree(2, 1, 4);
  tree.refine({0, 0, 0});
  tree.refine({1, 1, 0});
  tree.refine({2, 3, 1});
  // Collapsing root (1, 0)'s level-1 children would put it beside level-3 leaves: refused.
  EXPECT_FALSE(tree.collapse({0, 1, 0}));
  EXPECT_FALSE(tree.collapse({0, 0, 0}));  // its children are not all leaves
}

TEST(MragBlockTree, RandomAdaptationKeepsTheJumpLimit) {
  std::mt19937 random(11);
  BlockTree tree(3, 2, 5);
  for (int round = 0; round < 300; ++round) {
    const std::vector<BlockKey> leaves(tree.leaves().begin(), tree.leaves().end());
    const BlockKey pick = leaves[random() % leaves.size()];
    if (random() % 3 != 0) {
      if (pick.level < tree.max_level()) tree.refine(pick);
    } else if (pick.level > 0) {
      tree.collapse(pick.parent());
    }
    ASSERT_LE(largest_jump(tree), 2) << "round " << round;
    ASSERT_TRUE(std::adjacent_find(tree.leaves().begin(), tree.leaves().end(), std::greater_equal<>()) ==
                tree.leaves().end())
        << "round " << round << ": leaves out of order or twice";
  }
  // The leaves tile the domain: their areas add up to the roots'.
  double area = 0;
  for (const BlockKey& leaf : tree.leaves()) area += 1.0 / (1 << (2 * leaf.level));
  EXPECT_DOUBLE_EQ(area, 6.0);
}

// neighbours() against every leaf whose closed region touches the key's, on a randomly adapted tree, for
// leaves, for inner blocks (their descendants come too) and for blocks inside a coarser leaf.
TEST(MragBlockTree, NeighboursAreTheLeavesThatTouch) {
  BlockTree tree(3, 2, 4);
  std::mt19937 random(7);
  for (int k = 0; k < 200; ++k) {
    const std::vector<BlockKey> leaves(tree.leaves().begin(), tree.leaves().end());
    const BlockKey leaf = leaves[random() % leaves.size()];
    if (leaf.level < tree.max_level() && random() % 3 != 0)
      tree.refine(leaf);
    else if (leaf.level > 0)
      tree.collapse(leaf.parent());
  }
  const auto extent = [&](const BlockKey& b) {
    const long size = 1L << (tree.max_level() - b.level);
    return std::array<long, 4>{b.x * size, (b.x + 1) * size, b.y * size, (b.y + 1) * size};
  };
  std::vector<BlockKey> keys(tree.leaves().begin(), tree.leaves().end());
  for (const BlockKey& leaf : tree.leaves())
    if (leaf.level > 0) keys.push_back(leaf.parent());
  for (const BlockKey& leaf : tree.leaves())
    if (leaf.level < tree.max_level()) keys.push_back(leaf.child(1, 0));
  std::size_t checked = 0;
  for (const BlockKey& key : keys) {
    const auto r = extent(key);
    std::vector<BlockKey> expected;
    for (const BlockKey& leaf : tree.leaves()) {
      const auto e = extent(leaf);
      if (leaf != key && e[0] <= r[1] && r[0] <= e[1] && e[2] <= r[3] && r[2] <= e[3]) expected.push_back(leaf);
    }
    EXPECT_EQ(tree.neighbours(key), expected) << key.level << " " << key.x << " " << key.y;
    checked += expected.size();
  }
  EXPECT_GT(checked, 1000u);
}

TEST(MragBlockTree, RefusesBadShapesAndKeys) {
  EXPECT_THROW(BlockTree(0, 1, 3), core::Error);
  BlockTree tree(1, 1, 1);
  tree.refine({0, 0, 0});
  try {
    tree.refine({1, 0, 0});
    FAIL() << "no error";
  } catch (const core::Error& e) {
    EXPECT_STREQ(e.what(), "block tree: cannot refine block (level 1, 0, 0) beyond the finest level 1");
  }
  EXPECT_THROW(tree.refine({0, 0, 0}), core::Error);
}

}  // namespace
}  // namespace hetflow::mrag
