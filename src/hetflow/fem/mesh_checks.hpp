#pragma once
#include <cstddef>
#include <string>

#include "hetflow/fem/mesh.hpp"

namespace hetflow::fem {

// Size and quality of a mesh that passed check_mesh, for the run manifest. Quality is the mean ratio
// shape measure q = 12 (3V)^(2/3) / Σ l_ij² of each tet (Liu & Joe 1994): 1 for the regular tet,
// tending to 0 as it flattens.
struct MeshReport {
  std::size_t nodes = 0;
  std::size_t tets = 0;
  std::size_t boundary_faces = 0;
  std::size_t patches = 0;
  double volume = 0.0;
  double min_edge = 0.0;
  double max_edge = 0.0;
  double min_tet_volume = 0.0;
  double max_tet_volume = 0.0;
  double worst_quality = 0.0;
};

// Checks the mesh named `source` (a file path or generator name, used in the messages) and returns its
// report; throws MeshError naming what is wrong and where: node indices out of range, inverted or
// zero-volume tets (index and volume of the first ones, and their count), duplicate nodes (both indices),
// unreferenced nodes, boundary triangles that are no face of a tet, and boundary edges not shared by
// exactly two boundary triangles (an open or non-manifold boundary).
MeshReport check_mesh(const Mesh& mesh, const std::string& source);

}  // namespace hetflow::fem
