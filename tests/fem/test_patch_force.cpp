#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "hetflow/core/error.hpp"
#include "hetflow/fem/boundary_conditions.hpp"
#include "hetflow/fem/box_mesh.hpp"
#include "hetflow/fem/edge_data.hpp"
#include "hetflow/fem/find_patch.hpp"
#include "hetflow/fem/mesh_keys.hpp"
#include "hetflow/fem/patch_force.hpp"
#include "hetflow/fem/wall_traction.hpp"

namespace hetflow::fem {
namespace {

// Forces and tractions are O(1); a reaction sums a few dozen nodes' residuals, a traction is one node's
// residual over its area, so round-off stays near 1e-14.
constexpr double kTolerance = 1e-12;

// A slab of 3 × 4 × 2 cells, Lx × H × Lz = 1.5 × 2 × 1, walls y = 0 and y = H of area A = Lx Lz.
class FemForces : public ::testing::Test {
 protected:
  FemForces() : mesh_(box_mesh(3, 4, 2, {0, 0, 0}, {lx, height, lz})), data_(build_edge_data(mesh_)) {
    parameters_.viscosity = 0.05;
    parameters_.density = 1.3;
  }

  Vec3 force_on(const std::string& patch, const std::vector<Vec3>& u, const std::vector<double>& p) const {
    const std::vector<std::uint32_t> nodes = patch_nodes(mesh_, find_patch(mesh_, patch, "slab"));
    return patch_force(data_, parameters_, u, p, 0.01, nodes);
  }

  WallTraction wall_on(const std::string& patch, const std::vector<Vec3>& u, const std::vector<double>& p) const {
    return wall_traction(mesh_, data_, parameters_, u, p, 0.01, find_patch(mesh_, patch, "slab"));
  }

  // Whether node i lies inside the face x[axis] = const, off its rim.
  bool inside(std::uint32_t i, std::size_t axis) const {
    const double size[3] = {lx, height, lz};
    for (std::size_t c = 0; c < 3; ++c)
      if (c != axis && (mesh_.nodes[i][c] < 1e-12 || mesh_.nodes[i][c] > size[c] - 1e-12)) return false;
    return true;
  }

  static void expect_force(const Vec3& got, const Vec3& expected, const char* what) {
    for (std::size_t c = 0; c < 3; ++c) EXPECT_NEAR(got[c], expected[c], kTolerance) << what << " component " << c;
  }

