#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "hetflow/mrag/block_tree.hpp"
#include "hetflow/mrag/ghost_table.hpp"
#include "hetflow/mrag/leaf_grid.hpp"

namespace hetflow::mrag {

// The sides of a block, in the order of its boundary-face records: west, east, south, north.
enum Side : std::uint32_t { west = 0, east = 1, south = 2, north = 3 };

// One side of a finer leaf where it meets a coarse leaf (docs/mrag.md, Time integration): the fine leaf
// lies `depth` levels finer across the coarse leaf's `side` and covers the coarse cells first_cell ..
// first_cell + s / 2^depth − 1 along it, coarse cell first_cell + k by the fine faces k 2^depth ..
// (k + 1) 2^depth − 1 of its facing side, each weighted 2^−depth. A fine face is a boundary-face record
// (fine block × 4 + its side) × s + its place along the side.
struct RefluxEntry {
  std::uint32_t coarse_block = 0, side = 0, fine_block = 0, depth = 0, first_cell = 0;
  bool operator==(const RefluxEntry&) const = default;
};

// The entries of a tree, one per fine leaf side that meets a coarse leaf, in leaf order; those on x sides
// (west, east) come first, `x_entries` of them, so that no cell appears twice among either group's entries.
struct RefluxTable {
  std::vector<RefluxEntry> entries;
  std::size_t x_entries = 0;

  std::size_t size() const { return entries.size(); }
};

// The table of the tree whose grid is `grid`. Throws core::Error where a fine leaf's side is shorter than a
// coarse cell (2^depth > s).
RefluxTable reflux_table(const LeafGrid& grid, int s, const Sides& sides);

// Appends the entries of `from` to `to`, after its own (x_entries stays `to`'s).
void append_entries(RefluxTable& to, const RefluxTable& from);

// The entries of `table` whose coarse leaf lies in `own`, in their order: those a part of the leaves
// corrects.
RefluxTable owned_entries(const RefluxTable& table, const LeafList& own);

}  // namespace hetflow::mrag
