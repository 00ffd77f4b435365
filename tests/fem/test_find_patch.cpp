#include <gtest/gtest.h>

#include "hetflow/fem/box_mesh.hpp"
#include "hetflow/fem/find_patch.hpp"
#include "hetflow/fem/mesh_error.hpp"

namespace hetflow::fem {
namespace {

TEST(FemFindPatch, FindsAPatchByName) {
  EXPECT_EQ(find_patch(box_mesh(1, 1, 1, {0, 0, 0}, {1, 1, 1}), "y_max", "box"), 3u);
}

TEST(FemFindPatch, NamesTheMissingPatchAndTheOnesThereAre) {
  try {
    find_patch(box_mesh(1, 1, 1, {0, 0, 0}, {1, 1, 1}), "inlet", "cavity.msh");
    FAIL() << "no error";
  } catch (const MeshError& e) {
    EXPECT_STREQ(e.what(),
                 "mesh 'cavity.msh' has no patch 'inlet' (its patches: x_min, x_max, y_min, y_max, z_min, z_max)");
  }
}

}  // namespace
}  // namespace hetflow::fem
