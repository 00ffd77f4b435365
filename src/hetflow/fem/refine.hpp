#pragma once
#include "hetflow/fem/mesh.hpp"

namespace hetflow::fem {

// Uniform 1:8 refinement (docs/fem.md, Meshes): a node at every edge midpoint, each tet split into its 4
// corner tets and the 4 tets of the inner octahedron cut along its shortest diagonal (Bey 1995; Ong
// 1994), each boundary triangle into 4 with its patch. The tets of box_mesh stay congruent to their
// parents' shape at every level. The old nodes keep their indices; the new ones
// follow in order of first appearance. Children keep the orientation of their parent.
Mesh refine(const Mesh& mesh);

}  // namespace hetflow::fem
