#pragma once
#include <filesystem>
#include <string>
#include <string_view>

#include "hetflow/fem/mesh.hpp"

namespace hetflow::fem {

// Reads a Gmsh mesh (docs/fem.md, Meshes), format 2.2 or 4.1, ASCII or binary: linear tetrahedra
// (type 4) become the tets and linear triangles (type 2) the boundary faces, their physical group the
// patch, named from $PhysicalNames or else "group N" (a triangle in no physical group goes to
// "surface N", its geometric entity). Points and lines are ignored; other volume or surface elements
// are an error. Throws MeshError with file:line (file: byte N in binary data) for malformed input,
// io::IoError when the file cannot be read.
Mesh read_gmsh(const std::filesystem::path& path);

// The same for the text of a .msh file; `source` names it in the messages.
Mesh parse_gmsh(std::string_view text, const std::string& source);

}  // namespace hetflow::fem
