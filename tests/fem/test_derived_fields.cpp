#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "hetflow/core/error.hpp"
#include "hetflow/fem/derived_fields.hpp"
#include "small_meshes.hpp"

namespace hetflow::fem {
namespace {

// u = c + A x, A row-major: A[3 k + l] = ∂u_k/∂x_l.
std::vector<Vec3> linear_field(const Mesh& mesh, const Gradient& a, const Vec3& c) {
  std::vector<Vec3> u;
  for (const Point& x : mesh.nodes) {
    Vec3 v = c;
    for (std::size_t k = 0; k < 3; ++k)
      for (std::size_t l = 0; l < 3; ++l) v[k] += a[3 * k + l] * x[l];
    u.push_back(v);
  }
  return u;
}

// On a jittered cube, so that no node's patch is symmetric.
class FemDerived : public ::testing::Test {
 protected:
  void SetUp() override {
    cube_ = cube_mesh(4, 0.3);
    data_ = build_edge_data(cube_.mesh);
  }
  CubeMesh cube_;
  EdgeData data_;
};

TEST_F(FemDerived, GradientOfALinearFieldIsExactAtEveryNode) {
  const Gradient a{0.3, -1.2, 2.0, 0.7, 0.1, -0.4, 1.5, 0.9, -0.6};
  const std::vector<Gradient> g = velocity_gradient(data_, linear_field(cube_.mesh, a, {1, -2, 3}));
  std::size_t boundary = 0;
  for (std::size_t i = 0; i < g.size(); ++i) {
    boundary += cube_.interior[i] ? 0 : 1;
    for (std::size_t e = 0; e < 9; ++e) EXPECT_NEAR(g[i][e], a[e], 1e-12) << "node " << i << " entry " << e;
  }
  EXPECT_EQ(boundary, 98u);  // 5³ − 3³ nodes on the surface
}

TEST_F(FemDerived, VorticityAndDivergenceOfALinearField) {
  const Gradient a{0.3, -1.2, 2.0, 0.7, 0.1, -0.4, 1.5, 0.9, -0.6};
  const DerivedFields d = derived_fields(data_, linear_field(cube_.mesh, a, {0, 0, 0}));
  for (std::size_t i = 0; i < d.q.size(); ++i) {
    EXPECT_NEAR(d.vorticity[i][0], 0.9 - (-0.4), 1e-12);
    EXPECT_NEAR(d.vorticity[i][1], 2.0 - 1.5, 1e-12);
    EXPECT_NEAR(d.vorticity[i][2], 0.7 - (-1.2), 1e-12);
    EXPECT_NEAR(d.divergence[i], 0.3 + 0.1 - 0.6, 1e-12);
  }
}

// u = w × x with w = (0, 0, 2): ω = 2w, S = 0, Q = ½‖Ω‖² = |w|².
TEST_F(FemDerived, SolidBodyRotationHasPositiveQ) {
  const Gradient a{0, -2, 0, 2, 0, 0, 0, 0, 0};
  const DerivedFields d = derived_fields(data_, linear_field(cube_.mesh, a, {0.5, 0, 0}));
  for (std::size_t i = 0; i < d.q.size(); ++i) {
    EXPECT_NEAR(d.q[i], 4.0, 1e-12);
    EXPECT_NEAR(d.vorticity[i][2], 4.0, 1e-12);
    EXPECT_NEAR(d.divergence[i], 0.0, 1e-12);
  }
}

// u = (3x, −3y, 0): Ω = 0, ‖S‖² = 18, Q = −9.
TEST_F(FemDerived, PureStrainHasNegativeQ) {
  const Gradient a{3, 0, 0, 0, -3, 0, 0, 0, 0};
  const DerivedFields d = derived_fields(data_, linear_field(cube_.mesh, a, {0, 0, 1}));
  for (std::size_t i = 0; i < d.q.size(); ++i) {
    EXPECT_NEAR(d.q[i], -9.0, 1e-12);
    for (std::size_t c = 0; c < 3; ++c) EXPECT_NEAR(d.vorticity[i][c], 0.0, 1e-12);
  }
}

// Q against its definition from the split G = S + Ω.
TEST_F(FemDerived, QIsHalfTheDifferenceOfTheSquaredNorms) {
  const Gradient g{0.3, -1.2, 2.0, 0.7, 0.1, -0.4, 1.5, 0.9, -0.6};
  double omega2 = 0.0, strain2 = 0.0;
  for (std::size_t k = 0; k < 3; ++k)
    for (std::size_t l = 0; l < 3; ++l) {
      const double s = 0.5 * (g[3 * k + l] + g[3 * l + k]), w = 0.5 * (g[3 * k + l] - g[3 * l + k]);
      strain2 += s * s;
      omega2 += w * w;
    }
  EXPECT_NEAR(q_criterion(g), 0.5 * (omega2 - strain2), 1e-15);
  EXPECT_NEAR(q_criterion(g), -0.5 * (0.09 + 0.01 + 0.36 + 2 * (-1.2 * 0.7 + 2.0 * 1.5 - 0.4 * 0.9)), 1e-15);
}

// Max vorticity error of u = (sin 2y, cos 2z, sin 2x) over interior and boundary nodes of an n³ cube.
std::array<double, 2> vorticity_errors(std::uint32_t n) {
  const CubeMesh cube = cube_mesh(n);
  const EdgeData data = build_edge_data(cube.mesh);
  std::vector<Vec3> u;
  for (const Point& x : cube.mesh.nodes) u.push_back({std::sin(2 * x[1]), std::cos(2 * x[2]), std::sin(2 * x[0])});
  const DerivedFields d = derived_fields(data, u);
  std::array<double, 2> err{0, 0};
  for (std::size_t i = 0; i < u.size(); ++i) {
    const Point& x = cube.mesh.nodes[i];
    const Vec3 exact{2 * std::sin(2 * x[2]), -2 * std::cos(2 * x[0]), -2 * std::cos(2 * x[1])};
    for (std::size_t c = 0; c < 3; ++c) {
      double& e = err[cube.interior[i] ? 0 : 1];
      e = std::max(e, std::abs(d.vorticity[i][c] - exact[c]));
    }
  }
  return err;
}

// On the regular Kuhn mesh every interior patch is point-symmetric, so the projection is second order
// there; boundary nodes see a one-sided patch and first order.
TEST_F(FemDerived, VorticityConvergesSecondOrderInsideFirstOrderOnTheBoundary) {
  const auto coarse = vorticity_errors(8), fine = vorticity_errors(16);
  EXPECT_GT(coarse[0] / fine[0], 3.8) << coarse[0] << " " << fine[0];
  EXPECT_GT(coarse[1] / fine[1], 1.8) << coarse[1] << " " << fine[1];
  EXPECT_LT(coarse[1] / fine[1], 2.5) << coarse[1] << " " << fine[1];
}

TEST_F(FemDerived, RejectsAFieldOfTheWrongSize) {
  const std::vector<Vec3> u(3);
  EXPECT_THROW(derived_fields(data_, u), core::Error);
}

}  // namespace
}  // namespace hetflow::fem
