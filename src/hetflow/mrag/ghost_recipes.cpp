#include "hetflow/mrag/ghost_recipes.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <utility>

#include "hetflow/core/error.hpp"
#include "hetflow/core/parallel.hpp"
#include "hetflow/mrag/ghost_resolver.hpp"

namespace hetflow::mrag {
namespace {

// Position x of level `level` (of a block at x0 of level `from`) seen from level `level`: x0 2^d, or x0 >> −d.
long scaled(long x0, int from, int level) { return level >= from ? x0 << (level - from) : x0 >> (from - level); }

// The representative of offset d on a periodic axis of n positions nearest to 0.
long nearest(long d, long n) {
  d %= n;
  if (d >= (n + 1) / 2) d -= n;
  if (d < -(n / 2)) d += n;
  return d;
}

void append(std::string& code, long value) {
  const auto v = static_cast<std::int32_t>(value);
  code.append(reinterpret_cast<const char*>(&v), sizeof v);
}

// How the leaves split a block position that finer leaves tile: a depth-first walk, '1' for a leaf and '0'
// for a split followed by its four children. A child of a split position is a leaf or split again.
void split_code(const LeafGrid& grid, const BlockKey& key, std::string& code) {
  if (grid.covering(key)) {
    code.push_back('1');
    return;
  }
  code.push_back('0');
  for (int b = 0; b < 2; ++b)
    for (int a = 0; a < 2; ++a) split_code(grid, key.child(a, b), code);
}

// What a recipe depends on around `block`: for each block position of its level within `window` of it,
// which sides of the domain it lies past (periodic sides wrap it), and, inside the domain, the level of the
// leaf covering it and where it lies in that leaf, or how finer leaves split it.
std::string surroundings(const LeafGrid& grid, const Sides& sides, int window, const BlockKey& block) {
  const long nx = static_cast<long>(grid.roots_x()) << block.level, ny = static_cast<long>(grid.roots_y()) << block.level;
  std::string code;
  for (long dy = -window; dy <= window; ++dy)
    for (long dx = -window; dx <= window; ++dx) {
      long p[2] = {block.x + dx, block.y + dy};
      const long n[2] = {nx, ny};
      // Bit 2 axis + (0 low, 1 high) for a side that is not periodic; the same bit + 4 for a periodic side
      // the position wraps across.
      char past = 0;
      for (int axis = 0; axis < 2; ++axis) {
        if (p[axis] >= 0 && p[axis] < n[axis]) continue;
        const int side = 2 * axis + (p[axis] < 0 ? 0 : 1);
        if ((axis == 0 ? sides.west : sides.south) == Edge::periodic) {
          past |= static_cast<char>(16 << side);
          p[axis] = ((p[axis] % n[axis]) + n[axis]) % n[axis];
        } else {
          past |= static_cast<char>(1 << side);
        }
      }
      code.push_back(past);
      if (past & 0x0F) continue;
      const BlockKey at{block.level, static_cast<int>(p[0]), static_cast<int>(p[1])};
      const std::optional<LeafGrid::Entry> leaf = grid.covering(at);
      if (!leaf) {
        split_code(grid, at, code);
        continue;
      }
      const int d = block.level - leaf->leaf.level;
      code.push_back(static_cast<char>('a' + d));
      if (d > 0) {
        append(code, p[0] - (static_cast<long>(leaf->leaf.x) << d));
        append(code, p[1] - (static_cast<long>(leaf->leaf.y) << d));
      }
    }
  return code;
}

// Whether the window of a block reaches a changed leaf (one of two trees' leaves that the other lacks): the
// changed leaves' regions at level 20 (the deepest a tree has), listed by the cells of a raster of at most
// 4,096 cells they overlap. A window reaches a leaf when their regions share area, across periodic sides too.
class ChangeMap {
 public:
  ChangeMap(const LeafGrid& grid, const Sides& sides, const std::vector<BlockKey>& changed)
      : periodic_{sides.west == Edge::periodic, sides.south == Edge::periodic},
        extent_{static_cast<long>(grid.roots_x()) << deepest, static_cast<long>(grid.roots_y()) << deepest} {
    int level = 0;
    while (level < deepest && (static_cast<long>(grid.roots_x()) * grid.roots_y() << (2 * level + 2)) <= 4096) ++level;
    shift_ = deepest - level;
    cells_ = {extent_[0] >> shift_, extent_[1] >> shift_};
    for (const BlockKey& k : changed) boxes_.push_back(box(k.level, k.x, k.y, 0));
    start_.assign(static_cast<std::size_t>(cells_[0] * cells_[1]) + 1, 0);
    for_cells([&](std::size_t cell, std::uint32_t) { ++start_[cell + 1]; });
    for (std::size_t c = 1; c < start_.size(); ++c) start_[c] += start_[c - 1];
    std::vector<std::uint32_t> next(start_.begin(), start_.end() - 1);
    listed_.resize(start_.back());
    for_cells([&](std::size_t cell, std::uint32_t k) { listed_[next[cell]++] = k; });
  }

