#pragma once
#include <array>
#include <cstddef>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "hetflow/casefile/case.hpp"
#include "hetflow/lbm/geometry.hpp"

namespace hetflow::app {

// The lattice an lbm case asks for, from its geometry section.
struct LbmGeometry {
  lbm::Geometry mask;
  std::string kind;                // duct | channel | cylinder | sphere | packing | file
  std::optional<double> diameter;  // of the cylinder or sphere, for the Reynolds number
  nlohmann::json info;             // what the manifest records about it (porosity, spheres, source file)
};

// Checks what the schema cannot express: which keys a kind needs or ignores, and list lengths; each
// problem is appended to `problems` with the file:line of the key involved. Cheap: reads no geometry
// file, so a file's dims are checked against geometry.size only when make_lbm_geometry loads it.
void check_lbm_geometry(const casefile::Case& c, std::vector<std::string>& problems);

// The lattice dims of a generated kind (not `file`), known before any mask is built so that a lattice
// too large for the device is refused before the host spends memory on it.
std::optional<std::array<std::size_t, 3>> planned_lbm_dims(const casefile::Case& c);

// Builds or loads the mask. A relative geometry.file is taken from the case file's folder, so a case
// and its voxel file move together. Generator and file errors become casefile::CaseError naming the key.
LbmGeometry make_lbm_geometry(const casefile::Case& c);

}  // namespace hetflow::app
