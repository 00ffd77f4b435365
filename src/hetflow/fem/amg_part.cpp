#include "hetflow/fem/amg_part.hpp"

#include <algorithm>
#include <string>

#include "hetflow/core/error.hpp"
#include "hetflow/fem/amg_aggregation.hpp"
#include "hetflow/fem/amg_sparse.hpp"

namespace hetflow::fem {
namespace {

// The rows row(0), ..., row(count - 1) of m, each column c replaced by column(c).
template <class Row, class Column>
SparseRows row_slice(const SparseRows& m, std::size_t count, std::size_t cols, const Row& row, const Column& column) {
  SparseRows s;
  s.rows = count;
  s.cols = cols;
  s.row_start.push_back(0);
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t r = row(i);
    for (auto k = static_cast<std::size_t>(m.row_start[r]); k < static_cast<std::size_t>(m.row_start[r + 1]); ++k) {
      s.col.push_back(column(m.col[k]));
      s.values.push_back(m.values[k]);
    }
    s.row_start.push_back(static_cast<std::int32_t>(s.col.size()));
  }
  return s;
}

// The first coarse level's unknowns that part j's rows reference, sorted ascending: the columns of P's
// rows of its fine nodes and of the coarse A's rows of its coarse unknowns.
std::vector<std::uint32_t> referenced(const AmgLevel& fine, const AmgLevel& coarse,
                                      const std::vector<std::uint32_t>& owner, std::span<const std::size_t> node_starts,
                                      std::size_t j) {
  std::vector<std::uint32_t> columns;
  const auto add_row = [&columns](const SparseRows& m, std::size_t row) {
    for (std::int32_t k = m.row_start[row]; k < m.row_start[row + 1]; ++k)
      columns.push_back(static_cast<std::uint32_t>(m.col[k]));
  };
  for (std::size_t i = node_starts[j]; i < node_starts[j + 1]; ++i) add_row(fine.p, i);
  for (std::size_t c = 0; c < owner.size(); ++c)
    if (owner[c] == j) add_row(coarse.a, c);
  std::sort(columns.begin(), columns.end());
  columns.erase(std::unique(columns.begin(), columns.end()), columns.end());
  return columns;
}

// The local numbering of the first coarse level on part `me`: its own unknowns in ascending global order,
// then the halo grouped by owner; `global` lists the own unknowns' global indices.
HaloLayout coarse_layout(const AmgLevel& fine, const AmgLevel& coarse, const std::vector<std::uint32_t>& owner,
                         std::span<const std::size_t> node_starts, std::size_t me, std::vector<std::uint32_t>& global) {
  const std::size_t parts = node_starts.size() - 1;
  HaloLayout layout;
  layout.part = me;
  global.clear();
  for (std::size_t c = 0; c < owner.size(); ++c)
    if (owner[c] == me) global.push_back(static_cast<std::uint32_t>(c));
  layout.owned = global.size();
  for (std::uint32_t c : referenced(fine, coarse, owner, node_starts, me))
    if (owner[c] != me) layout.halo.push_back(c);
  std::stable_sort(layout.halo.begin(), layout.halo.end(),
                   [&owner](std::uint32_t a, std::uint32_t b) { return owner[a] < owner[b]; });
  for (std::size_t j = 0; j <= parts; ++j)
    layout.halo_begin.push_back(static_cast<std::size_t>(
        std::partition_point(layout.halo.begin(), layout.halo.end(), [&](std::uint32_t c) { return owner[c] < j; }) -
        layout.halo.begin()));
  // What part j needs of this part is read from j's own rows; the own unknowns ascend in both numberings.
  layout.send.resize(parts);
  for (std::size_t j = 0; j < parts; ++j) {
    if (j == me) continue;
    for (std::uint32_t c : referenced(fine, coarse, owner, node_starts, j))
      if (owner[c] == me)
        layout.send[j].push_back(static_cast<std::uint32_t>(std::lower_bound(global.begin(), global.end(), c) -
                                                            global.begin()));
  }
  return layout;
}

}  // namespace

std::vector<std::uint32_t> coarse_owners(const AmgLevel& fine, std::span<const std::size_t> node_starts) {
  const std::size_t nodes = fine.a.rows;
  if (fine.aggregate.size() != nodes)
    throw core::Error("AMG of a split run: the level of " + std::to_string(nodes) + " unknowns has no aggregates");
  if (node_starts.size() < 2 || node_starts.front() != 0 || node_starts.back() != nodes ||
      !std::is_sorted(node_starts.begin(), node_starts.end()))
    throw core::Error("AMG of a split run: the parts' node ranges do not cover the " + std::to_string(nodes) +
                      " nodes in order");
  const auto unset = static_cast<std::uint32_t>(node_starts.size());
  std::vector<std::uint32_t> owner(fine.p.cols, unset);
  std::size_t part = 0;
  for (std::size_t i = 0; i < nodes; ++i) {
    while (i >= node_starts[part + 1]) ++part;
    const std::int32_t c = fine.aggregate[i];
    if (c != no_aggregate && owner[c] == unset) owner[c] = static_cast<std::uint32_t>(part);
  }
  return owner;
}