  bool reaches(const BlockKey& block, int window) const {
    if (boxes_.empty()) return false;
    const Box w = box(block.level, block.x, block.y, window);
    std::array<std::pair<long, long>, 2> pieces[2];
    std::size_t count[2];
    for (int axis = 0; axis < 2; ++axis) count[axis] = wrapped(w.low[axis], w.high[axis], axis, pieces[axis]);
    for (std::size_t i = 0; i < count[0]; ++i)
      for (std::size_t j = 0; j < count[1]; ++j) {
        const Box piece{{pieces[0][i].first, pieces[1][j].first}, {pieces[0][i].second, pieces[1][j].second}};
        for (long cy = piece.low[1] >> shift_; cy <= (piece.high[1] - 1) >> shift_; ++cy)
          for (long cx = piece.low[0] >> shift_; cx <= (piece.high[0] - 1) >> shift_; ++cx) {
            const auto cell = static_cast<std::size_t>(cy * cells_[0] + cx);
            for (std::uint32_t k = start_[cell]; k < start_[cell + 1]; ++k)
              if (overlap(piece, boxes_[listed_[k]])) return true;
          }
      }
    return false;
  }

 private:
  static constexpr int deepest = 20;
  struct Box {
    long low[2], high[2];
  };

  // The region of block (level, x, y) widened by `margin` blocks of its level, at the deepest level.
  static Box box(int level, long x, long y, long margin) {
    const int up = deepest - level;
    return {{(x - margin) << up, (y - margin) << up}, {(x + margin + 1) << up, (y + margin + 1) << up}};
  }
  static bool overlap(const Box& a, const Box& b) {
    return a.low[0] < b.high[0] && b.low[0] < a.high[0] && a.low[1] < b.high[1] && b.low[1] < a.high[1];
  }

  // [low, high) on `axis` inside the domain: clipped, or wrapped across a periodic axis into one or two
  // pieces; their count.
  std::size_t wrapped(long low, long high, int axis, std::array<std::pair<long, long>, 2>& out) const {
    const long n = extent_[axis];
    if (!periodic_[axis] || high - low >= n) {
      out[0] = periodic_[axis] && high - low >= n ? std::pair{0L, n} : std::pair{std::max(low, 0L), std::min(high, n)};
      return out[0].first < out[0].second ? 1 : 0;
    }
    if (low < 0) {
      out = {std::pair{low + n, n}, std::pair{0L, high}};
      return 2;
    }
    if (high > n) {
      out = {std::pair{low, n}, std::pair{0L, high - n}};
      return 2;
    }
    out[0] = {low, high};
    return 1;
  }

  // Calls f(cell, k) for every raster cell the changed leaf k overlaps.
  template <class F>
  void for_cells(const F& f) const {
    for (std::uint32_t k = 0; k < boxes_.size(); ++k) {
      const Box& b = boxes_[k];
      for (long cy = b.low[1] >> shift_; cy <= (b.high[1] - 1) >> shift_; ++cy)
        for (long cx = b.low[0] >> shift_; cx <= (b.high[0] - 1) >> shift_; ++cx)
          f(static_cast<std::size_t>(cy * cells_[0] + cx), k);
    }
  }

