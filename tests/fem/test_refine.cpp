#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <utility>

#include "hetflow/fem/box_mesh.hpp"
#include "hetflow/fem/mesh_checks.hpp"
#include "hetflow/fem/refine.hpp"
#include "mesh_measures.hpp"

namespace hetflow::fem {
namespace {

std::size_t undirected_edges(const Mesh& mesh) {
  std::set<std::pair<std::uint32_t, std::uint32_t>> edges;
  for (const auto& t : mesh.tets)
    for (int i = 0; i < 4; ++i)
      for (int j = i + 1; j < 4; ++j) edges.insert(std::minmax(t[i], t[j]));
  return edges.size();
}

TEST(FemRefine, SplitsEveryTetIntoEightAndEveryFaceIntoFour) {
  const Mesh coarse = box_mesh(2, 3, 1, {0.0, 0.0, 0.0}, {2.0, 1.0, 0.25});
  const Mesh fine = refine(coarse);
  EXPECT_EQ(fine.nodes.size(), coarse.nodes.size() + undirected_edges(coarse));
  EXPECT_EQ(fine.nodes.size(), 5u * 7u * 3u);  // the box's nodes at half the spacing
  EXPECT_EQ(fine.tets.size(), 8 * coarse.tets.size());
  EXPECT_EQ(fine.boundary.size(), 4 * coarse.boundary.size());
  EXPECT_EQ(fine.patches, coarse.patches);
  auto counts = test::patch_face_counts(coarse);
  for (auto& c : counts) c *= 4;
  EXPECT_EQ(test::patch_face_counts(fine), counts);
}

TEST(FemRefine, PreservesVolumeOrientationAndPatchAreas) {
  Mesh mesh = box_mesh(2, 2, 2, {0.0, 0.0, 0.0}, {1.0, 2.0, 3.0});
  for (int level = 0; level < 2; ++level) mesh = refine(mesh);
  EXPECT_NEAR(test::total_volume(mesh), 6.0, 1e-12);
  const double coarse_tet = 0.5 * 1.0 * 1.5 / 6.0;
  double smallest = coarse_tet;
  for (const auto& tet : mesh.tets) smallest = std::min(smallest, signed_volume(mesh, tet));
  // Every child has 1/8 of its parent's volume (Bey 1995), so two levels give 1/64.
  EXPECT_NEAR(smallest, coarse_tet / 64.0, 1e-15);
  const auto sums = test::patch_area_vectors(mesh);
  EXPECT_NEAR(sums[1][0], 6.0, 1e-12);   // x_max
  EXPECT_NEAR(sums[2][1], -3.0, 1e-12);  // y_min
  EXPECT_NEAR(sums[5][2], 2.0, 1e-12);   // z_max
}

TEST(FemRefine, KeepsTheKuhnTetsOfACubeBox) {
  // Every tet of a box of cubes is a Kuhn tet: edges h, h, h, √2 h, √2 h, √3 h and mean ratio
  // 12 · 4^(-1/3) / 10. Bey's refinement with ties kept on his diagonal gives 8 Kuhn tets again.
  Mesh mesh = box_mesh(2, 2, 2, {0, 0, 0}, {1, 1, 1});
  const double kuhn = 12.0 * std::cbrt(0.25) / 10.0;
  for (int level = 1; level <= 3; ++level) {
    mesh = refine(mesh);
    const MeshReport r = check_mesh(mesh, "refined box");
    EXPECT_NEAR(r.worst_quality, kuhn, 1e-12) << "level " << level;
    EXPECT_DOUBLE_EQ(r.min_edge, 0.5 / (1 << level));
    EXPECT_NEAR(r.max_edge, std::sqrt(3.0) * 0.5 / (1 << level), 1e-15);
  }
}

TEST(FemRefine, CutsTheOctahedronAlongItsShortestDiagonal) {
  // A tet stretched along z: the midpoints of the edges (0,3) and (1,2) are closest, so the four
  // inner tets all contain both.
  Mesh mesh;
  mesh.nodes = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0.4, 0.4, 5.0}};
  mesh.tets = {{0, 1, 2, 3}};
  const Mesh fine = refine(mesh);
  ASSERT_EQ(fine.tets.size(), 8u);
  const Point m03 = midpoint(mesh.nodes[0], mesh.nodes[3]);
  const Point m12 = midpoint(mesh.nodes[1], mesh.nodes[2]);
  for (std::size_t t = 4; t < 8; ++t) {
    int found = 0;
    for (auto n : fine.tets[t]) found += (fine.nodes[n] == m03) + (fine.nodes[n] == m12);
    EXPECT_EQ(found, 2) << "inner tet " << t;
    EXPECT_GT(signed_volume(fine, fine.tets[t]), 0.0);
  }
  EXPECT_NEAR(test::total_volume(fine), signed_volume(mesh, mesh.tets[0]), 1e-14);
}

}  // namespace
}  // namespace hetflow::fem
