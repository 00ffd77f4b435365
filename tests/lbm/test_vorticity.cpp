// Vorticity magnitude from central differences, against fields whose curl is known exactly.
#include <gtest/gtest.h>

#include "hetflow/lbm/vorticity.hpp"

namespace hetflow::lbm {
namespace {

// A field u(x, y, z) sampled on an n^3 lattice.
template <class F>
Fields sample(int n, F u) {
  Fields f;
  f.dims = {n, n, n};
  for (int z = 0; z < n; ++z)
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) {
        const std::array<double, 3> v = u(x, y, z);
        f.u.insert(f.u.end(), v.begin(), v.end());
      }
  f.rho.assign(f.u.size() / 3, 1.0);
  return f;
}

TEST(LbmVorticity, RigidRotationAndShearAreExactAwayFromTheSeams) {
  const int n = 12;
  const Geometry g(n, n, n);
  // Rigid rotation about z with rate 0.01: curl = (0, 0, 0.02) everywhere; central differences of a
  // linear field are exact, so only the periodic seam (where the field jumps) differs.
  const std::vector<double> w = vorticity_magnitude(sample(n, [](int x, int y, int) {
    return std::array<double, 3>{-0.01 * y, 0.01 * x, 0.0};
  }), g);
  for (int z = 0; z < n; ++z)
    for (int y = 1; y < n - 1; ++y)
      for (int x = 1; x < n - 1; ++x) ASSERT_NEAR(w[g.index(x, y, z)], 0.02, 1e-15);
  // Shear u_x = 0.003 z: curl = (0, 0.003, 0).
  const std::vector<double> s = vorticity_magnitude(sample(n, [](int, int, int z) {
    return std::array<double, 3>{0.003 * z, 0.0, 0.0};
  }), g);
  EXPECT_NEAR(s[g.index(3, 5, 6)], 0.003, 1e-15);
}

TEST(LbmVorticity, WallsCountAsRestAndCarryZero) {
  const int n = 6;
  Geometry g(n, n, n);
  g.set(2, 3, 3, NodeType::wall);
  // Uniform flow along x has no curl, except where a wall neighbour is taken as u = 0.
  const std::vector<double> w = vorticity_magnitude(sample(n, [](int, int, int) {
    return std::array<double, 3>{0.05, 0.0, 0.0};
  }), g);
  EXPECT_EQ(w[g.index(2, 3, 3)], 0.0);
  EXPECT_EQ(w[g.index(4, 4, 4)], 0.0);
  // At (2, 2, 3) the wall is at +y: d u_x / d y = (0 - 0.05) / 2, so |curl| = 0.025.
  EXPECT_NEAR(w[g.index(2, 2, 3)], 0.025, 1e-15);
  EXPECT_THROW(vorticity_magnitude(Fields{}, g), std::invalid_argument);
}

}  // namespace
}  // namespace hetflow::lbm
