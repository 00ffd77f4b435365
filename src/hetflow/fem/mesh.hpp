#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace hetflow::fem {

using Point = std::array<double, 3>;
using Tet = std::array<std::uint32_t, 4>;

// A triangle of the domain's boundary, tagged with the patch it belongs to (Gmsh's physical group, a
// generator's named side), so that boundary conditions are given per patch.
struct BoundaryFace {
  std::array<std::uint32_t, 3> nodes{};
  std::uint32_t patch = 0;  // index into Mesh::patches
};

// A mesh of linear tetrahedra (docs/fem.md, Meshes): node coordinates, tets as four node indices, and
// the tagged boundary triangles. Node and tet orientation are as read or generated; the mesh checks
// report inverted or degenerate tets rather than flipping them silently.
struct Mesh {
  std::vector<Point> nodes;
  std::vector<Tet> tets;
  std::vector<BoundaryFace> boundary;
  std::vector<std::string> patches;  // patch names, indexed by BoundaryFace::patch
};

}  // namespace hetflow::fem
