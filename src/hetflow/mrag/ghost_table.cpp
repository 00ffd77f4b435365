#include "hetflow/mrag/ghost_table.hpp"

#include <algorithm>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "hetflow/core/error.hpp"
#include "hetflow/mrag/wavelets.hpp"

namespace hetflow::mrag {
namespace {

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
    const Entry& e = cells_[(static_cast<std::size_t>(key.y) << shift) * nx_ + (static_cast<std::size_t>(key.x) << shift)];
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

// One term of a ghost cell before terms of the same source are summed: (block, cell, flip) and weight.
struct Term {
  std::uint32_t block, cell;
  std::uint8_t flip;
  double weight;
};

// Resolves a cell of any level into leaf-cell terms by the recursion of docs/mrag.md, Ghosts.
class Resolver {
 public:
  Resolver(const BlockTree& tree, const LeafGrid& grid, int s, const Sides& sides)
      : tree_(tree), grid_(grid), s_(s), sides_(sides) {}

  // Adds weight × the average of cell (i, j) of level l to `terms`, its momenta negated as `flip` says.
  void add(int level, long i, long j, double weight, std::uint8_t flip, std::vector<Term>& terms) const {
    const long nx = static_cast<long>(tree_.roots_x()) * s_ << level;
    const long ny = static_cast<long>(tree_.roots_y()) * s_ << level;
    // Past an inflow side the cell is the prescribed state, at every level.
    for (int axis = 0; axis < 2; ++axis) {
      const long at = axis == 0 ? i : j, n = axis == 0 ? nx : ny;
      const Edge edge = at < 0 ? sides_.low(axis) : at >= n ? sides_.high(axis) : Edge::periodic;
      if (edge == Edge::inflow) {
        terms.push_back({GhostSource::inflow, static_cast<std::uint32_t>(2 * axis + (at < 0 ? 0 : 1)), 0, weight});
        return;
      }
    }
    i = wrap(i, nx, i < 0 ? sides_.west : sides_.east, flip, GhostSource::flip_x);
    j = wrap(j, ny, j < 0 ? sides_.south : sides_.north, flip, GhostSource::flip_y);
    const LeafGrid::Entry* leaf = grid_.covering({level, static_cast<int>(i / s_), static_cast<int>(j / s_)});
    if (leaf && leaf->leaf.level == level) {
      terms.push_back({leaf->index, static_cast<std::uint32_t>(i % s_ + s_ * (j % s_)), flip, weight});
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
  const LeafGrid& grid_;
  int s_;
  Sides sides_;
};

// The sources of a ghost's terms: those of one source and flip summed in the order the recursion met them,
// in (block, cell, flip) order.
void append_sources(std::vector<Term>& terms, std::vector<GhostSource>& out) {
  const auto key = [](const Term& t) { return std::tuple(t.block, t.cell, t.flip); };
  // Most ghosts copy one cell of a neighbour at their level: one term, nothing to order.
  if (terms.size() > 1)
    std::stable_sort(terms.begin(), terms.end(), [&](const Term& a, const Term& b) { return key(a) < key(b); });
  for (std::size_t k = 0; k < terms.size(); ++k) {
    if (k > 0 && key(terms[k]) == key(terms[k - 1]))
      out.back().weight += terms[k].weight;
    else
      out.push_back({terms[k].block, terms[k].cell, terms[k].weight, terms[k].flip});
  }
  terms.clear();
}

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
  const LeafGrid grid(tree);
  const Resolver resolver(tree, grid, s, sides);
  const std::vector<BlockKey> leaves(tree.leaves().begin(), tree.leaves().end());
  // Leaves are resolved in contiguous chunks on several threads and the chunks joined in leaf order, so the
  // table does not depend on the thread count.
  const std::size_t threads = std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 64);
  const std::size_t chunk = (leaves.size() + threads - 1) / threads;
  struct Part {
    std::vector<std::uint32_t> counts;
    std::vector<GhostSource> sources;
  };
  std::vector<Part> parts((leaves.size() + chunk - 1) / std::max<std::size_t>(chunk, 1));
  const auto resolve = [&](std::size_t p) {
    std::vector<Term> terms;
    for (std::size_t b = p * chunk; b < std::min(leaves.size(), (p + 1) * chunk); ++b)
      for (const auto& [gi, gj] : table.ghost_cells) {
        const std::size_t before = parts[p].sources.size();
        resolver.add(leaves[b].level, static_cast<long>(leaves[b].x) * s + gi, static_cast<long>(leaves[b].y) * s + gj,
                     1.0, 0, terms);
        append_sources(terms, parts[p].sources);
        parts[p].counts.push_back(static_cast<std::uint32_t>(parts[p].sources.size() - before));
      }
  };
  std::vector<std::thread> workers;
  for (std::size_t p = 1; p < parts.size(); ++p) workers.emplace_back(resolve, p);
  if (!parts.empty()) resolve(0);
  for (std::thread& w : workers) w.join();
  table.start.push_back(0);
  for (const Part& part : parts) {
    for (const std::uint32_t n : part.counts) table.start.push_back(table.start.back() + n);
    table.sources.insert(table.sources.end(), part.sources.begin(), part.sources.end());
  }
  return table;
}

}  // namespace hetflow::mrag
