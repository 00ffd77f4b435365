// Boundary modes that continue gridded velocity beyond the data box (docs/ftle.md, "Boundary modes"):
// extrapolate continues it linearly, so a linear field stays the same field everywhere; free_stream lets
// the data part fall to 0 through zero nodes beyond the faces, leaving the free stream U.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "hetflow/ftle/solver.hpp"
#include "test_devices.hpp"

namespace hetflow::ftle {
namespace {

using Matrix = std::array<std::array<long double, 3>, 3>;

// u = G x + c, steady, row-major G.
struct Affine {
  int dimension;
  std::array<double, 9> g;
  std::array<double, 3> c;
  std::array<double, 3> operator()(const std::array<double, 3>& x, double) const {
    std::array<double, 3> u{0, 0, 0};
    for (int i = 0; i < dimension; ++i) {
      u[i] = c[i];
      for (int j = 0; j < dimension; ++j) u[i] += g[i * dimension + j] * x[j];
    }
    return u;
  }
};

// The exact flow map of u = G x + c over T: x(T) = e^{GT} x0 + (sum_k G^k T^(k+1) / (k+1)!) c, both series
// summed in long double to 60 terms (|G T| < 3 here, so the terms fall below 1e-40).
std::array<double, 3> exact_flow_map(const Affine& f, const std::array<double, 3>& x0, double T) {
  const int n = f.dimension;
  Matrix power{}, exp{}, integral{};
  for (int i = 0; i < n; ++i) power[i][i] = 1;
  long double factorial = 1;
  for (int k = 0; k < 60; ++k) {
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        exp[i][j] += power[i][j] * std::pow(static_cast<long double>(T), k) / factorial;
        integral[i][j] += power[i][j] * std::pow(static_cast<long double>(T), k + 1) / (factorial * (k + 1));
      }
    Matrix next{};
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        for (int m = 0; m < n; ++m) next[i][j] += power[i][m] * f.g[m * n + j];
    power = next;
    factorial *= k + 1;
  }
  std::array<double, 3> x{0, 0, 0};
  for (int i = 0; i < n; ++i) {
    long double v = 0;
    for (int j = 0; j < n; ++j) v += exp[i][j] * x0[j] + integral[i][j] * f.c[j];
    x[i] = static_cast<double>(v);
  }
  return x;
}

Config continued(Boundary boundary, Interpolation interpolation) {
  Config c;
  c.boundary = boundary;
  c.interpolation = interpolation;
  return c;
}

// Extrapolate at points outside the box [-0.5, 0.5]^2 (beyond one face, beyond a corner, far out) and in
// 3D beyond one, two and three faces: a linear field's own values to 1e-13, with linear weights and with
// M4' (whose clamped taps are exact at node coordinates, as at these points' nearest box points).
TEST(FtleBoundaryContinuation, ExtrapolateContinuesALinearFieldExactly) {
  const core::DeviceSet ds = test::test_device();
  const Affine f2{2, {0.8, 0.3, 0.2, -0.5}, {0.1, -0.05, 0}};
  const VelocityGrid g2 = sample_on_grid(2, {9, 9, 1}, {-0.5, -0.5, 0}, {0.125, 0.125, 1}, {0.0}, f2);
  const SeedGrid s2 = SeedGrid::spanning({-0.4, -0.4, 0}, {0.4, 0.4, 0}, {3, 3, 1}, 2);
  const std::vector<double> p2{0.9, 0.25, -1.7, 0.0, 0.75, -0.6, -2.0, 3.5, 40.0, -25.0};
  for (const Interpolation interpolation : {Interpolation::linear, Interpolation::m4prime}) {
    const Solver s(ds, g2, s2, continued(Boundary::extrapolate, interpolation));
    const std::vector<double> u = s.velocity_at(p2, 0.0);
    for (std::size_t i = 0; i < p2.size() / 2; ++i) {
      const std::array<double, 3> expected = f2({p2[2 * i], p2[2 * i + 1], 0}, 0);
      for (std::size_t d = 0; d < 2; ++d)
        EXPECT_NEAR(u[2 * i + d], expected[d], 1e-13 * (1 + std::abs(expected[d])))
            << to_string(interpolation) << " point " << i;
    }
  }
  const Affine f3{3, {0.4, -0.2, 0.1, 0.3, 0.2, -0.6, -0.1, 0.5, -0.3}, {0.05, 0.1, -0.2}};
  const VelocityGrid g3 = sample_on_grid(3, {5, 5, 5}, {0, 0, 0}, {0.25, 0.25, 0.25}, {0.0}, f3);
  const SeedGrid s3 = SeedGrid::spanning({0.25, 0.25, 0.25}, {0.75, 0.75, 0.75}, {2, 2, 2}, 3);
  const std::vector<double> p3{1.4, 0.5, 0.5, -0.3, 1.2, 0.75, 2.0, -1.0, 1.6, 0.25, 0.5, 0.75};
  const Solver s(ds, g3, s3, continued(Boundary::extrapolate, Interpolation::m4prime));
  const std::vector<double> u = s.velocity_at(p3, 0.0);
  for (std::size_t i = 0; i < p3.size() / 3; ++i) {
    const std::array<double, 3> expected = f3({p3[3 * i], p3[3 * i + 1], p3[3 * i + 2]}, 0);
    for (std::size_t d = 0; d < 3; ++d)
      EXPECT_NEAR(u[3 * i + d], expected[d], 1e-13 * (1 + std::abs(expected[d]))) << "3D point " << i;
  }
}

// u = G x + c with G = [[0.8, 0.3], [0.2, -0.5]] (eigenvalues 0.845 and -0.545) on [-0.5, 0.5]^2, seeds on
// [-0.4, 0.4]^2, T = 2 in 400 RK4 steps: tracers leave through every face and reach 2.3 from the box,
// and their flow map is the exact linear flow's to 1e-10 (RK4's error at dt = 0.005 is ~1e-11 here). With
// linear weights, which reproduce a linear field inside the box too (M4' does not in its outer cells,
// where its clamped taps are not the field's).
TEST(FtleBoundaryContinuation, ExtrapolatedLinearFlowMapIsTheExactOne) {
  const core::DeviceSet ds = test::test_device();
  const Affine f{2, {0.8, 0.3, 0.2, -0.5}, {0.1, -0.05, 0}};
  const VelocityGrid grid = sample_on_grid(2, {9, 9, 1}, {-0.5, -0.5, 0}, {0.125, 0.125, 1}, {0.0}, f);
  const SeedGrid seeds = SeedGrid::spanning({-0.4, -0.4, 0}, {0.4, 0.4, 0}, {9, 9, 1}, 2);
  Config c = continued(Boundary::extrapolate, Interpolation::linear);
  c.duration = 2.0;
  c.steps = 400;
  Solver s(ds, grid, seeds, c);
  s.advance_to_end();
  const std::vector<double> map = s.flow_map();
  double farthest = 0;
  std::size_t left = 0;  // tracers outside the box at some step's end, from the exact paths
  for (std::size_t i = 0; i < seeds.size(); ++i) {
    const std::array<double, 3> x0{seeds.position(0, i % 9), seeds.position(1, i / 9), 0};
    const std::array<double, 3> x = exact_flow_map(f, x0, c.duration);
    for (std::size_t d = 0; d < 2; ++d) {
      ASSERT_NEAR(map[2 * i + d], x[d], 1e-10) << "seed " << i;
      farthest = std::max(farthest, std::abs(x[d]) - 0.5);
    }
    for (long n = 1; n <= c.steps; ++n) {
      const std::array<double, 3> xn = exact_flow_map(f, x0, c.duration * static_cast<double>(n) / 400);
      if (std::abs(xn[0]) > 0.5 || std::abs(xn[1]) > 0.5) {
        ++left;
        break;
      }
    }
  }
  EXPECT_GT(farthest, 2.3);  // the tracers went far beyond the box
  EXPECT_EQ(s.boundary_hits(), left);
}

// M4' weights of the nodes i0 - 1 .. i0 + 2 at fraction f of the cell [i0, i0 + 1] (Monaghan 1985).
std::array<double, 4> m4(double f) {
  const double g = 1 - f;
  return {-0.5 * f * g * g, 1 - 2.5 * f * f + 1.5 * f * f * f, 1 - 2.5 * g * g + 1.5 * g * g * g, -0.5 * f * f * g};
}

// free_stream on uniform data a = (0.3, -0.2) over [0, 2] x [0, 1] (h = 0.25) plus U = (0.5, 0.25): along
// y = 0.5 (a node row), at s cells beyond the face x = 2, the velocity is U + a times the weights of the
// nodes still inside: linear 1 - s (s < 1), M4' w0 + w1 (s < 1) and w0 (1 <= s < 2); 0 beyond. In the
// last cell inside, M4' reads the zero node too: U + a (1 - w3). Far away (1e6 cells) it is U. To 1e-14.
TEST(FtleBoundaryContinuation, FreeStreamDataPartFallsToZeroBeyondTheFaces) {
  const core::DeviceSet ds = test::test_device();
  const std::array<double, 2> a{0.3, -0.2}, U{0.5, 0.25};
  const VelocityGrid grid =
      sample_on_grid(2, {9, 5, 1}, {0, 0, 0}, {0.25, 0.25, 1}, {0.0}, [&](const std::array<double, 3>&, double) {
        return std::array<double, 3>{a[0], a[1], 0};
      });
  const SeedGrid seeds = SeedGrid::spanning({0.5, 0.25, 0}, {1.5, 0.75, 0}, {3, 3, 1}, 2);
  const std::vector<double> beyond{-0.75, -0.5, -0.25, 0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75, 2.0, 3.0, 1e6};
  for (const Interpolation interpolation : {Interpolation::linear, Interpolation::m4prime}) {
    Config c = continued(Boundary::free_stream, interpolation);
    c.free_stream = {U[0], U[1], 0};
    const Solver s(ds, grid, seeds, c);
    std::vector<double> points;
    for (const double b : beyond) points.insert(points.end(), {2.0 + 0.25 * b, 0.5});
    const std::vector<double> u = s.velocity_at(points, 0.0);
    for (std::size_t i = 0; i < beyond.size(); ++i) {
      const double b = beyond[i], f = b - std::floor(b);
      double share = 0;  // of the data a
      if (interpolation == Interpolation::linear) {
        share = std::clamp(1 - b, 0.0, 1.0);
      } else if (b < 0) {
        share = 1 - m4(f)[3];
      } else if (b < 1) {
        share = m4(f)[0] + m4(f)[1];
      } else if (b < 2) {
        share = m4(f)[0];
      }
      for (std::size_t d = 0; d < 2; ++d)
        EXPECT_NEAR(u[2 * i + d], U[d] + share * a[d], 1e-14) << to_string(interpolation) << " s = " << b;
    }
  }
}

// free_stream, linear weights, data a = (0.3, 0) and U = (0.2, 0) on [0, 2] x [0, 1] (h = 0.25): a tracer
// from x0 moves at a + U = 0.5 to the face (t1 = (2 - x0) / 0.5), then s cells beyond it obey
// ds/dt = (U + a (1 - s)) / h, so s = s_inf (1 - e^(-k t)) with k = a / h, s_inf = (U + a) / a, until s = 1
// at t2 = ln(s_inf / (s_inf - 1)) / k; then it moves at U. T = 4, RK4 with dt = 1e-3: the flow map to
// 2e-6, the error a step across each of the two kinks of the velocity's gradient (jump a / h = 1.2) makes,
// of order (a / h) |u| dt^2.
TEST(FtleBoundaryContinuation, FreeStreamTracersLeaveAtTheFreeStreamSpeed) {
  const core::DeviceSet ds = test::test_device();
  const double a = 0.3, U = 0.2, h = 0.25, T = 4;
  const VelocityGrid grid =
      sample_on_grid(2, {9, 5, 1}, {0, 0, 0}, {h, h, 1}, {0.0}, [&](const std::array<double, 3>&, double) {
        return std::array<double, 3>{a, 0, 0};
      });
  const SeedGrid seeds = SeedGrid::spanning({1.0, 0.25, 0}, {1.5, 0.75, 0}, {3, 3, 1}, 2);
  Config c = continued(Boundary::free_stream, Interpolation::linear);
  c.free_stream = {U, 0, 0};
  c.duration = T;
  c.steps = 4000;
  Solver s(ds, grid, seeds, c);
  s.advance_to_end();
  const std::vector<double> map = s.flow_map();
  const double k = a / h, s_inf = (U + a) / a, t2 = std::log(s_inf / (s_inf - 1)) / k;
  for (std::size_t i = 0; i < seeds.size(); ++i) {
    const double x0 = seeds.position(0, i % 3), t1 = (2 - x0) / (a + U);
    ASSERT_LT(t1 + t2, T);
    EXPECT_NEAR(map[2 * i], 2 + h + U * (T - t1 - t2), 2e-6) << "seed " << i;
    EXPECT_NEAR(map[2 * i + 1], seeds.position(1, i / 3), 1e-15) << "seed " << i;
  }
  EXPECT_EQ(s.boundary_hits(), seeds.size());
}

}  // namespace
}  // namespace hetflow::ftle
