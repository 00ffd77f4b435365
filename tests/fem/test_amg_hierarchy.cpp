#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <vector>

#include "amg_problems.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/fem/amg_aggregation.hpp"
#include "hetflow/fem/amg_hierarchy.hpp"
#include "sparse_problems.hpp"

namespace hetflow::fem {
namespace {

using Dense = std::vector<std::vector<double>>;

Dense dense(const SparseRows& a) {
  Dense d(a.rows, std::vector<double>(a.cols, 0.0));
  for (std::size_t i = 0; i < a.rows; ++i)
    for (std::int32_t k = a.row_start[i]; k < a.row_start[i + 1]; ++k) d[i][a.col[k]] += a.values[k];
  return d;
}

double max_abs(const Dense& d) {
  double m = 0;
  for (const auto& row : d)
    for (double x : row) m = std::max(m, std::abs(x));
  return m;
}

double dot(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

// A hierarchy of several levels on a small problem: a coarse size well below the coarse levels'.
AmgOptions small_coarse() {
  AmgOptions o;
  o.coarse_size = 40;
  return o;
}

TEST(FemAmg, ProlongationColumnsAreTheJacobiSmoothedAggregates) {
  const BoxStiffness s = box_stiffness(8);
  const AmgHierarchy h(s.k, small_coarse());
  ASSERT_GE(h.levels().size(), 3u);
  for (std::size_t l = 0; l + 1 < h.levels().size(); ++l) {
    const AmgLevel& level = h.levels()[l];
    const std::size_t n = level.a.rows, nc = level.p.cols;
    ASSERT_EQ(nc, h.levels()[l + 1].a.rows);
    std::vector<double> size(nc, 0.0);
    for (std::int32_t c : level.aggregate)
      if (c != no_aggregate) size[c] += 1;
    // P̂(i, c) = [agg(i) = c] / sqrt(|c|); P = P̂ − diag(smoother) A P̂, smoother = ω / diag(A).
    Dense tentative(n, std::vector<double>(nc, 0.0));
    for (std::size_t i = 0; i < n; ++i)
      if (level.aggregate[i] != no_aggregate) tentative[i][level.aggregate[i]] = 1 / std::sqrt(size[level.aggregate[i]]);
    const Dense a = dense(level.a), p = dense(level.p);
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t c = 0; c < nc; ++c) {
        double ap = 0;
        for (std::size_t j = 0; j < n; ++j) ap += a[i][j] * tentative[j][c];
        EXPECT_NEAR(p[i][c], tentative[i][c] - level.smoother[i] * ap, 1e-14) << "level " << l << " P(" << i << ", " << c << ")";
      }
    }
    EXPECT_NEAR(level.smoother[n / 2] * a[n / 2][n / 2] * level.spectral_radius, 4.0 / 3.0, 1e-12);
    // Every node with a connection at all is in an aggregate; on level 0 only the fixed node is not.
    if (l == 0) {
      for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(level.aggregate[i] == no_aggregate, i == 0) << "node " << i;
    }
  }
}

TEST(FemAmg, CoarseOperatorIsTheTripleProduct) {
  const BoxStiffness s = box_stiffness(8);
  const AmgHierarchy h(s.k, small_coarse());
  for (std::size_t l = 0; l + 1 < h.levels().size(); ++l) {
    const Dense a = dense(h.levels()[l].a), p = dense(h.levels()[l].p), coarse = dense(h.levels()[l + 1].a);
    const std::size_t n = a.size(), nc = coarse.size();
    const double scale = max_abs(coarse);
    for (std::size_t c = 0; c < nc; ++c) {
      for (std::size_t d = 0; d < nc; ++d) {
        double sum = 0;
        for (std::size_t i = 0; i < n; ++i) {
          if (p[i][c] == 0) continue;
          for (std::size_t j = 0; j < n; ++j) sum += p[i][c] * a[i][j] * p[j][d];
        }
        EXPECT_NEAR(coarse[c][d], sum, 1e-13 * scale) << "level " << l + 1 << " (" << c << ", " << d << ")";
      }
    }
  }
}

TEST(FemAmg, CoarseStiffnessAnnihilatesTheConstantAwayFromTheFixedNode) {
  // P̂ (sqrt|c|)_c is the fine constant on the aggregated nodes, so A_1 (sqrt|c|)_c vanishes in the
  // coarse rows whose P columns stay off the fixed node's neighbourhood (two layers of edges).
  const BoxStiffness s = box_stiffness(10);
  const AmgHierarchy h(s.k, small_coarse());
  const AmgLevel& fine = h.levels()[0];
  const SparseRows& coarse = h.levels()[1].a;
  std::vector<char> near(fine.a.rows, 0);
  near[0] = 1;
  for (int layer = 0; layer < 3; ++layer) {
    std::vector<char> next = near;
    for (std::size_t i = 0; i < fine.a.rows; ++i)
      for (std::int32_t k = fine.a.row_start[i]; k < fine.a.row_start[i + 1]; ++k)
        if (near[fine.a.col[k]]) next[i] = 1;
    near = next;
  }
  std::vector<double> size(coarse.rows, 0.0);
  std::vector<char> clean(coarse.rows, 1);
  for (std::int32_t c : fine.aggregate)
    if (c != no_aggregate) size[c] += 1;
  for (std::size_t i = 0; i < fine.p.rows; ++i)
    for (std::int32_t k = fine.p.row_start[i]; k < fine.p.row_start[i + 1]; ++k)
      if (near[i]) clean[fine.p.col[k]] = 0;
  std::vector<double> constant(coarse.rows);
  for (std::size_t c = 0; c < coarse.rows; ++c) constant[c] = std::sqrt(size[c]);
  const std::vector<double> sums = multiply(coarse, constant);
  const double scale = *std::max_element(coarse.values.begin(), coarse.values.end());
  int checked = 0;
  for (std::size_t c = 0; c < coarse.rows; ++c) {
    if (!clean[c]) continue;
    ++checked;
    EXPECT_NEAR(sums[c], 0, 1e-12 * scale * constant[c]) << "coarse row " << c;
  }
  EXPECT_GT(checked, static_cast<int>(coarse.rows / 2)) << "of " << coarse.rows;
}

TEST(FemAmg, VCycleIsSymmetricAndPositive) {
  const BoxStiffness s = box_stiffness(8);
  const AmgHierarchy h(s.k, small_coarse());
  const std::vector<double> x = test::random_vector(s.k.n, 3), y = test::random_vector(s.k.n, 4);
  const std::vector<double> bx = h.apply(x), by = h.apply(y);
  EXPECT_NEAR(dot(y, bx), dot(x, by), 1e-12 * std::abs(dot(x, by)));
  EXPECT_GT(dot(x, bx), 0);
}

TEST(FemAmg, SingularMatrixIsAnError) {
  const BoxStiffness s = box_stiffness(4, {});
  try {
    const AmgHierarchy h(s.k);
    FAIL() << "no error for a stiffness without a fixed node";
  } catch (const core::Error& e) {
    EXPECT_NE(std::string(e.what()).find("not positive definite"), std::string::npos) << e.what();
  }
}

TEST(FemAmg, OptionsOutOfRangeAreErrors) {
  const CsrMatrix a = test::dirichlet_laplacian(6, 6, 6);
  AmgOptions o;
  o.strength = -0.1;
  EXPECT_THROW(AmgHierarchy(a, o), core::Error);
  o = AmgOptions{};
  o.coarse_size = 0;
  EXPECT_THROW(AmgHierarchy(a, o), core::Error);
}

TEST(FemAmg, ComplexityOfTheBoxStiffness) {
  const BoxStiffness s = box_stiffness(20);
  const AmgHierarchy h(s.k);
  std::cout << "[ info ] " << s.k.n << " unknowns:";
  for (const AmgLevel& l : h.levels()) std::cout << " " << l.a.rows << " (nnz " << l.a.nnz() << ")";
  std::cout << "; operator complexity " << h.operator_complexity() << "\n";
  EXPECT_LE(h.levels().back().a.rows, 400u);
  EXPECT_LT(h.operator_complexity(), 2.0);
}

}  // namespace
}  // namespace hetflow::fem
