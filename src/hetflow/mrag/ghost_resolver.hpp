#pragma once
// The recursion that resolves a block's ghosts into leaf cells and nodes (docs/mrag.md, Ghosts), which
// builds the ghost recipes: the covering leaf of a block position, the nodes met so far, and the resolver.
#include <algorithm>
#include <array>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

#include "hetflow/mrag/block_tree.hpp"
#include "hetflow/mrag/leaf_grid.hpp"
#include "hetflow/mrag/ghost_table.hpp"
#include "hetflow/mrag/wavelets.hpp"

namespace hetflow::mrag::detail {

// A cell that no leaf holds at its level, by level and cell index after the domain's sides are applied; or,
// with `row`, the prediction along x for column i of level `level` from the row j of the level above.
struct NodeKey {
  int level;
  long i, j;
  bool row = false;
  auto operator<=>(const NodeKey&) const = default;
};

// The nodes of a block by their cells: open addressing with linear probing over a power-of-two table at
// most half full, where a chained map allocates a list element per node and walks a list per lookup.
class NodeIndex {
 public:
  // The index of `key`, and whether it was added now, as `next`.
  std::pair<std::uint32_t, bool> find_or_add(const NodeKey& key, std::uint32_t next) {
    if (2 * (used_ + 1) > slots_.size()) grow();
    Slot& slot = slots_[place(key)];
    if (slot.value != empty) return {slot.value, false};
    slot = {key, next};
    ++used_;
    return {next, true};
  }

 private:
  struct Slot {
    NodeKey key{};
    std::uint32_t value = empty;
  };
  static constexpr std::uint32_t empty = 0xFFFFFFFFu;

  // The slot that holds `key`, or the empty one where it would go.
  std::size_t place(const NodeKey& key) const {
    // SplitMix64's finaliser over the key's fields.
    std::uint64_t h = static_cast<std::uint64_t>(key.i) * 0x9E3779B97F4A7C15ull ^
                      static_cast<std::uint64_t>(key.j) * 0xC2B2AE3D27D4EB4Full ^
                      static_cast<std::uint64_t>(key.level * 2 + key.row);
    h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ull;
    h = (h ^ (h >> 27)) * 0x94D049BB133111EBull;
    h ^= h >> 31;
    const std::size_t mask = slots_.size() - 1;
    std::size_t at = h & mask;
    while (slots_[at].value != empty && !(slots_[at].key == key)) at = (at + 1) & mask;
    return at;
  }

  void grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(std::max<std::size_t>(1024, 2 * old.size()), Slot{});
    used_ = 0;
    for (const Slot& slot : old)
      if (slot.value != empty) {
        slots_[place(slot.key)] = slot;
        ++used_;
      }
  }

  std::vector<Slot> slots_;
  std::size_t used_ = 0;
};

// A node as a block's resolution builds it: its cell, its depth (1 + the deepest node among its sources,
// leaf cells being depth 0) and its sources node_sources[first .. first + count) of the block's Part, which
// name nodes by the block's own indices.
struct Node {
  NodeKey key;
  std::uint32_t depth = 0;
  std::size_t first = 0, count = 0;
};

// The ghosts of one block and the nodes they need, as its resolution builds them.
struct Part {
  std::vector<std::uint32_t> counts;
  std::vector<GhostSource> sources, node_sources;
  std::vector<Node> nodes;
  NodeIndex index;
};

// Resolves cells of any level by the recursion of docs/mrag.md, Ghosts, one step at a time: a cell that no
// leaf holds at its level becomes a node, resolved once per block, so that ghosts sharing it share its
// value instead of each repeating its terms.
class Resolver {
 public:
  // `block`: the block whose ghosts are resolved, in whose level's cells reach() is measured.
  Resolver(const LeafGrid& grid, int s, const Sides& sides, Part& part, const BlockKey& block)
      : grid_(grid), s_(s), sides_(sides), part_(part), level_(block.level), block_(block) {}

  // Adds weight × the average of cell (i, j) of level l to `terms`, its momenta negated as `flip` says.
  void add(int level, long i, long j, double weight, std::uint8_t flip, std::vector<GhostSource>& terms) {
    track(level, i, j);
    const long nx = static_cast<long>(grid_.roots_x()) * s_ << level;
    const long ny = static_cast<long>(grid_.roots_y()) * s_ << level;
    // Past an inflow side the cell is the prescribed state, at every level, mirrored as the path to it was.
    for (int axis = 0; axis < 2; ++axis) {
      const long at = axis == 0 ? i : j, n = axis == 0 ? nx : ny;
      const Edge edge = at < 0 ? sides_.low(axis) : at >= n ? sides_.high(axis) : Edge::periodic;
      if (edge == Edge::inflow) {
        terms.push_back({GhostSource::inflow, static_cast<std::uint32_t>(2 * axis + (at < 0 ? 0 : 1)), weight, flip});
        return;
      }
    }
    i = wrap(i, nx, i < 0 ? sides_.west : sides_.east, flip, GhostSource::flip_x);
    j = wrap(j, ny, j < 0 ? sides_.south : sides_.north, flip, GhostSource::flip_y);
    const std::optional<LeafGrid::Entry> leaf =
        grid_.covering({level, static_cast<int>(i / s_), static_cast<int>(j / s_)});
    if (leaf && leaf->leaf.level == level)
      terms.push_back({leaf->index, static_cast<std::uint32_t>(i % s_ + s_ * (j % s_)), weight, flip});
    else
      terms.push_back({GhostSource::node, node({level, i, j}, leaf.has_value()), weight, flip});
  }