AmgPart amg_part(const AmgHierarchy& whole, const NodePart& part, std::span<const std::size_t> node_starts) {
  const std::vector<AmgLevel>& levels = whole.levels();
  const AmgLevel& fine = levels.front();
  if (levels.size() < 2)
    throw core::Error("AMG of a split run: the hierarchy has one level; a part needs a coarser one to share");
  if (part.part + 1 >= node_starts.size() || node_starts[part.part] != part.first ||
      node_starts[part.part + 1] != part.first + part.owned || node_starts.back() != fine.a.rows)
    throw core::Error("AMG of a split run: part " + std::to_string(part.part) + " owns nodes [" +
                      std::to_string(part.first) + ", " + std::to_string(part.first + part.owned) +
                      "), which the parts' ranges of a hierarchy of " + std::to_string(fine.a.rows) +
                      " nodes do not give it");
  // The halo is sorted: its groups follow the owning parts, whose ranges ascend.
  const auto local_of = [&](std::int32_t global) {
    const auto g = static_cast<std::uint32_t>(global);
    if (g >= part.first && g < part.first + part.owned) return static_cast<std::int32_t>(g - part.first);
    const auto at = std::lower_bound(part.halo.begin(), part.halo.end(), g);
    if (at == part.halo.end() || *at != g)
      throw core::Error("AMG of a split run: node " + std::to_string(g) + " is a neighbour of part " +
                        std::to_string(part.part) + " but not in its halo");
    return static_cast<std::int32_t>(part.owned + static_cast<std::size_t>(at - part.halo.begin()));
  };
  const auto own_node = [&part](std::size_t i) { return part.first + i; };
  const auto same = [](std::int32_t c) { return c; };
  AmgPart out;
  AmgLevel finest;
  finest.a = row_slice(fine.a, part.owned, part.local_count(), own_node, local_of);
  finest.spectral_radius = fine.spectral_radius;
  for (std::size_t i = 0; i < part.local_count(); ++i) finest.smoother.push_back(fine.smoother[part.global(i)]);

  std::vector<std::uint32_t> owner;
  if (levels.size() > 2) owner = coarse_owners(fine, node_starts);
  std::vector<bool> owns(node_starts.size() - 1, false);
  for (std::uint32_t j : owner) owns.at(j) = true;
  if (owner.empty() || std::find(owns.begin(), owns.end(), false) != owns.end()) {
    // The first coarse level stays whole: P's columns are global.
    finest.p = row_slice(fine.p, part.owned, fine.p.cols, own_node, same);
    finest.r = transpose(finest.p);
    out.levels.push_back(std::move(finest));
    return out;
  }
  const AmgLevel& coarse = levels[1];
  std::vector<std::uint32_t> global;
  HaloLayout layout = coarse_layout(fine, coarse, owner, node_starts, part.part, global);
  std::vector<std::int32_t> local(coarse.a.rows, -1);
  for (std::size_t k = 0; k < global.size(); ++k) local[global[k]] = static_cast<std::int32_t>(k);
  for (std::size_t k = 0; k < layout.halo.size(); ++k)
    local[layout.halo[k]] = static_cast<std::int32_t>(global.size() + k);
  const auto coarse_local = [&local](std::int32_t c) { return local[c]; };
  finest.p = row_slice(fine.p, part.owned, layout.local_count(), own_node, coarse_local);
  finest.r = transpose(finest.p);
  AmgLevel second;
  const auto own_coarse = [&global](std::size_t k) { return global[k]; };
  second.a = row_slice(coarse.a, layout.owned, layout.local_count(), own_coarse, coarse_local);
  second.p = row_slice(coarse.p, layout.owned, coarse.p.cols, own_coarse, same);
  second.r = transpose(second.p);
  second.spectral_radius = coarse.spectral_radius;
  for (std::size_t k = 0; k < layout.local_count(); ++k)
    second.smoother.push_back(coarse.smoother[k < global.size() ? global[k] : layout.halo[k - global.size()]]);
  out.levels.push_back(std::move(finest));
  out.levels.push_back(std::move(second));
  out.layouts.push_back(std::move(layout));
  return out;
}

}  // namespace hetflow::fem
