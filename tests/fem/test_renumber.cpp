#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "hetflow/fem/box_mesh.hpp"
#include "hetflow/fem/renumber.hpp"
#include "mesh_measures.hpp"

namespace hetflow::fem {
namespace {

// The box mesh with its nodes in a random order: the worst case for locality.
Mesh shuffled_box() {
  const Mesh box = box_mesh(6, 5, 4, {0, 0, 0}, {1.2, 1.0, 0.8});
  std::vector<std::uint32_t> perm(box.nodes.size());
  std::iota(perm.begin(), perm.end(), 0u);
  std::shuffle(perm.begin(), perm.end(), std::mt19937(7));
  Mesh mesh = box;
  for (std::size_t i = 0; i < perm.size(); ++i) mesh.nodes[perm[i]] = box.nodes[i];
  for (auto& t : mesh.tets)
    for (auto& n : t) n = perm[n];
  for (auto& f : mesh.boundary)
    for (auto& n : f.nodes) n = perm[n];
  return mesh;
}

void expect_same_geometry(const Mesh& before, const Renumbered& after) {
  ASSERT_EQ(after.mesh.nodes.size(), before.nodes.size());
  ASSERT_EQ(after.mesh.tets.size(), before.tets.size());
  for (std::size_t n = 0; n < before.nodes.size(); ++n)
    EXPECT_EQ(after.mesh.nodes[after.new_index[n]], before.nodes[n]);
  for (std::size_t t = 0; t < before.tets.size(); ++t)
    EXPECT_EQ(signed_volume(after.mesh, after.mesh.tets[t]), signed_volume(before, before.tets[t]));
  EXPECT_EQ(test::patch_face_counts(after.mesh), test::patch_face_counts(before));
  EXPECT_NEAR(test::total_volume(after.mesh), 1.2 * 1.0 * 0.8, 1e-13);
}

TEST(FemRenumber, RcmNarrowsTheBandOfAShuffledBox) {
  const Mesh mesh = shuffled_box();
  const Renumbered r = renumber(mesh, Ordering::rcm);
  expect_same_geometry(mesh, r);
  EXPECT_GT(bandwidth(mesh), 150u);
  // The generator's x-fastest numbering of the 7 x 6 x 5 nodes has band 7 * 6 + 7 + 1 = 50 (its cells'
  // main diagonals); RCM from a corner does better than that.
  const Mesh natural = box_mesh(6, 5, 4, {0, 0, 0}, {1.2, 1.0, 0.8});
  EXPECT_EQ(bandwidth(natural), 50u);
  EXPECT_LT(bandwidth(r.mesh), 50u);
}

TEST(FemRenumber, MortonKeepsGeometryAndSortsByTheCurve) {
  const Mesh mesh = shuffled_box();
  const Renumbered r = renumber(mesh, Ordering::morton);
  expect_same_geometry(mesh, r);
  EXPECT_EQ(r.mesh.nodes.front(), (Point{0, 0, 0}));
  EXPECT_EQ(r.mesh.nodes.back(), (Point{1.2, 1.0, 0.8}));
  EXPECT_LT(bandwidth(r.mesh), bandwidth(mesh));
}

}  // namespace
}  // namespace hetflow::fem
