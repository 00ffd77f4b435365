#include "hetflow/fem/renumber.hpp"

#include <algorithm>
#include <numeric>

namespace hetflow::fem {
namespace {

std::vector<std::vector<std::uint32_t>> node_graph(const Mesh& mesh) {
  std::vector<std::vector<std::uint32_t>> adj(mesh.nodes.size());
  for (const auto& t : mesh.tets)
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j)
        if (i != j) adj[t[i]].push_back(t[j]);
  for (auto& a : adj) {
    std::sort(a.begin(), a.end());
    a.erase(std::unique(a.begin(), a.end()), a.end());
  }
  return adj;
}

// Breadth-first levels from `start`, visiting neighbours by increasing degree (Cuthill–McKee); appends
// the visit order to `order` and returns the last node reached.
std::uint32_t cuthill_mckee(const std::vector<std::vector<std::uint32_t>>& adj, std::uint32_t start,
                            std::vector<bool>& seen, std::vector<std::uint32_t>& order) {
  const std::size_t first = order.size();
  order.push_back(start);
  seen[start] = true;
  for (std::size_t head = first; head < order.size(); ++head) {
    std::vector<std::uint32_t> next;
    for (auto m : adj[order[head]])
      if (!seen[m]) {
        seen[m] = true;
        next.push_back(m);
      }
    std::stable_sort(next.begin(), next.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return adj[a].size() < adj[b].size(); });
    order.insert(order.end(), next.begin(), next.end());
  }
  return order.back();
}

// Reverse Cuthill–McKee per connected component, each started from a pseudo-peripheral node: the last
// node of a first search from the component's lowest-degree node.
std::vector<std::uint32_t> rcm_order(const Mesh& mesh) {
  const auto adj = node_graph(mesh);
  const std::size_t n = adj.size();
  std::vector<std::uint32_t> by_degree(n);
  std::iota(by_degree.begin(), by_degree.end(), 0u);
  std::stable_sort(by_degree.begin(), by_degree.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return adj[a].size() < adj[b].size(); });
  std::vector<bool> seen(n, false);
  std::vector<std::uint32_t> order;
  order.reserve(n);
  for (auto start : by_degree) {
    if (seen[start]) continue;
    std::vector<bool> probe_seen = seen;
    std::vector<std::uint32_t> probe;
    const std::uint32_t far = cuthill_mckee(adj, start, probe_seen, probe);
    cuthill_mckee(adj, far, seen, order);
  }
  std::reverse(order.begin(), order.end());
  return order;
}

// Spreads the low 21 bits of v three apart, for interleaving.
std::uint64_t spread_bits(std::uint64_t v) {
  v &= 0x1fffff;
  v = (v | v << 32) & 0x1f00000000ffffull;
  v = (v | v << 16) & 0x1f0000ff0000ffull;
  v = (v | v << 8) & 0x100f00f00f00f00full;
  v = (v | v << 4) & 0x10c30c30c30c30c3ull;
  v = (v | v << 2) & 0x1249249249249249ull;
  return v;
}

// Nodes sorted by the Morton code of their coordinates quantised to 21 bits over the bounding box.
std::vector<std::uint32_t> morton_order(const Mesh& mesh) {
  const std::size_t n = mesh.nodes.size();
  Point lo{0, 0, 0}, hi{0, 0, 0};
  if (n > 0) lo = hi = mesh.nodes[0];
  for (const auto& p : mesh.nodes)
    for (int d = 0; d < 3; ++d) {
      lo[d] = std::min(lo[d], p[d]);
      hi[d] = std::max(hi[d], p[d]);
    }
  std::vector<std::uint64_t> code(n, 0);
  for (std::size_t i = 0; i < n; ++i)
    for (int d = 0; d < 3; ++d) {
      const double extent = hi[d] - lo[d];
      const double s = extent > 0.0 ? (mesh.nodes[i][d] - lo[d]) / extent : 0.0;
      code[i] |= spread_bits(std::uint64_t(s * double((1u << 21) - 1))) << d;
    }
  std::vector<std::uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return code[a] < code[b]; });
  return order;
}

}  // namespace

Renumbered renumber(const Mesh& mesh, Ordering ordering) {
  const auto order = ordering == Ordering::rcm ? rcm_order(mesh) : morton_order(mesh);
  Renumbered out;
  out.new_index.resize(order.size());
  for (std::uint32_t i = 0; i < order.size(); ++i) out.new_index[order[i]] = i;
  out.mesh.patches = mesh.patches;
  out.mesh.nodes.reserve(order.size());
  for (auto old : order) out.mesh.nodes.push_back(mesh.nodes[old]);
  out.mesh.tets = mesh.tets;
  for (auto& t : out.mesh.tets)
    for (auto& n : t) n = out.new_index[n];
  out.mesh.boundary = mesh.boundary;
  for (auto& f : out.mesh.boundary)
    for (auto& n : f.nodes) n = out.new_index[n];
  return out;
}

std::uint32_t bandwidth(const Mesh& mesh) {
  std::uint32_t b = 0;
  for (const auto& t : mesh.tets)
    for (int i = 0; i < 4; ++i)
      for (int j = i + 1; j < 4; ++j) b = std::max(b, t[i] > t[j] ? t[i] - t[j] : t[j] - t[i]);
  return b;
}

}  // namespace hetflow::fem
