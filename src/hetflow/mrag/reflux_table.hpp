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

// Where a coarse leaf's faces meet finer leaves (docs/mrag.md, Time integration): for each such face, the
// coarse cell beside it, its side and the fine faces that cover it, each weighted by its share of the
// coarse face (1/2 a level finer, 1/4 two levels finer). A fine face is a boundary-face record
// (fine block × 4 + its side) × s + its place along the side. Entries on x sides (west, east) come first,
// `x_entries` of them, so that no cell appears twice among either group's entries.
struct RefluxTable {
  std::vector<std::uint32_t> coarse_block, coarse_cell, side;
  std::vector<std::uint32_t> start;  // entries + 1
  std::vector<std::uint32_t> fine_face;
  std::vector<double> fine_weight;
  std::size_t x_entries = 0;

  std::size_t entries() const { return coarse_block.size(); }
};

// `grid` is the tree's.
RefluxTable reflux_table(const BlockTree& tree, const LeafGrid& grid, int s, const Sides& sides);

// Appends the entries of `from` to `to`, after its own (x_entries stays `to`'s).
void append_entries(RefluxTable& to, const RefluxTable& from);

// The entries of `table` whose coarse leaf lies in `own`, in their order: those a part of the leaves
// corrects.
RefluxTable owned_entries(const RefluxTable& table, const LeafList& own);

}  // namespace hetflow::mrag
