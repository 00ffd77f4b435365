#include "hetflow/fem/find_patch.hpp"

#include "hetflow/fem/mesh_error.hpp"

namespace hetflow::fem {

std::string patch_names(const Mesh& mesh) {
  std::string names;
  for (std::size_t p = 0; p < mesh.patches.size(); ++p) names += (p > 0 ? ", " : "") + mesh.patches[p];
  return names.empty() ? "none" : names;
}

std::uint32_t find_patch(const Mesh& mesh, std::string_view name, const std::string& source) {
  for (std::uint32_t p = 0; p < mesh.patches.size(); ++p)
    if (mesh.patches[p] == name) return p;
  throw MeshError("mesh '" + source + "' has no patch '" + std::string(name) + "' (its patches: " + patch_names(mesh) +
                  ")");
}

}  // namespace hetflow::fem
