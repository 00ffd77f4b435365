#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "hetflow/core/error.hpp"
#include "hetflow/fem/box_mesh.hpp"
#include "hetflow/fem/edge_data.hpp"
#include "hetflow/fem/find_patch.hpp"
#include "hetflow/fem/mesh_keys.hpp"
#include "hetflow/fem/wall_traction.hpp"

namespace hetflow::fem {
namespace {

// Tractions are O(1) and each is one node's residual over its area: round-off stays near 1e-14.
constexpr double kTolerance = 1e-12;

// A slab of 3 × 4 × 2 cells, Lx × H × Lz = 1.5 × 2 × 1.
class FemWallTraction : public ::testing::Test {
 protected:
  FemWallTraction() : mesh_(box_mesh(3, 4, 2, {0, 0, 0}, {lx, height, lz})), data_(build_edge_data(mesh_)) {
    parameters_.viscosity = 0.05;
    parameters_.density = 1.3;
  }

  WallTraction on(const std::string& patch, const std::vector<Vec3>& u, const std::vector<double>& p) const {
    return wall_traction(mesh_, data_, parameters_, u, p, 0.01, find_patch(mesh_, patch, "slab"));
  }

  // Whether node i lies inside the face x[axis] = const, off its rim.
  bool inside(std::uint32_t i, std::size_t axis) const {
    const double size[3] = {lx, height, lz};
    for (std::size_t c = 0; c < 3; ++c)
      if (c != axis && (mesh_.nodes[i][c] < 1e-12 || mesh_.nodes[i][c] > size[c] - 1e-12)) return false;
    return true;
  }

  static constexpr double lx = 1.5, height = 2.0, lz = 1.0;
  Mesh mesh_;
  EdgeData data_;
  MomentumParameters parameters_;
};

// Plane Couette flow u = U y/H under a constant pressure p: at every node of each wall the pressure is p
// and the normal points out of the fluid; off the rim, where the end faces' pressure adds to the
// reaction, the shear is ρνU/H (the resting wall pulled forward, the moving one back).
TEST_F(FemWallTraction, CouetteShearAndPressureAtEveryNode) {
  const double u_top = 0.8, p = 0.7;
  std::vector<Vec3> u;
  for (const Point& x : mesh_.nodes) u.push_back({u_top * x[1] / height, 0, 0});
  const std::vector<double> pressure(mesh_.nodes.size(), p);
  const double shear = parameters_.density * parameters_.viscosity * u_top / height;
  for (const auto& [patch, sign] : {std::pair{"y_min", 1.0}, std::pair{"y_max", -1.0}}) {
    const WallTraction w = on(patch, u, pressure);
    ASSERT_EQ(w.nodes.size(), 4u * 3u);
    std::size_t inner = 0;
    for (std::size_t k = 0; k < w.nodes.size(); ++k) {
      EXPECT_NEAR(w.pressure[k], p, kTolerance) << patch << " node " << w.nodes[k];
      EXPECT_NEAR(w.normal[k][1], -sign, 1e-15) << patch << " node " << w.nodes[k];
      if (!inside(w.nodes[k], 1)) continue;
      ++inner;
      EXPECT_NEAR(w.traction[k][0], sign * shear, kTolerance) << patch << " node " << w.nodes[k];
      EXPECT_NEAR(w.traction[k][2], 0, kTolerance) << patch << " node " << w.nodes[k];
    }
    EXPECT_EQ(inner, 2u);
  }
}

// Fluid at rest under gravity, p = p0 − ρ g z with f = (0, 0, −g): the top and bottom faces feel their
// own pressure at every node, and so does the side y = H off its rim (its star of faces is symmetric
// about each node there, so the mean of a linear p over a node's shape function is its nodal value).
TEST_F(FemWallTraction, HydrostaticPressureAtEveryNode) {
  const double gravity = 9.81, p0 = 5.0, rho = parameters_.density;
  parameters_.body_force = {0, 0, -gravity};
  const std::vector<Vec3> u(mesh_.nodes.size(), Vec3{0, 0, 0});
  std::vector<double> pressure;
  for (const Point& x : mesh_.nodes) pressure.push_back(p0 - rho * gravity * x[2]);
  for (const char* patch : {"z_min", "z_max", "y_max"}) {
    const WallTraction w = on(patch, u, pressure);
    for (std::size_t k = 0; k < w.nodes.size(); ++k) {
      const std::uint32_t i = w.nodes[k];
      if (patch == std::string("y_max") && !inside(i, 1)) continue;
      EXPECT_NEAR(w.pressure[k], pressure[i], kTolerance) << patch << " node " << i;
    }
  }
}

TEST_F(FemWallTraction, RejectsAPatchOutOfRange) {
  const std::vector<Vec3> u(mesh_.nodes.size(), Vec3{0, 0, 0});
  const std::vector<double> p(mesh_.nodes.size(), 0.0);
  try {
    wall_traction(mesh_, data_, parameters_, u, p, 0.01, 6);
    FAIL() << "no error";
  } catch (const core::Error& e) {
    EXPECT_STREQ(e.what(), "the wall traction: patch 6 is not below the mesh's 6 patches");
  }
}

// A boundary face inside the domain (a face between two tets tagged as a patch) has no side out of the
// fluid.
TEST_F(FemWallTraction, RejectsAPatchFaceInsideTheDomain) {
  Mesh mesh = mesh_;
  std::map<Triangle, int> tets_of;
  for (const Tet& t : mesh.tets)
    for (int k = 0; k < 4; ++k) ++tets_of[face_key(tet_face(t, k))];
  const auto shared = std::find_if(tets_of.begin(), tets_of.end(), [](const auto& f) { return f.second == 2; });
  ASSERT_NE(shared, tets_of.end());
  mesh.patches.push_back("inner");
  mesh.boundary.push_back({shared->first, static_cast<std::uint32_t>(mesh.patches.size() - 1)});
  const std::vector<Vec3> u(mesh.nodes.size(), Vec3{0, 0, 0});
  const std::vector<double> p(mesh.nodes.size(), 0.0);
  try {
    wall_traction(mesh, data_, parameters_, u, p, 0.01, static_cast<std::uint32_t>(mesh.patches.size() - 1));
    FAIL() << "no error";
  } catch (const core::Error& e) {
    EXPECT_NE(std::string(e.what()).find("a face of patch 'inner'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("is not on the mesh's exterior"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace hetflow::fem
