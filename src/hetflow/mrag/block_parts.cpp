#include "hetflow/mrag/block_parts.hpp"

#include <algorithm>

#include "hetflow/core/partition.hpp"

namespace hetflow::mrag {
namespace {

// Sorts `lists` (one per part) and removes repeats.
void tidy(std::vector<std::vector<std::uint32_t>>& lists) {
  for (std::vector<std::uint32_t>& list : lists) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
  }
}

// The place of cell (x, y) on the Z-order curve: x's bits at the even places, y's at the odd ones. A
// block's cells at a finer level fill a run of the curve from its corner's place on.
std::uint64_t z_order(std::uint32_t x, std::uint32_t y) {
  std::uint64_t z = 0;
  for (int bit = 0; bit < 32; ++bit)
    z |= (static_cast<std::uint64_t>((x >> bit) & 1u) << (2 * bit)) |
         (static_cast<std::uint64_t>((y >> bit) & 1u) << (2 * bit + 1));
  return z;
}

}  // namespace

BlockParts block_parts(const BlockTree& tree, const GhostTable& band, const RefluxTable& reflux, int s,
                       std::span<const double> weights) {
  const std::size_t leaves = tree.leaves().size();
  BlockParts out;
  std::vector<std::uint64_t> place;
  for (const BlockKey& leaf : tree.leaves()) {
    const int finer = tree.max_level() - leaf.level;
    place.push_back(z_order(static_cast<std::uint32_t>(leaf.x) << finer, static_cast<std::uint32_t>(leaf.y) << finer));
  }
  LeafList along = all_leaves(leaves);
  std::sort(along.begin(), along.end(), [&](std::uint32_t a, std::uint32_t b) { return place[a] < place[b]; });
  const core::Partition split(leaves, 1, weights);
  out.part.resize(leaves);
  for (std::size_t p = 0; p < split.parts(); ++p) {
    const core::Share share = split.share(p);
    LeafList mine(along.begin() + static_cast<std::ptrdiff_t>(share.offset),
                  along.begin() + static_cast<std::ptrdiff_t>(share.offset + share.count));
    std::sort(mine.begin(), mine.end());
    for (const std::uint32_t leaf : mine) out.part[leaf] = static_cast<std::uint32_t>(p);
    out.leaves.push_back(std::move(mine));
  }
  const std::size_t parts = out.parts(), count = band.ghost_cells.size();
  const std::uint32_t cells = static_cast<std::uint32_t>(s) * static_cast<std::uint32_t>(s);
  out.cells.assign(parts, std::vector<std::vector<std::uint32_t>>(parts));
  out.faces.assign(parts, std::vector<std::vector<std::uint32_t>>(parts));
  for (std::size_t p = 0; p < parts; ++p) {
    std::vector<char> reached(band.nodes(), 0);
    const auto read = [&](std::uint32_t first, std::uint32_t last, const std::vector<GhostSource>& sources) {
      for (std::uint32_t k = first; k < last; ++k) {
        const GhostSource& g = sources[k];
        if (g.block == GhostSource::node)
          reached[g.cell] = 1;
        else if (g.block < leaves && out.part[g.block] != p)
          out.cells[p][out.part[g.block]].push_back(g.block * cells + g.cell);
      }
    };
    for (const std::uint32_t leaf : out.leaves[p])
      read(band.start[leaf * count], band.start[(leaf + 1) * count], band.sources);
    // A node names only earlier ones.
    for (std::size_t n = band.nodes(); n-- > 0;)
      if (reached[n]) read(band.node_start[n], band.node_start[n + 1], band.node_sources);
    tidy(out.cells[p]);
  }
  // An entry reads every face of its fine leaf's side.
  const auto side = static_cast<std::uint32_t>(s);
  for (const RefluxEntry& e : reflux.entries) {
    const std::uint32_t p = out.part[e.coarse_block], r = out.part[e.fine_block];
    if (r == p) continue;
    const std::uint32_t record = (e.fine_block * 4 + (e.side ^ 1u)) * side;
    for (std::uint32_t k = 0; k < side; ++k) out.faces[p][r].push_back(record + k);
  }
  for (std::vector<std::vector<std::uint32_t>>& lists : out.faces) tidy(lists);
  return out;
}

}  // namespace hetflow::mrag
