#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "hetflow/fem/mesh.hpp"

namespace hetflow::fem {

// The index of the patch called `name`, for a boundary condition that names it; MeshError naming the
// mesh's `source` and listing the patches it has when there is none of that name.
std::uint32_t find_patch(const Mesh& mesh, std::string_view name, const std::string& source);

// The mesh's patch names, comma-separated, or "none": the list errors about patches show.
std::string patch_names(const Mesh& mesh);

}  // namespace hetflow::fem
