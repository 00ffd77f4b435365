#include "hetflow/fem/edge_data.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "hetflow/core/error.hpp"

namespace hetflow::fem {

namespace {

using Vec = std::array<double, 3>;

Vec sub(const Point& a, const Point& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
Vec cross(const Vec& a, const Vec& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
double dot(const Vec& a, const Vec& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
double norm(const Vec& a) { return std::sqrt(dot(a, a)); }

// A tet's volume and the constant gradients of its four shape functions.
struct TetGeometry {
  double volume = 0;
  std::array<Vec, 4> grad{};
};

// The gradients come from the inverse Jacobian's rows, written as cross products over the signed
// determinant, so they are right for either orientation; the volume is the determinant's magnitude.
// A determinant below 1e-12 of the product of the edge lengths counts as zero volume.
TetGeometry tet_geometry(const Mesh& mesh, std::size_t t) {
  const Tet& tet = mesh.tets[t];
  const Point& x0 = mesh.nodes[tet[0]];
  const Vec e1 = sub(mesh.nodes[tet[1]], x0), e2 = sub(mesh.nodes[tet[2]], x0), e3 = sub(mesh.nodes[tet[3]], x0);
  const Vec c23 = cross(e2, e3), c31 = cross(e3, e1), c12 = cross(e1, e2);
  const double det = dot(e1, c23);
  if (!(std::abs(det) > 1e-12 * norm(e1) * norm(e2) * norm(e3)))
    throw core::Error("tet " + std::to_string(t) + " (nodes " + std::to_string(tet[0]) + " " + std::to_string(tet[1]) +
                      " " + std::to_string(tet[2]) + " " + std::to_string(tet[3]) + ") has zero volume");
  TetGeometry g;
  g.volume = std::abs(det) / 6;
  for (std::size_t c = 0; c < 3; ++c) {
    g.grad[1][c] = c23[c] / det;
    g.grad[2][c] = c31[c] / det;
    g.grad[3][c] = c12[c] / det;
    g.grad[0][c] = -(g.grad[1][c] + g.grad[2][c] + g.grad[3][c]);
  }
  return g;
}

void check_tet_nodes(const Mesh& mesh, std::size_t t) {
  const Tet& tet = mesh.tets[t];
  for (std::size_t a = 0; a < 4; ++a) {
    if (tet[a] >= mesh.nodes.size())
      throw core::Error("tet " + std::to_string(t) + " names node " + std::to_string(tet[a]) + " but the mesh has " +
                        std::to_string(mesh.nodes.size()) + " nodes");
    for (std::size_t b = 0; b < a; ++b)
      if (tet[a] == tet[b])
        throw core::Error("tet " + std::to_string(t) + " names node " + std::to_string(tet[a]) + " twice");
  }
}

// The sorted neighbour lists as CSR: every tet lists its three other nodes in each node's bucket, and
// each bucket is then sorted and stripped of repeats.
void build_graph(const Mesh& mesh, EdgeData& data) {
  const std::size_t n = mesh.nodes.size();
  std::vector<std::uint64_t> start(n + 1, 0);
  for (const Tet& tet : mesh.tets)
    for (std::uint32_t node : tet) start[node + 1] += 3;
  for (std::size_t i = 0; i < n; ++i) start[i + 1] += start[i];
  std::vector<std::uint32_t> bucket(start[n]);
  std::vector<std::uint64_t> fill(start.begin(), start.end() - 1);
  for (const Tet& tet : mesh.tets)
    for (std::size_t a = 0; a < 4; ++a)
      for (std::size_t b = 0; b < 4; ++b)
        if (a != b) bucket[fill[tet[a]]++] = tet[b];

  std::uint64_t edges = 0;
  std::vector<std::uint64_t> row_start(n + 1, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const auto first = bucket.begin() + static_cast<std::ptrdiff_t>(start[i]);
    const auto last = bucket.begin() + static_cast<std::ptrdiff_t>(start[i + 1]);
    if (first == last) throw core::Error("node " + std::to_string(i) + " belongs to no tet");
    std::sort(first, last);
    const auto unique_end = std::unique(first, last);
    const auto out = bucket.begin() + static_cast<std::ptrdiff_t>(edges);
    if (out != first) std::copy(first, unique_end, out);  // compacts in place: out stays before first
    edges += static_cast<std::uint64_t>(unique_end - first);
    row_start[i + 1] = edges;
  }
  check_index_range(edges, n);
  bucket.resize(edges);
  data.col = std::move(bucket);
  data.row_start.assign(row_start.begin(), row_start.end());
}

std::size_t edge_index(const EdgeData& data, std::uint32_t i, std::uint32_t j) {
  const auto first = data.col.begin() + data.row_start[i];
  const auto last = data.col.begin() + data.row_start[i + 1];
  return static_cast<std::size_t>(std::lower_bound(first, last, j) - data.col.begin());
}

void add_tet(const TetGeometry& g, const Tet& tet, EdgeData& data) {
  const double v = g.volume;
  for (std::size_t a = 0; a < 4; ++a) {
    data.lumped_mass[tet[a]] += v / 4;
    data.h_min[tet[a]] = std::min(data.h_min[tet[a]], 1 / norm(g.grad[a]));
    for (std::size_t b = 0; b < 4; ++b) {
      if (a == b) continue;
      double* r = data.records.data() + edge_slot::count * edge_index(data, tet[a], tet[b]);
      r[edge_slot::mass] += v / 20;
      for (std::size_t row = 0; row < 3; ++row)
        for (std::size_t c = 0; c < 3; ++c) r[edge_slot::laplacian + 3 * row + c] += v * g.grad[a][row] * g.grad[b][c];
      for (std::size_t c = 0; c < 3; ++c) {
        r[edge_slot::d + c] += v / 4 * g.grad[b][c];
        r[edge_slot::g + c] += v / 4 * g.grad[a][c];
      }
    }
  }
}

}  // namespace

// The diagonal goes before the first neighbour above I; an off-diagonal entry keeps its edge index.
void build_matrix_pattern(EdgeData& data) {
  const std::size_t n = data.node_count();
  data.matrix_row_start.resize(n + 1);
  data.matrix_col.clear();
  data.matrix_edge.clear();
  data.matrix_col.reserve(data.edge_count() + n);
  data.matrix_edge.reserve(data.edge_count() + n);
  data.matrix_row_start[0] = 0;
  for (std::uint32_t i = 0; i < n; ++i) {
    bool diagonal_done = false;
    for (std::uint32_t k = data.row_start[i]; k < data.row_start[i + 1]; ++k) {
      if (!diagonal_done && data.col[k] > i) {
        data.matrix_col.push_back(i);
        data.matrix_edge.push_back(no_edge);
        diagonal_done = true;
      }
      data.matrix_col.push_back(data.col[k]);
      data.matrix_edge.push_back(k);
    }
    if (!diagonal_done) {
      data.matrix_col.push_back(i);
      data.matrix_edge.push_back(no_edge);
    }
    data.matrix_row_start[i + 1] = static_cast<std::uint32_t>(data.matrix_col.size());
  }
}

void check_index_range(std::uint64_t directed_edges, std::uint64_t nodes) {
  constexpr std::uint64_t limit = std::numeric_limits<std::uint32_t>::max();
  if (directed_edges + nodes > limit)
    throw core::Error("the mesh has " + std::to_string(directed_edges) + " directed edges and " + std::to_string(nodes) +
                      " nodes; the pressure matrix's " + std::to_string(directed_edges + nodes) +
                      " entries exceed the 32-bit index limit of " + std::to_string(limit));
}

EdgeData build_edge_data(const Mesh& mesh) {
  for (std::size_t t = 0; t < mesh.tets.size(); ++t) check_tet_nodes(mesh, t);
  EdgeData data;
  build_graph(mesh, data);
  const std::size_t n = mesh.nodes.size();
  data.records.assign(edge_slot::count * data.edge_count(), 0.0);
  data.lumped_mass.assign(n, 0.0);
  data.h_min.assign(n, std::numeric_limits<double>::infinity());
  for (std::size_t t = 0; t < mesh.tets.size(); ++t) add_tet(tet_geometry(mesh, t), mesh.tets[t], data);
  data.inv_lumped_mass.resize(n);
  for (std::size_t i = 0; i < n; ++i) data.inv_lumped_mass[i] = 1 / data.lumped_mass[i];
  build_matrix_pattern(data);
  return data;
}

}  // namespace hetflow::fem
