#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "hetflow/mrag/block_tree.hpp"

namespace hetflow::mrag::detail {

// The leaf covering each block position of the tree's deepest present level, so that the leaf covering a
// key is one array read instead of a walk up the tree.
class LeafGrid {
 public:
  explicit LeafGrid(const BlockTree& tree) {
    for (const BlockKey& leaf : tree.leaves()) deepest_ = std::max(deepest_, leaf.level);
    nx_ = static_cast<std::size_t>(tree.roots_x()) << deepest_;
    ny_ = static_cast<std::size_t>(tree.roots_y()) << deepest_;
    cells_.resize(nx_ * ny_);
    std::uint32_t index = 0;
    for (const BlockKey& leaf : tree.leaves()) {
      const int shift = deepest_ - leaf.level;
      const std::size_t x0 = static_cast<std::size_t>(leaf.x) << shift, y0 = static_cast<std::size_t>(leaf.y) << shift;
      for (std::size_t y = y0; y < y0 + (std::size_t{1} << shift); ++y)
        for (std::size_t x = x0; x < x0 + (std::size_t{1} << shift); ++x) cells_[y * nx_ + x] = {index, leaf};
      ++index;
    }
  }

  struct Entry {
    std::uint32_t index = 0;
    BlockKey leaf;
  };
  // The leaf that covers `key` (inside the domain) at its level or coarser; none when finer leaves tile it.
  const Entry* covering(const BlockKey& key) const {
    if (key.level > deepest_) return cover_of_deeper(key);
    const int shift = deepest_ - key.level;
    const Entry& e =
        cells_[(static_cast<std::size_t>(key.y) << shift) * nx_ + (static_cast<std::size_t>(key.x) << shift)];
    return e.leaf.level <= key.level ? &e : nullptr;
  }

 private:
  // A key below the deepest level lies inside one leaf, which covers it.
  const Entry* cover_of_deeper(const BlockKey& key) const {
    const int shift = key.level - deepest_;
    return &cells_[static_cast<std::size_t>(key.y >> shift) * nx_ + static_cast<std::size_t>(key.x >> shift)];
  }

  int deepest_ = 0;
  std::size_t nx_ = 0, ny_ = 0;
  std::vector<Entry> cells_;
};

}  // namespace hetflow::mrag::detail
