#include "hetflow/fem/amg_aggregation.hpp"

#include <cmath>

namespace hetflow::fem {

std::vector<std::int32_t> aggregate_nodes(const SparseRows& a, double theta, std::int32_t& count) {
  const std::size_t n = a.rows;
  const std::vector<double> d = diagonal(a);
  const auto strong = [&](std::size_t i, std::int32_t k) {
    const auto j = static_cast<std::size_t>(a.col[k]);
    return j != i && std::abs(a.values[k]) >= theta * std::sqrt(std::abs(d[i] * d[j]));
  };
  std::vector<std::int32_t> agg(n, no_aggregate);
  count = 0;
  // Pass 1: untouched strong neighbourhoods.
  for (std::size_t i = 0; i < n; ++i) {
    if (agg[i] != no_aggregate) continue;
    bool free = true, any = false;
    for (std::int32_t k = a.row_start[i]; k < a.row_start[i + 1] && free; ++k) {
      if (!strong(i, k)) continue;
      any = true;
      free = agg[a.col[k]] == no_aggregate;
    }
    if (!any || !free) continue;
    agg[i] = count;
    for (std::int32_t k = a.row_start[i]; k < a.row_start[i + 1]; ++k)
      if (strong(i, k)) agg[a.col[k]] = count;
    ++count;
  }
  // Pass 2: join the pass-1 aggregate of the strongest neighbour.
  const std::vector<std::int32_t> first = agg;
  for (std::size_t i = 0; i < n; ++i) {
    if (first[i] != no_aggregate) continue;
    double best = 0;
    for (std::int32_t k = a.row_start[i]; k < a.row_start[i + 1]; ++k) {
      if (!strong(i, k) || first[a.col[k]] == no_aggregate) continue;
      if (std::abs(a.values[k]) > best) {
        best = std::abs(a.values[k]);
        agg[i] = first[a.col[k]];
      }
    }
  }
  // Pass 3: the rest with their unaggregated strong neighbours.
  for (std::size_t i = 0; i < n; ++i) {
    if (agg[i] != no_aggregate) continue;
    bool any = false;
    for (std::int32_t k = a.row_start[i]; k < a.row_start[i + 1]; ++k) {
      if (!strong(i, k)) continue;
      any = true;
      if (agg[a.col[k]] == no_aggregate) agg[a.col[k]] = count;
    }
    if (any) agg[i] = count++;
  }
  return agg;
}

SparseRows tentative_prolongation(const std::vector<std::int32_t>& aggregate, std::int32_t count) {
  std::vector<double> size(static_cast<std::size_t>(count), 0.0);
  for (std::int32_t c : aggregate)
    if (c != no_aggregate) size[c] += 1;
  SparseRows p;
  p.rows = aggregate.size();
  p.cols = static_cast<std::size_t>(count);
  p.row_start.push_back(0);
  for (std::int32_t c : aggregate) {
    if (c != no_aggregate) {
      p.col.push_back(c);
      p.values.push_back(1 / std::sqrt(size[c]));
    }
    p.row_start.push_back(static_cast<std::int32_t>(p.col.size()));
  }
  return p;
}

}  // namespace hetflow::fem
