#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "hetflow/core/error.hpp"
#include "hetflow/mrag/block_tree.hpp"
#include "hetflow/mrag/ghost_recipes.hpp"
#include "hetflow/mrag/ghost_table.hpp"

namespace hetflow::mrag {
namespace {

// A tree of 3 × 2 roots refined `levels` times at pseudo-random leaves (a linear congruential sequence
// from `seed`), so that jumps of one and two levels meet each other, the domain's edges and its corners.
BlockTree random_tree(int levels, std::uint64_t seed) {
  BlockTree tree(3, 2, levels);
  for (int round = 0; round < 6 * levels; ++round) {
    const std::vector<BlockKey> leaves(tree.leaves().begin(), tree.leaves().end());
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    const BlockKey& leaf = leaves[(seed >> 33) % leaves.size()];
    if (leaf.level < levels) tree.refine(leaf);
  }
  return tree;
}

struct Domain {
  std::string name;
  Sides sides;
};

std::vector<Domain> domains() {
  Sides mixed;
  mixed.west = Edge::inflow;
  mixed.east = Edge::outflow;
  mixed.south = mixed.north = Edge::wall;
  return {{"periodic", sides(Edge::periodic, Edge::periodic)},
          {"periodic-wall", sides(Edge::periodic, Edge::wall)},
          {"inflow-outflow-walls", mixed}};
}

// Every leaf takes the recipe that resolving its own ghosts gives, slot for slot and term for term, so
// sharing a recipe between alike surroundings changes no value and no order of summation. Blocks of 8
// cells let the recursion reach past the neighbouring blocks; bands of 3 without corners and 4 with them.
TEST(MragGhostRecipes, EveryLeafTakesItsOwnResolution) {
  for (const Domain& domain : domains())
    for (const int s : {8, 16})
      for (const auto& [width, corners] : {std::pair{3, false}, std::pair{4, true}})
        for (const std::uint64_t seed : {1u, 7u, 42u}) {
          const BlockTree tree = random_tree(4, seed);
          GhostRecipes recipes(s, width, corners, domain.sides);
          const GhostPlan plan = recipes.plan(LeafGrid(tree));
          ASSERT_EQ(plan.kind.size(), tree.leaves().size());
          for (std::uint32_t b = 0; b < plan.kind.size(); ++b)
            ASSERT_EQ(recipes.kind(plan.kind[b]), ghost_recipe(tree, b, s, width, corners, domain.sides, recipes.window()))
                << domain.name << ", s " << s << ", band " << width << ", seed " << seed << ", leaf " << b;
        }
}

// Over a run of adaptations (a few leaves refined or collapsed each time) recipes kept from plan to plan give
// every leaf the recipe its own resolution gives and the slots' leaves a fresh plan gives, though most
// leaves keep the kind and slots the last plan gave them.
TEST(MragGhostRecipes, KindsKeptAcrossAdaptationsAreEachLeafsOwn) {
  for (const Domain& domain : domains())
    for (const auto& [width, corners] : {std::pair{3, false}, std::pair{4, true}}) {
      GhostRecipes kept(8, width, corners, domain.sides);
      BlockTree tree = random_tree(4, 5);
      std::uint64_t seed = 9;
      for (int round = 0; round < 8; ++round) {
        for (int change = 0; change < 3; ++change) {
          const std::vector<BlockKey> leaves(tree.leaves().begin(), tree.leaves().end());
          seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
          const BlockKey& leaf = leaves[(seed >> 33) % leaves.size()];
          if ((seed >> 20) % 2 == 0 && leaf.level < tree.max_level())
            tree.refine(leaf);
          else if (leaf.level > 0)
            tree.collapse(leaf.parent());
        }
        const GhostPlan plan = kept.plan(LeafGrid(tree));
        for (std::uint32_t b = 0; b < plan.kind.size(); ++b)
          ASSERT_EQ(kept.kind(plan.kind[b]), ghost_recipe(tree, b, 8, width, corners, domain.sides, kept.window()))
              << domain.name << ", band " << width << ", round " << round << ", leaf " << b;
        const GhostPlan fresh = GhostRecipes(8, width, corners, domain.sides).plan(LeafGrid(tree));
        ASSERT_EQ(plan.slot_first, fresh.slot_first) << domain.name << ", band " << width << ", round " << round;
        ASSERT_EQ(plan.slot_leaf, fresh.slot_leaf) << domain.name << ", band " << width << ", round " << round;
      }
    }
}

// Recipes kept from a tree of other roots: the plan of the new tree compares every leaf anew, since the
// domain's edges moved (a leaf the two trees share lay at the edge of the wider one).
TEST(MragGhostRecipes, ATreeOfOtherRootsComparesEveryLeaf) {
  GhostRecipes kept(16, 3, false, sides(Edge::wall, Edge::wall));
  kept.plan(LeafGrid(BlockTree(4, 2, 1)));
  const BlockTree narrow(3, 2, 1);
  const GhostPlan plan = kept.plan(LeafGrid(narrow));
  for (std::uint32_t b = 0; b < plan.kind.size(); ++b)
    EXPECT_EQ(kept.kind(plan.kind[b]), ghost_recipe(narrow, b, 16, 3, false, sides(Edge::wall, Edge::wall),
                                                    kept.window()))
        << "leaf " << b;
}

// A change that only wraps into a window, across a periodic side: the root at the east edge takes a new
// recipe when a block at the west edge is refined.
TEST(MragGhostRecipes, AChangeAcrossAPeriodicSideReachesTheWindow) {
  const Sides periodic = sides(Edge::periodic, Edge::periodic);
  GhostRecipes kept(16, 3, false, periodic);
  BlockTree before(6, 6, 2);
  before.refine({0, 0, 2});
  BlockTree after = before;
  after.refine({1, 0, 4});
  const auto east = [](const BlockTree& tree) {
    return static_cast<std::uint32_t>(std::find(tree.leaves().begin(), tree.leaves().end(), BlockKey{0, 5, 2}) -
                                      tree.leaves().begin());
  };
  kept.plan(LeafGrid(after));  // the window the recursions of both trees need
  const std::size_t generation = kept.generation();
  const std::uint32_t kind_before = kept.plan(LeafGrid(before)).kind[east(before)];
  const std::uint32_t kind_after = kept.plan(LeafGrid(after)).kind[east(after)];
  ASSERT_EQ(kept.generation(), generation);  // the same window: kinds kept their numbers
  EXPECT_NE(kind_after, kind_before);
  EXPECT_EQ(kept.kind(kind_after), ghost_recipe(after, east(after), 16, 3, false, periodic, kept.window()));
}

// A recursion that reaches across a periodic side is measured at the images nearest the block, so leaves
// refined at the domain's edge keep the window a band of 3 on blocks of 16 cells needs (2 blocks), however
// many roots the domain has.
TEST(MragGhostRecipes, RefinementAtAPeriodicSideKeepsTheWindow) {
  for (const int roots : {6, 16}) {
    BlockTree tree(roots, roots, 2);
    tree.refine({0, 0, 2});
    tree.refine({1, 0, 4});
    GhostRecipes recipes(16, 3, false, sides(Edge::periodic, Edge::periodic));
    recipes.plan(LeafGrid(tree));
    EXPECT_EQ(recipes.window(), 2) << roots << " roots";
  }
}

// Around a bubble and a shock most blocks look like others: 3 × 2 roots refined five times along a circle
// and a line, as the shock–bubble's trees are, take 238 kinds of band-4 recipes for 642 leaves (measured;
// the bound leaves room for a change in what the surroundings compare).
TEST(MragGhostRecipes, BlocksAlongACircleAndALineShareRecipes) {
  constexpr int levels = 5;
  BlockTree tree(3, 2, levels);
  for (int level = 0; level < levels; ++level) {
    std::vector<BlockKey> cut;
    for (const BlockKey& k : tree.leaves()) {
      const double size = 1.0 / (1 << k.level);
      const double x0 = k.x * size, y0 = k.y * size, x1 = x0 + size, y1 = y0 + size;
      const double near = std::hypot(std::clamp(1.5, x0, x1) - 1.5, std::clamp(1.0, y0, y1) - 1.0);
      const double far = std::hypot(std::max(1.5 - x0, x1 - 1.5), std::max(1.0 - y0, y1 - 1.0));
      if (k.level == level && ((near <= 0.5 && far >= 0.5) || (x0 <= 0.7 && x1 >= 0.7))) cut.push_back(k);
    }
    for (const BlockKey& k : cut)
      if (tree.is_leaf(k)) tree.refine(k);
  }
  Sides walls = sides(Edge::wall, Edge::wall);
  walls.west = Edge::inflow;
  walls.east = Edge::outflow;
  GhostRecipes recipes(32, 4, true, walls);
  recipes.table(tree);
  EXPECT_EQ(recipes.window(), 1);
  EXPECT_LT(2 * recipes.kinds(), tree.leaves().size()) << recipes.kinds() << " kinds";
}

// Recipes kept from one tree serve the next: after an adaptation the table equals a fresh build's.
TEST(MragGhostRecipes, RecipesKeptAcrossTreesBuildTheSameTable) {
  for (const Domain& domain : domains()) {
    GhostRecipes kept(16, 4, true, domain.sides);
    BlockTree tree = random_tree(4, 3);
    kept.table(tree);
    const std::vector<BlockKey> leaves(tree.leaves().begin(), tree.leaves().end());
    tree.refine(leaves[leaves.size() / 2]);
    const GhostTable table = kept.table(tree);
    EXPECT_EQ(table, GhostRecipes(16, 4, true, domain.sides).table(tree)) << domain.name;
  }
}

// A uniform periodic grid of 8 × 8 blocks has nine kinds of surroundings: inside, past each side and past
// each corner, whose windows wrap (the order of summation follows the cells' places, which wrapping
// changes); a window too small for a ghost's reach is refused for a single recipe.
TEST(MragGhostRecipes, AUniformPeriodicGridHasNineKinds) {
  const BlockTree tree(8, 8, 0);
  GhostRecipes recipes(32, 3, false, sides(Edge::periodic, Edge::periodic));
  const GhostTable table = recipes.table(tree);
  EXPECT_EQ(recipes.kinds(), 9u);
  EXPECT_EQ(table.nodes(), 0u);
  const BlockTree jumps = random_tree(4, 7);
  EXPECT_THROW(ghost_recipe(jumps, 0, 8, 4, true, sides(Edge::periodic, Edge::periodic), 0), core::Error);
}

TEST(MragGhostRecipes, RefusesABandTooWideOrOnePeriodicSide) {
  EXPECT_THROW(GhostRecipes(8, 5, false, sides(Edge::periodic, Edge::periodic)), core::Error);
  Sides one = sides(Edge::wall, Edge::wall);
  one.west = Edge::periodic;
  EXPECT_THROW(GhostRecipes(8, 3, false, one), core::Error);
}

}  // namespace
}  // namespace hetflow::mrag
