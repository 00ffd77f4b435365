// The dense device kernels TNT needs (nnls/dense.cl through nnls::DeviceDense) against host loops and
// LAPACK, in FP64 and FP32, and in FP64 the route through the host's BLAS/LAPACK that CPU devices take
// (DenseTuning::cpu_blas). Sizes are not multiples of the tiles and blocks, and matrices sit inside
// larger buffers (offset, leading dimension above the row count), so every edge path runs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <numeric>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "hetflow/nnls/device_dense.hpp"
#include "hetflow/nnls/gram_inverse.hpp"
#include "hetflow/nnls/lapack.hpp"
#include "hetflow/nnls/pcgnr.hpp"
#include "test_devices.hpp"

namespace hetflow::nnls {
namespace {

// A column-major host matrix with a leading dimension, in double: the reference side.
struct HostMatrix {
  std::size_t rows, cols, ld;
  std::vector<double> data;
  HostMatrix(std::size_t m, std::size_t n, std::size_t lead) : rows(m), cols(n), ld(lead), data(lead * n, 0.0) {}
  double& operator()(std::size_t i, std::size_t j) { return data[i + j * ld]; }
  double operator()(std::size_t i, std::size_t j) const { return data[i + j * ld]; }
};

template <class Real>
double rounded(double v) {
  return static_cast<double>(static_cast<Real>(v));
}

// Entries uniform in [-1, 1), already rounded to Real so host and device see the same numbers.
template <class Real>
HostMatrix random_matrix(std::size_t m, std::size_t n, std::size_t ld, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  HostMatrix a(m, n, ld);
  for (std::size_t j = 0; j < n; ++j)
    for (std::size_t i = 0; i < m; ++i) a(i, j) = rounded<Real>(u(rng));
  return a;
}

template <class Real>
std::vector<double> random_vector(std::size_t n, std::mt19937_64& rng) {
  return random_matrix<Real>(n, 1, n, rng).data;
}

// An SPD matrix G^T G / p + I with G of p x k, p >= k: eigenvalues in [1, (1 + sqrt(k/p))^2 + 1], so
// condition numbers below 5 and its Cholesky factor's below 2.3. Rounded to Real.
template <class Real>
HostMatrix spd_matrix(std::size_t k, std::size_t ld, std::mt19937_64& rng) {
  const std::size_t p = k + 20;
  const HostMatrix g = random_matrix<double>(p, k, p, rng);
  HostMatrix s(k, k, ld);
  for (std::size_t j = 0; j < k; ++j)
    for (std::size_t i = 0; i <= j; ++i) {
      double sum = 0;
      for (std::size_t l = 0; l < p; ++l) sum += g(l, i) * g(l, j);
      s(i, j) = s(j, i) = rounded<Real>(sum / static_cast<double>(p) + (i == j ? 1.0 : 0.0));
    }
  return s;
}

// What a typed test runs: reals of type R, through the kernels or (Blas, CPU devices only) the host's
// BLAS/LAPACK.
template <class R, bool Blas>
struct Route {
  using Real = R;
  static constexpr bool cpu_blas = Blas;
};

template <class RouteT>
class DeviceDenseTest : public ::testing::Test {
 protected:
  using RouteReal = typename RouteT::Real;

  static DenseTuning route_tuning(DenseTuning t = {}) {
    t.cpu_blas = RouteT::cpu_blas;
    return t;
  }
  static void SetUpTestSuite() {
    devices_ = std::make_unique<core::DeviceSet>(test::test_device());
    no_fp64_ = sizeof(RouteReal) == 8 && !devices_->device(0).info.fp64;
    if (!no_fp64_) dense_ = std::make_unique<DeviceDense<RouteReal>>(devices_->context(0), route_tuning());
  }
  static void TearDownTestSuite() {
    dense_.reset();
    devices_.reset();
  }
  void SetUp() override {
    if (no_fp64_) GTEST_SKIP() << "the test device has no FP64";
    ASSERT_TRUE(dense_) << "DeviceDense was not built";
    if (RouteT::cpu_blas && !dense_->host_blas()) {
      GTEST_SKIP() << "the host BLAS route serves CPU devices only";
    }
    if (!RouteT::cpu_blas) {
      ASSERT_FALSE(dense_->host_blas());
    }
  }

  const core::Queue& queue() const { return devices_->compute(0); }
  DeviceDense<RouteReal>& dense() const { return *dense_; }

