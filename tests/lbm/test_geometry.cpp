#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include "hetflow/lbm/geometry.hpp"
#include "hetflow/lbm/geometry_generators.hpp"

namespace hetflow::lbm {
namespace {

constexpr double pi = 3.14159265358979323846;

std::size_t solid_in_slice(const Geometry& g, std::size_t z, std::size_t y_lo, std::size_t y_hi) {
  std::size_t n = 0;
  for (std::size_t y = y_lo; y <= y_hi; ++y)
    for (std::size_t x = 0; x < g.nx(); ++x) n += g.solid(x, y, z) ? 1 : 0;
  return n;
}

template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(LbmGeometry, IndexIsXFastestAndCountsFollowSet) {
  Geometry g(4, 3, 2);
  EXPECT_EQ(g.index(1, 2, 1), 1u + 4u * (2u + 3u * 1u));
  EXPECT_EQ(g.fluid_count(), 24u);
  g.set(1, 2, 1, NodeType::wall);
  g.set(0, 0, 0, NodeType::inlet);
  EXPECT_EQ(g.at(1, 2, 1), NodeType::wall);
  EXPECT_EQ(g.codes()[g.index(1, 2, 1)], 1u);
  EXPECT_EQ(g.fluid_count(), 23u);  // the inlet node carries fluid
  EXPECT_DOUBLE_EQ(g.porosity(), 23.0 / 24.0);
  EXPECT_TRUE(g.any_fluid());
  EXPECT_FALSE(Geometry(2, 2, 2, NodeType::wall).any_fluid());
  EXPECT_THROW(Geometry(0, 2, 2), std::invalid_argument);
}

TEST(LbmGeometry, DuctHasOneVoxelWallsAndOpenEnds) {
  const Geometry g = duct(34, 20, 5);
  EXPECT_EQ(g.fluid_count(), 32u * 18u * 5u);
  for (std::size_t z = 0; z < g.nz(); ++z) {
    EXPECT_TRUE(g.solid(0, 7, z));
    EXPECT_TRUE(g.solid(33, 7, z));
    EXPECT_TRUE(g.solid(7, 0, z));
    EXPECT_TRUE(g.solid(7, 19, z));
    EXPECT_FALSE(g.solid(1, 1, z));
    EXPECT_FALSE(g.solid(32, 18, z));
  }
  EXPECT_EQ(duct(3, 3, 1).fluid_count(), 1u);
  EXPECT_NE(error_of([] { duct(2, 10, 10); }).find("nx must be at least 3"), std::string::npos);
  EXPECT_NE(error_of([] { duct(10, 10, 0); }).find("nz"), std::string::npos);
}

TEST(LbmGeometry, ChannelHasWallsOnlyInY) {
  const Geometry g = channel(8, 6, 3);
  EXPECT_EQ(g.fluid_count(), 8u * 4u * 3u);
  EXPECT_TRUE(g.solid(3, 0, 1));
  EXPECT_TRUE(g.solid(3, 5, 1));
  EXPECT_FALSE(g.solid(0, 1, 1));
  EXPECT_FALSE(g.solid(7, 4, 2));
  EXPECT_THROW(channel(8, 2, 3), std::invalid_argument);
}

TEST(LbmGeometry, CylinderCrossSectionIsWithinOnePercentOfPiR2) {
  const double r = 10.0;
  for (const double c : {30.0, 30.5, 30.25}) {
    const Geometry g = channel_with_cylinder(64, 61, 3, c, c, r);
    for (std::size_t z = 0; z < g.nz(); ++z) {
      const auto area = static_cast<double>(solid_in_slice(g, z, 1, g.ny() - 2));
      EXPECT_NEAR(area / (pi * r * r), 1.0, 0.01) << "centre " << c;
    }
    EXPECT_EQ(solid_in_slice(g, 0, 0, 0), g.nx());  // the walls are still there
  }
  const std::string touching = error_of([] { channel_with_cylinder(64, 40, 3, 30, 5, 10); });
  EXPECT_NE(touching.find("clear the walls"), std::string::npos) << touching;
  EXPECT_THROW(channel_with_cylinder(64, 40, 3, 30, 20, 0.0), std::invalid_argument);
  EXPECT_THROW(channel_with_cylinder(64, 40, 3, 60, 20, 10), std::invalid_argument);
}

TEST(LbmGeometry, SphereVolumeMatchesAndStaysInside) {
  const double r = 8.0;
  const Geometry g = channel_with_sphere(40, 40, 40, {20, 20, 20}, r);
  const auto walls = 2u * 40u * 40u;
  const auto ball = static_cast<double>(g.size() - g.fluid_count() - walls);
  EXPECT_NEAR(ball / (4.0 / 3.0 * pi * r * r * r), 1.0, 0.02);
  EXPECT_TRUE(g.solid(20, 20, 20));
  EXPECT_TRUE(g.solid(28, 20, 20));
  EXPECT_FALSE(g.solid(29, 20, 20));
  EXPECT_THROW(channel_with_sphere(40, 40, 40, {20, 20, 35}, r), std::invalid_argument);
}

TEST(LbmGeometry, SpherePackingIsDeterministicPerSeed) {
  SpherePackingOptions o;
  o.nx = 48;
  o.ny = 40;
  o.nz = 32;
  o.target_porosity = 0.45;
  o.min_radius = 3.0;
  o.max_radius = 6.0;
  o.seed = 42;
  const SpherePacking a = random_sphere_packing(o);
  const SpherePacking b = random_sphere_packing(o);
  EXPECT_EQ(fingerprint(a.geometry), fingerprint(b.geometry));
  EXPECT_EQ(a.geometry, b.geometry);
  o.seed = 43;
  const SpherePacking c = random_sphere_packing(o);
  EXPECT_NE(fingerprint(a.geometry), fingerprint(c.geometry));
  for (const auto* p : {&a, &c}) {
    EXPECT_DOUBLE_EQ(p->porosity, p->geometry.porosity());
    EXPECT_LE(p->porosity, o.target_porosity);
    // Short of the target by less than the last sphere (a voxelised ball of radius 6 has < 1.1x its volume).
    const double last = 1.1 * 4.0 / 3.0 * pi * std::pow(o.max_radius, 3.0) / static_cast<double>(p->geometry.size());
    EXPECT_GT(p->porosity, o.target_porosity - last);
    for (const Sphere& s : p->spheres) {
      EXPECT_GE(s.radius, o.min_radius);
      EXPECT_LE(s.radius, o.max_radius);
    }
  }
  // mt19937_64 is fully specified and the draws are mapped by hand, so this mask is the same on
  // every platform and compiler; a change here changes every packing users have generated.
  EXPECT_EQ(fingerprint(a.geometry), 0xaa15d7ad12810139ull) << std::hex << fingerprint(a.geometry);
}

TEST(LbmGeometry, SpherePackingWrapsPeriodically) {
  SpherePackingOptions o;
  o.nx = o.ny = o.nz = 24;
  o.target_porosity = 0.95;
  o.min_radius = o.max_radius = 5.0;
  o.seed = 7;
  const SpherePacking p = random_sphere_packing(o);
  // Every node inside a sphere's periodic image is solid.
  for (const Sphere& s : p.spheres)
    for (std::size_t z = 0; z < 24; ++z)
      for (std::size_t y = 0; y < 24; ++y)
        for (std::size_t x = 0; x < 24; ++x) {
          double d2 = 0.0;
          const std::size_t idx[3] = {x, y, z};
          for (int k = 0; k < 3; ++k) {
            double d = std::abs(static_cast<double>(idx[k]) - s.centre[static_cast<std::size_t>(k)]);
            d = std::min(d, 24.0 - d);
            d2 += d * d;
          }
          if (d2 <= s.radius * s.radius - 1e-9) {
            ASSERT_TRUE(p.geometry.solid(x, y, z));
          }
        }
}

TEST(LbmGeometry, SpherePackingRejectsBadParameters) {
  SpherePackingOptions o;
  o.nx = o.ny = o.nz = 16;
  o.target_porosity = 1.2;
  EXPECT_NE(error_of([&] { random_sphere_packing(o); }).find("target_porosity"), std::string::npos);
  o.target_porosity = 0.5;
  o.min_radius = 5;
  o.max_radius = 3;
  EXPECT_NE(error_of([&] { random_sphere_packing(o); }).find("min_radius"), std::string::npos);
  o.max_radius = 9;
  EXPECT_NE(error_of([&] { random_sphere_packing(o); }).find("half the smallest"), std::string::npos);
}

}  // namespace
}  // namespace hetflow::lbm
