#pragma once
#include <vector>

#include "hetflow/fem/mesh.hpp"
#include "hetflow/fem/mesh_keys.hpp"

namespace hetflow::fem {

// The tet faces that belong to exactly one tet, in tet order, wound so that the normal points out of
// the domain where the tets are positively oriented: the boundary of a mesh given without one.
std::vector<Triangle> exterior_faces(const Mesh& mesh);

}  // namespace hetflow::fem
