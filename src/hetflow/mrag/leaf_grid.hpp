#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "hetflow/mrag/block_tree.hpp"

namespace hetflow::mrag {

// A tree's leaves in their order, and an open-addressing hash of its blocks (each leaf with its index, each
// inner block marked as split), so that the leaf covering a key is a probe or two instead of a walk down the
// tree; and the tree's roots, so that the plans made from a grid need no tree. The plans and tables of one
// tree share one grid (docs/mrag.md, Adaptation); its size follows the tree's leaves, not its finest level.
class LeafGrid {
 public:
  // Throws core::Error for a tree whose finest allowed level (max_level) has 2^29 blocks or more along a
  // side.
  explicit LeafGrid(const BlockTree& tree);

  struct Entry {
    std::uint32_t index = 0;
    BlockKey leaf;
  };
  // The leaf that covers `key` (inside the domain) at its level or coarser; none when finer leaves tile it.
  std::optional<Entry> covering(BlockKey key) const {
    // A key the tree does not hold lies inside a leaf of a coarser level: its nearest ancestor the tree holds.
    for (; key.level >= 0; key = key.parent()) {
      const std::uint32_t value = find(key);
      if (value == split) return std::nullopt;
      if (value != absent) return Entry{value, leaves_[value]};
    }
    return std::nullopt;
  }

  // The leaves in the tree's order: leaf b of a plan or table is leaves()[b].
  const std::vector<BlockKey>& leaves() const { return leaves_; }
  int roots_x() const { return roots_x_; }
  int roots_y() const { return roots_y_; }

 private:
  static constexpr std::uint32_t absent = 0xFFFFFFFFu, split = 0xFFFFFFFEu;
  struct Slot {
    std::uint64_t key = 0;  // 0: empty (a packed key is never 0)
    std::uint32_t value = absent;
  };

  // Level, x and y in one word: level + 1 in the top 6 bits, x and y in 29 bits each.
  static std::uint64_t packed(const BlockKey& k) {
    return (static_cast<std::uint64_t>(k.level + 1) << 58) | (static_cast<std::uint64_t>(k.x) << 29) |
           static_cast<std::uint64_t>(k.y);
  }
  // The first slot of a packed key: a multiplicative hash's top bits.
  std::size_t home(std::uint64_t key) const { return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ull) >> shift_); }

  std::uint32_t find(const BlockKey& k) const {
    const std::uint64_t key = packed(k);
    for (std::size_t at = home(key);; at = (at + 1) & mask_) {
      const Slot& slot = slots_[at];
      if (slot.key == key) return slot.value;
      if (slot.key == 0) return absent;
    }
  }
  // Marks `key` with `value` (a leaf's index or `split`); false when it was there already.
  bool insert(const BlockKey& k, std::uint32_t value);

  std::vector<BlockKey> leaves_;
  int roots_x_, roots_y_;
  std::vector<Slot> slots_;
  std::size_t mask_ = 0;
  int shift_ = 64;
};

}  // namespace hetflow::mrag
