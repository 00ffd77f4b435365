#include "hetflow/fem/find_patch.hpp"

#include "hetflow/fem/mesh_error.hpp"

namespace hetflow::fem {

std::uint32_t find_patch(const Mesh& mesh, std::string_view name, const std::string& source) {
  std::string names;
  for (std::uint32_t p = 0; p < mesh.patches.size(); ++p) {
    if (mesh.patches[p] == name) return p;
    names += (p > 0 ? ", " : "") + mesh.patches[p];
  }
  throw MeshError("mesh '" + source + "' has no patch '" + std::string(name) + "' (its patches: " +
                  (names.empty() ? "none" : names) + ")");
}

}  // namespace hetflow::fem
