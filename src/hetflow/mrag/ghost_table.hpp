#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "hetflow/mrag/block_tree.hpp"
#include "hetflow/mrag/hlle_flux.hpp"

namespace hetflow::mrag {

// What lies past a side of the domain: the opposite side (periodic, on both sides of an axis), the edge
// cell repeated (outflow), the mirror image with the normal momentum negated (a reflecting wall), or a
// prescribed state (inflow).
enum class Edge { periodic, outflow, wall, inflow };

// The domain's four sides, and the state an inflow side prescribes (its primitives, un = u, ut = v).
struct Sides {
  Edge west = Edge::periodic, east = Edge::periodic, south = Edge::periodic, north = Edge::periodic;
  std::array<FaceState, 4> inflow{};  // west, east, south, north

  Edge low(int axis) const { return axis == 0 ? west : south; }
  Edge high(int axis) const { return axis == 0 ? east : north; }
};

// Both sides of x alike, and both sides of y.
Sides sides(Edge x, Edge y);

// Throws core::Error when one side of an axis is periodic and the other is not.
void check(const Sides& sides);

// One term of a ghost cell's value: weight × the average in cell `cell` (x + s y) of leaf `block` (its
// index in the tree's leaf order).
struct GhostSource {
  static constexpr std::uint8_t flip_x = 1, flip_y = 2;  // negate ρu, ρv: seen through a wall
  // The `block` of a prescribed state: `cell` then names the inflow side (0 west .. 3 north).
  static constexpr std::uint32_t inflow = 0xFFFFFFFFu;
  // The `block` of a node of the table: `cell` then names the node.
  static constexpr std::uint32_t node = 0xFFFFFFFEu;
  std::uint32_t block = 0;
  std::uint32_t cell = 0;
  double weight = 0;
  std::uint8_t flip = 0;
  bool operator==(const GhostSource&) const = default;
};

// The ghost cells of every leaf as fixed linear combinations of leaf cells (docs/mrag.md, Ghosts), rebuilt
// when the tree changes and replayed at every stage: ghost g of leaf b has the sources
// sources[start[b G + g] .. start[b G + g + 1]), G = ghost_cells().size(). A ghost at the leaf's level reads
// the leaf that covers it; a cell that no leaf holds at its level is a node: the mean of its four children
// when finer leaves tile it, else the tensor prediction from the 5 × 5 cells around its parent
// (wavelets.hpp), taken along y from five nodes that each predict along x from one row. Node n has the
// sources node_sources[node_start[n] .. node_start[n + 1]), which name leaf cells and nodes of earlier
// passes: pass k holds nodes node_pass[k] .. node_pass[k + 1]. A block's ghosts sharing a coarse cell share
// its node, which is resolved once per block. Past a wall a cell is its mirror image, its normal momentum
// negated (`flip`). Terms with the same source and flip are summed, in the order of their places.
struct GhostTable {
  std::vector<std::pair<int, int>> ghost_cells;  // (i, j) in a block's cell coordinates, outside [0, s)²
  std::vector<std::uint32_t> start;
  std::vector<GhostSource> sources;
  std::vector<std::uint32_t> node_start, node_pass;
  std::vector<GhostSource> node_sources;

  std::size_t nodes() const { return node_start.size() - 1; }
  bool operator==(const GhostTable&) const = default;
};

// The ghost band of `width` cells around a block of s × s cells, without or with its corners, in a fixed
// order (rows from the bottom, cells from the left).
std::vector<std::pair<int, int>> ghost_cells(int s, int width, bool corners);

// The table assembled from the blocks' recipes (GhostRecipes, which keeps them across trees). Throws
// core::Error unless s ≥ 2 width and the edges are given.
GhostTable ghost_table(const BlockTree& tree, int s, int width, bool corners, const Sides& sides);

}  // namespace hetflow::mrag
