#include "hetflow/mrag/block_parts.hpp"

#include <algorithm>
#include <mutex>

#include "hetflow/core/parallel.hpp"
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

BlockParts block_parts(const BlockTree& tree, const GhostRecipes& recipes, const GhostPlan& plan,
                       const RefluxTable& reflux, int s, std::span<const double> weights) {
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
  const std::size_t parts = out.parts();
  const std::uint32_t cells = static_cast<std::uint32_t>(s) * static_cast<std::uint32_t>(s);
  out.cells.assign(parts, std::vector<std::vector<std::uint32_t>>(parts));
  out.faces.assign(parts, std::vector<std::vector<std::uint32_t>>(parts));
  // A leaf's ghosts read the cells its recipe's sources name, directly or through the recipe's nodes, all
  // of which its ghosts read; only leaves with a slot in another part read any. Ranges of a part's leaves
  // collect them apart and add them under a lock.
  std::mutex lock;
  for (std::size_t p = 0; p < parts; ++p) {
    const LeafList& mine = out.leaves[p];
    core::parallel_ranges(mine.size(), 64, [&](std::size_t first, std::size_t last) {
      std::vector<std::vector<std::uint32_t>> read(parts);
      for (std::size_t k = first; k < last; ++k) {
        const std::uint32_t leaf = mine[k];
        const GhostRecipe& r = recipes.kind(plan.kind[leaf]);
        const std::uint32_t* slot_leaf = plan.slot_leaf.data() + plan.slot_first[leaf];
        if (std::all_of(slot_leaf, slot_leaf + r.slots.size(), [&](std::uint32_t l) { return out.part[l] == p; }))
          continue;
        for (const std::vector<GhostSource>* sources : {&r.sources, &r.node_sources})
          for (const GhostSource& g : *sources) {
            if (g.block == GhostSource::node || g.block == GhostSource::inflow) continue;
            const std::uint32_t from = slot_leaf[g.block];
            if (out.part[from] != p) read[out.part[from]].push_back(from * cells + g.cell);
          }
      }
      const std::lock_guard<std::mutex> hold(lock);
      for (std::size_t r = 0; r < parts; ++r)
        out.cells[p][r].insert(out.cells[p][r].end(), read[r].begin(), read[r].end());
    });
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
