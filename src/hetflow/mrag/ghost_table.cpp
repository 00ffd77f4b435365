#include "hetflow/mrag/ghost_table.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "hetflow/core/error.hpp"
#include "hetflow/core/parallel.hpp"
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

GhostTable narrowed(const GhostTable& wide, int s, int width, bool corners, const LeafList* mine) {
  GhostTable out;
  out.ghost_cells = ghost_cells(s, width, corners);
  const std::size_t wide_count = wide.ghost_cells.size(), blocks = (wide.start.size() - 1) / wide_count;
  const LeafList own = mine ? *mine : all_leaves(blocks);
  std::vector<char> owned(blocks, 0);
  for (const std::uint32_t leaf : own) owned[leaf] = 1;
  std::vector<std::size_t> in_wide;
  for (const auto& cell : out.ghost_cells) {
    const auto at = std::find(wide.ghost_cells.begin(), wide.ghost_cells.end(), cell);
    if (at == wide.ghost_cells.end())
      throw core::Error("ghost table: a band " + std::to_string(width) + " wide" + (corners ? " with corners" : "") +
                        " is not within the table's band");
    in_wide.push_back(static_cast<std::size_t>(at - wide.ghost_cells.begin()));
  }
  // The nodes the band reaches: those its ghosts name, then, from the last node down, those a reached node
  // names (a node names only earlier ones).
  std::vector<char> reached(wide.nodes(), 0);
  const auto reach = [&](std::uint32_t first, std::uint32_t last, const std::vector<GhostSource>& sources) {
    for (std::uint32_t k = first; k < last; ++k)
      if (sources[k].block == GhostSource::node) reached[sources[k].cell] = 1;
  };
  for (const std::size_t b : own)
    for (const std::size_t g : in_wide)
      reach(wide.start[b * wide_count + g], wide.start[b * wide_count + g + 1], wide.sources);
  for (std::size_t n = wide.nodes(); n-- > 0;)
    if (reached[n]) reach(wide.node_start[n], wide.node_start[n + 1], wide.node_sources);
  std::vector<std::uint32_t> number(wide.nodes());
  std::uint32_t numbered = 0;
  for (std::size_t n = 0; n < wide.nodes(); ++n)
    if (reached[n]) number[n] = numbered++;
  // The places of the sources first, then their copies on every core: the copies are most of the work.
  const auto copy = [&](std::uint32_t first, std::uint32_t last, const std::vector<GhostSource>& from,
                        GhostSource* to) {
    for (std::uint32_t k = first; k < last; ++k, ++to) {
      *to = from[k];
      if (to->block == GhostSource::node) to->cell = number[to->cell];
    }
  };
  const std::size_t count = in_wide.size();
  out.start.assign(1, 0);
  for (std::size_t b = 0; b < blocks; ++b)
    for (const std::size_t g : in_wide)
      out.start.push_back(out.start.back() +
                          (owned[b] ? wide.start[b * wide_count + g + 1] - wide.start[b * wide_count + g] : 0));
  out.sources.resize(out.start.back());
  core::parallel_ranges(blocks, 64, [&](std::size_t first, std::size_t last) {
    for (std::size_t b = first; b < last; ++b)
      if (owned[b])
        for (std::size_t k = 0; k < count; ++k)
          copy(wide.start[b * wide_count + in_wide[k]], wide.start[b * wide_count + in_wide[k] + 1], wide.sources,
               out.sources.data() + out.start[b * count + k]);
  });
  std::vector<std::uint32_t> kept;  // the reached nodes, in order
  out.node_start.assign(1, 0);
  out.node_pass.assign(1, 0);
  for (std::size_t pass = 0; pass + 1 < wide.node_pass.size(); ++pass) {
    for (std::uint32_t n = wide.node_pass[pass]; n < wide.node_pass[pass + 1]; ++n) {
      if (!reached[n]) continue;
      kept.push_back(n);
      out.node_start.push_back(out.node_start.back() + wide.node_start[n + 1] - wide.node_start[n]);
    }
    if (out.nodes() > out.node_pass.back()) out.node_pass.push_back(static_cast<std::uint32_t>(out.nodes()));
  }
  out.node_sources.resize(out.node_start.back());
  core::parallel_ranges(kept.size(), 4096, [&](std::size_t first, std::size_t last) {
    for (std::size_t k = first; k < last; ++k)
      copy(wide.node_start[kept[k]], wide.node_start[kept[k] + 1], wide.node_sources,
           out.node_sources.data() + out.node_start[k]);
  });
  return out;
}

}  // namespace hetflow::mrag
