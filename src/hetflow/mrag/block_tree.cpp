#include "hetflow/mrag/block_tree.hpp"

#include <algorithm>
#include <numeric>
#include <string>

#include "hetflow/core/error.hpp"

namespace hetflow::mrag {

LeafList all_leaves(std::size_t count) {
  LeafList out(count);
  std::iota(out.begin(), out.end(), 0u);
  return out;
}

namespace {

// A block's region in units of the finest level's blocks, [x0, x1) × [y0, y1).
struct Region {
  long x0, x1, y0, y1;
};

Region region(const BlockKey& k, int finest) {
  const long size = 1L << (finest - k.level);
  return {k.x * size, (k.x + 1) * size, k.y * size, (k.y + 1) * size};
}

// Whether the closed regions meet (share an edge or a corner, or overlap).
bool touch(const Region& a, const Region& b) { return a.x0 <= b.x1 && b.x0 <= a.x1 && a.y0 <= b.y1 && b.y0 <= a.y1; }

std::string text(const BlockKey& k) {
  return "block (level " + std::to_string(k.level) + ", " + std::to_string(k.x) + ", " + std::to_string(k.y) + ")";
}

}  // namespace

BlockTree::BlockTree(int roots_x, int roots_y, int max_level, int max_jump)
    : roots_x_(roots_x), roots_y_(roots_y), max_level_(max_level), max_jump_(max_jump) {
  if (roots_x < 1 || roots_y < 1 || max_level < 0 || max_level > 20 || max_jump < 1)
    throw core::Error(
        "block tree: needs at least one root block per side, 0 <= max_level <= 20 and max_jump >= 1, got " +
        std::to_string(roots_x) + " x " + std::to_string(roots_y) + " roots, max_level " + std::to_string(max_level) +
        ", max_jump " + std::to_string(max_jump));
  for (int y = 0; y < roots_y; ++y)
    for (int x = 0; x < roots_x; ++x) leaves_.push_back({0, x, y});
  std::sort(leaves_.begin(), leaves_.end());
}

bool BlockTree::inside(const BlockKey& k) const {
  return k.level >= 0 && k.level <= max_level_ && k.x >= 0 && k.y >= 0 && k.x < (roots_x_ << k.level) &&
         k.y < (roots_y_ << k.level);
}

std::optional<BlockKey> BlockTree::covering_leaf(const BlockKey& key) const {
  if (!inside(key)) return std::nullopt;
  for (BlockKey k = key; k.level >= 0; k = k.parent())
    if (is_leaf(k)) return k;
  return std::nullopt;
}

std::vector<BlockKey> BlockTree::neighbours(const BlockKey& key) const {
  // The leaves around the block positions next to key at its level (and key's own, for its descendants or
  // a coarser leaf holding it): the covering leaf of each, or the descendants that reach key's region.
  const Region r = region(key, max_level_);
  std::vector<BlockKey> found;
  const auto collect = [&](const auto& self, const BlockKey& k) -> void {
    if (const std::optional<BlockKey> leaf = covering_leaf(k)) {
      if (*leaf != key) found.push_back(*leaf);
      return;
    }
    for (int b = 0; b < 2 && k.level < max_level_; ++b)
      for (int a = 0; a < 2; ++a)
        if (touch(region(k.child(a, b), max_level_), r)) self(self, k.child(a, b));
  };
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) {
      const BlockKey k{key.level, key.x + dx, key.y + dy};
      if (inside(k)) collect(collect, k);
    }
  std::sort(found.begin(), found.end());
  found.erase(std::unique(found.begin(), found.end()), found.end());
  return found;
}

void BlockTree::refine(const BlockKey& key) {
  if (!is_leaf(key)) throw core::Error("block tree: cannot refine " + text(key) + ", which is not a leaf");
  if (key.level >= max_level_)
    throw core::Error("block tree: cannot refine " + text(key) + " beyond the finest level " +
                      std::to_string(max_level_));
  // The children sit at key.level + 1: coarser neighbours too far below are refined first (which may in
  // turn refine theirs), each at most max_level levels deep.
  for (bool again = true; again;) {
    again = false;
    for (const BlockKey& n : neighbours(key))
      if (n.level < key.level + 1 - max_jump_) {
        refine(n);
        again = true;
        break;
      }
  }
  erase(key);
  for (int b = 0; b < 2; ++b)
    for (int a = 0; a < 2; ++a) insert(key.child(a, b));
}

bool BlockTree::collapse(const BlockKey& parent) {
  if (!inside(parent) || parent.level >= max_level_) return false;
  for (int b = 0; b < 2; ++b)
    for (int a = 0; a < 2; ++a)
      if (!is_leaf(parent.child(a, b))) return false;
  if (finer_than_jump(parent)) return false;
  for (int b = 0; b < 2; ++b)
    for (int a = 0; a < 2; ++a) erase(parent.child(a, b));
  insert(parent);
  return true;
}

void BlockTree::insert(const BlockKey& key) {
  leaves_.insert(std::lower_bound(leaves_.begin(), leaves_.end(), key), key);
}

void BlockTree::erase(const BlockKey& key) { leaves_.erase(std::lower_bound(leaves_.begin(), leaves_.end(), key)); }

bool BlockTree::finer_than_jump(const BlockKey& parent) const {
  // The leaves around parent's children are at most max_jump levels coarser than them, so a position next
  // to parent is covered by a leaf at most max_jump − 1 levels above it, or tiled by finer leaves. A tiled
  // position's children are leaves or tiled again; one tiled at the deepest allowed level holds a leaf too
  // deep that touches parent wherever the position does.
  const int deepest = parent.level + max_jump_;
  const Region r = region(parent, max_level_);
  const auto tiled_too_deep = [&](const auto& self, const BlockKey& k) -> bool {
    if (is_leaf(k)) return false;
    if (k.level >= deepest) return true;
    for (int b = 0; b < 2; ++b)
      for (int a = 0; a < 2; ++a)
        if (touch(region(k.child(a, b), max_level_), r) && self(self, k.child(a, b))) return true;
    return false;
  };
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) {
      const BlockKey k{parent.level, parent.x + dx, parent.y + dy};
      if ((dx == 0 && dy == 0) || !inside(k)) continue;
      bool covered = false;
      for (BlockKey above = k; !covered && above.level >= std::max(0, parent.level + 1 - max_jump_);
           above = above.parent())
        covered = is_leaf(above);
      if (!covered && tiled_too_deep(tiled_too_deep, k)) return true;
    }
  return false;
}

}  // namespace hetflow::mrag
