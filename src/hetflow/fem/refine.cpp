#include "hetflow/fem/refine.hpp"

#include <unordered_map>

#include "hetflow/fem/mesh_keys.hpp"
#include "hetflow/fem/tet_geometry.hpp"

namespace hetflow::fem {
namespace {

// The midpoint nodes, one per undirected edge, created on first request.
class Midpoints {
 public:
  explicit Midpoints(Mesh& mesh) : mesh_(mesh) {}
  std::uint32_t operator()(std::uint32_t a, std::uint32_t b) {
    auto [it, inserted] = index_.try_emplace(edge_key(a, b), std::uint32_t(mesh_.nodes.size()));
    if (inserted) mesh_.nodes.push_back(midpoint(mesh_.nodes[a], mesh_.nodes[b]));
    return it->second;
  }

 private:
  Mesh& mesh_;
  std::unordered_map<std::uint64_t, std::uint32_t> index_;
};

void split_tet(const Tet& t, Midpoints& mid, Mesh& out) {
  std::uint32_t m[4][4];
  for (int i = 0; i < 4; ++i)
    for (int j = i + 1; j < 4; ++j) m[i][j] = m[j][i] = mid(t[i], t[j]);
  // The corner tets are copies of the parent scaled by 1/2 about a vertex: same orientation.
  out.tets.push_back({t[0], m[0][1], m[0][2], m[0][3]});
  out.tets.push_back({m[0][1], t[1], m[1][2], m[1][3]});
  out.tets.push_back({m[0][2], m[1][2], t[2], m[2][3]});
  out.tets.push_back({m[0][3], m[1][3], m[2][3], t[3]});
  // The octahedron's diagonals join the midpoints of opposite edges (ij, kl).
  constexpr int kPairs[3][4] = {{0, 1, 2, 3}, {0, 2, 1, 3}, {0, 3, 1, 2}};
  int best = 0;
  double shortest = 0.0;
  for (int p = 0; p < 3; ++p) {
    const auto [i, j, k, l] = kPairs[p];
    const double len = distance(out.nodes[m[i][j]], out.nodes[m[k][l]]);
    if (p == 0 || len < shortest) {
      best = p;
      shortest = len;
    }
  }
  const auto [i, j, k, l] = kPairs[best];
  // Around the diagonal (ij, kl) the other four midpoints form the cycle ik, il, jl, jk.
  const std::uint32_t ring[4] = {m[i][k], m[i][l], m[j][l], m[j][k]};
  const bool parent_positive = signed_volume(out, t) > 0.0;
  for (int r = 0; r < 4; ++r) {
    Tet child{m[i][j], m[k][l], ring[r], ring[(r + 1) % 4]};
    if ((signed_volume(out, child) > 0.0) != parent_positive) std::swap(child[2], child[3]);
    out.tets.push_back(child);
  }
}

}  // namespace

Mesh refine(const Mesh& mesh) {
  Mesh out;
  out.nodes = mesh.nodes;
  out.patches = mesh.patches;
  out.tets.reserve(8 * mesh.tets.size());
  out.boundary.reserve(4 * mesh.boundary.size());
  Midpoints mid(out);
  for (const auto& tet : mesh.tets) split_tet(tet, mid, out);
  for (const auto& face : mesh.boundary) {
    const auto [a, b, c] = face.nodes;
    const std::uint32_t ab = mid(a, b), bc = mid(b, c), ca = mid(c, a);
    // Corner triangles are scaled copies and the middle one is the parent turned by half a turn, so
    // all four keep the parent's winding.
    out.boundary.push_back({{a, ab, ca}, face.patch});
    out.boundary.push_back({{ab, b, bc}, face.patch});
    out.boundary.push_back({{ca, bc, c}, face.patch});
    out.boundary.push_back({{ab, bc, ca}, face.patch});
  }
  return out;
}

}  // namespace hetflow::fem
