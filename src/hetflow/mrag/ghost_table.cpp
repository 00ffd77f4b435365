#include "hetflow/mrag/ghost_table.hpp"

#include <string>
#include <vector>

#include "hetflow/core/error.hpp"
#include "hetflow/mrag/ghost_recipes.hpp"

namespace hetflow::mrag {
std::vector<std::pair<int, int>> ghost_cells(int s, int width, bool corners) {
  std::vector<std::pair<int, int>> out;
  for (int j = -width; j < s + width; ++j)
    for (int i = -width; i < s + width; ++i) {
      const bool in_x = i >= 0 && i < s, in_y = j >= 0 && j < s;
      if (in_x && in_y) continue;
      if (!corners && !in_x && !in_y) continue;
      out.emplace_back(i, j);
    }
  return out;
}

Sides sides(Edge x, Edge y) {
  Sides out;
  out.west = out.east = x;
  out.south = out.north = y;
  return out;
}

void check(const Sides& sides) {
  for (int axis = 0; axis < 2; ++axis)
    if ((sides.low(axis) == Edge::periodic) != (sides.high(axis) == Edge::periodic))
      throw core::Error(std::string("domain sides: ") + (axis == 0 ? "west and east" : "south and north") +
                        " must both be periodic or neither");
}

GhostTable ghost_table(const BlockTree& tree, int s, int width, bool corners, const Sides& sides) {
  return GhostRecipes(s, width, corners, sides).table(tree);
}

}  // namespace hetflow::mrag
