#include "hetflow/ode/sparse_lu.hpp"

#include <algorithm>
#include <iterator>
#include <string>

#include "hetflow/core/error.hpp"

namespace hetflow::ode {
namespace {

// sparse_lu.cl's header: the offset of each part of the plan.
enum Header { entries_at, gather_at, rows_at, diagonal_at, order_at, lower_at, upper_at, updates_at, header_size };

using Sets = std::vector<std::vector<int>>;

// Minimum degree on the elimination graph (Tinney and Walker's scheme 2, ties to the lowest index):
// the order of the nodes and, for each node, its neighbours still in the graph when it goes, which are
// the columns of its row of U (and the rows of its column of L).
std::vector<int> minimum_degree(Sets graph, Sets& reach) {
  const int n = static_cast<int>(graph.size());
  std::vector<int> order;
  std::vector<char> gone(graph.size(), 0);
  for (int step = 0; step < n; ++step) {
    int v = -1;
    for (int u = 0; u < n; ++u)
      if (!gone[u] && (v < 0 || graph[u].size() < graph[v].size())) v = u;
    gone[v] = 1;
    order.push_back(v);
    for (int a : graph[v]) {
      std::vector<int> merged;
      std::set_union(graph[a].begin(), graph[a].end(), graph[v].begin(), graph[v].end(), std::back_inserter(merged));
      std::erase_if(merged, [&](int w) { return w == a || w == v; });
      graph[a] = std::move(merged);
    }
    reach[v] = std::move(graph[v]);
    graph[v].clear();
  }
  return order;
}

// Entries listed by column, as [start of each column and the end, (position, row) of each entry].
void append_columns(const std::vector<std::vector<std::array<int, 2>>>& columns, std::vector<std::int32_t>& plan) {
  std::int32_t start = 0;
  for (const auto& c : columns) {
    plan.push_back(start);
    start += static_cast<std::int32_t>(c.size());
  }
  plan.push_back(start);
  for (const auto& c : columns)
    for (const auto& [position, row] : c) plan.insert(plan.end(), {position, row});
}

}  // namespace

SparseLu sparse_lu(int n, std::span<const std::array<int, 2>> pattern) {
  if (n <= 0) throw core::Error("sparse LU: matrix size n = " + std::to_string(n) + ": expected at least 1");
  Sets graph(static_cast<std::size_t>(n));
  for (const auto& [r, c] : pattern) {
    if (r < 0 || r >= n || c < 0 || c >= n)
      throw core::Error("sparse LU: Jacobian pattern entry (" + std::to_string(r) + ", " + std::to_string(c) +
                        ") lies outside the " + std::to_string(n) + " x " + std::to_string(n) + " matrix");
    if (r == c) continue;
    graph[r].push_back(c);
    graph[c].push_back(r);
  }
  for (std::vector<int>& g : graph) {
    std::sort(g.begin(), g.end());
    g.erase(std::unique(g.begin(), g.end()), g.end());
  }
  Sets reach(graph.size());
  const std::vector<int> order = minimum_degree(std::move(graph), reach);
  std::vector<int> position(order.size());
  for (int i = 0; i < n; ++i) position[order[i]] = i;

  // Rows of the factors in permuted indices: L's columns below the diagonal, U's above.
  Sets lower(order.size()), upper(order.size());
  for (int i = 0; i < n; ++i) {
    for (int w : reach[order[i]]) upper[i].push_back(position[w]);
    std::sort(upper[i].begin(), upper[i].end());
    for (int j : upper[i]) lower[j].push_back(i);  // ascending, as i is
  }

  SparseLu lu;
  std::vector<std::int32_t>& plan = lu.plan;
  plan.assign(header_size, 0);
  std::vector<std::int32_t> rows{0}, columns, diagonal;
  for (int i = 0; i < n; ++i) {
    columns.insert(columns.end(), lower[i].begin(), lower[i].end());
    diagonal.push_back(static_cast<std::int32_t>(columns.size()));
    columns.push_back(i);
    columns.insert(columns.end(), upper[i].begin(), upper[i].end());
    rows.push_back(static_cast<std::int32_t>(columns.size()));
  }
  lu.entries = static_cast<int>(columns.size());
  plan[entries_at] = lu.entries;

  // Each entry reads J at its place in the dense matrix, which is zero outside the pattern (fill).
  plan[gather_at] = static_cast<std::int32_t>(plan.size());
  for (int i = 0; i < n; ++i)
    for (int p = rows[i]; p < rows[i + 1]; ++p) plan.push_back(order[i] + order[columns[p]] * n);
  plan[rows_at] = static_cast<std::int32_t>(plan.size());
  plan.insert(plan.end(), rows.begin(), rows.end());
  plan[diagonal_at] = static_cast<std::int32_t>(plan.size());
  plan.insert(plan.end(), diagonal.begin(), diagonal.end());
  plan[order_at] = static_cast<std::int32_t>(plan.size());
  plan.insert(plan.end(), order.begin(), order.end());

  // Column k of L and column j of U (the rows i < j of U's entries in column j, taken last to first by
  // the backward substitution), and pivot k's updates: for each row i of L's column k, the places in row
  // i of U's row k.
  std::vector<std::vector<std::array<int, 2>>> lower_columns(order.size()), upper_columns(order.size());
  for (int i = 0; i < n; ++i) {
    for (int p = rows[i]; p < diagonal[i]; ++p) lower_columns[columns[p]].push_back({p, i});
    for (int p = diagonal[i] + 1; p < rows[i + 1]; ++p) upper_columns[columns[p]].push_back({p, i});
  }
  plan[lower_at] = static_cast<std::int32_t>(plan.size());
  append_columns(lower_columns, plan);
  plan[upper_at] = static_cast<std::int32_t>(plan.size());
  append_columns(upper_columns, plan);

  std::vector<std::int32_t> starts{0}, updates;
  std::vector<int> where(order.size(), -1);
  for (int k = 0; k < n; ++k) {
    for (const auto& [position, i] : lower_columns[k]) {
      for (int p = rows[i]; p < rows[i + 1]; ++p) where[columns[p]] = p;
      for (int p = diagonal[k] + 1; p < rows[k + 1]; ++p) {
        if (where[columns[p]] < 0) throw core::Error("sparse LU: the symbolic factorisation missed a fill entry");
        updates.push_back(where[columns[p]]);
      }
      for (int p = rows[i]; p < rows[i + 1]; ++p) where[columns[p]] = -1;
    }
    starts.push_back(static_cast<std::int32_t>(updates.size()));
  }
  lu.updates = updates.size();
  plan[updates_at] = static_cast<std::int32_t>(plan.size());
  plan.insert(plan.end(), starts.begin(), starts.end());
  plan.insert(plan.end(), updates.begin(), updates.end());
  return lu;
}

}  // namespace hetflow::ode
