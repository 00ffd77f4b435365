#include "hetflow/fem/amg_part.hpp"

#include <algorithm>
#include <string>

#include "hetflow/core/error.hpp"
#include "hetflow/fem/amg_sparse.hpp"

namespace hetflow::fem {
namespace {

// Rows [first, first + count) of m, each column c replaced by column(c).
template <class Column>
SparseRows row_slice(const SparseRows& m, std::size_t first, std::size_t count, std::size_t cols,
                     const Column& column) {
  SparseRows s;
  s.rows = count;
  s.cols = cols;
  s.row_start.push_back(0);
  for (std::size_t i = first; i < first + count; ++i) {
    for (auto k = static_cast<std::size_t>(m.row_start[i]); k < static_cast<std::size_t>(m.row_start[i + 1]); ++k) {
      s.col.push_back(column(m.col[k]));
      s.values.push_back(m.values[k]);
    }
    s.row_start.push_back(static_cast<std::int32_t>(s.col.size()));
  }
  return s;
}

}  // namespace

AmgLevel amg_part_level(const AmgHierarchy& whole, const NodePart& part) {
  const std::vector<AmgLevel>& levels = whole.levels();
  const AmgLevel& fine = levels.front();
  if (levels.size() < 2)
    throw core::Error("AMG of a split run: the hierarchy has one level; a part needs a coarser one to share");
  if (part.first + part.owned > fine.a.rows)
    throw core::Error("AMG of a split run: part " + std::to_string(part.part) + " owns nodes up to " +
                      std::to_string(part.first + part.owned) + " of a hierarchy of " + std::to_string(fine.a.rows));
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
  AmgLevel level;
  level.a = row_slice(fine.a, part.first, part.owned, part.local_count(), local_of);
  level.p = row_slice(fine.p, part.first, part.owned, fine.p.cols, [](std::int32_t c) { return c; });
  level.r = transpose(level.p);
  level.spectral_radius = fine.spectral_radius;
  for (std::size_t i = 0; i < part.local_count(); ++i) level.smoother.push_back(fine.smoother[part.global(i)]);
  return level;
}

}  // namespace hetflow::fem
