#include <gtest/gtest.h>

#include <stdlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

#include "hetflow/core/error.hpp"
#include "hetflow/core/trace.hpp"
#include "hetflow/fem/amg_hierarchy.hpp"
#include "hetflow/fem/cg.hpp"
#include "hetflow/fem/device_cg.hpp"
#include "sparse_problems.hpp"
#include "temp_dir.hpp"
#include "test_devices.hpp"

namespace hetflow::fem {
namespace {

struct DeviceSolve {
  CgResult result;
  std::vector<double> x;
};

template <class Real>
DeviceSolve device_cg(const CsrMatrix& a, const std::vector<double>& b, const CgOptions& options,
                      SpmvShape shape = SpmvShape{6, 3}) {
  const core::DeviceSet devices = test::test_device();
  const core::Queue& q = devices.compute(0);
  DeviceCg<Real> cg(q, a, shape, options);
  core::Buffer<Real> db(q.context(), a.n), dx(q.context(), a.n);
  db.write(q, std::span<const Real>(std::vector<Real>(b.begin(), b.end())));
  DeviceSolve s;
  s.result = cg.solve(q, db, dx);
  const std::vector<Real> x = dx.to_vector(q);
  s.x.assign(x.begin(), x.end());
  return s;
}

using test::max_abs;
using test::max_difference;

double true_relative_residual(const CsrMatrix& a, const std::vector<double>& x, const std::vector<double>& b) {
  const std::vector<double> ax = multiply(a, x);
  double rr = 0, bb = 0;
  for (std::size_t i = 0; i < b.size(); ++i) {
    rr += (b[i] - ax[i]) * (b[i] - ax[i]);
    bb += b[i] * b[i];
  }
  return std::sqrt(rr / bb);
}

// The device runs the host's recurrences in FP64 with other summation orders: the same iteration count
// (within one, where a residual lands next to the tolerance) and the same solution to the tolerance.
void expect_device_matches_host(const CsrMatrix& a, const std::vector<double>& b, const SpmvShape& shape) {
  const CgOptions options{1e-10, 2000, 8};
  std::vector<double> host_x;
  const CgResult host = host_cg(a, b, host_x, options);
  ASSERT_TRUE(host.converged()) << to_string(host.status);
  const DeviceSolve dev = device_cg<double>(a, b, options, shape);
  ASSERT_TRUE(dev.result.converged()) << to_string(dev.result.status);
  EXPECT_LE(std::abs(dev.result.iterations - host.iterations), 1)
      << "device " << dev.result.iterations << ", host " << host.iterations;
  EXPECT_LT(dev.result.residual, 1e-10);
  EXPECT_LT(true_relative_residual(a, dev.x, b), 2e-10);
  EXPECT_LE(max_difference(dev.x, host_x), 1e-10 * max_abs(host_x));
  std::cout << "[ info ] n " << a.n << ": iterations device " << dev.result.iterations << ", host " << host.iterations
            << "; max |x_dev - x_host| / max |x| = " << max_difference(dev.x, host_x) / max_abs(host_x) << "\n";
}

TEST(FemCg, Poisson2dMatchesHostCg) {
  const CsrMatrix a = test::dirichlet_laplacian(64, 64, 1);
  expect_device_matches_host(a, test::random_vector(a.n, 11), SpmvShape{6, 3});
}

TEST(FemCg, Poisson3dMatchesHostCg) {
  const CsrMatrix a = test::dirichlet_laplacian(16, 16, 16);
  expect_device_matches_host(a, test::random_vector(a.n, 12), SpmvShape{5, 5});
}

TEST(FemCg, Poisson3dMatchesHostCgWithManyLanesPerRow) {
  const CsrMatrix a = test::dirichlet_laplacian(14, 15, 16);
  expect_device_matches_host(a, test::random_vector(a.n, 13), SpmvShape{8, 3});
}

// The device decides convergence and freezes x there, so how often the host looks changes nothing:
// the same iterations and the same x, bit for bit.
TEST(FemCg, CheckIntervalChangesNothing) {
  const CsrMatrix a = test::dirichlet_laplacian(40, 40, 1);
  const std::vector<double> b = test::random_vector(a.n, 14);
  const DeviceSolve every = device_cg<double>(a, b, CgOptions{1e-10, 2000, 1});
  for (const int interval : {3, 8, 1000}) {
    const DeviceSolve s = device_cg<double>(a, b, CgOptions{1e-10, 2000, interval});
    EXPECT_EQ(s.result.iterations, every.result.iterations) << "interval " << interval;
    EXPECT_EQ(s.x, every.x) << "interval " << interval;
  }
}

TEST(FemCg, Fp32SolvesToSinglePrecision) {
  const CsrMatrix a = test::dirichlet_laplacian(32, 32, 1);
  const std::vector<double> b = test::random_vector(a.n, 15);
  std::vector<double> host_x;
  ASSERT_TRUE(host_cg(a, b, host_x, CgOptions{1e-10, 2000, 8}).converged());
  const DeviceSolve dev = device_cg<float>(a, b, CgOptions{1e-5, 2000, 8});
  ASSERT_TRUE(dev.result.converged()) << to_string(dev.result.status);
  EXPECT_LT(true_relative_residual(a, dev.x, b), 2e-5);
  EXPECT_LE(max_difference(dev.x, host_x), 1e-4 * max_abs(host_x));
}

TEST(FemCg, ZeroRightHandSideConvergesAtOnce) {
  const CsrMatrix a = test::dirichlet_laplacian(10, 10, 1);
  const DeviceSolve dev = device_cg<double>(a, std::vector<double>(a.n, 0.0), CgOptions{});
  EXPECT_TRUE(dev.result.converged());
  EXPECT_EQ(dev.result.iterations, 0);
  EXPECT_EQ(max_abs(dev.x), 0.0);
}

TEST(FemCg, IterationLimitIsReportedWithResidual) {
  const CsrMatrix a = test::dirichlet_laplacian(30, 30, 1);
  const std::vector<double> b = test::random_vector(a.n, 16);
  const CgOptions options{1e-10, 5, 8};
  std::vector<double> host_x;
  const CgResult host = host_cg(a, b, host_x, options);
  const DeviceSolve dev = device_cg<double>(a, b, options);
  EXPECT_EQ(host.status, CgStatus::max_iterations);
  EXPECT_EQ(dev.result.status, CgStatus::max_iterations);
  EXPECT_EQ(dev.result.iterations, 5);
  EXPECT_NEAR(dev.result.residual, host.residual, 1e-12 * host.residual);
  EXPECT_NEAR(dev.result.residual, true_relative_residual(a, dev.x, b), 1e-12);
  try {
    require_converged(dev.result);
    FAIL() << "no error";
  } catch (const CgError& e) {
    EXPECT_EQ(e.result().iterations, 5);
    EXPECT_EQ(std::string(e.what()).rfind("conjugate gradient stopped: iteration limit reached at iteration 5, "
                                          "relative residual 0.",
                                          0),
              0u)
        << e.what();
  }
}

// A Laplacian shifted past its smallest eigenvalue (diagonal still positive) is indefinite: CG meets
// p.Ap < 0, on the device at the host's iteration.
TEST(FemCg, IndefiniteMatrixIsReported) {
  const CsrMatrix a = test::dirichlet_laplacian(20, 20, 1, 3.0);
  const std::vector<double> b = test::random_vector(a.n, 17);
  std::vector<double> host_x;
  const CgResult host = host_cg(a, b, host_x, CgOptions{});
  const DeviceSolve dev = device_cg<double>(a, b, CgOptions{});
  ASSERT_EQ(host.status, CgStatus::not_positive);
  EXPECT_EQ(dev.result.status, CgStatus::not_positive);
  EXPECT_EQ(dev.result.iterations, host.iterations);
  EXPECT_GT(dev.result.iterations, 0);
  EXPECT_NEAR(dev.result.residual, host.residual, 1e-9 * host.residual);
}

TEST(FemCg, NanInRightHandSideIsReported) {
  const CsrMatrix a = test::dirichlet_laplacian(20, 20, 1);
  std::vector<double> b = test::random_vector(a.n, 18);
  b[123] = std::numeric_limits<double>::quiet_NaN();
  const DeviceSolve dev = device_cg<double>(a, b, CgOptions{});
  EXPECT_EQ(dev.result.status, CgStatus::not_finite);
  EXPECT_EQ(dev.result.iterations, 0);
  std::vector<double> host_x;
  EXPECT_EQ(host_cg(a, b, host_x, CgOptions{}).status, CgStatus::not_finite);
}

TEST(FemCg, MissingDiagonalIsNamed) {
  CsrMatrix a = test::dirichlet_laplacian(5, 5, 1);
  a.values[a.row_start[6]] = 0.0;  // row 6, the first interior one: its boundary neighbours are dropped, the diagonal comes first
  const core::DeviceSet devices = test::test_device();
  try {
    DeviceCg<double>(devices.compute(0), a, SpmvShape{6, 3}, CgOptions{});
    FAIL() << "no error";
  } catch (const core::Error& e) {
    EXPECT_STREQ(e.what(),
                 "Jacobi preconditioner: row 6 has diagonal 0.000000 (needs a positive, finite diagonal entry)");
  }
}

// The kernels one solve of `iterations` iterations launches, counted on the trace's timeline: with the
// tolerance out of reach and one check after all iterations, every iteration is enqueued.
int solve_launches(const CsrMatrix& a, const std::vector<double>& b, Preconditioner preconditioner,
                   int iterations, const std::filesystem::path& file) {
  CgOptions options{1e-300, iterations, iterations};
  options.preconditioner = preconditioner;
  device_cg<double>(a, b, options);
  core::trace::write(file);
  std::ifstream in(file);
  int launches = 0;
  for (std::string line; std::getline(in, line);) launches += line.find(",fem_") != std::string::npos;
  return launches;
}

// An iteration is two kernels with Jacobi, and two plus the V-cycle's (four per level above the
// coarsest and the coarse solve) with AMG. The trace starts with the process's first launch, so the
// count runs in a child process of its own.
TEST(FemCg, KernelsPerIteration) {
  const CsrMatrix a = test::dirichlet_laplacian(12, 12, 12);
  const std::vector<double> b = test::random_vector(a.n, 19);
  const int cycle = 4 * static_cast<int>(AmgHierarchy(a).levels().size() - 1) + 1;
  ASSERT_GT(cycle, 1);
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        const test::TempDir dir;
        ::setenv("HETFLOW_TRACE", (dir / "unused.csv").c_str(), 1);
        if (!core::trace::enabled()) std::exit(1);
        for (const Preconditioner pc : {Preconditioner::jacobi, Preconditioner::amg}) {
          const int per_iteration =
              (solve_launches(a, b, pc, 30, dir / "30.csv") - solve_launches(a, b, pc, 10, dir / "10.csv")) / 20;
          std::fprintf(stderr, "%s %d\n", pc == Preconditioner::jacobi ? "jacobi" : "amg", per_iteration);
        }
        std::exit(0);
      },
      testing::ExitedWithCode(0), "jacobi 2\namg " + std::to_string(2 + cycle) + "\n");
}

}  // namespace
}  // namespace hetflow::fem
