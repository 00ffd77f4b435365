#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <random>
#include <vector>

#include "hetflow/ftle/solver.hpp"
#include "test_devices.hpp"

namespace hetflow::ftle {
namespace {

// A grid on [0, 1.1] x [-0.5, 0.5] (x [0, 0.6]) with spacing 0.1 (2D) and a seed grid inside it; the
// solver is only used to evaluate the velocity the tracers see.
Solver sampler(const core::DeviceSet& ds, const VelocityGrid& g, Interpolation interpolation, Boundary boundary) {
  Config c;
  c.interpolation = interpolation;
  c.boundary = boundary;
  const SeedGrid seeds = SeedGrid::spanning(g.origin, {g.upper(0), g.upper(1), g.dimension == 3 ? g.upper(2) : 0.0},
                                            {3, 3, g.dimension == 3 ? 3u : 1u}, g.dimension);
  return Solver(ds, g, seeds, c);
}

std::array<double, 3> quadratic(const std::array<double, 3>& x, double) {
  const double u = 0.3 + 1.2 * x[0] - 0.7 * x[1] + 0.4 * x[2] + 2.0 * x[0] * x[0] - 1.5 * x[0] * x[1] +
                   0.8 * x[1] * x[1] + 0.6 * x[1] * x[2] - 0.9 * x[2] * x[2];
  const double v = -0.2 + 0.5 * x[0] * x[0] + 1.1 * x[1] - 0.3 * x[0] * x[2];
  const double w = 0.9 * x[2] * x[0] - x[1] * x[1];
  return {u, v, w};
}

VelocityGrid quadratic_grid(int dimension) {
  return sample_on_grid(dimension, {12, 11, dimension == 3 ? 7u : 1u}, {0.0, -0.5, 0.0}, {0.1, 0.1, 0.1}, {0.0},
                        quadratic);
}

// Random points at least two cells inside the grid, where the M4' stencil needs no node beyond it.
std::vector<double> interior_points(const VelocityGrid& g, std::size_t n) {
  std::mt19937 rng(42);
  std::vector<double> p;
  for (std::size_t i = 0; i < n; ++i) {
    for (int d = 0; d < g.dimension; ++d) {
      const auto a = static_cast<std::size_t>(d);
      std::uniform_real_distribution<double> u(g.origin[a] + 2 * g.spacing[a], g.upper(d) - 2 * g.spacing[a]);
      p.push_back(u(rng));
    }
  }
  return p;
}

double max_error(const std::vector<double>& points, const std::vector<double>& values, int dimension) {
  double worst = 0;
  const auto dim = static_cast<std::size_t>(dimension);
  for (std::size_t i = 0; i < points.size() / dim; ++i) {
    std::array<double, 3> x{0, 0, 0};
    for (std::size_t d = 0; d < dim; ++d) x[d] = points[i * dim + d];
    const auto exact = quadratic(x, 0);
    for (std::size_t d = 0; d < dim; ++d) worst = std::max(worst, std::abs(values[i * dim + d] - exact[d]));
  }
  return worst;
}

// M4' conserves moments 0, 1 and 2 (Monaghan 1985): quadratics come back exactly, in 2D and 3D; linear
// interpolation misses the curvature: its error is at most h^2 / 8 times the sum of |d2u/dx_d^2| (mixed
// terms xy come back exactly), 0.01 / 8 * (4 + 1.6 + 1.8) = 9.25e-3 for u.
TEST(FtleInterpolation, M4PrimeReproducesQuadratics) {
  const core::DeviceSet ds = test::test_device();
  for (int dimension : {2, 3}) {
    const VelocityGrid g = quadratic_grid(dimension);
    const std::vector<double> points = interior_points(g, 200);
    const double m4 = max_error(points, sampler(ds, g, Interpolation::m4prime, Boundary::clamp).velocity_at(points, 0.0),
                                dimension);
    const double linear =
        max_error(points, sampler(ds, g, Interpolation::linear, Boundary::clamp).velocity_at(points, 0.0), dimension);
    RecordProperty("m4_error_" + std::to_string(dimension) + "d", std::to_string(m4));
    EXPECT_LT(m4, 1e-12) << dimension << "D";
    EXPECT_GT(linear, 1e-3) << dimension << "D";
    EXPECT_LT(linear, 9.25e-3) << dimension << "D";
  }
}

// Interpolating: at a node the value is the node's own, even for a field with no smoothness at all.
TEST(FtleInterpolation, M4PrimeIsInterpolatingAndAPartitionOfUnity) {
  const core::DeviceSet ds = test::test_device();
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> noise(-1, 1);
  VelocityGrid g = sample_on_grid(2, {9, 8, 1}, {1.0, 2.0, 0.0}, {0.25, 0.5, 1.0}, {0.0},
                                  [&](const std::array<double, 3>&, double) -> std::array<double, 3> {
                                    return {noise(rng), noise(rng), 0.0};
                                  });
  std::vector<double> nodes;
  for (std::size_t j = 0; j < 8; ++j)
    for (std::size_t i = 0; i < 9; ++i) nodes.insert(nodes.end(), {1.0 + 0.25 * static_cast<double>(i), 2.0 + 0.5 * static_cast<double>(j)});
  const std::vector<double> at_nodes = sampler(ds, g, Interpolation::m4prime, Boundary::clamp).velocity_at(nodes, 0.0);
  for (std::size_t n = 0; n < at_nodes.size(); ++n) ASSERT_NEAR(at_nodes[n], g.snapshots[0][n], 1e-14) << n;

  g.hold({std::vector<double>(g.snapshots[0].size(), 0.75)});  // a constant: the weights sum to one anywhere
  const std::vector<double> points = interior_points(g, 100);
  for (double v : sampler(ds, g, Interpolation::m4prime, Boundary::clamp).velocity_at(points, 0.0))
    ASSERT_NEAR(v, 0.75, 1e-14);
}

// Periodic grids repeat with period n h: a point one period away sees the same velocity; clamp sees the
// velocity of the nearest point of the box outside it.
TEST(FtleInterpolation, BoundaryModesSampleOutsideTheBox) {
  const core::DeviceSet ds = test::test_device();
  const double two_pi = 2 * M_PI;
  const std::size_t n = 32;
  const double h = two_pi / n;
  const VelocityGrid g = sample_on_grid(2, {n, n, 1}, {0.0, 0.0, 0.0}, {h, h, 1.0}, {0.0},
                                        [](const std::array<double, 3>& x, double) -> std::array<double, 3> {
                                          return {std::sin(x[0]) * std::cos(x[1]), std::cos(2 * x[1]), 0.0};
                                        });
  const std::vector<double> inside{1.3, 2.1, 0.05, 6.0};
  const std::vector<double> shifted{1.3 + two_pi, 2.1 - two_pi, 0.05 - 2 * two_pi, 6.0 + two_pi};
  const Solver periodic = sampler(ds, g, Interpolation::m4prime, Boundary::periodic);
  const auto a = periodic.velocity_at(inside, 0.0), b = periodic.velocity_at(shifted, 0.0);
  for (std::size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], 1e-12);
  // Smooth periodic data through the seam (x = 6.2 lies between the last node and the first again).
  const auto seam = periodic.velocity_at(std::vector<double>{6.2, 1.0}, 0.0);
  EXPECT_NEAR(seam[0], std::sin(6.2) * std::cos(1.0), 2e-4);

