#include "hetflow/fem/exterior_faces.hpp"

#include <unordered_map>

namespace hetflow::fem {

std::vector<Triangle> exterior_faces(const Mesh& mesh) {
  std::unordered_map<Triangle, int, FaceKeyHash> uses;
  uses.reserve(4 * mesh.tets.size());
  for (const auto& t : mesh.tets)
    for (int k = 0; k < 4; ++k) ++uses[face_key(tet_face(t, k))];
  std::vector<Triangle> out;
  for (const auto& t : mesh.tets)
    for (int k = 0; k < 4; ++k)
      if (uses[face_key(tet_face(t, k))] == 1) out.push_back(tet_face(t, k));
  return out;
}

}  // namespace hetflow::fem
