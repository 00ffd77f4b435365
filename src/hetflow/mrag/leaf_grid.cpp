#include "hetflow/mrag/leaf_grid.hpp"

#include <string>

#include "hetflow/core/error.hpp"

namespace hetflow::mrag {

LeafGrid::LeafGrid(const BlockTree& tree)
    : leaves_(tree.leaves()), roots_x_(tree.roots_x()), roots_y_(tree.roots_y()) {
  for (const int roots : {roots_x_, roots_y_})
    if ((static_cast<std::uint64_t>(roots) << tree.max_level()) >= (std::uint64_t{1} << 29))
      throw core::Error("leaf grid: " + std::to_string(roots) + " roots refined " + std::to_string(tree.max_level()) +
                        " levels are 2^29 blocks or more along a side, more than a block key packs");
  // A tree of n leaves has fewer than n / 3 inner blocks; the table is kept at most half full.
  std::size_t size = 16;
  for (shift_ = 60; size < 2 * (leaves_.size() + leaves_.size() / 3 + 1); size *= 2) --shift_;
  slots_.resize(size);
  mask_ = size - 1;
  for (std::uint32_t index = 0; index < leaves_.size(); ++index) {
    insert(leaves_[index], index);
    // Ancestors are marked up to the first one marked before.
    for (BlockKey up = leaves_[index]; up.level > 0;) {
      up = up.parent();
      if (!insert(up, split)) break;
    }
  }
}

bool LeafGrid::insert(const BlockKey& k, std::uint32_t value) {
  const std::uint64_t key = packed(k);
  for (std::size_t at = home(key);; at = (at + 1) & mask_) {
    Slot& slot = slots_[at];
    if (slot.key == key) return false;
    if (slot.key == 0) {
      slot = {key, value};
      return true;
    }
  }
}

}  // namespace hetflow::mrag
