#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "hetflow/core/error.hpp"
#include "hetflow/fem/device_csr.hpp"
#include "sparse_problems.hpp"
#include "test_devices.hpp"

namespace hetflow::fem {
namespace {

// A matrix with empty rows, short rows and rows far longer than any lane count tried (300 entries),
// with random columns and values.
CsrMatrix ragged_matrix(std::size_t n) {
  test::Lcg g(7);
  CsrMatrix a;
  a.n = n;
  a.row_start.push_back(0);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t len = i % 11 == 0 ? 0 : i % 17 == 0 ? 300 : 1 + g.below(20);
    for (std::uint32_t k = 0; k < len; ++k) {
      a.col.push_back(static_cast<std::int32_t>(g.below(static_cast<std::uint32_t>(n))));
      a.values.push_back(g.next());
    }
    a.row_start.push_back(static_cast<std::int32_t>(a.col.size()));
  }
  return a;
}

template <class Real>
std::vector<double> device_product(const CsrMatrix& a, const std::vector<double>& x, const SpmvShape& shape) {
  const core::DeviceSet devices = test::test_device();
  const core::Queue& q = devices.compute(0);
  const DeviceCsr<Real> da(q, a);
  core::Buffer<Real> dx(q.context(), a.n), dy(q.context(), a.n);
  dx.write(q, std::span<const Real>(std::vector<Real>(x.begin(), x.end())));
  dy.fill(q, Real(-1));
  DeviceSpmv<Real>(q.context(), shape)(q, da, dx, dy);
  const std::vector<Real> y = dy.to_vector(q);
  return {y.begin(), y.end()};
}

// sum_k |a_ik x_k| for every row: the scale of a row's rounding error.
std::vector<double> abs_row_products(const CsrMatrix& a, const std::vector<double>& x) {
  CsrMatrix abs = a;
  for (double& v : abs.values) v = std::fabs(v);
  std::vector<double> ax(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) ax[i] = std::fabs(x[i]);
  return multiply(abs, ax);
}

struct ShapeCase {
  int wg_bits, row_bits;
};

class FemSpmv : public ::testing::TestWithParam<ShapeCase> {};

// One lane per row sums in the host's order without fused multiply-adds: equal bit for bit. More lanes
// reorder the sum: equal to a few units of round-off of the row's absolute products.
TEST_P(FemSpmv, EqualsHostProductOnRaggedRows) {
  const SpmvShape shape{GetParam().wg_bits, GetParam().row_bits};
  const CsrMatrix a = ragged_matrix(1000);
  const std::vector<double> x = test::random_vector(a.n, 3);
  const std::vector<double> expected = multiply(a, x);
  const std::vector<double> scale = abs_row_products(a, x);
  const std::vector<double> y = device_product<double>(a, x, shape);
  for (std::size_t i = 0; i < a.n; ++i) {
    if (shape.lanes() == 1) {
      ASSERT_EQ(y[i], expected[i]) << "row " << i;
    } else {
      ASSERT_NEAR(y[i], expected[i], 8 * 0x1.0p-52 * scale[i]) << "row " << i;
    }
  }
  EXPECT_EQ(y[0], 0.0);  // an empty row is written as 0, not left alone
}

INSTANTIATE_TEST_SUITE_P(FemShapes, FemSpmv,
                         ::testing::Values(ShapeCase{0, 0}, ShapeCase{3, 3}, ShapeCase{6, 6}, ShapeCase{2, 0},
                                           ShapeCase{5, 2}, ShapeCase{6, 3}, ShapeCase{8, 5}, ShapeCase{8, 0}),
                         [](const ::testing::TestParamInfo<ShapeCase>& p) {
                           std::string name = "W";
                           name += std::to_string(p.param.wg_bits);
                           name += "R";
                           name += std::to_string(p.param.row_bits);
                           return name;
                         });

TEST(FemSpmvFp32, EqualsHostProductToSinglePrecision) {
  const CsrMatrix a = ragged_matrix(1000);
  const std::vector<double> x = test::random_vector(a.n, 3);
  const std::vector<double> expected = multiply(a, x);
  const std::vector<double> scale = abs_row_products(a, x);
  const std::vector<double> y = device_product<float>(a, x, SpmvShape{6, 3});
  for (std::size_t i = 0; i < a.n; ++i) ASSERT_NEAR(y[i], expected[i], 4e-6 * scale[i] + 1e-30) << "row " << i;
}

TEST(FemSpmvShape, RejectsMoreRowsThanWorkItems) {
  const core::DeviceSet devices = test::test_device();
  try {
    DeviceSpmv<double>(devices.context(0), SpmvShape{3, 4});
    FAIL() << "no error";
  } catch (const core::Error& e) {
    EXPECT_STREQ(e.what(), "SpMV shape: needs 0 <= row_bits <= wg_bits <= 12, got wg_bits 3, row_bits 4");
  }
}

// The multigrid's coarse operators on a 56³ cavity have rows 4.6 and 10.4 times as long as the finest
// level's 14.6: with one tuned lane per row they get 4 and 8; shapes only widen, up to the work-group.
TEST(FemSpmvShape, WidensToLongerRows) {
  const SpmvShape one_lane{5, 5}, eight_lanes{6, 3};
  EXPECT_EQ(widened_shape(one_lane, 14.6, 14.6), one_lane);
  EXPECT_EQ(widened_shape(one_lane, 67.0, 14.6), (SpmvShape{5, 3}));
  EXPECT_EQ(widened_shape(one_lane, 152.0, 14.6), (SpmvShape{5, 2}));
  EXPECT_EQ(widened_shape(one_lane, 21.0, 14.6), one_lane) << "1.44 times as long rounds to 1";
  EXPECT_EQ(widened_shape(one_lane, 22.0, 14.6), (SpmvShape{5, 4})) << "1.51 times as long rounds to 2";
  EXPECT_EQ(widened_shape(one_lane, 3.0, 14.6), one_lane);
  EXPECT_EQ(widened_shape(one_lane, 1e6, 14.6), (SpmvShape{5, 0}));
  EXPECT_EQ(widened_shape(eight_lanes, 30.0, 14.0), (SpmvShape{6, 2}));
}

TEST(FemCsr, RejectsColumnOutsideMatrix) {
  CsrMatrix a = test::dirichlet_laplacian(4, 4, 1);
  a.col[7] = 16;
  try {
    check(a);
    FAIL() << "no error";
  } catch (const core::Error& e) {
    EXPECT_STREQ(e.what(), "CSR matrix: row 5 has column 16 outside [0, 16)");
  }
}

}  // namespace
}  // namespace hetflow::fem
