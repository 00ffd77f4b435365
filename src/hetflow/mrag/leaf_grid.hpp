#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "hetflow/core/parallel.hpp"
#include "hetflow/mrag/block_tree.hpp"

namespace hetflow::mrag {

// A tree's leaves in their order, and the leaf covering each block position of the tree's deepest present
// level, so that the leaf covering a key is one array read instead of a walk up the tree; and the tree's
// roots, so that the plans made from a grid need no tree. The plans and
// tables of one tree share one grid (docs/mrag.md, Adaptation): it spans the whole domain at the finest
// level, which on a strongly adapted tree holds many more positions than the tree has leaves.
class LeafGrid {
 public:
  explicit LeafGrid(const BlockTree& tree)
      : leaves_(tree.leaves()), roots_x_(tree.roots_x()), roots_y_(tree.roots_y()) {
    for (const BlockKey& leaf : leaves_) deepest_ = std::max(deepest_, leaf.level);
    nx_ = static_cast<std::size_t>(tree.roots_x()) << deepest_;
    // The leaves tile the domain, so every position is written once: by ranges of leaves in parallel, into
    // memory left uninitialised.
    cells_.reset(new std::uint32_t[nx_ * (static_cast<std::size_t>(tree.roots_y()) << deepest_)]);
    core::parallel_ranges(leaves_.size(), 256, [&](std::size_t first, std::size_t last) {
      for (std::size_t index = first; index < last; ++index) {
        const BlockKey& leaf = leaves_[index];
        const int shift = deepest_ - leaf.level;
        const std::size_t side = std::size_t{1} << shift;
        const std::size_t x0 = leaf.x * side, y0 = leaf.y * side;
        for (std::size_t y = y0; y < y0 + side; ++y)
          std::fill_n(cells_.get() + y * nx_ + x0, side, static_cast<std::uint32_t>(index));
      }
    });
  }

  struct Entry {
    std::uint32_t index = 0;
    BlockKey leaf;
  };
  // The leaf that covers `key` (inside the domain) at its level or coarser; none when finer leaves tile it.
  std::optional<Entry> covering(const BlockKey& key) const {
    // A key below the deepest level lies inside one leaf, which covers it.
    if (key.level > deepest_) {
      const int shift = key.level - deepest_;
      return entry(static_cast<std::size_t>(key.y >> shift) * nx_ + static_cast<std::size_t>(key.x >> shift));
    }
    const int shift = deepest_ - key.level;
    const Entry e =
        entry((static_cast<std::size_t>(key.y) << shift) * nx_ + (static_cast<std::size_t>(key.x) << shift));
    if (e.leaf.level > key.level) return std::nullopt;
    return e;
  }

  // The leaves in the tree's order: leaf b of a plan or table is leaves()[b].
  const std::vector<BlockKey>& leaves() const { return leaves_; }
  int roots_x() const { return roots_x_; }
  int roots_y() const { return roots_y_; }

 private:
  Entry entry(std::size_t cell) const { return {cells_[cell], leaves_[cells_[cell]]}; }

  std::vector<BlockKey> leaves_;
  int roots_x_, roots_y_;
  int deepest_ = 0;
  std::size_t nx_ = 0;
  std::unique_ptr<std::uint32_t[]> cells_;
};

}  // namespace hetflow::mrag