  // The cells met so far, in cells of the block's level before the domain's sides apply: [x0, x1) × [y0, y1)
  // as {x0, x1, y0, y1}, a cell across a periodic side taken at its image nearest the block (nodes are
  // shared by their place inside the domain, so a recursion may name a cell across the side by its place
  // inside). Every lookup the recursion made lies inside.
  const std::array<long, 4>& reach() const { return reach_; }

  // Appends the sources of `terms` to `out`, those of one source and flip summed, in the order of their
  // sources' places, and returns how many; empties `terms`.
  std::size_t merge(std::vector<GhostSource>& terms, std::vector<GhostSource>& out) const {
    const auto place = [&](const GhostSource& t) {
      const NodeKey at = t.block == GhostSource::node ? part_.nodes[t.cell].key : NodeKey{-1, t.block, t.cell};
      return std::tuple(at, t.flip);
    };
    // Most ghosts copy one cell of a neighbour at their level: one term, nothing to order.
    if (terms.size() > 1)
      std::stable_sort(terms.begin(), terms.end(),
                       [&](const GhostSource& a, const GhostSource& b) { return place(a) < place(b); });
    const std::size_t before = out.size();
    for (std::size_t k = 0; k < terms.size(); ++k) {
      if (k > 0 && place(terms[k]) == place(terms[k - 1]))
        out.back().weight += terms[k].weight;
      else
        out.push_back(terms[k]);
    }
    terms.clear();
    return out.size() - before;
  }

 private:
  // The block's index of the node `key`, resolved on first use. A cell covered by a coarser leaf is the
  // tensor prediction from the 5 × 5 cells around its parent, taken as the prediction along y from five row
  // nodes, each the prediction along x from five cells of a row, which the cells of neighbouring columns and
  // rows share; a cell tiled by finer leaves is the mean of its four children.
  std::uint32_t node(const NodeKey& key, bool coarser) {
    const auto [id, fresh] = part_.index.find_or_add(key, static_cast<std::uint32_t>(part_.nodes.size()));
    if (!fresh) return id;
    part_.nodes.push_back({key});
    // The terms of the nodes being resolved, one list per level of the recursion, kept to be reused.
    if (scratch_.size() == active_) scratch_.emplace_back();
    std::vector<GhostSource>& terms = scratch_[active_++];
    if (key.row) {
      const auto& wx = prediction_weights[static_cast<std::size_t>(key.i & 1)];
      for (int m = 0; m < 5; ++m) add(key.level - 1, (key.i >> 1) + m - 2, key.j, wx[m], 0, terms);
    } else if (coarser) {
      const auto& wy = prediction_weights[static_cast<std::size_t>(key.j & 1)];
      for (int n = 0; n < 5; ++n)
        terms.push_back({GhostSource::node, node({key.level, key.i, (key.j >> 1) + n - 2, true}, true), wy[n], 0});
    } else {
      for (int b = 0; b < 2; ++b)
        for (int a = 0; a < 2; ++a) add(key.level + 1, 2 * key.i + a, 2 * key.j + b, 0.25, 0, terms);
    }
    std::uint32_t depth = 0;
    for (const GhostSource& t : terms)
      if (t.block == GhostSource::node) depth = std::max(depth, part_.nodes[t.cell].depth);
    part_.nodes[id].depth = depth + 1;
    part_.nodes[id].first = part_.node_sources.size();
    part_.nodes[id].count = merge(terms, part_.node_sources);
    --active_;
    return id;
  }

  // Index i of a level with n cells on an axis brought into the domain: wrapped, clamped, or mirrored at a
  // wall, whose mirror image has the normal momentum negated (`bit` toggled in `flip`).
  static long wrap(long i, long n, Edge edge, std::uint8_t& flip, std::uint8_t bit) {
    if (edge == Edge::periodic) return ((i % n) + n) % n;
    if (edge == Edge::outflow) return std::clamp(i, 0L, n - 1);
    if (i >= 0 && i < n) return i;
    flip ^= bit;
    return i < 0 ? -1 - i : 2 * n - 1 - i;
  }

  // Widens reach() by the region of cell (i, j) of `level`, before the domain's sides apply.
  void track(int level, long i, long j) {
    // The span on an axis of `roots` roots whose block lies at `block`, moved by whole periods of a
    // periodic axis to lie nearest the block's middle.
    const auto span = [&](long at, int roots, long block, bool periodic) -> std::pair<long, long> {
      std::pair<long, long> r;
      if (level <= level_) {
        r = {at << (level_ - level), (at + 1) << (level_ - level)};
      } else {
        const int shift = level - level_;
        r = {at >> shift, (at + (1L << shift)) >> shift};
      }
      if (!periodic) return r;
      const long n = static_cast<long>(roots) * s_ << level_, away = block * s_ + s_ / 2 - (r.first + r.second) / 2;
      const long periods = (away + n / 2) / n - ((away + n / 2) % n < 0 ? 1 : 0);  // rounded down
      return {r.first + periods * n, r.second + periods * n};
    };
    const auto [i0, i1] = span(i, grid_.roots_x(), block_.x, sides_.west == Edge::periodic);
    const auto [j0, j1] = span(j, grid_.roots_y(), block_.y, sides_.south == Edge::periodic);
    reach_ = {std::min(reach_[0], i0), std::max(reach_[1], i1), std::min(reach_[2], j0), std::max(reach_[3], j1)};
  }

  const LeafGrid& grid_;
  int s_;
  Sides sides_;
  Part& part_;
  int level_;
  BlockKey block_;
  std::array<long, 4> reach_{LONG_MAX, LONG_MIN, LONG_MAX, LONG_MIN};
  std::deque<std::vector<GhostSource>> scratch_;
  std::size_t active_ = 0;
};

}  // namespace hetflow::mrag::detail
