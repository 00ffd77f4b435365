#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "hetflow/mrag/block_tree.hpp"
#include "hetflow/mrag/ghost_recipes.hpp"
#include "hetflow/mrag/reflux_table.hpp"

namespace hetflow::mrag {

// The leaves of a tree split over parts (devices, or processes) along the Z-order curve of their corners
// at the finest level, which keeps each part's leaves together in space whatever their levels, and what
// each part's right-hand side reads of the other parts' leaves (docs/mrag.md, Several devices).
struct BlockParts {
  std::vector<LeafList> leaves;     // each part's
  std::vector<std::uint32_t> part;  // each leaf's
  // cells[p][r]: the cells (leaf × s² + cell) of part r's leaves that part p's ghosts read, ascending.
  // faces[p][r]: the boundary-face records (reflux_table.hpp) of part r's leaves that part p's flux
  // correction reads, ascending. Empty for r = p.
  std::vector<std::vector<std::vector<std::uint32_t>>> cells, faces;

  std::size_t parts() const { return leaves.size(); }
};

// Splits the leaves of `tree`, of s² cells each, in shares by `weights`, with the right-hand side's ghost
// plan of the whole tree (from `recipes`, its direct sides not yet dropped) and its flux correction's table.
BlockParts block_parts(const BlockTree& tree, const GhostRecipes& recipes, const GhostPlan& plan,
                       const RefluxTable& reflux, int s, std::span<const double> weights);

}  // namespace hetflow::mrag
