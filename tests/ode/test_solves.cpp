// dense_lu.cl's decompositions and solves, one work-item per system, against DEC / SOL and DECC / SOLC
// written out here on the host: the same pivots, singular flags and solutions to the bit, with the
// multipliers in DEC's rows and in the final rows (ODE_FINAL_ROWS), on random matrices that pivot at
// most steps. RADAU5's reference problems (test_reference_statistics.cpp) never pivot, so they alone
// would not notice a solve that misplaces an interchange.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "hetflow/core/buffer.hpp"
#include "hetflow/core/program.hpp"
#include "hetflow/core/registry.hpp"
#include "test_devices.hpp"

namespace hetflow::ode {
namespace {

// Column-major n x n matrices, as dense_lu.cl stores them.
struct Matrix {
  std::size_t n;
  std::vector<double> a;
  double& at(std::size_t i, std::size_t j) { return a[i + j * n]; }
};

// DEC: the pivots, and 0 or the 1-based column of the first zero pivot.
int dec(Matrix& m, std::vector<int>& pivot) {
  const std::size_t n = m.n;
  for (std::size_t k = 0; k + 1 < n; ++k) {
    std::size_t p = k;
    for (std::size_t i = k + 1; i < n; ++i)
      if (std::fabs(m.at(i, k)) > std::fabs(m.at(p, k))) p = i;
    pivot[k] = static_cast<int>(p);
    double t = m.at(p, k);
    m.at(p, k) = m.at(k, k);
    m.at(k, k) = t;
    if (t == 0.0) return static_cast<int>(k + 1);
    t = 1.0 / t;
    for (std::size_t i = k + 1; i < n; ++i) m.at(i, k) = -m.at(i, k) * t;
    for (std::size_t j = k + 1; j < n; ++j) {
      t = m.at(p, j);
      m.at(p, j) = m.at(k, j);
      m.at(k, j) = t;
      if (t != 0.0)
        for (std::size_t i = k + 1; i < n; ++i) m.at(i, j) = m.at(i, j) + m.at(i, k) * t;
    }
  }
  return m.at(n - 1, n - 1) == 0.0 ? static_cast<int>(n) : 0;
}

// SOL: b <- A^-1 b with DEC's factors.
void sol(Matrix& m, const std::vector<int>& pivot, std::vector<double>& b) {
  const std::size_t n = m.n;
  for (std::size_t k = 0; k + 1 < n; ++k) {
    const auto p = static_cast<std::size_t>(pivot[k]);
    const double t = b[p];
    b[p] = b[k];
    b[k] = t;
    for (std::size_t i = k + 1; i < n; ++i) b[i] = b[i] + m.at(i, k) * t;
  }
  for (std::size_t k = n; k-- > 0;) {
    b[k] = b[k] / m.at(k, k);
    const double t = -b[k];
    for (std::size_t i = 0; i < k; ++i) b[i] = b[i] + m.at(i, k) * t;
  }
}

// DECC on re + i im: the magnitude |re| + |im|, the reciprocal (tr, -ti) / (tr^2 + ti^2), and products
// that drop a zero part of the pivot row's entry.
int decc(Matrix& re, Matrix& im, std::vector<int>& pivot) {
  const std::size_t n = re.n;
  const auto mag = [&](std::size_t i, std::size_t j) { return std::fabs(re.at(i, j)) + std::fabs(im.at(i, j)); };
  for (std::size_t k = 0; k + 1 < n; ++k) {
    std::size_t p = k;
    for (std::size_t i = k + 1; i < n; ++i)
      if (mag(i, k) > mag(p, k)) p = i;
    pivot[k] = static_cast<int>(p);
    double tr = re.at(p, k), ti = im.at(p, k);
    re.at(p, k) = re.at(k, k);
    im.at(p, k) = im.at(k, k);
    re.at(k, k) = tr;
    im.at(k, k) = ti;
    if (std::fabs(tr) + std::fabs(ti) == 0.0) return static_cast<int>(k + 1);
    const double den = tr * tr + ti * ti;
    tr = tr / den;
    ti = -ti / den;
    for (std::size_t i = k + 1; i < n; ++i) {
      const double pr = re.at(i, k) * tr - im.at(i, k) * ti;
      const double pi = im.at(i, k) * tr + re.at(i, k) * ti;
      re.at(i, k) = -pr;
      im.at(i, k) = -pi;
    }
    for (std::size_t j = k + 1; j < n; ++j) {
      const double sr = re.at(p, j), si = im.at(p, j);
      re.at(p, j) = re.at(k, j);
      im.at(p, j) = im.at(k, j);
      re.at(k, j) = sr;
      im.at(k, j) = si;
      if (std::fabs(sr) + std::fabs(si) == 0.0) continue;
      for (std::size_t i = k + 1; i < n; ++i) {
        const double lr = re.at(i, k), li = im.at(i, k);
        double dr = lr * sr - li * si, di = li * sr + lr * si;
        if (si == 0.0) {
          dr = lr * sr;
          di = li * sr;
        } else if (sr == 0.0) {
          dr = -li * si;
          di = lr * si;
        }
        re.at(i, j) = re.at(i, j) + dr;
        im.at(i, j) = im.at(i, j) + di;
      }
    }
  }
  return std::fabs(re.at(n - 1, n - 1)) + std::fabs(im.at(n - 1, n - 1)) == 0.0 ? static_cast<int>(n) : 0;
}

// SOLC: (br + i bi) <- A^-1 (br + i bi) with DECC's factors.
void solc(Matrix& re, Matrix& im, const std::vector<int>& pivot, std::vector<double>& br, std::vector<double>& bi) {
  const std::size_t n = re.n;
  for (std::size_t k = 0; k + 1 < n; ++k) {
    const auto p = static_cast<std::size_t>(pivot[k]);
    const double tr = br[p], ti = bi[p];
    br[p] = br[k];
    bi[p] = bi[k];
    br[k] = tr;
    bi[k] = ti;
    for (std::size_t i = k + 1; i < n; ++i) {
      const double xr = br[i], xi = bi[i];
      br[i] = xr + (re.at(i, k) * tr - im.at(i, k) * ti);
      bi[i] = xi + (im.at(i, k) * tr + re.at(i, k) * ti);
    }
  }
  for (std::size_t k = n; k-- > 0;) {
    const double pr = re.at(k, k), pim = im.at(k, k);
    const double den = pr * pr + pim * pim;
    const double r = br[k] * pr + bi[k] * pim;
    const double s = bi[k] * pr - br[k] * pim;
    br[k] = r / den;
    bi[k] = s / den;
    const double tr = -br[k], ti = -bi[k];
    for (std::size_t i = 0; i < k; ++i) {
      br[i] = br[i] + (re.at(i, k) * tr - im.at(i, k) * ti);
      bi[i] = bi[i] + (im.at(i, k) * tr + re.at(i, k) * ti);
    }
  }
}

// Per system: a real matrix and a complex one (real parts, imaginary parts), n^2 each, and a real and a
// complex right-hand side. The kernel decomposes and solves them, one work-item per system, and returns
// the solutions, the pivots and the singular flags.
constexpr const char* pragmas = R"(
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
)";
constexpr const char* solve_kernel = R"(
__kernel void solve_systems(__global double* matrices, __global int* pivots, __global double* rhs,
                            __global int* singular) {
  const size_t s = get_global_id(0);
  __global double* a = matrices + s * 3 * ODE_N * ODE_N;
  __global int* pivot = pivots + s * 2 * ODE_N;
  __global double* b = rhs + s * 3 * ODE_N;
  double x[ODE_N], xr[ODE_N], xi[ODE_N];
  for (int i = 0; i < ODE_N; ++i) {
    x[i] = b[i];
    xr[i] = b[ODE_N + i];
    xi[i] = b[2 * ODE_N + i];
  }
  singular[2 * s] = lu_decompose(a, pivot);
  if (!singular[2 * s]) lu_solve(a, pivot, x);
  singular[2 * s + 1] = lu_decompose_complex(a + ODE_N * ODE_N, a + 2 * ODE_N * ODE_N, pivot + ODE_N);
  if (!singular[2 * s + 1]) lu_solve_complex(a + ODE_N * ODE_N, a + 2 * ODE_N * ODE_N, pivot + ODE_N, xr, xi);
  for (int i = 0; i < ODE_N; ++i) {
    b[i] = x[i];
    b[ODE_N + i] = xr[i];
    b[2 * ODE_N + i] = xi[i];
  }
}
)";

