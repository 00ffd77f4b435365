#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <numbers>
#include <set>
#include <stdexcept>

#include "hetflow/fem/cylinder_channel.hpp"
#include "hetflow/fem/mesh_checks.hpp"
#include "mesh_measures.hpp"

namespace hetflow::fem {
namespace {

double patch_area(const Mesh& mesh, std::uint32_t patch) {
  double a = 0.0;
  for (const auto& f : mesh.boundary)
    if (f.patch == patch) {
      const auto v = test::area_vector(mesh, f);
      a += std::hypot(v[0], v[1], v[2]);
    }
  return a;
}

TEST(FemCylinderChannel, IsAValidMeshOfTheBenchmarkChannel) {
  CylinderChannel spec;
  spec.layers = 2;
  const Mesh mesh = cylinder_channel_mesh(spec);
  // check_mesh finds a closed manifold boundary made of tet faces and no inverted tet.
  const MeshReport report = check_mesh(mesh, "cylinder channel");
  // 88 x 16 rectangles less the 8 x 8 inside the square, and 32 x 4 O-grid cells: 1472 quadrilaterals.
  EXPECT_EQ(report.tets, 1472u * 2u * 3u * 2u);
  ASSERT_EQ(mesh.patches, (std::vector<std::string>{"inlet", "outlet", "wall", "cylinder", "z_min", "z_max"}));
  const double t = spec.thickness, r = spec.radius;
  // The cylinder is the polygon inscribed in the circle at the angles of the square's nodes: on each of
  // its 4 sides, 8 equal steps of tan θ from -1 to 1.
  double polygon = 0.0;
  for (int i = 0; i < 8; ++i)
    polygon += 4 * 0.5 * r * r * std::sin(std::atan(-1.0 + (i + 1) / 4.0) - std::atan(-1.0 + i / 4.0));
  EXPECT_NEAR(report.volume, (2.2 * 0.41 - polygon) * t, 1e-13);  // rounding over 17,664 tets
  EXPECT_NEAR(patch_area(mesh, 0), 0.41 * t, 1e-14);
  EXPECT_NEAR(patch_area(mesh, 1), 0.41 * t, 1e-14);
  EXPECT_NEAR(patch_area(mesh, 2), 2 * 2.2 * t, 1e-13);
  EXPECT_NEAR(patch_area(mesh, 4), report.volume / t, 1e-12);
  EXPECT_NEAR(patch_area(mesh, 5), report.volume / t, 1e-12);
  // The cylinder patch holds exactly the 32 facets of each layer, each 2 triangles: no inner faces.
  EXPECT_EQ(test::patch_face_counts(mesh)[3], 32u * 2u * 2u);
  EXPECT_GT(patch_area(mesh, 3), 32.0 * 2.0 * r * std::sin(std::numbers::pi / 32.0) * t * 0.999);
  EXPECT_LT(patch_area(mesh, 3), 2.0 * std::numbers::pi * r * t);
}

// The node at `p`'s mirror image about y = axis, found by rounded coordinates; fails the test for none.
std::uint32_t mirror_node(const Mesh& mesh, const std::map<std::array<long long, 3>, std::uint32_t>& at,
                          const Point& p, double axis) {
  const std::array<long long, 3> key{std::llround(p[0] * 1e9), std::llround((2 * axis - p[1]) * 1e9),
                                     std::llround(p[2] * 1e9)};
  const auto it = at.find(key);
  EXPECT_NE(it, at.end()) << "no mirror image of (" << p[0] << ", " << p[1] << ", " << p[2] << ")";
  return it == at.end() ? std::uint32_t(mesh.nodes.size()) : it->second;
}

// A cylinder on the channel's centre line: every tet's mirror image about the centre line is a tet of
// the mesh, so the discrete flow past it has no lift of the mesh's making (a mesh cut one way everywhere
// gave the symmetric Schäfer–Turek channel a lift coefficient of 0.013 at 8 cells per quarter).
TEST(FemCylinderChannel, AChannelSymmetricAboutTheCylinderHasAMirrorSymmetricMesh) {
  CylinderChannel spec;
  spec.center_y = spec.height / 2;
  spec.cells_per_quarter = 6;
  spec.radial_cells = 3;
  const Mesh mesh = cylinder_channel_mesh(spec);
  std::map<std::array<long long, 3>, std::uint32_t> at;
  for (std::uint32_t i = 0; i < mesh.nodes.size(); ++i) {
    const Point& p = mesh.nodes[i];
    at[{std::llround(p[0] * 1e9), std::llround(p[1] * 1e9), std::llround(p[2] * 1e9)}] = i;
  }
  std::set<std::array<std::uint32_t, 4>> tets;
  for (Tet t : mesh.tets) {
    std::sort(t.begin(), t.end());
    tets.insert(t);
  }
  std::size_t mirrored = 0;
  for (const Tet& t : mesh.tets) {
    std::array<std::uint32_t, 4> image{};
    for (std::size_t k = 0; k < 4; ++k) image[k] = mirror_node(mesh, at, mesh.nodes[t[k]], spec.center_y);
    std::sort(image.begin(), image.end());
    mirrored += tets.count(image);
  }
  EXPECT_EQ(mirrored, mesh.tets.size());
}

TEST(FemCylinderChannel, RejectsACylinderTooCloseToTheWall) {
  CylinderChannel spec;
  spec.center_y = 0.05;
  EXPECT_THROW(cylinder_channel_mesh(spec), std::invalid_argument);
}

}  // namespace
}  // namespace hetflow::fem