  static constexpr double lx = 1.5, height = 2.0, lz = 1.0, area = lx * lz, cell_height = height / 4;
  Mesh mesh_;
  EdgeData data_;
  MomentumParameters parameters_;
};

// Plane Couette flow u = U y/H: P1 holds it exactly, and the fluid drags each wall by ρν U/H per area
// (the resting wall forward, the moving one back); a constant pressure p pushes each wall out by p A.
TEST_F(FemForces, CouetteShearAndPressureOnBothWalls) {
  const double u_top = 0.8, p = 0.7;
  std::vector<Vec3> u;
  for (const Point& x : mesh_.nodes) u.push_back({u_top * x[1] / height, 0, 0});
  const std::vector<double> pressure(mesh_.nodes.size(), p);
  const double shear = parameters_.density * parameters_.viscosity * u_top / height * area;
  expect_force(force_on("y_min", u, pressure), {shear, -p * area, 0}, "y_min");
  expect_force(force_on("y_max", u, pressure), {-shear, p * area, 0}, "y_max");
}

// Poiseuille flow u = 4U y(H − y)/H² driven by a body force f = 8νU/H²: the nodal interpolant's first
// cell underestimates du/dy at the wall by the curvature, and the wall nodes' share of ρ M f gives exactly
// that back, so each wall gets the exact shear 4ρνU/H per area.
TEST_F(FemForces, PoiseuilleShearIsExactWithABodyForceDrive) {
  const double u_max = 1.2;
  parameters_.body_force = {8 * parameters_.viscosity * u_max / (height * height), 0, 0};
  std::vector<Vec3> u;
  for (const Point& x : mesh_.nodes) u.push_back({4 * u_max * x[1] * (height - x[1]) / (height * height), 0, 0});
  const std::vector<double> pressure(mesh_.nodes.size(), 0.0);
  const double shear = 4 * parameters_.density * parameters_.viscosity * u_max / height * area;
  expect_force(force_on("y_min", u, pressure), {shear, 0, 0}, "y_min");
  expect_force(force_on("y_max", u, pressure), {shear, 0, 0}, "y_max");
}

// The same flow driven by p = p0 − G x, G = 8ρνU/H². The wall's end nodes also lie on the faces x = 0
// and x = Lx, and their reactions carry the pressure on those faces' half-cell strips next to the wall,
// G Lx Lz h/2 against the flow: the shear falls short by h/H of it (h the cell height), and the wall's
// own pressure force −∫ p dA along y is exact.
TEST_F(FemForces, PoiseuilleWithAPressureDriveCountsTheEndStrips) {
  const double u_max = 1.2, p0 = 2.0;
  const double g = 8 * parameters_.density * parameters_.viscosity * u_max / (height * height);
  std::vector<Vec3> u;
  std::vector<double> pressure;
  for (const Point& x : mesh_.nodes) {
    u.push_back({4 * u_max * x[1] * (height - x[1]) / (height * height), 0, 0});
    pressure.push_back(p0 - g * x[0]);
  }
  const double shear = 4 * parameters_.density * parameters_.viscosity * u_max / height * area;
  const double strips = g * lx * lz * cell_height / 2;
  EXPECT_NEAR(strips / shear, cell_height / height, 1e-15);
  const double push = lz * (p0 * lx - g * lx * lx / 2);  // ∫ p dA over a wall
  expect_force(force_on("y_min", u, pressure), {shear - strips, -push, 0}, "y_min");
  expect_force(force_on("y_max", u, pressure), {shear - strips, push, 0}, "y_max");
}

// Fluid at rest under gravity, p = p0 − ρ g z with f = (0, 0, −g): the top face gets p(Lz) A_top up and
// the side y = H gets ∫ p dA out, exactly. The side's rim nodes also carry the top's and bottom's pressure
// on their half-cell strips: (p(Lz) − p(0)) Lx h/2 along z. With the strong gradient π in place of the
// weak P these forces are wrong: π lacks the boundary integral ∮ N_I p n. The wall pressure (wall_traction)
// is p at every node of the top and bottom faces, and of the side off its rim (its star of faces is
// symmetric about each node there, so the mean of a linear p over a node's shape function is its value).
TEST_F(FemForces, HydrostaticPressureForceAndWallPressureOnFaces) {
  const double gravity = 9.81, p0 = 5.0, rho = parameters_.density;
  parameters_.body_force = {0, 0, -gravity};
  const std::vector<Vec3> u(mesh_.nodes.size(), Vec3{0, 0, 0});
  std::vector<double> pressure;
  for (const Point& x : mesh_.nodes) pressure.push_back(p0 - rho * gravity * x[2]);
  const double p_top = p0 - rho * gravity * lz;
  expect_force(force_on("z_max", u, pressure), {0, 0, p_top * lx * height}, "z_max");
  expect_force(force_on("z_min", u, pressure), {0, 0, -p0 * lx * height}, "z_min");
  const double side = lx * (p0 * lz - rho * gravity * lz * lz / 2);
  expect_force(force_on("y_max", u, pressure), {0, side, (p_top - p0) * lx * cell_height / 2}, "y_max");
  for (const char* patch : {"z_min", "z_max", "y_max"}) {
    const WallTraction w = wall_on(patch, u, pressure);
    for (std::size_t k = 0; k < w.nodes.size(); ++k) {
      const std::uint32_t i = w.nodes[k];
      if (patch == std::string("y_max") && !inside(i, 1)) continue;
      EXPECT_NEAR(w.pressure[k], pressure[i], kTolerance) << patch << " node " << i;
    }
  }
}

// A moving wall takes the convection of the flow it holds: for a linear u, A_I = M_I (u_I·∇)u exactly, so
// with ν = 0, p = 0 and τ negligible (c_t = 1e200) the force is −ρ Σ_I M_I (u_I·∇)u over the wall's nodes.
TEST_F(FemForces, MovingWallCarriesTheConvectiveTerm) {
  parameters_.viscosity = 0;
  parameters_.stabilisation.time = 1e200;
  const double grad[3][3] = {{0.3, 0.2, 0.0}, {-0.1, 0.0, 0.4}, {0.0, 0.0, 0.0}};  // ∂u_c/∂x_d
  std::vector<Vec3> u;
  for (const Point& x : mesh_.nodes)
    u.push_back({0.5 + grad[0][0] * x[0] + grad[0][1] * x[1], -0.7 + grad[1][0] * x[0] + grad[1][2] * x[2], 0.25});
  const std::vector<double> p(mesh_.nodes.size(), 0.0);
  Vec3 expected{0, 0, 0};
  for (std::uint32_t i : patch_nodes(mesh_, find_patch(mesh_, "y_min", "slab")))
    for (std::size_t c = 0; c < 3; ++c)
      for (std::size_t d = 0; d < 3; ++d)
        expected[c] -= parameters_.density * data_.lumped_mass[i] * u[i][d] * grad[c][d];
  ASSERT_GT(std::abs(expected[0]), 0.01);
  expect_force(force_on("y_min", u, p), expected, "y_min");
}

TEST_F(FemForces, RejectsANodeOutOfRange) {
  const std::vector<Vec3> u(mesh_.nodes.size(), Vec3{0, 0, 0});
  const std::vector<double> p(mesh_.nodes.size(), 0.0);
  const std::vector<std::uint32_t> nodes{3, 60};
  try {
    patch_force(data_, parameters_, u, p, 0.01, nodes);
    FAIL() << "no error";
  } catch (const core::Error& e) {
    EXPECT_STREQ(e.what(), "the force's node 60 is not below the 60 nodes");
  }
}

// Plane Couette flow u = U y/H under a constant pressure p: at every node of each wall the pressure is p
// and the normal points out of the fluid; off the rim, where the end faces' pressure adds to the
// reaction, the shear is ρνU/H (the resting wall pulled forward, the moving one back).
TEST_F(FemForces, WallTractionHoldsCouetteShearAndPressureAtEveryNode) {
  const double u_top = 0.8, p = 0.7;
  std::vector<Vec3> u;
  for (const Point& x : mesh_.nodes) u.push_back({u_top * x[1] / height, 0, 0});
  const std::vector<double> pressure(mesh_.nodes.size(), p);
  const double shear = parameters_.density * parameters_.viscosity * u_top / height;
  for (const auto& [patch, sign] : {std::pair{"y_min", 1.0}, std::pair{"y_max", -1.0}}) {
    const WallTraction w = wall_on(patch, u, pressure);
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

TEST_F(FemForces, WallTractionRejectsAPatchOutOfRange) {
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
TEST_F(FemForces, WallTractionRejectsAPatchFaceInsideTheDomain) {
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