  // A buffer holding `host` behind `offset` elements, as a view of the same shape. The elements
  // outside the view (before it, and below its rows) are NaN, so a kernel reading them shows.
  DeviceMatrixView<RouteReal> upload(const HostMatrix& host, std::size_t offset = 0) const {
    std::vector<RouteReal> values(offset + host.data.size(), std::numeric_limits<RouteReal>::quiet_NaN());
    for (std::size_t j = 0; j < host.cols; ++j)
      for (std::size_t i = 0; i < host.rows; ++i) values[offset + i + j * host.ld] = static_cast<RouteReal>(host(i, j));
    core::Buffer<RouteReal> buffer(devices_->context(0), values.size());
    buffer.write(queue(), values);
    return {buffer, host.rows, host.cols, host.ld, offset};
  }
  core::Buffer<RouteReal> upload(const std::vector<double>& host) const {
    const std::vector<RouteReal> values(host.begin(), host.end());
    core::Buffer<RouteReal> buffer(devices_->context(0), values.size());
    buffer.write(queue(), values);
    return buffer;
  }
  core::Buffer<cl_int> upload(const std::vector<cl_int>& host) const {
    core::Buffer<cl_int> buffer(devices_->context(0), host.size());
    buffer.write(queue(), host);
    return buffer;
  }
  HostMatrix download(const DeviceMatrixView<RouteReal>& view) const {
    const std::vector<RouteReal> all = view.buffer.to_vector(queue());
    HostMatrix host(view.rows, view.cols, view.ld);
    for (std::size_t i = 0; i < host.data.size(); ++i) host.data[i] = all[view.offset + i];
    return host;
  }
  std::vector<double> download(const core::Buffer<RouteReal>& v) const {
    const std::vector<RouteReal> all = v.to_vector(queue());
    return {all.begin(), all.end()};
  }
  // Whether a factor_inverse since clear_failure() failed.
  bool failed() const {
    cl_int info = 0;
    dense().read_failure(queue(), info);
    queue().finish();
    return info != 0;
  }

  // Rounding errors of a sum of n products are bounded by gamma_n = n u times the sum of the products'
  // magnitudes. The sizes below keep n u under the tolerance (u = 1.1e-16 and 6e-8): FP64 n <= 900 for
  // 1e-13, FP32 n <= 160 for 1e-5.
  static constexpr double tol = sizeof(RouteReal) == 8 ? 1e-13 : 1e-5;
  // A few roundings (a product, a quotient, a sum) of one entry.
  static constexpr double few_ulps = 4.0 * std::numeric_limits<RouteReal>::epsilon();