  const Solver clamp = sampler(ds, g, Interpolation::m4prime, Boundary::clamp);
  const auto outside = clamp.velocity_at(std::vector<double>{-1.0, 2.5, 9.0, 2.5}, 0.0);
  const auto edge = clamp.velocity_at(std::vector<double>{0.0, 2.5, g.upper(0), 2.5}, 0.0);
  for (std::size_t i = 0; i < edge.size(); ++i) EXPECT_EQ(outside[i], edge[i]);
}

// Between snapshots the velocity is linear in time.
// Series of 2^31 reals or more use 64-bit indices (VELOCITY_INDEX64, set by the solver); forced on a
// small grid, that path must sample the same bits as the 32-bit one, periodic wrap included.
TEST(FtleInterpolation, SixtyFourBitIndicesSampleTheSameBits) {
  for (int dimension : {2, 3}) {
    const VelocityGrid g = quadratic_grid(dimension);
    std::vector<double> points = interior_points(g, 40);
    points.push_back(-0.37);  // a point outside the box, wrapped
    for (int d = 1; d < dimension; ++d) points.push_back(5.3);
    const core::DeviceSet narrow = test::test_device();
    core::DeviceSet wide = test::test_device();
    wide.set_extra_build_options("-D VELOCITY_INDEX64=1");
    const auto a = sampler(narrow, g, Interpolation::m4prime, Boundary::periodic).velocity_at(points, 0.0);
    const auto b = sampler(wide, g, Interpolation::m4prime, Boundary::periodic).velocity_at(points, 0.0);
    EXPECT_EQ(a, b) << dimension << "D";
  }
}

TEST(FtleInterpolation, SnapshotsAreLinearInTime) {
  const core::DeviceSet ds = test::test_device();
  const VelocityGrid g = sample_on_grid(2, {6, 6, 1}, {0.0, 0.0, 0.0}, {0.2, 0.2, 1.0}, {1.0, 2.0, 4.0},
                                        [](const std::array<double, 3>& x, double t) -> std::array<double, 3> {
                                          return {t * t, x[0] - t, 0.0};
                                        });
  Config c;
  c.t0 = 1.0;
  c.duration = 3.0;
  const Solver s(ds, g, SeedGrid::spanning({0.2, 0.2, 0}, {0.8, 0.8, 0}, {3, 3, 1}, 2), c);
  const std::vector<double> x{0.5, 0.5};
  EXPECT_NEAR(s.velocity_at(x, 1.5)[0], 2.5, 1e-14);   // between t^2 = 1 and 4
  EXPECT_NEAR(s.velocity_at(x, 3.0)[0], 10.0, 1e-14);  // between 4 and 16
  EXPECT_NEAR(s.velocity_at(x, 3.0)[1], 0.5 - 3.0, 1e-14);
  EXPECT_NEAR(s.velocity_at(x, 4.0)[0], 16.0, 1e-14);
}

}  // namespace
}  // namespace hetflow::ftle