  std::array<bool, 2> periodic_;
  std::array<long, 2> extent_;
  int shift_ = 0;
  std::array<long, 2> cells_{};
  std::vector<Box> boxes_;
  std::vector<std::uint32_t> start_, listed_;
};

// The recipe of leaf `index`, or none when its recursion reached past `window` blocks of its level.
std::optional<GhostRecipe> build_recipe(const LeafGrid& grid, std::uint32_t index, int s,
                                        const std::vector<std::pair<int, int>>& cells, const Sides& sides,
                                        int window) {
  const std::vector<BlockKey>& leaves = grid.leaves();
  const BlockKey& block = leaves[index];
  detail::Part part;
  detail::Resolver resolver(grid, s, sides, part, block);
  std::vector<GhostSource> terms;
  for (const auto& [gi, gj] : cells) {
    resolver.add(block.level, static_cast<long>(block.x) * s + gi, static_cast<long>(block.y) * s + gj, 1.0, 0, terms);
    part.counts.push_back(static_cast<std::uint32_t>(resolver.merge(terms, part.sources)));
  }
  const auto& reach = resolver.reach();
  if (reach[0] < (static_cast<long>(block.x) - window) * s || reach[1] > (static_cast<long>(block.x) + window + 1) * s ||
      reach[2] < (static_cast<long>(block.y) - window) * s || reach[3] > (static_cast<long>(block.y) + window + 1) * s)
    return std::nullopt;

  // A node that one ghost alone reads, as its only source with weight 1 and no flip, is that ghost: the ghost
  // takes the node's sources in their order, which gives the same sum and spares the fill the node's write,
  // its read and a depth.
  std::vector<std::uint32_t> readers(part.nodes.size(), 0);
  for (const std::vector<GhostSource>* sources : {&part.sources, &part.node_sources})
    for (const GhostSource& t : *sources)
      if (t.block == GhostSource::node) ++readers[t.cell];
  std::vector<bool> inlined(part.nodes.size(), false);
  for (std::size_t g = 0, k = 0; g < part.counts.size(); k += part.counts[g++]) {
    const GhostSource& t = part.sources[k];
    if (part.counts[g] == 1 && t.block == GhostSource::node && t.weight == 1 && t.flip == 0 && readers[t.cell] == 1)
      inlined[t.cell] = true;
  }

  GhostRecipe r;
  // Nodes by depth, in the order they were met within a depth.
  std::uint32_t deepest = 0;
  for (std::uint32_t n = 0; n < part.nodes.size(); ++n)
    if (!inlined[n]) deepest = std::max(deepest, part.nodes[n].depth);
  std::vector<std::uint32_t> local(part.nodes.size()), order;
  r.depth_first.assign(1, 0);
  for (std::uint32_t depth = 1; depth <= deepest; ++depth) {
    for (std::uint32_t n = 0; n < part.nodes.size(); ++n)
      if (part.nodes[n].depth == depth && !inlined[n]) {
        local[n] = static_cast<std::uint32_t>(order.size());
        order.push_back(n);
      }
    r.depth_first.push_back(static_cast<std::uint32_t>(order.size()));
  }
  // Leaves by slot, in the order the ghosts and then the nodes name them.
  std::vector<std::uint32_t> slot_of_leaf;  // the leaf of each slot, searched linearly: a block reads few leaves
  const auto relative = [&](GhostSource t) {
    if (t.block == GhostSource::node) {
      t.cell = local[t.cell];
    } else if (t.block != GhostSource::inflow) {
      const auto at = std::find(slot_of_leaf.begin(), slot_of_leaf.end(), t.block);
      if (at == slot_of_leaf.end()) {
        const BlockKey& leaf = leaves[t.block];
        long dx = leaf.x - scaled(block.x, block.level, leaf.level), dy = leaf.y - scaled(block.y, block.level, leaf.level);
        if (sides.west == Edge::periodic) dx = nearest(dx, static_cast<long>(grid.roots_x()) << leaf.level);
        if (sides.south == Edge::periodic) dy = nearest(dy, static_cast<long>(grid.roots_y()) << leaf.level);
        r.slots.push_back({leaf.level - block.level, static_cast<int>(dx), static_cast<int>(dy)});
        slot_of_leaf.push_back(t.block);
        t.block = static_cast<std::uint32_t>(r.slots.size() - 1);
      } else {
        t.block = static_cast<std::uint32_t>(at - slot_of_leaf.begin());
      }
    }
    return t;
  };
  r.first.assign(1, 0);
  std::size_t k = 0;
  for (const std::uint32_t count : part.counts) {
    if (const GhostSource& t = part.sources[k]; t.block == GhostSource::node && inlined[t.cell]) {
      const detail::Node& node = part.nodes[t.cell];
      for (std::size_t m = 0; m < node.count; ++m) r.sources.push_back(relative(part.node_sources[node.first + m]));
      ++k;
    } else {
      for (std::uint32_t m = 0; m < count; ++m) r.sources.push_back(relative(part.sources[k++]));
    }
    r.first.push_back(static_cast<std::uint32_t>(r.sources.size()));
  }
  r.node_first.assign(1, 0);
  for (const std::uint32_t n : order) {
    const detail::Node& node = part.nodes[n];
    for (std::size_t m = 0; m < node.count; ++m) r.node_sources.push_back(relative(part.node_sources[node.first + m]));
    r.node_first.push_back(static_cast<std::uint32_t>(r.node_sources.size()));
  }
  return r;
}

// The window that holds a band of `width` on blocks of s cells when the recursion descends two levels: a
// ghost's prediction reaches 5 cells of its level farther, a second one 10.
int first_window(int s, int width) { return (width + 15 + s - 1) / s; }

}  // namespace

GhostRecipe ghost_recipe(const BlockTree& tree, std::uint32_t leaf, int s, int width, bool corners,
                         const Sides& sides, int window) {
  check(sides);
  const LeafGrid grid(tree);
  if (leaf >= grid.leaves().size())
    throw core::Error("ghost recipe: leaf " + std::to_string(leaf) + " of a tree of " +
                      std::to_string(grid.leaves().size()));
  std::optional<GhostRecipe> r = build_recipe(grid, leaf, s, ghost_cells(s, width, corners), sides, window);
  if (!r)
    throw core::Error("ghost recipe: leaf " + std::to_string(leaf) + "'s ghosts reach farther than " +
                      std::to_string(window) + " blocks");
  return std::move(*r);
}

GhostRecipes::GhostRecipes(int s, int width, bool corners, const Sides& sides)
    : s_(s), width_(width), corners_(corners), sides_(sides), window_(first_window(s, width)) {
  check(sides);
  if (width < 1 || s < 2 * width)
    throw core::Error("ghost table: blocks of " + std::to_string(s) + " cells per side cannot hold a ghost band " +
                      std::to_string(width) + " wide (needs s >= 2 width)");
}

GhostPlan GhostRecipes::plan(const LeafGrid& grid) {
  const std::vector<BlockKey>& leaves = grid.leaves();
  const std::vector<std::pair<int, int>> cells = ghost_cells(s_, width_, corners_);
  std::vector<std::string> codes(leaves.size());
  GhostPlan plan;
  plan.kind.resize(leaves.size());
  // Leaves are looked up in parallel (the map only read), those whose surroundings are new marked `unknown`.
  // A recursion that reaches past the window widens it, and the recipes are looked up again.
  constexpr std::uint32_t unknown = 0xFFFFFFFFu;
  // Each leaf both trees hold: its index in the last plan (`was`, and the reverse `now`) and its kind there;
  // found by walking both leaf lists, as are the leaves either tree holds alone.
  std::vector<std::uint32_t> kept(leaves.size(), unknown), was(leaves.size(), unknown);
  std::vector<std::uint32_t> now(last_leaves_.size(), unknown);
  std::vector<BlockKey> changed;
  if (last_generation_ == generation_ && !last_leaves_.empty() &&
      last_roots_ == std::array<int, 2>{grid.roots_x(), grid.roots_y()}) {
    std::size_t old = 0;
    for (std::size_t b = 0; b < leaves.size(); ++b) {
      for (; old < last_leaves_.size() && last_leaves_[old] < leaves[b]; ++old) changed.push_back(last_leaves_[old]);
      if (old < last_leaves_.size() && last_leaves_[old] == leaves[b]) {
        kept[b] = last_kind_[old];
        was[b] = static_cast<std::uint32_t>(old);
        now[old++] = static_cast<std::uint32_t>(b);
      } else {
        changed.push_back(leaves[b]);
      }
    }
    changed.insert(changed.end(), last_leaves_.begin() + static_cast<std::ptrdiff_t>(old), last_leaves_.end());
  }
  const ChangeMap change(grid, sides_, changed);
  for (;;) {
    core::parallel_ranges(leaves.size(), 64, [&](std::size_t first, std::size_t last) {
      for (std::size_t b = first; b < last; ++b) {
        if (kept[b] != unknown && !change.reaches(leaves[b], window_)) {
          plan.kind[b] = kept[b];
          continue;
        }
        kept[b] = unknown;
        codes[b] = surroundings(grid, sides_, window_, leaves[b]);
        const auto known = ids_.find(codes[b]);
        plan.kind[b] = known == ids_.end() ? unknown : known->second;
      }
    });
    std::unordered_map<std::string, std::uint32_t> missing;  // surroundings → the first leaf with them
    for (std::size_t b = 0; b < leaves.size(); ++b)
      if (plan.kind[b] == unknown) missing.emplace(codes[b], static_cast<std::uint32_t>(b));
    std::vector<std::pair<std::string, std::uint32_t>> todo(missing.begin(), missing.end());
    // Kinds are numbered in leaf order, whatever order the map lists them in.
    std::sort(todo.begin(), todo.end(), [](const auto& x, const auto& y) { return x.second < y.second; });
    // Each new recipe is a range of its own: a few take the time of one, which sits on the path of the step
    // after an adaptation.
    std::vector<std::optional<GhostRecipe>> built(todo.size());
    core::parallel_ranges(todo.size(), 1, [&](std::size_t first, std::size_t last) {
      for (std::size_t k = first; k < last; ++k)
        built[k] = build_recipe(grid, todo[k].second, s_, cells, sides_, window_);
    });
    if (std::all_of(built.begin(), built.end(), [](const auto& r) { return r.has_value(); })) {
      for (std::size_t k = 0; k < todo.size(); ++k) {
        ids_.emplace(std::move(todo[k].first), static_cast<std::uint32_t>(kinds_.size()));
        kinds_.push_back(std::make_unique<const GhostRecipe>(std::move(*built[k])));
      }
      break;
    }
    ++window_;
    ++generation_;
    ids_.clear();
    kinds_.clear();
    std::fill(kept.begin(), kept.end(), unknown);
  }
  for (std::size_t b = 0; b < leaves.size(); ++b)
    if (plan.kind[b] == unknown) plan.kind[b] = ids_.at(codes[b]);

  // Each block's slots as leaf indices.
  plan.slot_first.assign(leaves.size() + 1, 0);
  for (std::size_t b = 0; b < leaves.size(); ++b)
    plan.slot_first[b + 1] = plan.slot_first[b] + static_cast<std::uint32_t>(kinds_[plan.kind[b]]->slots.size());
  plan.slot_leaf.resize(plan.slot_first.back());
  core::parallel_ranges(leaves.size(), 64, [&](std::size_t first, std::size_t last) {
    for (std::size_t b = first; b < last; ++b) {
      const BlockKey& block = leaves[b];
      const GhostRecipe& r = *kinds_[plan.kind[b]];
      // A leaf that kept its kind reads the leaves it read, which no change reached either.
      if (kept[b] != unknown) {
        const std::uint32_t* from = last_slot_leaf_.data() + last_slot_first_[was[b]];
        for (std::size_t k = 0; k < r.slots.size(); ++k) plan.slot_leaf[plan.slot_first[b] + k] = now[from[k]];
        continue;
      }
      for (std::size_t k = 0; k < r.slots.size(); ++k) {
        const BlockKey& rel = r.slots[k];
        const int level = block.level + rel.level;
        long x = scaled(block.x, block.level, level) + rel.x, y = scaled(block.y, block.level, level) + rel.y;
        const long nx = static_cast<long>(grid.roots_x()) << level, ny = static_cast<long>(grid.roots_y()) << level;
        x = ((x % nx) + nx) % nx;
        y = ((y % ny) + ny) % ny;
        // Alike surroundings hold the same leaves at the same places, so the slot is a leaf.
        plan.slot_leaf[plan.slot_first[b] + k] = grid.covering({level, static_cast<int>(x), static_cast<int>(y)})->index;
      }
    }
  });
  last_leaves_ = leaves;
  last_kind_ = plan.kind;
  last_slot_first_ = plan.slot_first;
  last_slot_leaf_ = plan.slot_leaf;
  last_generation_ = generation_;
  last_roots_ = {grid.roots_x(), grid.roots_y()};
  return plan;
}

GhostTable GhostRecipes::table(const BlockTree& tree) {
  GhostTable table;
  table.ghost_cells = ghost_cells(s_, width_, corners_);
  const GhostPlan plan = this->plan(LeafGrid(tree));
  const std::size_t blocks = plan.kind.size();
  std::vector<const GhostRecipe*> recipe;
  for (const std::uint32_t k : plan.kind) recipe.push_back(kinds_[k].get());
  const std::vector<std::uint32_t>& slot_first = plan.slot_first;
  const std::vector<std::uint32_t>& slot_leaf = plan.slot_leaf;

  // Nodes numbered by depth, then block, then the recipe's order.
  std::size_t depths = 0;
  for (const GhostRecipe* r : recipe) depths = std::max(depths, r->depth_first.size() - 1);
  std::vector<std::vector<std::uint32_t>> node_offset(depths, std::vector<std::uint32_t>(blocks));
  table.node_pass.assign(1, 0);
  table.node_start.assign(1, 0);
  for (std::size_t d = 0; d < depths; ++d) {
    for (std::size_t b = 0; b < blocks; ++b) {
      const GhostRecipe& r = *recipe[b];
      node_offset[d][b] = static_cast<std::uint32_t>(table.node_start.size() - 1);
      if (d + 1 >= r.depth_first.size()) continue;
      for (std::uint32_t n = r.depth_first[d]; n < r.depth_first[d + 1]; ++n)
        table.node_start.push_back(table.node_start.back() + r.node_first[n + 1] - r.node_first[n]);
    }
    table.node_pass.push_back(static_cast<std::uint32_t>(table.node_start.size() - 1));
  }
  const auto placed = [&](std::size_t b, GhostSource t) {
    if (t.block == GhostSource::node) {
      const GhostRecipe& r = *recipe[b];
      std::size_t d = 0;
      while (t.cell >= r.depth_first[d + 1]) ++d;
      t.cell = node_offset[d][b] + t.cell - r.depth_first[d];
    } else if (t.block != GhostSource::inflow) {
      t.block = slot_leaf[slot_first[b] + t.block];
    }
    return t;
  };
  table.node_sources.resize(table.node_start.back());
  core::parallel_ranges(blocks, 16, [&](std::size_t first, std::size_t last) {
    for (std::size_t b = first; b < last; ++b) {
      const GhostRecipe& r = *recipe[b];
      for (std::size_t d = 0; d + 1 < r.depth_first.size(); ++d)
        for (std::uint32_t n = r.depth_first[d]; n < r.depth_first[d + 1]; ++n) {
          GhostSource* out = table.node_sources.data() + table.node_start[node_offset[d][b] + n - r.depth_first[d]];
          for (std::uint32_t m = r.node_first[n]; m < r.node_first[n + 1]; ++m) *out++ = placed(b, r.node_sources[m]);
        }
    }
  });
  const std::size_t count = table.ghost_cells.size();
  table.start.assign(blocks * count + 1, 0);
  for (std::size_t b = 0; b < blocks; ++b)
    for (std::size_t g = 0; g < count; ++g)
      table.start[b * count + g + 1] = table.start[b * count + g] + recipe[b]->first[g + 1] - recipe[b]->first[g];
  table.sources.resize(table.start.back());
  core::parallel_ranges(blocks, 16, [&](std::size_t first, std::size_t last) {
    for (std::size_t b = first; b < last; ++b) {
      const GhostRecipe& r = *recipe[b];
      GhostSource* out = table.sources.data() + table.start[b * count];
      for (const GhostSource& t : r.sources) *out++ = placed(b, t);
    }
  });
  return table;
}

}  // namespace hetflow::mrag