  inline static bool no_fp64_ = false;
  inline static std::unique_ptr<core::DeviceSet> devices_;
  inline static std::unique_ptr<DeviceDense<RouteReal>> dense_;
};

using Routes = ::testing::Types<Route<double, false>, Route<float, false>, Route<double, true>>;
struct RouteNames {
  template <class RouteT>
  static std::string GetName(int) {
    return std::string(sizeof(typename RouteT::Real) == 8 ? "fp64" : "fp32") + (RouteT::cpu_blas ? "_host_blas" : "");
  }
};
TYPED_TEST_SUITE(DeviceDenseTest, Routes, RouteNames);

TYPED_TEST(DeviceDenseTest, GramMatchesHostAndIsSymmetric) {
  using Real = typename TypeParam::Real;
  std::mt19937_64 rng(1);
  const std::size_t m = 150, n = 131;  // three 64-wide tiles per side, the last one partial
  const HostMatrix a = random_matrix<Real>(m, n, m + 7, rng);
  const auto a_dev = this->upload(a, 3);
  HostMatrix c_before(n, n, n + 2);  // NaN: gram must not read C
  std::fill(c_before.data.begin(), c_before.data.end(), std::numeric_limits<double>::quiet_NaN());
  const auto c_dev = this->upload(c_before);
  this->dense().gram(this->queue(), a_dev, c_dev);
  const HostMatrix c = this->download(c_dev);
  for (std::size_t j = 0; j < n; ++j)
    for (std::size_t i = 0; i < n; ++i) {
      double ref = 0, mag = 0;
      for (std::size_t l = 0; l < m; ++l) {
        ref += a(l, i) * a(l, j);
        mag += std::abs(a(l, i) * a(l, j));
      }
      ASSERT_LE(std::abs(c(i, j) - ref), this->tol * mag) << "C(" << i << ", " << j << ")";
      ASSERT_EQ(c(i, j), c(j, i)) << "mirrored entry (" << i << ", " << j << ")";
    }
}

// C = alpha A^T B + beta C and C = alpha A B + beta C, for several right-hand sides, in shapes that take
// each kernel: the tiled GEMM in one piece and split along a long contraction (700 deep, C of one tile),
// the skinny A B (3 or 5 columns; split at depth 700) and the skinny A^T B (6 rows).
TYPED_TEST(DeviceDenseTest, GemmsMatchHostLoops) {
  using Real = typename TypeParam::Real;
  std::mt19937_64 rng(2);
  struct Shape {
    std::size_t kdim, m, nrhs;
  };
  for (const bool transposed : {true, false})
    for (const auto [kdim, m, nrhs] : {Shape{70, 45, 3}, Shape{700, 6, 30}, Shape{700, 45, 5}}) {
      SCOPED_TRACE(std::string(transposed ? "A^T B" : "A B") + ", depth " + std::to_string(kdim));
      const HostMatrix a =
          transposed ? random_matrix<Real>(kdim, m, kdim, rng) : random_matrix<Real>(m, kdim, m + 2, rng);
      const HostMatrix b = random_matrix<Real>(kdim, nrhs, kdim + 1, rng);
      const HostMatrix c0 = random_matrix<Real>(m, nrhs, m + 4, rng);
      const double alpha = 2.0, beta = -0.5;
      const auto c_dev = this->upload(c0, 5);
      if (transposed)
        this->dense().gemm_tn(this->queue(), Real(alpha), this->upload(a, 1), this->upload(b), Real(beta), c_dev);
      else
        this->dense().gemm_nn(this->queue(), Real(alpha), this->upload(a, 1), this->upload(b), Real(beta), c_dev);
      const HostMatrix c = this->download(c_dev);
      for (std::size_t j = 0; j < nrhs; ++j)
        for (std::size_t i = 0; i < m; ++i) {
          double ref = beta * c0(i, j), mag = std::abs(beta * c0(i, j));
          for (std::size_t l = 0; l < kdim; ++l) {
            const double product = alpha * (transposed ? a(l, i) : a(i, l)) * b(l, j);
            ref += product;
            mag += std::abs(product);
          }
          ASSERT_LE(std::abs(c(i, j) - ref), this->tol * mag) << "C(" << i << ", " << j << ")";
        }
    }
}

// An index list of k distinct columns of n, in random order (TNT keeps F sorted; the kernels must not
// rely on it).
std::vector<cl_int> random_indices(std::size_t n, std::size_t k, std::mt19937_64& rng) {
  std::vector<cl_int> all(n);
  std::iota(all.begin(), all.end(), 0);
  std::shuffle(all.begin(), all.end(), rng);
  all.resize(k);
  return all;
}

// C(F, F) (the square overload) and C(R, S).
TYPED_TEST(DeviceDenseTest, GatherCopiesTheBlockExactly) {
  using Real = typename TypeParam::Real;
  std::mt19937_64 rng(3);
  const std::size_t n = 97, k = 37, nc = 9;
  const HostMatrix c = random_matrix<Real>(n, n, n + 1, rng);
  const std::vector<cl_int> f = random_indices(n, k, rng), cols = random_indices(n, nc, rng);
  for (const bool square : {true, false}) {
    SCOPED_TRACE(square ? "C(F, F)" : "C(F, S)");
    const std::vector<cl_int>& s = square ? f : cols;
    const auto out_dev = this->upload(HostMatrix(k, s.size(), k + 3), 2);
    if (square)
      this->dense().gather(this->queue(), this->upload(c, 4), this->upload(f), k, out_dev);
    else
      this->dense().gather(this->queue(), this->upload(c, 4), this->upload(f), k, this->upload(s), s.size(), out_dev);
    const HostMatrix out = this->download(out_dev);
    for (std::size_t b = 0; b < s.size(); ++b)
      for (std::size_t a = 0; a < k; ++a)
        ASSERT_EQ(out(a, b), c(static_cast<std::size_t>(f[a]), static_cast<std::size_t>(s[b])));
  }
}

// factor_inverse's output against its definition: Z Z^T S = I for Z = R^-1 (and Z^T = R^-T), with zero
// rows above; S of condition below 5, so I to a few ulps times the order. A matrix that is not positive
// definite is reported, and the next call (on a good matrix) stays a no-op until clear_failure.
TYPED_TEST(DeviceDenseTest, FactorInverseInvertsSmallBlocks) {
  using Real = typename TypeParam::Real;
  std::mt19937_64 rng(14);
  const std::size_t above = 7;
  const HostMatrix small = spd_matrix<Real>(41, 42, rng);
  const HostMatrix& s = small;
  const std::size_t t = s.rows;
  for (const bool transposed : {false, true}) {
    SCOPED_TRACE(transposed ? "R^-T" : "R^-1");
    this->dense().clear_failure(this->queue());
    const auto out_dev = this->upload(HostMatrix(above + t, t, above + t + 2), 3);
    this->dense().factor_inverse(this->queue(), this->upload(s, 1), out_dev, above, transposed);
    ASSERT_FALSE(this->failed());
    const HostMatrix out = this->download(out_dev);
    HostMatrix z(t, t, t);  // Z = R^-1, upper
    for (std::size_t j = 0; j < t; ++j) {
      for (std::size_t i = 0; i < above; ++i) ASSERT_EQ(out(i, j), 0.0);
      for (std::size_t i = 0; i < t; ++i) {
        const double v = transposed ? out(above + j, i) : out(above + i, j);
        if (i > j) ASSERT_EQ(v, 0.0);
        z(i, j) = v;
      }
    }
    for (std::size_t j = 0; j < t; ++j)
      for (std::size_t i = 0; i < t; ++i) {
        double e = i == j ? -1.0 : 0.0;  // (Z Z^T S)(i, j) - I(i, j)
        for (std::size_t l = 0; l < t; ++l) {
          double zz = 0.0;
          for (std::size_t p = std::max(i, l); p < t; ++p) zz += z(i, p) * z(l, p);
          e += zz * s(l, j);
        }
        ASSERT_LE(std::abs(e), 100.0 * t * this->few_ulps) << "(" << i << ", " << j << ")";
      }
  }
  HostMatrix bad = small;
  bad(5, 5) = -1.0;
  this->dense().clear_failure(this->queue());
  const auto out_dev = this->upload(HostMatrix(t, t, t));
  this->dense().factor_inverse(this->queue(), this->upload(bad), out_dev, 0, true);
  EXPECT_TRUE(this->failed());
  this->dense().factor_inverse(this->queue(), this->upload(small), out_dev, 0, true);
  EXPECT_TRUE(this->failed());
}

// GramInverse against what it stands for: after each change of the set (removals and insertions of more
// than a block each, a rollback, removals left pending and then written out, a removal large enough to
// rebuild) H (AA(F, F) + shift I) = I to the rounding of a well-conditioned matrix (condition below 5),
// with F in order() on host and device and H = W_C P^T P W_C^T formed on the host from view().
TYPED_TEST(DeviceDenseTest, GramInverseFollowsItsSet) {
  using Real = typename TypeParam::Real;
  std::mt19937_64 rng(15);
  const std::size_t n = 300;
  const double shift = 0.25;
  const HostMatrix aa = spd_matrix<Real>(n, n, rng);
  const auto aa_dev = this->upload(aa);
  GramInverse<Real> inverse(this->dense(), this->queue(), n);
  const auto check = [&](const std::vector<int>& set, std::size_t pending, const char* step) {
    SCOPED_TRACE(step);
    const std::vector<int>& order = inverse.order();
    std::vector<int> sorted_order = order, sorted_set = set;
    std::sort(sorted_order.begin(), sorted_order.end());
    std::sort(sorted_set.begin(), sorted_set.end());
    ASSERT_EQ(sorted_order, sorted_set);
    const std::size_t k = order.size();
    std::vector<cl_int> on_device(k), columns(k);
    inverse.order_buffer().read(this->queue(), std::span<cl_int>(on_device));
    ASSERT_TRUE(std::equal(order.begin(), order.end(), on_device.begin()));
    const InverseView<Real> view = inverse.view();
    ASSERT_EQ(view.k, k);
    ASSERT_EQ(view.q.cols, pending);
    view.columns.read(this->queue(), std::span<cl_int>(columns));
    const HostMatrix wt = this->download(view.wt), q = this->download(view.q);
    const std::size_t c = wt.rows;
    HostMatrix b(c, k, c);  // P Wt(:, C), P applied twice as apply_inverse does
    for (std::size_t j = 0; j < k; ++j) {
      for (std::size_t i = 0; i < c; ++i) b(i, j) = wt(i, static_cast<std::size_t>(columns[j]));
      for (int pass = 0; pass < 2; ++pass)
        for (std::size_t l = 0; l < pending; ++l) {
          double s = 0.0;
          for (std::size_t i = 0; i < c; ++i) s += q(i, l) * b(i, j);
          for (std::size_t i = 0; i < c; ++i) b(i, j) -= s * q(i, l);
        }
    }
    HostMatrix h(k, k, k);  // B^T B
    for (std::size_t j = 0; j < k; ++j)
      for (std::size_t i = 0; i < k; ++i)
        for (std::size_t p = 0; p < c; ++p) h(i, j) += b(p, i) * b(p, j);
    double worst = 0.0;
    for (std::size_t j = 0; j < k; ++j)
      for (std::size_t i = 0; i < k; ++i) {
        double e = i == j ? -1.0 : 0.0;  // (H M)(i, j) - I(i, j)
        for (std::size_t l = 0; l < k; ++l)
          e += h(i, l) *
               (aa(static_cast<std::size_t>(order[l]), static_cast<std::size_t>(order[j])) + (l == j ? shift : 0.0));
        worst = std::max(worst, std::abs(e));
      }
    EXPECT_LE(worst, 10.0 * static_cast<double>(k) * this->few_ulps);
  };
  std::vector<int> all(n);
  std::iota(all.begin(), all.end(), 0);
  std::shuffle(all.begin(), all.end(), rng);
  const std::vector<int> first(all.begin(), all.begin() + 240);
  bool rebuilt = false;
  inverse.assign(aa_dev, first, shift, false, rebuilt);
  ASSERT_TRUE(inverse.factored());
  EXPECT_TRUE(rebuilt);
  check(first, 0, "built");
  inverse.checkpoint();
  // 70 of them leave (under a third) and 50 others join: two blocks each way, no rebuild.
  std::vector<int> second(first.begin() + 70, first.end());
  second.insert(second.end(), all.begin() + 240, all.begin() + 290);
  inverse.assign(aa_dev, second, shift, false, rebuilt);
  ASSERT_TRUE(inverse.factored());
  EXPECT_FALSE(rebuilt);
  check(second, 0, "updated");
  inverse.rollback();
  check(first, 0, "rolled back");
  // Insertions alone, from the checkpoint; then removals of 3 and 5 more (left pending), one of them back
  // (all written out first), 2 more (pending), a checkpoint (written out).
  std::vector<int> third = first;
  third.insert(third.end(), all.begin() + 240, all.begin() + 250);
  inverse.assign(aa_dev, third, shift, false, rebuilt);
  ASSERT_TRUE(inverse.factored());
  EXPECT_FALSE(rebuilt);
  check(third, 0, "inserted");
  const std::vector<int> fewer(third.begin() + 3, third.end()), fewer_still(third.begin() + 8, third.end());
  inverse.assign(aa_dev, fewer, shift, false, rebuilt);
  ASSERT_TRUE(inverse.factored());
  EXPECT_FALSE(rebuilt);
  check(fewer, 3, "3 pending");
  inverse.assign(aa_dev, fewer_still, shift, false, rebuilt);
  ASSERT_TRUE(inverse.factored());
  check(fewer_still, 8, "8 pending");
  std::vector<int> back = fewer_still;
  back.push_back(third[5]);
  inverse.assign(aa_dev, back, shift, false, rebuilt);
  ASSERT_TRUE(inverse.factored());
  EXPECT_FALSE(rebuilt);
  check(back, 0, "one back");
  const std::vector<int> fifth(back.begin() + 2, back.end());
  inverse.assign(aa_dev, fifth, shift, false, rebuilt);
  ASSERT_TRUE(inverse.factored());
  check(fifth, 2, "2 pending");
  inverse.checkpoint();
  check(fifth, 0, "checkpointed");
  // A removal of more than a third: rebuilt.
  const std::vector<int> fourth(fifth.begin(), fifth.begin() + 120);
  inverse.assign(aa_dev, fourth, shift, false, rebuilt);
  ASSERT_TRUE(inverse.factored());
  EXPECT_TRUE(rebuilt);
  check(fourth, 0, "rebuilt");
}

TYPED_TEST(DeviceDenseTest, AddDiagonalShiftsOnlyTheDiagonal) {
  using Real = typename TypeParam::Real;
  std::mt19937_64 rng(4);
  const std::size_t n = 70;
  const HostMatrix c = random_matrix<Real>(n, n, n + 2, rng);
  const auto c_dev = this->upload(c, 1);
  this->dense().add_diagonal(this->queue(), c_dev, Real(0.25));
  const HostMatrix out = this->download(c_dev);
  for (std::size_t j = 0; j < n; ++j)
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(out(i, j), i == j ? rounded<Real>(c(i, j) + 0.25) : c(i, j));
}

// A(:, F) p, A(:, F)^T r, and the residual b - A(:, F) p with its squared norm; with 300 of F's entries
// gemv_n sums F in chunks on every device (at least 64 entries per chunk, at least two chunks for 160
// rows), with 77 in one.
TYPED_TEST(DeviceDenseTest, GatheredGemvsMatchHostLoops) {
  using Real = typename TypeParam::Real;
  for (const auto& [n, k] : {std::pair<std::size_t, std::size_t>{150, 77}, {400, 300}}) {
    std::mt19937_64 rng(5 + k);
    const std::size_t m = 160;
    const HostMatrix a = random_matrix<Real>(m, n, m + 3, rng);
    const std::vector<cl_int> f = random_indices(n, k, rng);
    const auto a_dev = this->upload(a, 6);
    const auto f_dev = this->upload(f);

    // q = 1.5 A(:, F) p with beta = 0 over a NaN-filled q: the kernel must not read q.
    const std::vector<double> p = random_vector<Real>(k, rng);
    const auto q_dev = this->upload(std::vector<double>(m, std::numeric_limits<double>::quiet_NaN()));
    this->dense().gemv_n(this->queue(), Real(1.5), a_dev, f_dev, k, this->upload(p), Real(0), q_dev);
    const std::vector<double> q = this->download(q_dev);
    for (std::size_t i = 0; i < m; ++i) {
      double ref = 0, mag = 0;
      for (std::size_t j = 0; j < k; ++j) {
        const double term = 1.5 * a(i, static_cast<std::size_t>(f[j])) * p[j];
        ref += term;
        mag += std::abs(term);
      }
      ASSERT_LE(std::abs(q[i] - ref), this->tol * mag) << "q[" << i << "]";
    }

    // z = -A(:, F)^T r + 2 z0.
    const std::vector<double> r = random_vector<Real>(m, rng);
    const std::vector<double> z0 = random_vector<Real>(k, rng);
    const auto z_dev = this->upload(z0);
    this->dense().gemv_t(this->queue(), Real(-1), a_dev, f_dev, k, this->upload(r), Real(2), z_dev);
    const std::vector<double> z = this->download(z_dev);
    for (std::size_t j = 0; j < k; ++j) {
      double ref = 2 * z0[j], mag = std::abs(2 * z0[j]);
      for (std::size_t i = 0; i < m; ++i) {
        const double term = -a(i, static_cast<std::size_t>(f[j])) * r[i];
        ref += term;
        mag += std::abs(term);
      }
      ASSERT_LE(std::abs(z[j] - ref), this->tol * mag) << "z[" << j << "]";
    }

    // r = b - A(:, F) p and its r . r.
    const std::vector<double> b = random_vector<Real>(m, rng);
    const auto res_dev = this->upload(std::vector<double>(m, 0.0));
    const double rr = this->dense().residual(this->queue(), a_dev, f_dev, k, this->upload(p), this->upload(b), res_dev);
    const std::vector<double> res = this->download(res_dev);
    double rr_ref = 0, rr_mag = 0;
    for (std::size_t i = 0; i < m; ++i) {
      double ref = b[i], mag = std::abs(b[i]);
      for (std::size_t j = 0; j < k; ++j) {
        const double term = a(i, static_cast<std::size_t>(f[j])) * p[j];
        ref -= term;
        mag += std::abs(term);
      }
      ASSERT_LE(std::abs(res[i] - ref), this->tol * mag) << "r[" << i << "]";
      rr_ref += ref * ref;
      rr_mag += mag * mag;
    }
    // Each r_i lies within tol mag_i, so r . r within 2 tol sum mag_i^2, plus the sum's own rounding.
    EXPECT_LE(std::abs(rr - rr_ref), 3 * this->tol * rr_mag);

    // Three points at once (X and R with leading dimensions past their rows): b - A(:, F) X(:, j) and their
    // squared norms, as above per column.
    const std::size_t points = 3;
    const HostMatrix x = random_matrix<Real>(k, points, k + 1, rng);
    const auto r_dev = this->upload(HostMatrix(m, points, m + 2), 3);
    const std::vector<double> norms =
        this->dense().residuals(this->queue(), a_dev, f_dev, k, this->upload(x, 2), this->upload(b), r_dev);
    const HostMatrix rs = this->download(r_dev);
    ASSERT_EQ(norms.size(), points);
    for (std::size_t j = 0; j < points; ++j) {
      double norm_ref = 0, norm_mag = 0;
      for (std::size_t i = 0; i < m; ++i) {
        double ref = b[i], mag = std::abs(b[i]);
        for (std::size_t l = 0; l < k; ++l) {
          const double term = a(i, static_cast<std::size_t>(f[l])) * x(l, j);
          ref -= term;
          mag += std::abs(term);
        }
        ASSERT_LE(std::abs(rs(i, j) - ref), this->tol * mag) << "R(" << i << ", " << j << ")";
        norm_ref += ref * ref;
        norm_mag += mag * mag;
      }
      EXPECT_LE(std::abs(norms[j] - norm_ref), 3 * this->tol * norm_mag) << "column " << j;
    }
  }
}

// ||R^T R - BB||_F / ||BB||_F with R the upper triangle of `factor`.
double cholesky_residual(const HostMatrix& factor, const HostMatrix& bb) {
  const std::size_t k = bb.rows;
  double diff = 0, norm = 0;
  for (std::size_t j = 0; j < k; ++j)
    for (std::size_t i = 0; i < k; ++i) {
      double sum = 0;
      for (std::size_t l = 0; l <= std::min(i, j); ++l) sum += factor(l, i) * factor(l, j);
      diff += (sum - bb(i, j)) * (sum - bb(i, j));
      norm += bb(i, j) * bb(i, j);
    }
  return std::sqrt(diff / norm);
}

TYPED_TEST(DeviceDenseTest, CholeskyFactorsSpdMatrices) {
  using Real = typename TypeParam::Real;
  // Cholesky's backward error is bounded by gamma_{k+1} |R^T| |R| (Higham, Thm 10.3); for these
  // well-conditioned matrices ||(|R^T| |R|)|| is about ||BB||, and rounding errors grow like sqrt(k) u
  // in practice, well under 1e-13 (FP64) and 1e-5 (FP32) at k = 300.
  for (const std::size_t k : {std::size_t{300}, std::size_t{257}}) {
    std::mt19937_64 rng(6 + k);
    const HostMatrix bb = spd_matrix<Real>(k, k + 5, rng);
    const auto dev = this->upload(bb, 7);
    const auto failed = this->dense().cholesky(this->queue(), dev);
    ASSERT_FALSE(failed.has_value()) << "column " << *failed;
    const HostMatrix r = this->download(dev);
    EXPECT_LE(cholesky_residual(r, bb), this->tol) << "k = " << k;
    if (this->dense().host_blas()) continue;  // dpotrf leaves the strict lower triangle as it was
    // Below the diagonal blocks nothing is written; inside each, L (strict part stored, diagonal
    // 1 / R(i, i)) must be R_jj^-T: L R_jj^T = I to a few k u (R's condition number is below 2.3).
    const std::size_t nb = static_cast<std::size_t>(this->dense().tuning().cholesky_block);
    for (std::size_t j = 0; j < k; ++j) {
      ASSERT_GT(r(j, j), 0.0);
      for (std::size_t i = (j / nb + 1) * nb; i < k; ++i)
        ASSERT_EQ(r(i, j), bb(i, j)) << "strict lower triangle outside the diagonal blocks";
    }
    const auto l = [&](std::size_t i, std::size_t c) { return i == c ? 1 / r(i, i) : r(i, c); };
    for (std::size_t j0 = 0; j0 < k; j0 += nb)
      for (std::size_t i = j0; i < std::min(k, j0 + nb); ++i)
        for (std::size_t c = j0; c < std::min(k, j0 + nb); ++c) {
          double sum = 0;  // (L R^T)(i, c) = sum over s of L(i, s) R(c, s), s <= i and s >= c
          for (std::size_t t = c; t <= i; ++t) sum += l(i, t) * r(c, t);
          ASSERT_NEAR(sum, i == c ? 1.0 : 0.0, 10 * this->tol) << "k = " << k << ", (R_jj^-T R_jj^T)(" << i << ", " << c << ")";
        }
  }
}

TYPED_TEST(DeviceDenseTest, CholeskyReportsTheFailingColumnAsLapackDoes) {
  using Real = typename TypeParam::Real;
  const std::size_t k = 257;
  std::mt19937_64 rng(7);
  const HostMatrix spd = spd_matrix<Real>(k, k, rng);
  HostMatrix negative = spd, not_finite = spd;
  negative(150, 150) = -1;  // leading minors up to 149 stay positive; pivot 150 is below zero
  not_finite(5, 200) = not_finite(200, 5) = std::numeric_limits<double>::quiet_NaN();  // reaches pivot 200
  // Columns 150 and 200 (0-based) as the reference LAPACK's dpotrf reports them (INFO - 1); the GPU
  // machine's LAPACK does not test pivots for NaN, so the expected columns are written out.
  const std::pair<const HostMatrix*, std::size_t> cases[] = {{&negative, 150}, {&not_finite, 200}};
  for (const auto& [bad, column] : cases) {
    HostMatrix lapack = *bad;
    const int n = static_cast<int>(k), lda = static_cast<int>(lapack.ld);
    int info = 0;
    dpotrf_("U", &n, lapack.data.data(), &lda, &info);
    if (info > 0) {
      EXPECT_EQ(static_cast<std::size_t>(info - 1), column);
    }
    const auto failed = this->dense().cholesky(this->queue(), this->upload(*bad));
    ASSERT_TRUE(failed.has_value());
    EXPECT_EQ(*failed, column);
  }
  // A failure leaves nothing behind: the next factorisation succeeds.
  EXPECT_FALSE(this->dense().cholesky(this->queue(), this->upload(spd)).has_value());
}

// PCGNR keeps the iterate it stops at although it enqueues two iterations before reading a scalar: with
// one iteration allowed, y = alpha H B^T b (alpha = z.w / q.q, q = B H B^T b), here with a shifted H so
// that the second iterate differs from it; with none, y = 0. The host's copy of the answer is that y.
TYPED_TEST(DeviceDenseTest, PcgnrKeepsTheIterateItStopsAt) {
  using Real = typename TypeParam::Real;
  std::mt19937_64 rng(12);
  const std::size_t m = 50, n = 30, k = 20;
  const HostMatrix a = random_matrix<Real>(m, n, m, rng);
  const std::vector<cl_int> f = random_indices(n, k, rng);
  const auto a_dev = this->upload(a);
  const auto aa = this->upload(HostMatrix(n, n, n));
  this->dense().gram(this->queue(), a_dev, aa);
  GramInverse<Real> inverse(this->dense(), this->queue(), n);
  bool rebuilt = false;
  inverse.assign(aa, std::vector<int>(f.begin(), f.end()), 1.0, false, rebuilt);
  ASSERT_TRUE(inverse.factored());
  const std::vector<int>& order = inverse.order();
  const std::vector<double> b = random_vector<Real>(m, rng);
  const auto b_dev = this->upload(b);
  Pcgnr<Real> pcgnr(this->dense(), this->queue(), m, n);
  const auto solve = [&](int iterations) {
    EXPECT_EQ(pcgnr.solve(a_dev, inverse.order_buffer(), inverse.view(), b_dev, 0.0, iterations, 1e-14), iterations);
    const std::vector<Real> y = pcgnr.y().to_vector(this->queue());
    const std::span<const Real> answer = pcgnr.answer();  // the host's copy, read as PCGNR ran
    EXPECT_EQ(std::vector<Real>(answer.begin(), answer.end()),
              std::vector<Real>(y.begin(), y.begin() + static_cast<std::ptrdiff_t>(k)));
    return std::vector<double>(y.begin(), y.begin() + static_cast<std::ptrdiff_t>(k));
  };
  // The first iterate on the host, with H z from apply_inverse.
  std::vector<double> z(k, 0.0), q(m, 0.0);
  for (std::size_t j = 0; j < k; ++j)
    for (std::size_t i = 0; i < m; ++i) z[j] += a(i, static_cast<std::size_t>(order[j])) * b[i];
  const auto w_dev = this->upload(std::vector<double>(k, 0.0));
  const InverseView<Real> view = inverse.view();
  const auto scratch = this->upload(std::vector<double>(view.wt.rows, 0.0));
  this->dense().apply_inverse(this->queue(), view, this->upload(z), w_dev, scratch, scratch);
  const std::vector<double> w = this->download(w_dev);
  double zw = 0.0, qq = 0.0;
  for (std::size_t j = 0; j < k; ++j) {
    zw += z[j] * w[j];
    for (std::size_t i = 0; i < m; ++i) q[i] += a(i, static_cast<std::size_t>(order[j])) * w[j];
  }
  for (const double v : q) qq += v * v;
  const std::vector<double> first = solve(1), second = solve(2);
  double gap = 0.0, norm = 0.0;
  for (std::size_t j = 0; j < k; ++j) {
    const double ref = zw / qq * w[j];
    EXPECT_LE(std::abs(first[j] - ref), 100 * this->tol * std::abs(ref) + this->tol) << "y[" << j << "]";
    gap = std::max(gap, std::abs(second[j] - first[j]));
    norm = std::max(norm, std::abs(ref));
  }
  EXPECT_GT(gap, 1e-3 * norm);  // the second iterate is another point
  for (const double v : solve(0)) EXPECT_EQ(v, 0.0);
}

TYPED_TEST(DeviceDenseTest, DotAndPcgnrVectorSteps) {
  using Real = typename TypeParam::Real;
  std::mt19937_64 rng(9);
  const std::size_t n = 300'001;  // more than reduce_groups x reduce_work_group: the grid-stride loop runs
  const std::vector<double> x = random_vector<Real>(n, rng), y = random_vector<Real>(n, rng);
  const auto x_dev = this->upload(x), y_dev = this->upload(y);
  const auto scalars = this->upload(std::vector<double>(3, 0.0));
  this->dense().dot(this->queue(), n, x_dev, y_dev, scalars, 0);
  this->dense().dot(this->queue(), n, x_dev, x_dev, scalars, 1);
  const std::vector<double> s = this->download(scalars);
  double xy = 0, mag = 0, xx = 0;
  for (std::size_t i = 0; i < n; ++i) {
    xy += x[i] * y[i];
    mag += std::abs(x[i] * y[i]);
    xx += x[i] * x[i];
  }
  // Pairwise summation: the error grows with the loop length per work-item (3) plus two tree depths
  // (8 each) and the partial count per item of the second stage (2), about 21 u, far below the
  // tolerances (n u would not be).
  EXPECT_LE(std::abs(s[0] - xy), this->tol * mag);
  EXPECT_LE(std::abs(s[1] - xx), this->tol * xx);
  EXPECT_EQ(s[2], 0.0);

  // Entry by entry, the steps round a product, a quotient and a sum: a few ulps of the terms.
  const double ratio = static_cast<double>(static_cast<Real>(s[0]) / static_cast<Real>(s[1]));
  const auto u_dev = this->upload(y);
  this->dense().axpy_ratio(this->queue(), n, scalars, 0, 1, Real(-1), x_dev, u_dev);  // u = y - (xy/xx) x
  const auto v_dev = this->upload(y);
  this->dense().xpby_ratio(this->queue(), n, scalars, 0, 1, x_dev, v_dev);  // v = x + (xy/xx) y
  const auto t_dev = this->upload(y);
  this->dense().axpy(this->queue(), n, Real(0.5), x_dev, t_dev);  // t = y + x / 2
  const std::vector<double> u = this->download(u_dev), v = this->download(v_dev), t = this->download(t_dev);
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_LE(std::abs(u[i] - (y[i] - ratio * x[i])), this->few_ulps * (std::abs(y[i]) + std::abs(ratio * x[i])));
    ASSERT_LE(std::abs(v[i] - (x[i] + ratio * y[i])), this->few_ulps * (std::abs(x[i]) + std::abs(ratio * y[i])));
    ASSERT_LE(std::abs(t[i] - (y[i] + 0.5 * x[i])), this->few_ulps * (std::abs(y[i]) + std::abs(0.5 * x[i])));
  }
}

// The kernels under sizes a tuner might choose: work-groups that are not powers of two nor multiples
// of the blocks, odd register blocks and tiny reductions, on TNT's own pipeline: AA = A^T A, BB =
// AA(F, F) + I, R = chol(BB), v = R^-1 R^-T z, then BB v through the two gathered GEMVs. The residual
// ||BB v - z|| / (||BB|| ||v||) is a backward error of the whole chain, a few k u (k = 70).
TYPED_TEST(DeviceDenseTest, NonDefaultTuningRunsTheTntPipeline) {
  using Real = typename TypeParam::Real;
  DenseTuning t;
  t.gemm_tile_m = 48, t.gemm_tile_n = 32, t.gemm_tile_k = 8, t.gemm_block_m = 3, t.gemm_block_n = 2;
  t.cholesky_block = 24, t.cholesky_work_group = 100, t.trsm_columns = 5;
  t.gemv_rows = 32, t.gemv_slices = 3, t.reduce_work_group = 64, t.reduce_groups = 7, t.gather_work_group = 32;
  DeviceDense<Real> dense(this->devices_->context(0), this->route_tuning(t));
  const core::Queue& q = this->queue();

  std::mt19937_64 rng(10);
  const std::size_t m = 120, n = 90, k = 70;
  const HostMatrix a = random_matrix<Real>(m, n, m, rng);
  const std::vector<cl_int> f = random_indices(n, k, rng);
  const auto a_dev = this->upload(a);
  const auto f_dev = this->upload(f);
  const auto aa = this->upload(HostMatrix(n, n, n));
  const auto bb = this->upload(HostMatrix(k, k, k));
  dense.gram(q, a_dev, aa);
  dense.gather(q, aa, f_dev, k, bb);
  dense.add_diagonal(q, bb, Real(1));
  const HostMatrix bb_host = this->download(bb);
  // v = BB^-1 z through GramInverse, built by inserting F (in its order) cholesky_block = 24 at a time.
  GramInverse<Real> inverse(dense, q, n);
  bool rebuilt = false;
  inverse.assign(aa, std::vector<int>(f.begin(), f.end()), 1.0, false, rebuilt);
  ASSERT_TRUE(inverse.factored());
  ASSERT_TRUE(std::equal(f.begin(), f.end(), inverse.order().begin()));

  const std::vector<double> z = random_vector<Real>(k, rng);
  const auto z_dev = this->upload(z);
  const auto v_dev = this->upload(std::vector<double>(k, 0.0));
  const InverseView<Real> view = inverse.view();
  const auto scratch = this->upload(std::vector<double>(view.wt.rows, 0.0));
  dense.apply_inverse(q, view, z_dev, v_dev, scratch, scratch);
  // BB v = A(:, F)^T A(:, F) v + v.
  const auto av = this->upload(std::vector<double>(m, 0.0));
  auto bbv = this->upload(std::vector<double>(k, 0.0));
  dense.gemv_n(q, Real(1), a_dev, f_dev, k, v_dev, Real(0), av);
  bbv.copy_from(q, v_dev, 0, 0, k);
  dense.gemv_t(q, Real(1), a_dev, f_dev, k, av, Real(1), bbv);
  const auto scalars = this->upload(std::vector<double>(1, 0.0));
  dense.dot(q, k, v_dev, v_dev, scalars, 0);

  const std::vector<double> v = this->download(v_dev), w = this->download(bbv);
  double res = 0, v_norm = 0, bb_norm = 0;
  for (std::size_t i = 0; i < k; ++i) {
    res += (w[i] - z[i]) * (w[i] - z[i]);
    v_norm += v[i] * v[i];
    for (std::size_t j = 0; j < k; ++j) bb_norm += bb_host(i, j) * bb_host(i, j);
  }
  EXPECT_LE(std::sqrt(res), this->tol * std::sqrt(bb_norm * v_norm));
  EXPECT_LE(std::abs(this->download(scalars)[0] - v_norm), this->tol * v_norm);
}

}  // namespace
}  // namespace hetflow::nnls
