#include "hetflow/fem/wall_traction.hpp"

#include <cmath>
#include <string>
#include <unordered_map>

#include "hetflow/core/error.hpp"
#include "hetflow/fem/boundary_conditions.hpp"
#include "hetflow/fem/exterior_faces.hpp"
#include "hetflow/fem/mesh_keys.hpp"
#include "hetflow/fem/patch_force.hpp"

namespace hetflow::fem {
namespace {

Vec3 area_vector(const Mesh& mesh, const Triangle& f) {
  const Point& a = mesh.nodes[f[0]];
  const Point& b = mesh.nodes[f[1]];
  const Point& c = mesh.nodes[f[2]];
  const Vec3 e{b[0] - a[0], b[1] - a[1], b[2] - a[2]};
  const Vec3 g{c[0] - a[0], c[1] - a[1], c[2] - a[2]};
  return {0.5 * (e[1] * g[2] - e[2] * g[1]), 0.5 * (e[2] * g[0] - e[0] * g[2]), 0.5 * (e[0] * g[1] - e[1] * g[0])};
}

// The patch's faces wound so that their normals point out of the fluid: boundary faces carry the winding
// they were read with, the exterior faces of the positively oriented tets the outward one.
std::vector<Triangle> outward_patch_faces(const Mesh& mesh, std::uint32_t patch) {
  std::unordered_map<Triangle, Triangle, FaceKeyHash> outward;
  for (const Triangle& f : exterior_faces(mesh)) outward.emplace(face_key(f), f);
  std::vector<Triangle> faces;
  for (const BoundaryFace& face : mesh.boundary) {
    if (face.patch != patch) continue;
    const auto it = outward.find(face_key(face.nodes));
    if (it == outward.end())
      throw core::Error("the wall traction: a face of patch '" + mesh.patches[patch] + "' (nodes " +
                        std::to_string(face.nodes[0]) + ", " + std::to_string(face.nodes[1]) + ", " +
                        std::to_string(face.nodes[2]) + ") is not on the mesh's exterior");
    faces.push_back(it->second);
  }
  if (faces.empty()) throw core::Error("the wall traction: patch '" + mesh.patches[patch] + "' has no faces");
  return faces;
}

}  // namespace

WallTraction wall_traction(const Mesh& mesh, const EdgeData& data, const MomentumParameters& parameters,
                           std::span<const Vec3> u, std::span<const double> p, double dt, std::uint32_t patch) {
  check_size(data, u.size(), "u");
  if (patch >= mesh.patches.size())
    throw core::Error("the wall traction: patch " + std::to_string(patch) + " is not below the mesh's " +
                      std::to_string(mesh.patches.size()) + " patches");
  const std::vector<Triangle> faces = outward_patch_faces(mesh, patch);
  WallTraction w;
  w.nodes = patch_nodes(mesh, patch);
  const std::size_t n = w.nodes.size();
  std::unordered_map<std::uint32_t, std::int32_t> local;
  for (std::size_t k = 0; k < n; ++k) local.emplace(w.nodes[k], static_cast<std::int32_t>(k));

  w.normal.assign(n, Vec3{0, 0, 0});
  std::vector<double> area(n, 0.0);
  for (const Triangle& f : faces) {
    const Vec3 s = area_vector(mesh, f);
    const double third = std::sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]) / 3;
    for (std::uint32_t node : f) {
      const std::size_t k = local.at(node);
      area[k] += third;
      for (std::size_t c = 0; c < 3; ++c) w.normal[k][c] += s[c];
    }
  }
  for (Vec3& v : w.normal) {
    const double norm = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    for (double& c : v) c /= norm;
  }

  const std::vector<Vec3> r = wall_reactions(data, parameters, u, p, dt);
  w.traction.resize(n);
  for (std::size_t k = 0; k < n; ++k)
    for (std::size_t c = 0; c < 3; ++c) w.traction[k][c] = parameters.density * r[w.nodes[k]][c] / area[k];
  w.pressure.resize(n);
  for (std::size_t k = 0; k < n; ++k)
    w.pressure[k] =
        w.traction[k][0] * w.normal[k][0] + w.traction[k][1] * w.normal[k][1] + w.traction[k][2] * w.normal[k][2];
  return w;
}

}  // namespace hetflow::fem
