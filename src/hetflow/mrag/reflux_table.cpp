#include "hetflow/mrag/reflux_table.hpp"

#include <algorithm>
#include <optional>

#include "hetflow/core/parallel.hpp"

namespace hetflow::mrag {
namespace {

// The entries of leaves [first, last) of the grid on x sides (west, east) or y sides, in leaf order.
RefluxTable side_entries(const BlockTree& tree, const LeafGrid& grid, int s, const Sides& sides, bool x_sides,
                         std::size_t first, std::size_t last) {
  RefluxTable table;
  table.start.push_back(0);
  for (std::size_t index = first; index < last; ++index) {
    const BlockKey& leaf = grid.leaves()[index];
    for (const Side side : {x_sides ? west : south, x_sides ? east : north}) {
      const bool forward = side == east || side == north;  // the neighbour lies at +1 along the axis
      BlockKey across = leaf;
      int& along = x_sides ? across.x : across.y;
      along += forward ? 1 : -1;
      const int blocks = (x_sides ? tree.roots_x() : tree.roots_y()) << leaf.level;
      if (along < 0 || along >= blocks) {
        if (sides.low(x_sides ? 0 : 1) != Edge::periodic) continue;
        along = (along + blocks) % blocks;
      }
      if (grid.covering(across)) continue;  // the same level or coarser: no finer faces
      const Side facing = static_cast<Side>(side ^ 1u);
      for (int k = 0; k < s; ++k) {
        // Cell (a, b) of level m beside the face: a across the face, b along it; finer leaves are
        // entered one level at a time.
        const auto add = [&](auto&& self, int m, long a, long b, double weight) -> void {
          const long bx = x_sides ? a : b, by = x_sides ? b : a;
          const std::optional<LeafGrid::Entry> fine =
              grid.covering({m, static_cast<int>(bx / s), static_cast<int>(by / s)});
          if (fine) {  // finer leaves are entered one level at a time, so this one is at level m
            table.fine_face.push_back((fine->index * 4 + facing) * static_cast<std::uint32_t>(s) +
                                      static_cast<std::uint32_t>(b % s));
            table.fine_weight.push_back(weight);
            return;
          }
          for (int c = 0; c < 2; ++c) self(self, m + 1, 2 * a + (forward ? 0 : 1), 2 * b + c, 0.5 * weight);
        };
        const long across_first = static_cast<long>(along) * s + (forward ? 0 : s - 1);  // at the leaf's level
        const long row = static_cast<long>(x_sides ? leaf.y : leaf.x) * s + k;
        for (int c = 0; c < 2; ++c) add(add, leaf.level + 1, 2 * across_first + (forward ? 0 : 1), 2 * row + c, 0.5);
        const int i = side == west ? 0 : side == east ? s - 1 : k;
        const int j = side == south ? 0 : side == north ? s - 1 : k;
        table.coarse_block.push_back(static_cast<std::uint32_t>(index));
        table.coarse_cell.push_back(static_cast<std::uint32_t>(i + s * j));
        table.side.push_back(side);
        table.start.push_back(static_cast<std::uint32_t>(table.fine_face.size()));
      }
    }
  }
  return table;
}

// Leaves per range of the table's parallel build: a range's entries are one part's, appended in order.
constexpr std::size_t leaves_per_range = 64;

}  // namespace

void append_entries(RefluxTable& to, const RefluxTable& from) {
  const auto base = static_cast<std::uint32_t>(to.fine_face.size());
  to.coarse_block.insert(to.coarse_block.end(), from.coarse_block.begin(), from.coarse_block.end());
  to.coarse_cell.insert(to.coarse_cell.end(), from.coarse_cell.begin(), from.coarse_cell.end());
  to.side.insert(to.side.end(), from.side.begin(), from.side.end());
  for (std::size_t e = 0; e < from.entries(); ++e) to.start.push_back(base + from.start[e + 1]);
  to.fine_face.insert(to.fine_face.end(), from.fine_face.begin(), from.fine_face.end());
  to.fine_weight.insert(to.fine_weight.end(), from.fine_weight.begin(), from.fine_weight.end());
}

RefluxTable reflux_table(const BlockTree& tree, const LeafGrid& grid, int s, const Sides& sides) {
  // Ranges of leaves on x sides, then the same ranges on y sides, built apart and appended in that order
  // into vectors reserved whole.
  const std::size_t leaves = grid.leaves().size(), ranges = (leaves + leaves_per_range - 1) / leaves_per_range;
  std::vector<RefluxTable> parts(2 * ranges);
  core::parallel_ranges(parts.size(), 1, [&](std::size_t first, std::size_t last) {
    for (std::size_t r = first; r < last; ++r) {
      const std::size_t from = (r % ranges) * leaves_per_range;
      parts[r] = side_entries(tree, grid, s, sides, r < ranges, from, std::min(leaves, from + leaves_per_range));
    }
  });
  std::size_t entries = 0, faces = 0;
  for (const RefluxTable& part : parts) {
    entries += part.entries();
    faces += part.fine_face.size();
  }
  RefluxTable table;
  for (auto* v : {&table.coarse_block, &table.coarse_cell, &table.side}) v->reserve(entries);
  table.start.reserve(entries + 1);
  table.fine_face.reserve(faces);
  table.fine_weight.reserve(faces);
  table.start.push_back(0);
  for (std::size_t r = 0; r < parts.size(); ++r) {
    if (r == ranges) table.x_entries = table.entries();
    append_entries(table, parts[r]);
  }
  return table;
}

RefluxTable owned_entries(const RefluxTable& table, const LeafList& own) {
  // Leaves 0 .. n − 1 (own is ascending) own every entry whose leaf is below n: all of them, at once.
  const bool all = !own.empty() && own.back() + 1 == own.size() &&
                   std::all_of(table.coarse_block.begin(), table.coarse_block.end(),
                               [&](std::uint32_t b) { return b < own.size(); });
  if (all) return table;
  std::vector<char> owned;
  for (const std::uint32_t leaf : own) {
    if (leaf >= owned.size()) owned.resize(leaf + 1, 0);
    owned[leaf] = 1;
  }
  RefluxTable out;
  out.start.push_back(0);
  for (std::size_t e = 0; e < table.entries(); ++e) {
    if (e == table.x_entries) out.x_entries = out.entries();
    if (table.coarse_block[e] >= owned.size() || !owned[table.coarse_block[e]]) continue;
    out.coarse_block.push_back(table.coarse_block[e]);
    out.coarse_cell.push_back(table.coarse_cell[e]);
    out.side.push_back(table.side[e]);
    for (std::uint32_t f = table.start[e]; f < table.start[e + 1]; ++f) {
      out.fine_face.push_back(table.fine_face[f]);
      out.fine_weight.push_back(table.fine_weight[f]);
    }
    out.start.push_back(static_cast<std::uint32_t>(out.fine_face.size()));
  }
  if (table.x_entries == table.entries()) out.x_entries = out.entries();
  return out;
}

}  // namespace hetflow::mrag
