#include "hetflow/fem/node_partition.hpp"

#include <algorithm>
#include <optional>
#include <sstream>
#include <string>
#include <utility>

#include "hetflow/core/error.hpp"
#include "hetflow/core/partition.hpp"

namespace hetflow::fem {
namespace {

bool contains(const core::Share& range, std::uint32_t node) {
  return node >= range.offset && node - range.offset < range.count;
}

// The contiguous node ranges of the parts; a part without a node has no rows to run, so it is refused.
core::Partition node_ranges(std::size_t nodes, std::span<const double> weights) {
  core::Partition split(nodes, 1, weights);
  for (std::size_t k = 0; k < split.parts(); ++k) {
    if (split.share(k).count > 0) continue;
    std::ostringstream message;
    message << "cannot split " << nodes << " nodes into " << split.parts() << " parts by the weights";
    for (double w : weights) message << ' ' << w;
    message << ": part " << k << " would own no node";
    throw core::Error(message.str());
  }
  return split;
}

// The distinct columns of the rows in `rows` that `keep` accepts, sorted ascending.
template <class Keep>
std::vector<std::uint32_t> referenced(const EdgeData& data, const core::Share& rows, Keep keep) {
  std::vector<std::uint32_t> nodes;
  for (std::size_t k = data.row_start[rows.offset]; k < data.row_start[rows.offset + rows.count]; ++k)
    if (keep(data.col[k])) nodes.push_back(data.col[k]);
  std::sort(nodes.begin(), nodes.end());
  nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
  return nodes;
}

// The local index of a global node, empty when the node is neither own nor halo.
std::optional<std::uint32_t> local_index(const NodePart& p, std::uint32_t node) {
  if (node >= p.first && node - p.first < p.owned) return static_cast<std::uint32_t>(node - p.first);
  const auto it = std::lower_bound(p.halo.begin(), p.halo.end(), node);
  if (it == p.halo.end() || *it != node) return std::nullopt;
  return static_cast<std::uint32_t>(p.owned + static_cast<std::size_t>(it - p.halo.begin()));
}

// Own rows take the global rows' edges, re-sorted by local column because a halo node below `first`
// gets a local index above the own ones; the kernels and the pattern rule need ascending columns. Halo
// rows stay empty: their values come from their owners.
void build_local_graph(const EdgeData& global, NodePart& p) {
  EdgeData& local = p.data;
  local.row_start.assign(1, 0);
  std::vector<std::pair<std::uint32_t, std::size_t>> row;  // (local column, global edge)
  for (std::size_t i = 0; i < p.owned; ++i) {
    row.clear();
    const std::size_t g = p.first + i;
    for (std::size_t k = global.row_start[g]; k < global.row_start[g + 1]; ++k)
      row.emplace_back(*local_index(p, global.col[k]), k);
    std::sort(row.begin(), row.end());
    for (const auto& [column, edge] : row) {
      local.col.push_back(column);
      local.records.insert(local.records.end(), global.record(edge), global.record(edge) + edge_slot::count);
    }
    local.row_start.push_back(static_cast<std::uint32_t>(local.col.size()));
  }
  local.row_start.resize(p.local_count() + 1, local.row_start.back());
  for (std::size_t l = 0; l < p.local_count(); ++l) {
    const std::uint32_t g = p.global(l);
    local.lumped_mass.push_back(global.lumped_mass[g]);
    local.inv_lumped_mass.push_back(global.inv_lumped_mass[g]);
    local.h_min.push_back(global.h_min[g]);
  }
  build_matrix_pattern(local);
}

// The entries of a constraint list whose nodes are local: (local index, position in the list), sorted by
// local index.
using Entries = std::vector<std::pair<std::uint32_t, std::size_t>>;

Entries local_entries(const NodePart& p, const std::vector<std::uint32_t>& nodes) {
  Entries entries;
  for (std::size_t k = 0; k < nodes.size(); ++k)
    if (const auto local = local_index(p, nodes[k])) entries.emplace_back(*local, k);
  std::sort(entries.begin(), entries.end());
  return entries;
}

std::vector<std::uint32_t> nodes_of(const Entries& entries) {
  std::vector<std::uint32_t> nodes;
  for (const auto& entry : entries) nodes.push_back(entry.first);
  return nodes;
}

template <class T>
std::vector<T> pick(const std::vector<T>& values, const Entries& entries) {
  std::vector<T> out;
  for (const auto& entry : entries) out.push_back(values[entry.second]);
  return out;
}

BoundaryConstraints local_constraints(const BoundaryConstraints& c, const NodePart& p) {
  BoundaryConstraints out;
  const Entries crease = local_entries(p, c.crease_nodes);
  out.crease_nodes = nodes_of(crease);
  out.crease_tangents = pick(c.crease_tangents, crease);
  out.corner_nodes = nodes_of(local_entries(p, c.corner_nodes));
  const Entries slip = local_entries(p, c.slip_nodes);
  out.slip_nodes = nodes_of(slip);
  out.slip_normals = pick(c.slip_normals, slip);
  const Entries dirichlet = local_entries(p, c.dirichlet_nodes);
  out.dirichlet_nodes = nodes_of(dirichlet);
  out.dirichlet_values = pick(c.dirichlet_values, dirichlet);
  out.dirichlet_ramp_times = pick(c.dirichlet_ramp_times, dirichlet);
  // The flux areas stay with the whole mesh: FlowSolver balances whole sets of values before it splits them.
  const Entries pressure = local_entries(p, c.pressure_nodes);
  out.pressure_nodes = nodes_of(pressure);
  out.pressure_values = pick(c.pressure_values, pressure);
  if (c.reference_pressure_node) out.reference_pressure_node = local_index(p, *c.reference_pressure_node);
  return out;
}

}  // namespace

std::uint32_t NodePart::global(std::size_t local) const {
  return local < owned ? static_cast<std::uint32_t>(first + local) : halo.at(local - owned);
}

NodePart make_node_part(const EdgeData& data, const BoundaryConstraints& constraints, std::span<const double> weights,
                        std::size_t part) {
  const core::Partition split = node_ranges(data.node_count(), weights);
  if (part >= split.parts())
    throw core::Error("node partition: part " + std::to_string(part) + " asked of " + std::to_string(split.parts()) +
                      " parts");
  check_constraints(constraints, data.node_count());
  const core::Share own = split.share(part);
  NodePart p;
  p.part = part;
  p.first = own.offset;
  p.owned = own.count;
  // Parts are contiguous ranges in part order, so the halo sorted by global index is already grouped by
  // owning part.
  p.halo = referenced(data, own, [&own](std::uint32_t node) { return !contains(own, node); });
  for (std::size_t j = 0; j < split.parts(); ++j)
    p.halo_begin.push_back(static_cast<std::size_t>(
        std::lower_bound(p.halo.begin(), p.halo.end(), split.share(j).offset) - p.halo.begin()));
  p.halo_begin.push_back(p.halo.size());
  // What part j needs of this part is read from j's own rows, so the lists match j's halo without
  // assuming the graph symmetric.
  p.send.resize(split.parts());
  for (std::size_t j = 0; j < split.parts(); ++j) {
    if (j == part) continue;
    p.send[j] = referenced(data, split.share(j), [&own](std::uint32_t node) { return contains(own, node); });
    for (std::uint32_t& node : p.send[j]) node -= static_cast<std::uint32_t>(p.first);
  }
  build_local_graph(data, p);
  p.constraints = local_constraints(constraints, p);
  return p;
}

}  // namespace hetflow::fem
