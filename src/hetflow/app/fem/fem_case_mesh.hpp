#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "hetflow/casefile/case.hpp"
#include "hetflow/casefile/schema.hpp"
#include "hetflow/fem/mesh.hpp"

namespace hetflow::app {

// The `mesh` section of an incompressible case: a generated box or cylinder channel, or a Gmsh/VTU file,
// refined uniformly and renumbered for locality.
void declare_fem_mesh(casefile::Schema& schema);
// Keys that disagree (a file for a box, a box size for a file), as case problems.
void check_fem_mesh(const casefile::Case& c, std::vector<std::string>& problems);

// The mesh the case describes, checked (fem::check_mesh): a malformed file or mesh is a case problem at
// mesh.file or mesh.kind. `report` receives the mesh's size and quality for the manifest.
fem::Mesh make_fem_mesh(const casefile::Case& c, nlohmann::json& report);

}  // namespace hetflow::app
