#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "hetflow/fem/point_locator.hpp"
#include "hetflow/fem/tet_geometry.hpp"
#include "small_meshes.hpp"

namespace hetflow::fem {
namespace {

double linear(const Point& x) { return 1.0 + 2.0 * x[0] - 3.0 * x[1] + 0.5 * x[2]; }

std::vector<double> nodal_linear(const Mesh& mesh) {
  std::vector<double> v;
  for (const Point& x : mesh.nodes) v.push_back(linear(x));
  return v;
}

TEST(FemLocator, FindsTheTetOfEveryCentroid) {
  const CubeMesh cube = cube_mesh(4, 0.25);
  const PointLocator locator(cube.mesh);
  for (std::uint32_t t = 0; t < cube.mesh.tets.size(); ++t) {
    Point c{};
    for (const std::uint32_t n : cube.mesh.tets[t])
      for (std::size_t a = 0; a < 3; ++a) c[a] += 0.25 * cube.mesh.nodes[n][a];
    const auto at = locator.locate(c);
    ASSERT_TRUE(at.has_value()) << "tet " << t;
    EXPECT_EQ(at->tet, t);
    for (const double w : at->weights) EXPECT_NEAR(w, 0.25, 1e-14);
  }
}

TEST(FemLocator, InterpolatesALinearFieldExactlyAnywhere) {
  const CubeMesh cube = cube_mesh(5, 0.3);
  const PointLocator locator(cube.mesh);
  const std::vector<double> phi = nodal_linear(cube.mesh);
  std::uint64_t state = 0x9E3779B97F4A7C15ull;
  const auto unit = [&state] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return static_cast<double>(state >> 11) / 9007199254740992.0;
  };
  for (int k = 0; k < 2000; ++k) {
    const Point p{unit(), unit(), unit()};
    const auto at = locator.locate(p);
    ASSERT_TRUE(at.has_value()) << p[0] << " " << p[1] << " " << p[2];
    EXPECT_NEAR(interpolate(*at, phi), linear(p), 1e-13);
    double sum = 0.0;
    for (const double w : at->weights) {
      EXPECT_GE(w, 0.0);
      sum += w;
    }
    EXPECT_NEAR(sum, 1.0, 1e-15);
  }
}

TEST(FemLocator, FindsNodesEdgesAndFacesOfTheBoundary) {
  const CubeMesh cube = cube_mesh(3);
  const PointLocator locator(cube.mesh);
  const std::vector<double> phi = nodal_linear(cube.mesh);
  for (const Point& p : {Point{0, 0, 0}, Point{1, 1, 1}, Point{1, 0, 1}, Point{0.5, 0.5, 0}, Point{1, 0.2, 0.7},
                         Point{0.3, 1, 0}, Point{1.0 / 3, 2.0 / 3, 1}}) {
    const auto at = locator.locate(p);
    ASSERT_TRUE(at.has_value()) << p[0] << " " << p[1] << " " << p[2];
    EXPECT_NEAR(interpolate(*at, phi), linear(p), 1e-14);
  }
}

TEST(FemLocator, InterpolatesAVectorFieldPerComponent) {
  const CubeMesh cube = cube_mesh(3, 0.2);
  const PointLocator locator(cube.mesh);
  std::vector<std::array<double, 3>> u;
  for (const Point& x : cube.mesh.nodes) u.push_back({x[1], -2 * x[0] + x[2], 3.0});
  const Point p{0.41, 0.73, 0.12};
  const auto v = interpolate(*locator.locate(p), u);
  EXPECT_NEAR(v[0], 0.73, 1e-15);
  EXPECT_NEAR(v[1], -0.82 + 0.12, 1e-15);
  EXPECT_NEAR(v[2], 3.0, 1e-15);
}

// Just outside a face: within the tolerance the point takes the face's closest point, beyond it the
// point is outside.
TEST(FemLocator, AcceptsPointsOutsideOnlyWithinTheTolerance) {
  const CubeMesh cube = cube_mesh(4);
  const PointLocator locator(cube.mesh, 1e-6);
  const double tol = locator.tolerance();
  EXPECT_NEAR(tol, 1e-6 * std::sqrt(3.0), 1e-20);
  const std::vector<double> phi = nodal_linear(cube.mesh);

  const auto near = locator.locate({1 + 0.5 * tol, 0.3, 0.6});
  ASSERT_TRUE(near.has_value());
  EXPECT_NEAR(interpolate(*near, phi), linear({1, 0.3, 0.6}), 1e-14);
  const auto corner = locator.locate({-0.4 * tol, -0.4 * tol, -0.4 * tol});
  ASSERT_TRUE(corner.has_value());
  EXPECT_NEAR(interpolate(*corner, phi), linear({0, 0, 0}), 1e-14);

  EXPECT_FALSE(locator.locate({1 + 2 * tol, 0.3, 0.6}).has_value());
  EXPECT_FALSE(locator.locate({0.5, -2 * tol, 0.5}).has_value());
  EXPECT_FALSE(locator.locate({1.5, 0.5, 0.5}).has_value());
  EXPECT_FALSE(locator.locate({0.5, 0.5, std::nan("")}).has_value());
}

// A hole inside the bounding box: the tets of one cube of a 3×3×1 box are removed.
TEST(FemLocator, ReportsAPointInAHoleOfTheMesh) {
  Mesh mesh = box_mesh(3, 3, 1, {0, 0, 0}, {3, 3, 1});
  std::vector<Tet> kept;
  for (const Tet& t : mesh.tets) {
    Point c{};
    for (const std::uint32_t n : t)
      for (std::size_t a = 0; a < 3; ++a) c[a] += 0.25 * mesh.nodes[n][a];
    if (!(c[0] > 1 && c[0] < 2 && c[1] > 1 && c[1] < 2)) kept.push_back(t);
  }
  ASSERT_EQ(kept.size(), 48u);
  mesh.tets = kept;
  const PointLocator locator(mesh);
  EXPECT_FALSE(locator.locate({1.5, 1.5, 0.5}).has_value());
  EXPECT_FALSE(locator.locate({1.01, 1.99, 0.5}).has_value());
  EXPECT_TRUE(locator.locate({1.0, 1.5, 0.5}).has_value());  // on the hole's wall
  EXPECT_TRUE(locator.locate({0.5, 1.5, 0.5}).has_value());
}

TEST(FemLocator, RejectsAMeshWithoutTets) {
  const Mesh empty;
  EXPECT_THROW(PointLocator{empty}, std::invalid_argument);
}

}  // namespace
}  // namespace hetflow::fem
