#include <gtest/gtest.h>

#include <stdexcept>

#include "hetflow/fem/box_mesh.hpp"
#include "mesh_measures.hpp"

namespace hetflow::fem {
namespace {

TEST(FemBoxMesh, CountsVolumeAndOrientation) {
  const Mesh mesh = box_mesh(3, 4, 5, {0.0, -1.0, 2.0}, {1.5, 1.0, 2.5});
  EXPECT_EQ(mesh.nodes.size(), 4u * 5u * 6u);
  EXPECT_EQ(mesh.tets.size(), 6u * 3u * 4u * 5u);
  EXPECT_EQ(mesh.boundary.size(), 4u * (3u * 4u + 4u * 5u + 3u * 5u));
  EXPECT_NEAR(test::total_volume(mesh), 1.5 * 2.0 * 0.5, 1e-13);
  const double cell = 0.5 * 0.5 * 0.1;
  for (const auto& tet : mesh.tets) EXPECT_NEAR(signed_volume(mesh, tet), cell / 6.0, 1e-15);
}

TEST(FemBoxMesh, PatchesHaveTheFaceAreasWithOutwardNormals) {
  const Mesh mesh = box_mesh(3, 4, 5, {0.0, -1.0, 2.0}, {1.5, 1.0, 2.5});
  ASSERT_EQ(mesh.patches, (std::vector<std::string>{"x_min", "x_max", "y_min", "y_max", "z_min", "z_max"}));
  const auto sums = test::patch_area_vectors(mesh);
  const double area[3] = {2.0 * 0.5, 1.5 * 0.5, 1.5 * 2.0};
  for (int axis = 0; axis < 3; ++axis)
    for (int d = 0; d < 3; ++d) {
      const double expected = d == axis ? area[axis] : 0.0;
      EXPECT_NEAR(sums[2 * axis][d], -expected, 1e-13) << mesh.patches[2 * axis];
      EXPECT_NEAR(sums[2 * axis + 1][d], expected, 1e-13) << mesh.patches[2 * axis + 1];
    }
  EXPECT_EQ(test::patch_face_counts(mesh), (std::vector<std::size_t>{40, 40, 30, 30, 24, 24}));
}

TEST(FemBoxMesh, SlabOfOneLayer) {
  const Mesh mesh = box_mesh(8, 8, 1, {0.0, 0.0, 0.0}, {1.0, 1.0, 0.125});
  EXPECT_EQ(mesh.nodes.size(), 9u * 9u * 2u);
  EXPECT_EQ(mesh.tets.size(), 6u * 64u);
  EXPECT_NEAR(test::total_volume(mesh), 0.125, 1e-14);
  EXPECT_EQ(test::patch_face_counts(mesh)[4], 128u);
}

TEST(FemBoxMesh, RejectsEmptyBoxes) {
  EXPECT_THROW(box_mesh(0, 1, 1, {0, 0, 0}, {1, 1, 1}), std::invalid_argument);
  EXPECT_THROW(box_mesh(1, 1, 1, {0, 0, 0}, {1, 0, 1}), std::invalid_argument);
}

}  // namespace
}  // namespace hetflow::fem
