#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "element_reference.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/fem/edge_data.hpp"
#include "hetflow/fem/edge_operators.hpp"
#include "small_meshes.hpp"

namespace hetflow::fem {
namespace {

// Round-off bound relative to the size of the quantity compared: the sums have a few dozen terms.
constexpr double kRoundOff = 1e-13;

struct Case {
  const char* name;
  std::uint32_t cells;
  double jitter;
};
void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

class FemEdgeData : public ::testing::TestWithParam<Case> {
 protected:
  void SetUp() override {
    cube_ = cube_mesh(GetParam().cells, GetParam().jitter);
    data_ = build_edge_data(cube_.mesh);
  }
  const Mesh& mesh() const { return cube_.mesh; }
  std::size_t n() const { return cube_.mesh.nodes.size(); }
  double h() const { return 1.0 / GetParam().cells; }
  // The edge JI of the edge IJ at position k of row i.
  std::size_t reverse_edge(std::size_t i, std::size_t k) const {
    const std::uint32_t j = data_.col[k];
    const auto first = data_.col.begin() + data_.row_start[j], last = data_.col.begin() + data_.row_start[j + 1];
    const auto it = std::lower_bound(first, last, static_cast<std::uint32_t>(i));
    EXPECT_TRUE(it != last && *it == i) << "edge " << i << "-" << j << " has no reverse";
    return static_cast<std::size_t>(it - data_.col.begin());
  }
  template <class F>
  std::vector<double> nodal(F&& f) const {
    std::vector<double> v;
    for (const Point& x : mesh().nodes) v.push_back(f(x));
    return v;
  }
  template <class F>
  std::vector<Vec3> nodal_vec(F&& f) const {
    std::vector<Vec3> v;
    for (const Point& x : mesh().nodes) v.push_back(f(x));
    return v;
  }

  std::vector<double> nonlinear_phi() const {
    return nodal([](const Point& x) { return std::sin(3 * x[0]) * std::cos(2 * x[1]) + x[2] * x[2]; });
  }
  std::vector<Vec3> nonlinear_u(const std::vector<double>& phi) const {
    std::vector<Vec3> u(n());
    for (std::size_t i = 0; i < n(); ++i) u[i] = {phi[i], 2 * phi[i] - mesh().nodes[i][1], phi[i] * phi[i]};
    return u;
  }

