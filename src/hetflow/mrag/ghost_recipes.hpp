#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "hetflow/mrag/block_tree.hpp"
#include "hetflow/mrag/ghost_table.hpp"
#include "hetflow/mrag/leaf_grid.hpp"

namespace hetflow::mrag {

// The ghosts of one block as fixed combinations of the cells of the leaves around it, with the leaves
// named relative to the block (docs/mrag.md, Ghosts): blocks whose surroundings look alike share one
// recipe. Slot k is the leaf at level L + slots[k].level and position (X 2^d + slots[k].x, Y 2^d + slots[k].y)
// for a block (L, X, Y) with d = slots[k].level (X >> −d for d < 0), wrapped across periodic sides. Ghost
// g has sources[first[g] .. first[g + 1]), whose `block` is a slot (or GhostSource::inflow, or
// GhostSource::node with `cell` a node of the recipe). Nodes are ordered by depth: those of depth d + 1 are
// depth_first[d] .. depth_first[d + 1], node n has node_sources[node_first[n] .. node_first[n + 1]].
struct GhostRecipe {
  std::vector<BlockKey> slots;
  std::vector<std::uint32_t> first;
  std::vector<GhostSource> sources;
  std::vector<std::uint32_t> depth_first, node_first;
  std::vector<GhostSource> node_sources;

  std::size_t nodes() const { return node_first.size() - 1; }
  bool operator==(const GhostRecipe&) const = default;
};

// The recipe of leaf `leaf` of `tree` (its index in leaf order) for the band of `width` cells, without or
// with its corners. Throws core::Error when its sources reach farther than `window` blocks of the leaf's
// level from it, beyond which GhostRecipes does not compare surroundings.
GhostRecipe ghost_recipe(const BlockTree& tree, std::uint32_t leaf, int s, int width, bool corners,
                         const Sides& sides, int window);

// A tree's ghosts as recipes: leaf b takes recipe kind[b] of its GhostRecipes, whose slot k is leaf
// slot_leaf[slot_first[b] + k].
struct GhostPlan {
  std::vector<std::uint32_t> kind, slot_first, slot_leaf;
};

// Ghost recipes kept across trees: a block's recipe is looked up by the leaves around it, within
// `window()` blocks of its level on each side (their levels and, when coarser, where the block lies in
// them; when finer, how they are split; which sides of the domain the window crosses), and built only for
// surroundings not met before. Two blocks that look alike there resolve every ghost through the same cells,
// since the recursion never reaches beyond the window (ghost_recipe checks it), so they share the recipe's
// sources and its order of summation: the ghost values are the ones each block's own resolution gives, bit
// for bit. Nodes are resolved once per block, not shared between blocks. Kinds keep their numbers until a
// recursion reaches past the window, which widens it and starts the kinds anew (generation()). A plan
// keeps the kind and the slots' leaves the last plan gave a leaf whose window no changed leaf reaches (the
// leaves in one of the two trees only), since its surroundings are then the same.
class GhostRecipes {
 public:
  // Throws core::Error unless s ≥ 2 width and the sides are consistent.
  GhostRecipes(int s, int width, bool corners, const Sides& sides);

  // The plan of the tree whose grid is `grid`.
  GhostPlan plan(const LeafGrid& grid);
  // The table of a plan's tree, every ghost's sources spelled out: the reference the tests check plans against.
  GhostTable table(const BlockTree& tree);

  const GhostRecipe& kind(std::uint32_t k) const { return *kinds_[k]; }
  std::size_t kinds() const { return kinds_.size(); }
  std::size_t generation() const { return generation_; }
  int window() const { return window_; }
  int block() const { return s_; }
  int width() const { return width_; }
  bool corners() const { return corners_; }
  const Sides& sides() const { return sides_; }

 private:
  int s_, width_;
  bool corners_;
  Sides sides_;
  int window_;
  std::size_t generation_ = 0;
  std::unordered_map<std::string, std::uint32_t> ids_;
  std::vector<std::unique_ptr<const GhostRecipe>> kinds_;
  // The leaves, kinds and slots of the last plan, its generation and its tree's roots.
  std::vector<BlockKey> last_leaves_;
  std::vector<std::uint32_t> last_kind_, last_slot_first_, last_slot_leaf_;
  std::size_t last_generation_ = 0;
  std::array<int, 2> last_roots_{};
};

}  // namespace hetflow::mrag
