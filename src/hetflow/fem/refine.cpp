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

// Bey's red refinement: the parent is first relabelled so that the shortest of the octahedron's three
// diagonals (midpoints of opposite edges) joins the midpoints of edges 02 and 13, a tie keeping the
// earliest of (02, 13), (03, 12), (01, 23); the children follow Bey's numbering. A child whose
// orientation differs from its parent's gets nodes 0 and 2 swapped, which keeps the pairs (02, 13) and
// so the diagonal its own refinement prefers on a tie: Kuhn tets then stay Kuhn tets at every level.
void split_tet(const Tet& parent, Midpoints& mid, Mesh& out) {
  static constexpr int kRelabel[3][4] = {{0, 1, 2, 3}, {0, 1, 3, 2}, {0, 2, 1, 3}};
  int best = 0;
  double shortest = 0.0;
  for (int p = 0; p < 3; ++p) {
    const auto& r = kRelabel[p];
    const double len = distance(midpoint(out.nodes[parent[r[0]]], out.nodes[parent[r[2]]]),
                                midpoint(out.nodes[parent[r[1]]], out.nodes[parent[r[3]]]));
    // A relative margin makes equal lengths a tie despite rounding.
    if (p == 0 || len < shortest * (1.0 - 1e-12)) {
      best = p;
      shortest = len;
    }
  }
  Tet t;
  for (int i = 0; i < 4; ++i) t[i] = parent[kRelabel[best][i]];
  std::uint32_t m[4][4];
  for (int i = 0; i < 4; ++i)
    for (int j = i + 1; j < 4; ++j) m[i][j] = m[j][i] = mid(t[i], t[j]);
  const Tet children[8] = {{t[0], m[0][1], m[0][2], m[0][3]}, {m[0][1], t[1], m[1][2], m[1][3]},
                           {m[0][2], m[1][2], t[2], m[2][3]}, {m[0][3], m[1][3], m[2][3], t[3]},
                           {m[0][1], m[0][2], m[0][3], m[1][3]}, {m[0][1], m[0][2], m[1][2], m[1][3]},
                           {m[0][2], m[0][3], m[1][3], m[2][3]}, {m[0][2], m[1][2], m[1][3], m[2][3]}};
  const bool positive = signed_volume(out, parent) > 0.0;
  for (Tet child : children) {
    if ((signed_volume(out, child) > 0.0) != positive) std::swap(child[0], child[2]);
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
