#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "hetflow/fem/box_mesh.hpp"
#include "hetflow/fem/mesh_checks.hpp"
#include "hetflow/fem/mesh_error.hpp"

namespace hetflow::fem {
namespace {

std::string check_error(const Mesh& mesh) {
  try {
    check_mesh(mesh, "cube.msh");
  } catch (const MeshError& e) {
    return e.what();
  }
  return "no error";
}

Mesh unit_cube() { return box_mesh(2, 2, 2, {0, 0, 0}, {1, 1, 1}); }

TEST(FemMeshChecks, ReportsSizeAndQuality) {
  const MeshReport r = check_mesh(box_mesh(2, 2, 1, {0, 0, 0}, {2, 2, 1}), "box");
  EXPECT_EQ(r.nodes, 18u);
  EXPECT_EQ(r.tets, 24u);
  EXPECT_EQ(r.boundary_faces, 2u * (4 + 2 + 2) * 2);
  EXPECT_EQ(r.patches, 6u);
  EXPECT_NEAR(r.volume, 4.0, 1e-14);
  EXPECT_DOUBLE_EQ(r.min_edge, 1.0);
  EXPECT_NEAR(r.max_edge, std::sqrt(3.0), 1e-15);
  EXPECT_NEAR(r.min_tet_volume, 1.0 / 6.0, 1e-15);
  EXPECT_NEAR(r.max_tet_volume, 1.0 / 6.0, 1e-15);
  // A Kuhn tet of a unit cube: edges 1, 1, 1, √2, √2, √3, volume 1/6.
  EXPECT_NEAR(r.worst_quality, 12.0 * std::cbrt(0.25) / 10.0, 1e-14);
}

TEST(FemMeshChecks, NamesInvertedTets) {
  Mesh mesh = unit_cube();
  std::swap(mesh.tets[5][0], mesh.tets[5][1]);
  EXPECT_EQ(check_error(mesh),
            "mesh 'cube.msh': inverted or zero-volume tets, 1 of 48: tet 5 (volume -0.0208333)");
}

TEST(FemMeshChecks, NamesZeroVolumeTetsAndListsTenOfThem) {
  Mesh mesh = unit_cube();
  for (std::size_t t = 0; t < 12; ++t) mesh.tets[t][3] = mesh.tets[t][2];
  const std::string e = check_error(mesh);
  EXPECT_NE(e.find("inverted or zero-volume tets, 12 of 48: tet 0 (volume 0), "), std::string::npos) << e;
  EXPECT_NE(e.find("tet 9 (volume 0), ..."), std::string::npos) << e;
  EXPECT_EQ(e.find("tet 10 "), std::string::npos) << e;
}

TEST(FemMeshChecks, NamesDuplicateNodes) {
  Mesh mesh = unit_cube();
  mesh.nodes.push_back({0.5, 0.5, 0.5 + 1e-12});
  mesh.tets.push_back({0, 1, 3, 27});
  EXPECT_EQ(check_error(mesh), "mesh 'cube.msh': duplicate node pairs (same coordinates), 1: nodes 13 and 27");
}

TEST(FemMeshChecks, FindsDuplicatesOnEitherSideOfAHashCellBoundary) {
  // The tolerance is 1e-10 of the bounding box's diagonal and the hash cells are 4 tolerances wide:
  // these two nodes, 2e-13 apart, fall in neighbouring cells.
  Mesh mesh = unit_cube();
  const double cell = 4e-10 * std::sqrt(3.0);
  mesh.nodes.push_back({1000 * cell - 1e-13, 0.3, 0.3});
  mesh.nodes.push_back({1000 * cell + 1e-13, 0.3, 0.3});
  EXPECT_EQ(check_error(mesh), "mesh 'cube.msh': duplicate node pairs (same coordinates), 1: nodes 27 and 28");
}

TEST(FemMeshChecks, NamesUnreferencedNodes) {
  Mesh mesh = unit_cube();
  mesh.nodes.push_back({3, 3, 3});
  EXPECT_EQ(check_error(mesh), "mesh 'cube.msh': nodes in no tet, 1: 27");
}

TEST(FemMeshChecks, NamesBoundaryFacesThatAreNoTetFace) {
  Mesh mesh = unit_cube();
  mesh.boundary.push_back({{0, 1, 26}, 0});
  EXPECT_EQ(check_error(mesh),
            "mesh 'cube.msh': boundary faces that are no face of any tet, 1: face 48 (nodes 0 1 26)");
}

TEST(FemMeshChecks, NamesOpenBoundaryEdges) {
  Mesh mesh = unit_cube();
  mesh.boundary.pop_back();
  const std::string e = check_error(mesh);
  EXPECT_NE(e.find("open or non-manifold boundary, 3 edges not shared by exactly 2 boundary faces: "),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("(1 faces)"), std::string::npos) << e;
}

TEST(FemMeshChecks, NamesNonManifoldBoundaryEdges) {
  Mesh mesh = unit_cube();
  mesh.boundary.push_back(mesh.boundary[0]);
  const std::string e = check_error(mesh);
  EXPECT_NE(e.find("open or non-manifold boundary, 3 edges"), std::string::npos) << e;
  EXPECT_NE(e.find("(3 faces)"), std::string::npos) << e;
}

TEST(FemMeshChecks, NamesNodeIndicesOutOfRange) {
  Mesh mesh = unit_cube();
  mesh.tets[7][2] = 99;
  EXPECT_EQ(check_error(mesh), "mesh 'cube.msh': tet 7 names node 99 but there are 27 nodes");
}

}  // namespace
}  // namespace hetflow::fem
