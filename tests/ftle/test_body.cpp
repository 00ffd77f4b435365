// Bodies (ftle/body.hpp): which seeds each shape covers, counted independently, and masking a field
// leaves the other seeds' values untouched; malformed bodies name the problem.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "error_of.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/ftle/body.hpp"
#include "hetflow/ftle/solver.hpp"
#include "test_devices.hpp"

namespace hetflow::ftle {
namespace {

using test::error_of;

std::size_t count(const std::vector<std::uint8_t>& mask) {
  std::size_t n = 0;
  for (const std::uint8_t m : mask) n += m;
  return n;
}

// Seeds x0 + i h (i < n) within [lo, hi]: counted from the interval's ends, not by testing each seed.
std::size_t seeds_within(double x0, double h, std::size_t n, double lo, double hi) {
  const double first = std::max(0.0, std::ceil((lo - x0) / h));
  const double last = std::min(static_cast<double>(n) - 1, std::floor((hi - x0) / h));
  return last >= first ? static_cast<std::size_t>(last - first) + 1 : 0;
}

// A circle off the seeds' lattice lines (no seed on its rim) on the double gyre's 201 x 101 seeds: the
// mask covers the seeds the rows' chords hold (summed row by row), and masking a field sets exactly
// those to NaN and leaves every other value bit for bit.
TEST(FtleBody, CircleMasksTheSeedsInsideAndNothingElse) {
  const SeedGrid seeds = SeedGrid::spanning({0, 0, 0}, {2, 1, 0}, {201, 101, 1}, 2);
  const Ball circle{{0.5013, 0.4987, 0.0}, 0.2031};
  const std::vector<std::uint8_t> mask = body_mask(circle, seeds);
  std::size_t direct = 0;
  for (std::size_t j = 0; j < 101; ++j) {
    const double dy = seeds.position(1, j) - circle.centre[1];
    if (std::abs(dy) > circle.radius) continue;
    const double half = std::sqrt(circle.radius * circle.radius - dy * dy);
    direct += seeds_within(0.0, seeds.spacing[0], 201, circle.centre[0] - half, circle.centre[0] + half);
  }
  EXPECT_EQ(count(mask), direct);
  EXPECT_NEAR(static_cast<double>(direct), M_PI * 0.2031 * 0.2031 / (0.01 * 0.01), 20.0);  // ~ the disc's area

  const core::DeviceSet ds = test::test_device();
  Config c;
  c.duration = 2.0;
  c.steps = 20;
  Solver s(ds, DoubleGyre{}, seeds, c);
  s.advance_to_end();
  const std::vector<double> field = s.ftle();
  std::vector<double> masked = field;
  EXPECT_EQ(mask_seeds(mask, masked), direct);
  for (std::size_t i = 0; i < field.size(); ++i) {
    if (mask[i]) {
      ASSERT_TRUE(std::isnan(masked[i])) << "seed " << i;
    } else {
      ASSERT_EQ(std::memcmp(&masked[i], &field[i], sizeof(double)), 0) << "seed " << i;
    }
  }
}

// 3D shapes on 21 x 17 x 13 seeds with spacing 0.1 from the origin: a sphere (counted by z-plane discs
// and row chords), a cylinder along y (its x-z disc times the 17 rows), a box (the product of its axes'
// counts); surface points count as inside.
TEST(FtleBody, SphereCylinderAndBoxCoverTheirSeeds) {
  const SeedGrid seeds = SeedGrid::spanning({0, 0, 0}, {2, 1.6, 1.2}, {21, 17, 13}, 3);
  const Ball sphere{{1.013, 0.787, 0.561}, 0.4123};
  std::size_t direct = 0;
  for (std::size_t k = 0; k < 13; ++k) {
    for (std::size_t j = 0; j < 17; ++j) {
      const double dz = seeds.position(2, k) - sphere.centre[2], dy = seeds.position(1, j) - sphere.centre[1];
      const double r2 = sphere.radius * sphere.radius - dy * dy - dz * dz;
      if (r2 < 0) continue;
      direct += seeds_within(0.0, 0.1, 21, sphere.centre[0] - std::sqrt(r2), sphere.centre[0] + std::sqrt(r2));
    }
  }
  EXPECT_EQ(count(body_mask(sphere, seeds)), direct);

  const Cylinder cylinder{{0.613, 5.0, 0.587}, 0.3311, 1};
  std::size_t disc = 0;
  for (std::size_t k = 0; k < 13; ++k) {
    const double dz = seeds.position(2, k) - cylinder.centre[2];
    if (std::abs(dz) > cylinder.radius) continue;
    const double half = std::sqrt(cylinder.radius * cylinder.radius - dz * dz);
    disc += seeds_within(0.0, 0.1, 21, cylinder.centre[0] - half, cylinder.centre[0] + half);
  }
  EXPECT_EQ(count(body_mask(cylinder, seeds)), disc * 17);

  const Box box{{0.25, 0.35, -1.0}, {0.75, 0.55, 0.35}};
  EXPECT_EQ(count(body_mask(box, seeds)), std::size_t{5} * 2 * 4);
  EXPECT_TRUE(inside(box, {0.25, 0.35, 0.0}, 3));  // a corner
  EXPECT_FALSE(inside(box, {0.25, 0.35, 0.36}, 3));
}

// Voxels: a point takes its nearest node's value, and nothing beyond the outer voxels is solid. A 4 x 3
// mask with spacing 0.5 from (1, 1): seeds on the nodes give the mask itself; seeds a third of a voxel
// off still find their node; seeds past the grid are fluid.
TEST(FtleBody, VoxelsMaskTheirNearestNodes) {
  Voxels v;
  v.dims = {4, 3, 1};
  v.origin = {1.0, 1.0, 0.0};
  v.spacing = {0.5, 0.5, 1.0};
  v.solid = {0, 1, 1, 0,  //
             0, 1, 0, 0,  //
             1, 0, 0, 1};
  const SeedGrid on_nodes = SeedGrid::spanning({1, 1, 0}, {2.5, 2, 0}, {4, 3, 1}, 2);
  EXPECT_EQ(body_mask(v, on_nodes), v.solid);
  const SeedGrid shifted =
      SeedGrid::spanning({1 + 0.5 / 3, 1 - 0.5 / 3, 0}, {2.5 + 0.5 / 3, 2 - 0.5 / 3, 0}, {4, 3, 1}, 2);
  EXPECT_EQ(body_mask(v, shifted), v.solid);
  EXPECT_FALSE(inside(v, {0.7, 1.0, 0.0}, 2));   // half a voxel and more before node 0
  EXPECT_TRUE(inside(v, {2.74, 2.0, 0.0}, 2));   // within the last voxel
  EXPECT_FALSE(inside(v, {2.76, 2.0, 0.0}, 2));  // beyond it
}

TEST(FtleBody, MalformedBodiesAreErrors) {
  const SeedGrid flat = SeedGrid::spanning({0, 0, 0}, {1, 1, 0}, {5, 5, 1}, 2);
  EXPECT_NE(error_of([&] {
              body_mask(Ball{{0.5, 0.5, 0}, -0.1}, flat);
            }).find("circle radius -0.1: expected a positive"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              body_mask(Cylinder{{0.5, 0.5, 0}, 0.1, 2}, flat);
            }).find("a cylinder in a 2D flow"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              body_mask(Box{{0.5, 0.5, 0}, {0.6, 0.4, 0}}, flat);
            }).find("box from y = 0.5 to y = 0.4"),
            std::string::npos);
  Voxels v;
  v.dims = {2, 2, 2};
  v.solid.assign(8, 0);
  EXPECT_NE(error_of([&] { body_mask(v, flat); }).find("2 layers along z in a 2D flow"), std::string::npos);
  v.dims = {2, 2, 1};
  EXPECT_NE(error_of([&] { body_mask(v, flat); }).find("holds 8 values: expected one per node"), std::string::npos);
}

}  // namespace
}  // namespace hetflow::ftle
