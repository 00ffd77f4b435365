#include "hetflow/fem/extrude.hpp"

#include <algorithm>

#include "hetflow/fem/tet_geometry.hpp"

namespace hetflow::fem {

Mesh extrude(const PlanarMesh& planar, double thickness, std::uint32_t layers) {
  Mesh mesh;
  const auto n = std::uint32_t(planar.nodes.size());
  for (std::uint32_t l = 0; l <= layers; ++l)
    for (const auto& p : planar.nodes) mesh.nodes.push_back({p[0], p[1], thickness * l / layers});
  mesh.tets.reserve(3 * std::size_t(layers) * planar.triangles.size());
  for (std::uint32_t l = 0; l < layers; ++l)
    for (auto tri : planar.triangles) {
      std::sort(tri.begin(), tri.end());
      const std::uint32_t a = l * n + tri[0], b = l * n + tri[1], c = l * n + tri[2];
      const std::uint32_t a1 = a + n, b1 = b + n, c1 = c + n;
      // Side diagonals a-b1, a-c1 and b-c1: each from the side's lower-numbered bottom node.
      for (Tet t : {Tet{a, b, c, c1}, Tet{a, b, b1, c1}, Tet{a, a1, b1, c1}}) {
        if (signed_volume(mesh, t) < 0.0) std::swap(t[2], t[3]);
        mesh.tets.push_back(t);
      }
    }
  return mesh;
}

}  // namespace hetflow::fem
