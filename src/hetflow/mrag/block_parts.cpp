#include "hetflow/mrag/block_parts.hpp"

#include <algorithm>

namespace hetflow::mrag {
namespace {

// Sorts `lists` (one per part) and removes repeats.
void tidy(std::vector<std::vector<std::uint32_t>>& lists) {
  for (std::vector<std::uint32_t>& list : lists) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
  }
}

}  // namespace

std::size_t BlockParts::part_of(std::size_t leaf) const {
  const auto after = std::upper_bound(ranges.begin(), ranges.end(), leaf,
                                      [](std::size_t b, const core::Share& r) { return b < r.offset; });
  return static_cast<std::size_t>(after - ranges.begin()) - 1;
}

BlockParts block_parts(const GhostTable& band, const RefluxTable& reflux, std::size_t leaves, int s,
                       std::span<const double> weights) {
  BlockParts out;
  const core::Partition split(leaves, 1, weights);
  for (std::size_t p = 0; p < split.parts(); ++p) out.ranges.push_back(split.share(p));
  const std::size_t parts = out.parts(), count = band.ghost_cells.size();
  const std::uint32_t cells = static_cast<std::uint32_t>(s) * static_cast<std::uint32_t>(s);
  out.cells.assign(parts, std::vector<std::vector<std::uint32_t>>(parts));
  out.faces.assign(parts, std::vector<std::vector<std::uint32_t>>(parts));
  for (std::size_t p = 0; p < parts; ++p) {
    const core::Share own = out.ranges[p];
    std::vector<char> reached(band.nodes(), 0);
    const auto read = [&](std::uint32_t first, std::uint32_t last, const std::vector<GhostSource>& sources) {
      for (std::uint32_t k = first; k < last; ++k) {
        const GhostSource& g = sources[k];
        if (g.block == GhostSource::node) {
          reached[g.cell] = 1;
        } else if (g.block < leaves && (g.block < own.offset || g.block >= own.offset + own.count)) {
          out.cells[p][out.part_of(g.block)].push_back(g.block * cells + g.cell);
        }
      }
    };
    read(band.start[own.offset * count], band.start[(own.offset + own.count) * count], band.sources);
    // A node names only earlier ones.
    for (std::size_t n = band.nodes(); n-- > 0;)
      if (reached[n]) read(band.node_start[n], band.node_start[n + 1], band.node_sources);
    tidy(out.cells[p]);
  }
  const std::uint32_t faces_per_leaf = 4 * static_cast<std::uint32_t>(s);
  for (std::size_t e = 0; e < reflux.entries(); ++e) {
    const std::size_t p = out.part_of(reflux.coarse_block[e]);
    for (std::uint32_t f = reflux.start[e]; f < reflux.start[e + 1]; ++f) {
      const std::size_t r = out.part_of(reflux.fine_face[f] / faces_per_leaf);
      if (r != p) out.faces[p][r].push_back(reflux.fine_face[f]);
    }
  }
  for (std::vector<std::vector<std::uint32_t>>& lists : out.faces) tidy(lists);
  return out;
}

}  // namespace hetflow::mrag
