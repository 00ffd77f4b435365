#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace hetflow::mrag {

// A block of the quadtree: its level and its position among the level's blocks (x, y), level l having
// roots_x 2^l × roots_y 2^l of them.
struct BlockKey {
  int level = 0;
  int x = 0, y = 0;

  BlockKey parent() const { return {level - 1, x >> 1, y >> 1}; }
  BlockKey child(int a, int b) const { return {level + 1, 2 * x + a, 2 * y + b}; }
  auto operator<=>(const BlockKey&) const = default;
};

// Leaves by their index in a tree's order, ascending: the leaves a part of the tree works on.
using LeafList = std::vector<std::uint32_t>;

// The leaves 0 .. count − 1.
LeafList all_leaves(std::size_t count);

// The leaves of a quadtree of wavelet blocks over a rectangle of roots_x × roots_y level-0 blocks
// (docs/mrag.md, Blocks): they tile the domain without overlap, and edge- or corner-adjacent leaves differ
// by at most `max_jump` levels, so that a ghost stencil reaches only adjacent blocks. Refining a block
// refines its coarser neighbours first where the jump would be exceeded; a collapse that would exceed it
// is refused. Leaves are kept in level-then-position order, in one array: an adaptation copies and walks
// them whole and changes few.
class BlockTree {
 public:
  // Throws core::Error unless the roots are at least 1 and 0 ≤ max_level, 1 ≤ max_jump.
  BlockTree(int roots_x, int roots_y, int max_level, int max_jump = 2);

  const std::vector<BlockKey>& leaves() const { return leaves_; }
  int roots_x() const { return roots_x_; }
  int roots_y() const { return roots_y_; }
  int max_level() const { return max_level_; }
  int max_jump() const { return max_jump_; }

  bool is_leaf(const BlockKey& key) const { return std::binary_search(leaves_.begin(), leaves_.end(), key); }
  // The leaf that covers `key`'s region at `key`'s level or coarser, if one does; none when finer leaves
  // tile it (or it lies outside the domain).
  std::optional<BlockKey> covering_leaf(const BlockKey& key) const;
  bool inside(const BlockKey& key) const;

  // Replaces leaf `key` by its four children, refining coarser neighbours first as the jump needs. Throws
  // core::Error for a key that is not a leaf or is at the finest level.
  void refine(const BlockKey& key);
  // Replaces the four leaves under `parent` by it. Returns false, changing nothing, unless all four are
  // leaves and the parent keeps the jump to every neighbour.
  bool collapse(const BlockKey& parent);

  // The leaves other than `key` whose closed regions touch `key`'s: its edge- and corner-adjacent
  // leaves, and its children when it is not a leaf (the domain's edge ends them; no periodic wrap).
  std::vector<BlockKey> neighbours(const BlockKey& key) const;

 private:
  // Whether a leaf more than max_jump levels finer than `parent` touches it from outside: collapsing
  // `parent` would break the jump limit.
  bool finer_than_jump(const BlockKey& parent) const;
  void insert(const BlockKey& key);
  void erase(const BlockKey& key);

  int roots_x_, roots_y_, max_level_, max_jump_;
  std::vector<BlockKey> leaves_;
};

}  // namespace hetflow::mrag