struct Systems {
  std::vector<double> matrices, rhs;
  std::vector<cl_int> pivots, singular;
};

// Entries spread over magnitudes, so most steps pivot, a share of zeros (the complex products' special
// forms), and every seventh system with a zero column (singular).
Systems random_systems(std::size_t n, std::size_t count) {
  std::mt19937_64 random(1000 + n);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  std::uniform_int_distribution<int> exponent(-6, 6), pick(0, 4);
  Systems s;
  s.matrices.resize(count * 3 * n * n);
  s.rhs.resize(count * 3 * n);
  for (double& v : s.matrices) v = pick(random) == 0 ? 0.0 : std::ldexp(value(random), exponent(random));
  for (double& v : s.rhs) v = value(random);
  for (std::size_t k = 6; k < count; k += 7)
    for (std::size_t m = 0; m < 3; ++m)
      for (std::size_t i = 0; i < n; ++i) s.matrices[(k * 3 + m) * n * n + i + (n / 2) * n] = 0.0;
  s.pivots.assign(count * 2 * n, -1);
  s.singular.assign(count * 2, -1);
  return s;
}

Systems solve_on_device(const core::DeviceSet& devices, std::size_t n, bool final_rows, const Systems& in) {
  const core::Context& ctx = devices.context(0);
  const core::Queue& q = devices.compute(0);
  const std::string options = "-DODE_N=" + std::to_string(n) +
                              " -DODE_GROUP=0 -DODE_PHASED=1 -DODE_LU_BY_COLUMN=0 -DODE_LU_PANEL=0 -DODE_FINAL_ROWS=" +
                              (final_rows ? "1" : "0");
  const core::Program program = core::build_program(
      ctx, "test dense_lu solves", pragmas + core::kernel_source("ode/dense_lu.cl") + solve_kernel, options);
  const std::size_t count = in.singular.size() / 2;
  core::Buffer<double> matrices(ctx, in.matrices.size()), rhs(ctx, in.rhs.size());
  core::Buffer<cl_int> pivots(ctx, in.pivots.size()), singular(ctx, in.singular.size());
  matrices.write(q, in.matrices);
  rhs.write(q, in.rhs);
  pivots.write(q, in.pivots);
  core::Kernel kernel = program.kernel("solve_systems");
  kernel.args(matrices, pivots, rhs, singular);
  kernel.launch(q, core::NDRange(count), core::NDRange(1));
  Systems out = in;
  rhs.read(q, out.rhs);
  pivots.read(q, out.pivots);
  singular.read(q, out.singular);
  return out;
}

