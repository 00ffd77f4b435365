#include "hetflow/mrag/ghost_table.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <tuple>

#include "hetflow/core/error.hpp"
#include "hetflow/mrag/wavelets.hpp"

namespace hetflow::mrag {
namespace {

// Resolves a cell of any level into leaf-cell terms by the recursion of docs/mrag.md, Ghosts.
class Resolver {
 public:
  Resolver(const BlockTree& tree, int s, const Sides& sides) : tree_(tree), s_(s), sides_(sides) {
    std::uint32_t index = 0;
    for (const BlockKey& leaf : tree.leaves()) index_[leaf] = index++;
  }

  // (block, cell, flip) of a term.
  using Terms = std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint8_t>, double>;

  // Adds weight × the average of cell (i, j) of level l to `terms`, its momenta negated as `flip` says.
  void add(int level, long i, long j, double weight, std::uint8_t flip, Terms& terms) {
    const long nx = static_cast<long>(tree_.roots_x()) * s_ << level;
    const long ny = static_cast<long>(tree_.roots_y()) * s_ << level;
    // Past an inflow side the cell is the prescribed state, at every level.
    for (int axis = 0; axis < 2; ++axis) {
      const long at = axis == 0 ? i : j, n = axis == 0 ? nx : ny;
      const Edge edge = at < 0 ? sides_.low(axis) : at >= n ? sides_.high(axis) : Edge::periodic;
      if (edge == Edge::inflow) {
        terms[{GhostSource::inflow, static_cast<std::uint32_t>(2 * axis + (at < 0 ? 0 : 1)), 0}] += weight;
        return;
      }
    }
    i = wrap(i, nx, i < 0 ? sides_.west : sides_.east, flip, GhostSource::flip_x);
    j = wrap(j, ny, j < 0 ? sides_.south : sides_.north, flip, GhostSource::flip_y);
    const BlockKey key{level, static_cast<int>(i / s_), static_cast<int>(j / s_)};
    const std::optional<BlockKey> leaf = tree_.covering_leaf(key);
    if (leaf && leaf->level == level) {
      terms[{index_.at(*leaf), static_cast<std::uint32_t>(i % s_ + s_ * (j % s_)), flip}] += weight;
    } else if (leaf) {
      // Covered by a coarser leaf: predicted from the parent level's 5 × 5 cells.
      const auto& wx = prediction_weights[static_cast<std::size_t>(i & 1)];
      const auto& wy = prediction_weights[static_cast<std::size_t>(j & 1)];
      for (int n = 0; n < 5; ++n)
        for (int m = 0; m < 5; ++m)
          add(level - 1, (i >> 1) + m - 2, (j >> 1) + n - 2, weight * wx[m] * wy[n], flip, terms);
    } else {
      // Tiled by finer leaves: the mean of the four children.
      for (int b = 0; b < 2; ++b)
        for (int a = 0; a < 2; ++a) add(level + 1, 2 * i + a, 2 * j + b, 0.25 * weight, flip, terms);
    }
  }

 private:
  // Index i of a level with n cells on an axis brought into the domain: wrapped, clamped, or mirrored at a
  // wall, whose mirror image has the normal momentum negated (`bit` toggled in `flip`).
  static long wrap(long i, long n, Edge edge, std::uint8_t& flip, std::uint8_t bit) {
    if (edge == Edge::periodic) return ((i % n) + n) % n;
    if (edge == Edge::outflow) return std::clamp(i, 0L, n - 1);
    if (i >= 0 && i < n) return i;
    flip ^= bit;
    return i < 0 ? -1 - i : 2 * n - 1 - i;
  }

  const BlockTree& tree_;
  int s_;
  Sides sides_;
  std::map<BlockKey, std::uint32_t> index_;
};

}  // namespace

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
  check(sides);
  if (width < 1 || s < 2 * width)
    throw core::Error("ghost table: blocks of " + std::to_string(s) + " cells per side cannot hold a ghost band " +
                      std::to_string(width) + " wide (needs s >= 2 width)");
  GhostTable table;
  table.ghost_cells = ghost_cells(s, width, corners);
  Resolver resolver(tree, s, sides);
  table.start.push_back(0);
  for (const BlockKey& leaf : tree.leaves())
    for (const auto& [gi, gj] : table.ghost_cells) {
      Resolver::Terms terms;
      resolver.add(leaf.level, static_cast<long>(leaf.x) * s + gi, static_cast<long>(leaf.y) * s + gj, 1.0, 0, terms);
      for (const auto& [source, weight] : terms)
        table.sources.push_back({std::get<0>(source), std::get<1>(source), weight, std::get<2>(source)});
      table.start.push_back(static_cast<std::uint32_t>(table.sources.size()));
    }
  return table;
}

}  // namespace hetflow::mrag
