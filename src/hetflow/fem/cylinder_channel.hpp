#pragma once
#include <cstdint>

#include "hetflow/fem/mesh.hpp"

namespace hetflow::fem {

// A channel [0, length] x [0, height] with a circular cylinder, extruded over z in [0, thickness]; the
// defaults are the 2D benchmark geometry of Schäfer & Turek (1996).
struct CylinderChannel {
  double length = 2.2;
  double height = 0.41;
  double center_x = 0.2;
  double center_y = 0.2;
  double radius = 0.05;
  double thickness = 0.05;
  std::uint32_t cells_per_quarter = 8;  // cells along a quarter of the cylinder
  std::uint32_t radial_cells = 4;       // cells from the cylinder out to the O-grid's square
  std::uint32_t layers = 1;             // tet layers over the thickness
};

// The channel cut into tets (docs/fem.md, Meshes): an O-grid of quadrilaterals between the cylinder and
// a square of half-width 2 * radius around it, a tensor grid of rectangles of the same spacing over the
// rest of the channel, each quadrilateral cut into 2 triangles along its shorter diagonal and the plane
// mesh extruded into layers of tets. Patches, in this order: inlet (x = 0), outlet (x = length), wall
// (y = 0 and y = height), cylinder, z_min, z_max. Throws std::invalid_argument when the square does not
// fit inside the channel or a count is zero.
Mesh cylinder_channel_mesh(const CylinderChannel& spec);

}  // namespace hetflow::fem
