#include "hetflow/mrag/reflux_table.hpp"

#include <algorithm>
#include <optional>
#include <string>

#include "hetflow/core/error.hpp"
#include "hetflow/core/parallel.hpp"

namespace hetflow::mrag {
namespace {

// The entries of leaves [first, last) of the grid on x sides (west, east) or y sides, in leaf order.
std::vector<RefluxEntry> side_entries(const LeafGrid& grid, int s, const Sides& sides, bool x_sides,
                                      std::size_t first, std::size_t last) {
  std::vector<RefluxEntry> entries;
  for (std::size_t index = first; index < last; ++index) {
    const BlockKey& leaf = grid.leaves()[index];
    for (const Side side : {x_sides ? west : south, x_sides ? east : north}) {
      const bool forward = side == east || side == north;  // the neighbour lies at +1 along the axis
      BlockKey across = leaf;
      int& along = x_sides ? across.x : across.y;
      along += forward ? 1 : -1;
      const int blocks = (x_sides ? grid.roots_x() : grid.roots_y()) << leaf.level;
      if (along < 0 || along >= blocks) {
        if (sides.low(x_sides ? 0 : 1) != Edge::periodic) continue;
        along = (along + blocks) % blocks;
      }
      if (grid.covering(across)) continue;  // the same level or coarser: no finer faces
      // The blocks `depth` levels finer next to the side, a across it and b along it, first the nearer
      // half's; finer leaves are entered one level at a time.
      const auto add = [&](auto&& self, int depth, long a, long b) -> void {
        const BlockKey key = x_sides ? BlockKey{leaf.level + depth, static_cast<int>(a), static_cast<int>(b)}
                                     : BlockKey{leaf.level + depth, static_cast<int>(b), static_cast<int>(a)};
        // Finer leaves are entered one level at a time, so a leaf covering the key is at its level.
        if (const std::optional<LeafGrid::Entry> fine = grid.covering(key)) {
          const long within = b - (static_cast<long>(x_sides ? leaf.y : leaf.x) << depth);  // fine blocks along
          entries.push_back({static_cast<std::uint32_t>(index), side, fine->index,
                             static_cast<std::uint32_t>(depth),
                             static_cast<std::uint32_t>(within * (s >> depth))});
          return;
        }
        for (int c = 0; c < 2; ++c) self(self, depth + 1, 2 * a + (forward ? 0 : 1), 2 * b + c);
      };
      const long row = x_sides ? leaf.y : leaf.x;
      for (int c = 0; c < 2; ++c) add(add, 1, 2L * along + (forward ? 0 : 1), 2 * row + c);
    }
  }
  return entries;
}

// Leaves per range of the table's parallel build: a range's entries are one part's, appended in order.
constexpr std::size_t leaves_per_range = 64;

}  // namespace

void append_entries(RefluxTable& to, const RefluxTable& from) {
  to.entries.insert(to.entries.end(), from.entries.begin(), from.entries.end());
}

RefluxTable reflux_table(const LeafGrid& grid, int s, const Sides& sides) {
  // Ranges of leaves on x sides, then the same ranges on y sides, built apart and appended in that order.
  const std::size_t leaves = grid.leaves().size(), ranges = (leaves + leaves_per_range - 1) / leaves_per_range;
  std::vector<std::vector<RefluxEntry>> parts(2 * ranges);
  core::parallel_ranges(parts.size(), 1, [&](std::size_t first, std::size_t last) {
    for (std::size_t r = first; r < last; ++r) {
      const std::size_t from = (r % ranges) * leaves_per_range;
      parts[r] = side_entries(grid, s, sides, r < ranges, from, std::min(leaves, from + leaves_per_range));
    }
  });
  std::size_t entries = 0;
  for (const std::vector<RefluxEntry>& part : parts) entries += part.size();
  RefluxTable table;
  table.entries.reserve(entries);
  for (std::size_t r = 0; r < parts.size(); ++r) {
    if (r == ranges) table.x_entries = table.size();
    table.entries.insert(table.entries.end(), parts[r].begin(), parts[r].end());
  }
  // Checked here rather than in the parallel build, whose workers cannot throw.
  for (const RefluxEntry& e : table.entries)
    if ((s >> e.depth) == 0)
      throw core::Error("flux correction: a leaf " + std::to_string(e.depth) + " levels finer than its neighbour " +
                        "has a side shorter than one of the neighbour's cells (" + std::to_string(s) +
                        " cells per block side)");
  return table;
}

RefluxTable owned_entries(const RefluxTable& table, const LeafList& own) {
  // Leaves 0 .. n − 1 (own is ascending) own every entry whose leaf is below n: all of them, at once.
  const bool all = !own.empty() && own.back() + 1 == own.size() &&
                   std::all_of(table.entries.begin(), table.entries.end(),
                               [&](const RefluxEntry& e) { return e.coarse_block < own.size(); });
  if (all) return table;
  std::vector<char> owned;
  for (const std::uint32_t leaf : own) {
    if (leaf >= owned.size()) owned.resize(leaf + 1, 0);
    owned[leaf] = 1;
  }
  RefluxTable out;
  for (std::size_t e = 0; e < table.size(); ++e) {
    if (e == table.x_entries) out.x_entries = out.size();
    const RefluxEntry& entry = table.entries[e];
    if (entry.coarse_block < owned.size() && owned[entry.coarse_block]) out.entries.push_back(entry);
  }
  if (table.x_entries == table.size()) out.x_entries = out.size();
  return out;
}

}  // namespace hetflow::mrag
