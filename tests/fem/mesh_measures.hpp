#pragma once
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "hetflow/fem/mesh.hpp"
#include "hetflow/fem/tet_geometry.hpp"

namespace hetflow::fem::test {

inline double total_volume(const Mesh& mesh) {
  double v = 0.0;
  for (const auto& tet : mesh.tets) v += signed_volume(mesh, tet);
  return v;
}

// Area vector (normal times area) of a boundary triangle.
inline std::array<double, 3> area_vector(const Mesh& mesh, const BoundaryFace& face) {
  const auto& a = mesh.nodes[face.nodes[0]];
  const auto& b = mesh.nodes[face.nodes[1]];
  const auto& c = mesh.nodes[face.nodes[2]];
  const double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
  const double v[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
  return {0.5 * (u[1] * v[2] - u[2] * v[1]), 0.5 * (u[2] * v[0] - u[0] * v[2]),
          0.5 * (u[0] * v[1] - u[1] * v[0])};
}

// Sum of the area vectors of each patch's triangles.
inline std::vector<std::array<double, 3>> patch_area_vectors(const Mesh& mesh) {
  std::vector<std::array<double, 3>> sums(mesh.patches.size(), {0.0, 0.0, 0.0});
  for (const auto& face : mesh.boundary) {
    const auto s = area_vector(mesh, face);
    for (int d = 0; d < 3; ++d) sums[face.patch][d] += s[d];
  }
  return sums;
}

inline std::vector<std::size_t> patch_face_counts(const Mesh& mesh) {
  std::vector<std::size_t> counts(mesh.patches.size(), 0);
  for (const auto& face : mesh.boundary) ++counts[face.patch];
  return counts;
}

}  // namespace hetflow::fem::test
