#pragma once
#include <cstdint>
#include <vector>

#include "hetflow/fem/mesh.hpp"

namespace hetflow::fem {

// Node orderings for memory locality of the edge loops (docs/fem.md, Meshes): reverse Cuthill–McKee
// (Cuthill & McKee 1969; George & Liu 1981) on the node graph of the tet edges, or the Morton
// (Z-order) curve of the node coordinates.
enum class Ordering { rcm, morton };

struct Renumbered {
  Mesh mesh;
  std::vector<std::uint32_t> new_index;  // new_index[old node] = its index in `mesh`
};

// The mesh with its nodes permuted by `ordering`, and tets and boundary faces renamed to match; the
// order of tets and faces and every tet's orientation are kept.
Renumbered renumber(const Mesh& mesh, Ordering ordering);

// The largest |i - j| over the tet edges (i, j): the half-bandwidth of the node matrix.
std::uint32_t bandwidth(const Mesh& mesh);

}  // namespace hetflow::fem
