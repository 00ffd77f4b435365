#pragma once
#include <cstdint>

#include "hetflow/fem/mesh.hpp"

namespace hetflow::fem {

// The box [lower, upper] cut into nx × ny × nz hexahedra and each hexahedron into 6 positively oriented
// tets (docs/fem.md, Meshes). The boundary triangles carry six patches, in this order: x_min, x_max,
// y_min, y_max, z_min, z_max, oriented with outward normals. nz = 1 (or a few) gives a quasi-2D slab.
// Throws std::invalid_argument for a zero cell count or an empty box.
Mesh box_mesh(std::uint32_t nx, std::uint32_t ny, std::uint32_t nz, const Point& lower, const Point& upper);

}  // namespace hetflow::fem