  CubeMesh cube_;
  EdgeData data_;
};

// A linear vector field v = B x + c and its gradient matrix B (rows: components).
constexpr std::array<std::array<double, 3>, 3> kB{{{0.7, -1.3, 2.1}, {0.4, 1.9, -0.6}, {-2.2, 0.3, 1.1}}};
Vec3 linear_v(const Point& x) {
  Vec3 v{0.5, -0.25, 1.75};
  for (std::size_t r = 0; r < 3; ++r)
    for (std::size_t c = 0; c < 3; ++c) v[r] += kB[r][c] * x[c];
  return v;
}
constexpr Vec3 kGradP{2.0, -3.0, 0.5};
double linear_p(const Point& x) { return 1.5 + kGradP[0] * x[0] + kGradP[1] * x[1] + kGradP[2] * x[2]; }

TEST_P(FemEdgeData, CountsAndPatternMatchTheKuhnCube) {
  // Undirected edges of c³ cubes cut along consistent diagonals: 3c(c+1)² axis edges, 3c²(c+1) face
  // diagonals, c³ cube diagonals.
  const std::uint64_t c = GetParam().cells;
  const std::uint64_t undirected = 3 * c * (c + 1) * (c + 1) + 3 * c * c * (c + 1) + c * c * c;
  ASSERT_EQ(data_.edge_count(), 2 * undirected);
  ASSERT_EQ(data_.row_start.size(), n() + 1);
  EXPECT_EQ(data_.row_start.back(), data_.edge_count());
  EXPECT_EQ(data_.records.size(), 16 * data_.edge_count());
  ASSERT_EQ(data_.matrix_col.size(), data_.edge_count() + n());
  ASSERT_EQ(data_.matrix_edge.size(), data_.edge_count() + n());
  EXPECT_EQ(data_.matrix_row_start.back(), data_.edge_count() + n());
  for (std::size_t i = 0; i < n(); ++i) {
    for (std::size_t k = data_.row_start[i]; k < data_.row_start[i + 1]; ++k) {
      EXPECT_NE(data_.col[k], i);
      if (k > data_.row_start[i]) {
        EXPECT_LT(data_.col[k - 1], data_.col[k]) << "row " << i;
      }
    }
    std::size_t diagonals = 0;
    for (std::size_t k = data_.matrix_row_start[i]; k < data_.matrix_row_start[i + 1]; ++k) {
      if (k > data_.matrix_row_start[i]) {
        EXPECT_LT(data_.matrix_col[k - 1], data_.matrix_col[k]) << "row " << i;
      }
      const std::uint32_t e = data_.matrix_edge[k];
      if (data_.matrix_col[k] == i) {
        EXPECT_EQ(e, no_edge);
        ++diagonals;
      } else {
        ASSERT_LT(e, data_.edge_count());
        EXPECT_EQ(data_.col[e], data_.matrix_col[k]);
        EXPECT_GE(e, data_.row_start[i]);
        EXPECT_LT(e, data_.row_start[i + 1]);
        // The closed form of the map: edge = k − I − [J > I].
        EXPECT_EQ(e, k - i - (data_.matrix_col[k] > i ? 1 : 0));
      }
    }
    EXPECT_EQ(diagonals, 1u) << "row " << i;
  }
}

TEST_P(FemEdgeData, LumpedMassSumsToTheVolumeAndIsTheConsistentRowSum) {
  double total = 0;
  for (double m : data_.lumped_mass) total += m;
  EXPECT_NEAR(total, 1.0, kRoundOff);
  // m_II = Σ_e V_e/10, from the elements.
  std::vector<double> diagonal(n(), 0.0);
  for (const Tet& tet : mesh().tets)
    for (std::uint32_t node : tet) diagonal[node] += element_geometry(mesh(), tet).volume / 10;
  for (std::size_t i = 0; i < n(); ++i) {
    double row = diagonal[i];
    for (std::size_t k = data_.row_start[i]; k < data_.row_start[i + 1]; ++k) row += data_.record(k)[edge_slot::mass];
    EXPECT_NEAR(row, data_.lumped_mass[i], kRoundOff * data_.lumped_mass[i]) << "node " << i;
    EXPECT_DOUBLE_EQ(data_.inv_lumped_mass[i] * data_.lumped_mass[i], 1.0);
  }
}

TEST_P(FemEdgeData, ReverseEdgesHoldTheTransposedIntegrals) {
  const double scale = h();  // |Λ| ~ h, |d|, |g| ~ h², m ~ h³
  for (std::size_t i = 0; i < n(); ++i)
    for (std::size_t k = data_.row_start[i]; k < data_.row_start[i + 1]; ++k) {
      const double* ij = data_.record(k);
      const double* ji = data_.record(reverse_edge(i, k));
      EXPECT_NEAR(ij[edge_slot::mass], ji[edge_slot::mass], kRoundOff * scale * scale * scale);
      for (std::size_t c = 0; c < 3; ++c) EXPECT_NEAR(ij[edge_slot::g + c], ji[edge_slot::d + c], kRoundOff * scale * scale);
      for (std::size_t r = 0; r < 3; ++r)
        for (std::size_t c = 0; c < 3; ++c)
          EXPECT_NEAR(ij[edge_slot::laplacian + 3 * r + c], ji[edge_slot::laplacian + 3 * c + r], kRoundOff * scale);
    }
}

TEST_P(FemEdgeData, RecordsEqualTheElementIntegrals) {
  // Spot check of the slot layout against an element-by-element assembly of all 16 values.
  std::vector<double> reference(data_.records.size(), 0.0);
  for (const Tet& tet : mesh().tets) {
    const ElementGeometry g = element_geometry(mesh(), tet);
    for (std::size_t a = 0; a < 4; ++a)
      for (std::size_t b = 0; b < 4; ++b) {
        if (a == b) continue;
        const auto first = data_.col.begin() + data_.row_start[tet[a]];
        const auto last = data_.col.begin() + data_.row_start[tet[a] + 1];
        double* r = reference.data() + 16 * static_cast<std::size_t>(std::lower_bound(first, last, tet[b]) - data_.col.begin());
        r[0] += g.volume / 20;
        for (std::size_t x = 0; x < 3; ++x) {
          for (std::size_t y = 0; y < 3; ++y) r[1 + 3 * x + y] += g.volume * g.grad[a][x] * g.grad[b][y];
          r[10 + x] += g.volume / 4 * g.grad[b][x];
          r[13 + x] += g.volume / 4 * g.grad[a][x];
        }
      }
  }
  for (std::size_t s = 0; s < reference.size(); ++s)
    ASSERT_NEAR(data_.records[s], reference[s], kRoundOff * h()) << "edge " << s / 16 << " slot " << s % 16;
}

TEST_P(FemEdgeData, StrongGradientAndDivergenceAreExactForLinearFieldsAtEveryNode) {
  const std::vector<Vec3> grad = strong_gradient(data_, nodal(linear_p));
  const std::vector<double> div = strong_divergence(data_, nodal_vec(linear_v));
  const double trace = kB[0][0] + kB[1][1] + kB[2][2];
  for (std::size_t i = 0; i < n(); ++i) {
    const double m = data_.lumped_mass[i];
    for (std::size_t c = 0; c < 3; ++c) EXPECT_NEAR(grad[i][c], m * kGradP[c], kRoundOff * m * 3) << "node " << i;
    EXPECT_NEAR(div[i], m * trace, kRoundOff * m * 3) << "node " << i;
  }
}

TEST_P(FemEdgeData, WeakGradientAndDivergenceOfLinearFieldsAreMinusTheStrongOnesInside) {
  const std::vector<Vec3> grad = weak_gradient(data_, nodal(linear_p));
  const std::vector<double> div = weak_divergence(data_, nodal_vec(linear_v));
  const double trace = kB[0][0] + kB[1][1] + kB[2][2];
  std::size_t interior = 0;
  for (std::size_t i = 0; i < n(); ++i) {
    if (!cube_.interior[i]) continue;
    ++interior;
    const double m = data_.lumped_mass[i];
    for (std::size_t c = 0; c < 3; ++c) EXPECT_NEAR(grad[i][c], -m * kGradP[c], kRoundOff * m * 3) << "node " << i;
    EXPECT_NEAR(div[i], -m * trace, kRoundOff * m * 3) << "node " << i;
  }
  EXPECT_GT(interior, 0u);
}

TEST_P(FemEdgeData, DifferenceOperatorsGiveExactlyZeroForConstantFields) {
  const std::vector<double> p(n(), 3.25);
  const std::vector<Vec3> u(n(), Vec3{1.5, -0.75, 2.0});
  const std::vector<Vec3> a = nodal_vec(linear_v);
  for (const Vec3& g : strong_gradient(data_, p)) EXPECT_EQ(g, (Vec3{0, 0, 0}));
  for (double d : strong_divergence(data_, u)) EXPECT_EQ(d, 0.0);
  for (double k : stiffness(data_, p)) EXPECT_EQ(k, 0.0);
  for (const Vec3& c : convection(data_, a, u)) EXPECT_EQ(c, (Vec3{0, 0, 0}));
  for (const Vec3& s : oss_low(data_, a, u)) EXPECT_EQ(s, (Vec3{0, 0, 0}));
  for (const Vec3& s : oss_high(data_, a, u)) EXPECT_EQ(s, (Vec3{0, 0, 0}));
}

TEST_P(FemEdgeData, StiffnessRowsSumToZeroAndAnnihilateLinearFieldsInside) {
  // ℓ_II = Σ_e V_e |∇N_I|², from the elements: with it, Σ_J ℓ_IJ + ℓ_II = ∫ ∇N_I · ∇1 = 0.
  std::vector<double> diagonal(n(), 0.0);
  for (const Tet& tet : mesh().tets) {
    const ElementGeometry g = element_geometry(mesh(), tet);
    for (std::size_t a = 0; a < 4; ++a)
      for (std::size_t c = 0; c < 3; ++c) diagonal[tet[a]] += g.volume * g.grad[a][c] * g.grad[a][c];
  }
  for (std::size_t i = 0; i < n(); ++i) {
    double row = diagonal[i];
    for (std::size_t k = data_.row_start[i]; k < data_.row_start[i + 1]; ++k) {
      const double* r = data_.record(k);
      row += r[edge_slot::laplacian] + r[edge_slot::laplacian + 4] + r[edge_slot::laplacian + 8];
    }
    EXPECT_NEAR(row, 0.0, kRoundOff * diagonal[i]) << "node " << i;
  }
  const std::vector<double> k = stiffness(data_, nodal(linear_p));
  for (std::size_t i = 0; i < n(); ++i)
    if (cube_.interior[i]) {
      EXPECT_NEAR(k[i], 0.0, kRoundOff * diagonal[i] * 3) << "node " << i;
    }
}

TEST_P(FemEdgeData, GradientsAndDivergencesEqualElementAssemblyForNonlinearFields) {
  // At every node, boundary included: π(φ)_I = Σ_e (V_e/4) ∇φ_h, P(φ)_I = Σ_e V_e ∇N_I φ̄_e,
  // D(u)_I = Σ_e (V_e/4) ∇·u_h and W(u)_I = Σ_e V_e ∇N_I · ū_e, with φ̄_e, ū_e the means over the tet's nodes.
  const std::vector<double> phi = nonlinear_phi();
  const std::vector<Vec3> u = nonlinear_u(phi);
  std::vector<Vec3> strong_ref(n(), Vec3{}), weak_ref(n(), Vec3{});
  std::vector<double> div_ref(n(), 0.0), weak_div_ref(n(), 0.0);
  for (const Tet& tet : mesh().tets) {
    const ElementGeometry g = element_geometry(mesh(), tet);
    Vec3 grad_phi{}, mean_u{};
    double mean_phi = 0, div_u = 0;
    for (std::size_t b = 0; b < 4; ++b) {
      mean_phi += phi[tet[b]] / 4;
      for (std::size_t c = 0; c < 3; ++c) {
        grad_phi[c] += phi[tet[b]] * g.grad[b][c];
        div_u += u[tet[b]][c] * g.grad[b][c];
        mean_u[c] += u[tet[b]][c] / 4;
      }
    }
    for (std::size_t b = 0; b < 4; ++b)
      for (std::size_t c = 0; c < 3; ++c) {
        strong_ref[tet[b]][c] += g.volume / 4 * grad_phi[c];
        weak_ref[tet[b]][c] += g.volume * g.grad[b][c] * mean_phi;
        weak_div_ref[tet[b]] += g.volume * g.grad[b][c] * mean_u[c];
      }
    for (std::uint32_t node : tet) div_ref[node] += g.volume / 4 * div_u;
  }
  const std::vector<Vec3> strong = strong_gradient(data_, phi), weak = weak_gradient(data_, phi);
  const std::vector<double> div = strong_divergence(data_, u), weak_div = weak_divergence(data_, u);
  const double tolerance = kRoundOff * 10 * h();
  for (std::size_t i = 0; i < n(); ++i) {
    for (std::size_t c = 0; c < 3; ++c) {
      EXPECT_NEAR(strong[i][c], strong_ref[i][c], tolerance) << "node " << i;
      EXPECT_NEAR(weak[i][c], weak_ref[i][c], tolerance) << "node " << i;
    }
    EXPECT_NEAR(div[i], div_ref[i], tolerance) << "node " << i;
    EXPECT_NEAR(weak_div[i], weak_div_ref[i], tolerance) << "node " << i;
  }
}

TEST_P(FemEdgeData, StiffnessAndOssLowEqualElementAssemblyForNonlinearFields) {
  // K(φ)_I = Σ_e V_e ∇N_I·∇φ_h and, for a constant a, S^low_I = Σ_e V_e (a·∇N_I)(a·∇u_h) at every node.
  const std::vector<double> phi = nonlinear_phi();
  const std::vector<Vec3> u = nonlinear_u(phi);
  const Vec3 a0{0.8, -0.5, 1.2};
  const std::vector<Vec3> a(n(), a0);
  std::vector<double> k_ref(n(), 0.0);
  std::vector<Vec3> s_ref(n(), Vec3{});
  for (const Tet& tet : mesh().tets) {
    const ElementGeometry g = element_geometry(mesh(), tet);
    Vec3 grad_phi{};
    std::array<double, 3> a_grad_u{};  // per component of u: a · ∇u_h
    for (std::size_t b = 0; b < 4; ++b) {
      const double a_grad_n = a0[0] * g.grad[b][0] + a0[1] * g.grad[b][1] + a0[2] * g.grad[b][2];
      for (std::size_t c = 0; c < 3; ++c) {
        grad_phi[c] += phi[tet[b]] * g.grad[b][c];
        a_grad_u[c] += u[tet[b]][c] * a_grad_n;
      }
    }
    for (std::size_t b = 0; b < 4; ++b) {
      const double a_grad_n = a0[0] * g.grad[b][0] + a0[1] * g.grad[b][1] + a0[2] * g.grad[b][2];
      for (std::size_t c = 0; c < 3; ++c) {
        k_ref[tet[b]] += g.volume * g.grad[b][c] * grad_phi[c];
        s_ref[tet[b]][c] += g.volume * a_grad_n * a_grad_u[c];
      }
    }
  }
  const std::vector<double> k = stiffness(data_, phi);
  const std::vector<Vec3> s = oss_low(data_, a, u);
  for (std::size_t i = 0; i < n(); ++i) {
    EXPECT_NEAR(k[i], k_ref[i], kRoundOff * 10 * h()) << "node " << i;
    for (std::size_t c = 0; c < 3; ++c) EXPECT_NEAR(s[i][c], s_ref[i][c], kRoundOff * 10 * h()) << "node " << i;
  }
}

TEST_P(FemEdgeData, ConvectionOfLinearFieldsIsExactAndOssHighIsItsNegative) {
  // With a constant a, A_I = Σ (a·d_IJ)(u_J − u_I) = ∫ N_I (a·∇)u_h = M_I B a at every node.
  const Vec3 a0{0.8, -0.5, 1.2};
  const std::vector<Vec3> a(n(), a0);
  const std::vector<Vec3> u = nodal_vec(linear_v);
  const std::vector<Vec3> conv = convection(data_, a, u);
  const std::vector<Vec3> high = oss_high(data_, a, u);
  for (std::size_t i = 0; i < n(); ++i) {
    const double m = data_.lumped_mass[i];
    for (std::size_t r = 0; r < 3; ++r) {
      const double expected = m * (kB[r][0] * a0[0] + kB[r][1] * a0[1] + kB[r][2] * a0[2]);
      EXPECT_NEAR(conv[i][r], expected, kRoundOff * m * 10) << "node " << i;
      EXPECT_EQ(high[i][r], -conv[i][r]) << "node " << i;
    }
  }
}

TEST_P(FemEdgeData, OperatorsRejectAFieldOfTheWrongSize) {
  const std::vector<double> short_p(n() - 1, 0.0);
  try {
    strong_gradient(data_, short_p);
    FAIL() << "no error";
  } catch (const core::Error& e) {
    EXPECT_EQ(std::string(e.what()), "the field p has " + std::to_string(n() - 1) + " values for " + std::to_string(n()) + " nodes");
  }
}

INSTANTIATE_TEST_SUITE_P(FemCubes, FemEdgeData,
                         ::testing::Values(Case{"regular", 3, 0.0}, Case{"jittered", 4, 0.15}),
                         [](const ::testing::TestParamInfo<Case>& param) { return std::string(param.param.name); });

// The regular cube's heights: a cell's low and high corners are the ends of its 6 tets' common diagonal,
// at height h from the opposite face; every other vertex of a tet is at h/√2. Only the cube's corners
// (0,0,0) and (1,1,1) are never such a middle vertex.
TEST(FemEdgeDataHeights, MinimumHeightsOfTheRegularCube) {
  const std::uint32_t cells = 3;
  const CubeMesh cube = cube_mesh(cells);
  const EdgeData data = build_edge_data(cube.mesh);
  const double h = 1.0 / cells;
  const std::size_t last = cube.mesh.nodes.size() - 1;
  for (std::size_t i = 0; i <= last; ++i) {
    const double expected = (i == 0 || i == last) ? h : h / std::sqrt(2.0);
    EXPECT_NEAR(data.h_min[i], expected, 1e-15) << "node " << i;
  }
}

void expect_error(const Mesh& mesh, const std::string& message) {
  try {
    build_edge_data(mesh);
    FAIL() << "no error, expected: " << message;
  } catch (const core::Error& e) {
    EXPECT_EQ(std::string(e.what()), message);
  }
}

TEST(FemEdgeDataErrors, NamesTheBadTetOrNode) {
  Mesh mesh = cube_mesh(1).mesh;  // 8 nodes, 6 tets
  Mesh bad = mesh;
  bad.tets[2][3] = 8;
  expect_error(bad, "tet 2 names node 8 but the mesh has 8 nodes");
  bad = mesh;
  bad.tets[4][1] = bad.tets[4][2];
  expect_error(bad, "tet 4 names node " + std::to_string(bad.tets[4][2]) + " twice");
  bad = mesh;
  bad.tets[1] = {0, 1, 2, 3};  // the bottom face's four corners: flat
  expect_error(bad, "tet 1 (nodes 0 1 2 3) has zero volume");
  bad = mesh;
  bad.nodes.push_back({2, 2, 2});
  expect_error(bad, "node 8 belongs to no tet");
}

TEST(FemEdgeDataErrors, RejectsMoreEntriesThanThe32BitIndicesHold) {
  EXPECT_NO_THROW(check_index_range(4294967295ull - 1000, 1000));
  try {
    check_index_range(4294967295ull - 999, 1000);
    FAIL() << "no error";
  } catch (const core::Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "the mesh has 4294966296 directed edges and 1000 nodes; the pressure matrix's 4294967296 entries exceed "
              "the 32-bit index limit of 4294967295");
  }
}

}  // namespace
}  // namespace hetflow::fem