std::uint64_t bits(double v) { return std::bit_cast<std::uint64_t>(v); }

class OdeSolve : public ::testing::TestWithParam<std::size_t> {};

TEST_P(OdeSolve, GivesSolsBits) {
  const std::size_t n = GetParam(), count = 28;
  const core::DeviceSet devices = hetflow::test::test_device();
  const Systems in = random_systems(n, count);
  for (const bool final_rows : {false, true}) {
    SCOPED_TRACE(final_rows ? "multipliers in the final rows" : "multipliers in DEC's rows");
    const Systems got = solve_on_device(devices, n, final_rows, in);
    std::size_t pivoted = 0;
    for (std::size_t s = 0; s < count; ++s) {
      SCOPED_TRACE("system " + std::to_string(s));
      Matrix a{n, {in.matrices.begin() + s * 3 * n * n, in.matrices.begin() + (s * 3 + 1) * n * n}};
      Matrix re{n, {in.matrices.begin() + (s * 3 + 1) * n * n, in.matrices.begin() + (s * 3 + 2) * n * n}};
      Matrix im{n, {in.matrices.begin() + (s * 3 + 2) * n * n, in.matrices.begin() + (s * 3 + 3) * n * n}};
      std::vector<double> b(in.rhs.begin() + s * 3 * n, in.rhs.begin() + (s * 3 + 1) * n);
      std::vector<double> br(in.rhs.begin() + (s * 3 + 1) * n, in.rhs.begin() + (s * 3 + 2) * n);
      std::vector<double> bi(in.rhs.begin() + (s * 3 + 2) * n, in.rhs.begin() + (s * 3 + 3) * n);
      std::vector<int> pivot(n, -1), pivot_complex(n, -1);
      const int zero = dec(a, pivot), zero_complex = decc(re, im, pivot_complex);
      ASSERT_EQ(got.singular[2 * s], zero);
      ASSERT_EQ(got.singular[2 * s + 1], zero_complex);
      if (s % 7 == 6) {  // a zero column
        EXPECT_NE(zero, 0);
        EXPECT_NE(zero_complex, 0);
      }
      if (!zero) {
        sol(a, pivot, b);
        for (std::size_t k = 0; k + 1 < n; ++k) {
          ASSERT_EQ(got.pivots[s * 2 * n + k], pivot[k]) << "pivot " << k;
          pivoted += pivot[k] != static_cast<int>(k) ? 1 : 0;
        }
        for (std::size_t i = 0; i < n; ++i)
          ASSERT_EQ(bits(got.rhs[s * 3 * n + i]), bits(b[i])) << "x[" << i << "] " << got.rhs[s * 3 * n + i]
                                                               << " against " << b[i];
      }
      if (!zero_complex) {
        solc(re, im, pivot_complex, br, bi);
        for (std::size_t k = 0; k + 1 < n; ++k)
          ASSERT_EQ(got.pivots[s * 2 * n + n + k], pivot_complex[k]) << "complex pivot " << k;
        for (std::size_t i = 0; i < n; ++i) {
          ASSERT_EQ(bits(got.rhs[(s * 3 + 1) * n + i]), bits(br[i])) << "Re x[" << i << "]";
          ASSERT_EQ(bits(got.rhs[(s * 3 + 2) * n + i]), bits(bi[i])) << "Im x[" << i << "]";
        }
      }
    }
    if (n > 2) {
      EXPECT_GT(pivoted, count * (n - 1) / 2);  // most steps interchange rows
    }
  }
}

// Around dense_lu.cl's blocks of 8 rows, and GRI-Mech 3.0's n = 54.
INSTANTIATE_TEST_SUITE_P(Sizes, OdeSolve, ::testing::Values(1, 2, 7, 8, 9, 17, 54));

}  // namespace
}  // namespace hetflow::ode
