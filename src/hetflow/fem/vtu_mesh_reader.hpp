#pragma once
#include <filesystem>
#include <string>

#include "hetflow/fem/mesh.hpp"
#include "hetflow/io/vtk_reader.hpp"

namespace hetflow::fem {

// Reads the tets of a VTK XML UnstructuredGrid (.vtu; docs/fem.md, Meshes). Triangle cells become the
// boundary faces, their patch taken from an integer cell array "patch" (or "gmsh:physical", as mesh
// converters write it) and named "patch N"; without one they form the patch "boundary". A file without
// triangles gets the tets' exterior faces as the one patch "boundary". Vertex and line cells are
// ignored; any other cell type is a MeshError naming the cell.
Mesh read_vtu_mesh(const std::filesystem::path& path);

// The same for a grid already read; `source` names it in the messages.
Mesh vtu_mesh(const io::VtkUnstructuredGrid& grid, const std::string& source);

}  // namespace hetflow::fem
