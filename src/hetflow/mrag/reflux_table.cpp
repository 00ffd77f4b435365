#include "hetflow/mrag/reflux_table.hpp"

#include <algorithm>


namespace hetflow::mrag {

RefluxTable reflux_table(const BlockTree& tree, const LeafGrid& grid, int s, const Sides& sides) {
  RefluxTable table;
  table.start.push_back(0);
  for (const bool x_sides : {true, false}) {
    std::uint32_t index = 0;
    for (const BlockKey& leaf : grid.leaves()) {
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
            const std::optional<LeafGrid::Entry> fine = grid.covering({m, static_cast<int>(bx / s), static_cast<int>(by / s)});
            if (fine) {  // finer leaves are entered one level at a time, so this one is at level m
              table.fine_face.push_back((fine->index * 4 + facing) * static_cast<std::uint32_t>(s) +
                                        static_cast<std::uint32_t>(b % s));
              table.fine_weight.push_back(weight);
              return;
            }
            for (int c = 0; c < 2; ++c) self(self, m + 1, 2 * a + (forward ? 0 : 1), 2 * b + c, 0.5 * weight);
          };
          const long first = static_cast<long>(along) * s + (forward ? 0 : s - 1);  // across, at the leaf's level
          const long row = static_cast<long>(x_sides ? leaf.y : leaf.x) * s + k;
          for (int c = 0; c < 2; ++c) add(add, leaf.level + 1, 2 * first + (forward ? 0 : 1), 2 * row + c, 0.5);
          const int i = side == west ? 0 : side == east ? s - 1 : k;
          const int j = side == south ? 0 : side == north ? s - 1 : k;
          table.coarse_block.push_back(index);
          table.coarse_cell.push_back(static_cast<std::uint32_t>(i + s * j));
          table.side.push_back(side);
          table.start.push_back(static_cast<std::uint32_t>(table.fine_face.size()));
        }
      }
      ++index;
    }
    if (x_sides) table.x_entries = table.entries();
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
