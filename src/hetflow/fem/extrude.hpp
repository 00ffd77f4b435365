#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "hetflow/fem/mesh.hpp"

namespace hetflow::fem {

// A planar triangulation in the (x, y) plane.
struct PlanarMesh {
  std::vector<std::array<double, 2>> nodes;
  std::vector<std::array<std::uint32_t, 3>> triangles;
};

// The triangulation extruded over z in [0, thickness] as `layers` layers of prisms, each cut into 3
// positively oriented tets. Node i of layer l gets index l * nodes + i. Every quadrilateral side of a
// prism is cut along the diagonal from its lowest-numbered bottom node, so the two prisms that share it
// cut it the same way and the tets are conforming (Dompierre, Labbé, Vallet & Camarero 1999). The mesh
// has no boundary faces yet.
Mesh extrude(const PlanarMesh& planar, double thickness, std::uint32_t layers);

}  // namespace hetflow::fem
