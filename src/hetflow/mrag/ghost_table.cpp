#include "hetflow/mrag/ghost_table.hpp"

#include <algorithm>
#include <deque>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "hetflow/core/error.hpp"
#include "hetflow/core/parallel.hpp"
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
    const Entry& e =
        cells_[(static_cast<std::size_t>(key.y) << shift) * nx_ + (static_cast<std::size_t>(key.x) << shift)];
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

// A cell that no leaf holds at its level, by level and cell index after the domain's sides are applied; or,
// with `row`, the prediction along x for column i of level `level` from the row j of the level above.
struct NodeKey {
  int level;
  long i, j;
  bool row = false;
  auto operator<=>(const NodeKey&) const = default;
};

// The nodes of a part by their cells: open addressing with linear probing over a power-of-two table at
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

// A node as one thread's part of the table builds it: its cell, its depth (1 + the deepest node among its
// sources, leaf cells being depth 0) and its sources node_sources[first .. first + count) of the part, which
// name nodes by the part's own indices.
struct Node {
  NodeKey key;
  std::uint32_t depth = 0;
  std::size_t first = 0, count = 0;
};

// The ghosts of a contiguous range of leaves and the nodes they need, resolved on one thread.
struct Part {
  std::vector<std::uint32_t> counts;
  std::vector<GhostSource> sources, node_sources;
  std::vector<Node> nodes;
  NodeIndex index;
};

// Resolves cells of any level by the recursion of docs/mrag.md, Ghosts, one step at a time: a cell that no
// leaf holds at its level becomes a node, resolved once per part, so that ghosts sharing it share its
// value instead of each repeating its terms.
class Resolver {
 public:
  Resolver(const BlockTree& tree, const LeafGrid& grid, int s, const Sides& sides, Part& part)
      : tree_(tree), grid_(grid), s_(s), sides_(sides), part_(part) {}

  // Adds weight × the average of cell (i, j) of level l to `terms`, its momenta negated as `flip` says.
  void add(int level, long i, long j, double weight, std::uint8_t flip, std::vector<GhostSource>& terms) {
    const long nx = static_cast<long>(tree_.roots_x()) * s_ << level;
    const long ny = static_cast<long>(tree_.roots_y()) * s_ << level;
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
    const LeafGrid::Entry* leaf = grid_.covering({level, static_cast<int>(i / s_), static_cast<int>(j / s_)});
    if (leaf && leaf->leaf.level == level)
      terms.push_back({leaf->index, static_cast<std::uint32_t>(i % s_ + s_ * (j % s_)), weight, flip});
    else
      terms.push_back({GhostSource::node, node({level, i, j}, leaf != nullptr), weight, flip});
  }

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
  // The part's index of the node `key`, resolved on first use. A cell covered by a coarser leaf is the
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

  const BlockTree& tree_;
  const LeafGrid& grid_;
  int s_;
  Sides sides_;
  Part& part_;
  std::deque<std::vector<GhostSource>> scratch_;
  std::size_t active_ = 0;
};

// Joins the parts in leaf order and numbers the nodes by depth, then part, then the order each part met
// them; sources naming nodes are renumbered. A node that several parts met is kept once per part: the same
// cell's sources are summed in the order of their places, never of node numbers, so every copy and every
// ghost has the same value for any thread count.
void join(const std::vector<Part>& parts, GhostTable& table) {
  std::uint32_t deepest = 0;
  for (const Part& part : parts)
    for (const Node& node : part.nodes) deepest = std::max(deepest, node.depth);
  std::vector<std::vector<std::uint32_t>> global(parts.size());
  for (std::size_t p = 0; p < parts.size(); ++p) global[p].resize(parts[p].nodes.size());
  std::vector<std::pair<std::size_t, std::uint32_t>> order;  // (part, node) by global number
  table.node_pass.assign(1, 0);
  for (std::uint32_t depth = 1; depth <= deepest; ++depth) {
    for (std::size_t p = 0; p < parts.size(); ++p)
      for (std::uint32_t n = 0; n < parts[p].nodes.size(); ++n)
        if (parts[p].nodes[n].depth == depth) {
          global[p][n] = static_cast<std::uint32_t>(order.size());
          order.emplace_back(p, n);
        }
    table.node_pass.push_back(static_cast<std::uint32_t>(order.size()));
  }
  const auto renumbered = [&](std::size_t p, GhostSource source) {
    if (source.block == GhostSource::node) source.cell = global[p][source.cell];
    return source;
  };
  // The places of the sources first, then their copies on every core: the copies are most of the work.
  table.node_start.assign(1, 0);
  for (const auto& [p, n] : order)
    table.node_start.push_back(table.node_start.back() + static_cast<std::uint32_t>(parts[p].nodes[n].count));
  table.node_sources.resize(table.node_start.back());
  core::parallel_ranges(order.size(), 4096, [&](std::size_t first, std::size_t last) {
    for (std::size_t k = first; k < last; ++k) {
      const auto [p, n] = order[k];
      const Node& node = parts[p].nodes[n];
      for (std::size_t m = 0; m < node.count; ++m)
        table.node_sources[table.node_start[k] + m] = renumbered(p, parts[p].node_sources[node.first + m]);
    }
  });
  std::vector<std::size_t> part_first{0};
  table.start.assign(1, 0);
  for (const Part& part : parts) {
    for (const std::uint32_t n : part.counts) table.start.push_back(table.start.back() + n);
    part_first.push_back(part_first.back() + part.sources.size());
  }
  table.sources.resize(part_first.back());
  core::parallel_ranges(parts.size(), 1, [&](std::size_t first, std::size_t last) {
    for (std::size_t p = first; p < last; ++p)
      for (std::size_t k = 0; k < parts[p].sources.size(); ++k)
        table.sources[part_first[p] + k] = renumbered(p, parts[p].sources[k]);
  });
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
  const std::vector<BlockKey> leaves(tree.leaves().begin(), tree.leaves().end());
  // Leaves are resolved in contiguous chunks on several threads and the chunks joined in leaf order.
  const std::size_t threads = std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 64);
  const std::size_t chunk = (leaves.size() + threads - 1) / threads;
  std::vector<Part> parts((leaves.size() + chunk - 1) / std::max<std::size_t>(chunk, 1));
  const auto resolve = [&](std::size_t p) {
    Resolver resolver(tree, grid, s, sides, parts[p]);
    std::vector<GhostSource> terms;
    for (std::size_t b = p * chunk; b < std::min(leaves.size(), (p + 1) * chunk); ++b)
      for (const auto& [gi, gj] : table.ghost_cells) {
        resolver.add(leaves[b].level, static_cast<long>(leaves[b].x) * s + gi, static_cast<long>(leaves[b].y) * s + gj,
                     1.0, 0, terms);
        parts[p].counts.push_back(static_cast<std::uint32_t>(resolver.merge(terms, parts[p].sources)));
      }
  };
  std::vector<std::thread> workers;
  for (std::size_t p = 1; p < parts.size(); ++p) workers.emplace_back(resolve, p);
  if (!parts.empty()) resolve(0);
  for (std::thread& w : workers) w.join();
  join(parts, table);
  return table;
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
