#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <iostream>
#include <vector>

#include "amg_problems.hpp"
#include "hetflow/fem/amg_hierarchy.hpp"
#include "hetflow/fem/cg.hpp"
#include "hetflow/fem/device_amg.hpp"
#include "hetflow/fem/device_cg.hpp"
#include "sparse_problems.hpp"
#include "test_devices.hpp"

namespace hetflow::fem {
namespace {

using test::max_abs;
using test::max_difference;

// A right-hand side of the pressure kind: 0 at the fixed nodes.
std::vector<double> rhs(const BoxStiffness& s, std::uint64_t seed) {
  std::vector<double> b = test::random_vector(s.k.n, seed);
  for (std::uint32_t i : s.fixed) b[i] = 0;
  return b;
}

// One device set for the whole suite: each new context builds the programs again.
const core::DeviceSet& devices() {
  static const core::DeviceSet set = test::test_device();
  return set;
}

// z = B b on the device.
template <class Real>
std::vector<double> device_cycle(const AmgHierarchy& h, const std::vector<double>& b) {
  const core::Queue& q = devices().compute(0);
  core::Buffer<cl_int> running(q.context(), 2);
  running.fill(q, 0);
  DeviceAmg<Real> amg(q, h, SpmvShape{6, 3}, running);
  core::Buffer<Real> db(q.context(), b.size()), dz(q.context(), b.size());
  db.write(q, std::span<const Real>(std::vector<Real>(b.begin(), b.end())));
  amg.enqueue(q, db, dz);
  const std::vector<Real> z = dz.to_vector(q);
  return std::vector<double>(z.begin(), z.end());
}

double dot(const std::vector<double>& u, const std::vector<double>& v) {
  double sum = 0;
  for (std::size_t i = 0; i < u.size(); ++i) sum += u[i] * v[i];
  return sum;
}

struct DeviceSolve {
  CgResult result;
  std::vector<double> x;
};

DeviceSolve device_cg(const CsrMatrix& a, const std::vector<double>& b, const CgOptions& options,
                      const AmgHierarchy* amg = nullptr) {
  const core::Queue& q = devices().compute(0);
  DeviceCg<double> cg(q, a, SpmvShape{6, 3}, options, amg);
  core::Buffer<double> db(q.context(), a.n), dx(q.context(), a.n);
  db.write(q, b);
  DeviceSolve s;
  s.result = cg.solve(q, db, dx);
  s.x = dx.to_vector(q);
  return s;
}

CgOptions with(Preconditioner preconditioner, double tolerance = 1e-10) {
  CgOptions o{tolerance, 2000, 8};
  o.preconditioner = preconditioner;
  return o;
}

TEST(FemAmg, DeviceVCycleEqualsHostVCycle) {
  const BoxStiffness s = box_stiffness(10);
  for (const std::size_t coarse : {std::size_t{40}, std::size_t{400}, std::size_t{2000}}) {
    AmgOptions o;
    o.coarse_size = coarse;
    const AmgHierarchy h(s.k, o);
    const std::vector<double> b = rhs(s, 7), host = h.apply(b);
    EXPECT_LE(max_difference(device_cycle<double>(h, b), host), 1e-12 * max_abs(host)) << h.levels().size()
                                                                                          << " levels";
    EXPECT_LE(max_difference(device_cycle<float>(h, b), host), 1e-4 * max_abs(host)) << h.levels().size()
                                                                                      << " levels, FP32";
  }
}

TEST(FemAmg, AmgCgSolvesLikeHostCgInAQuarterOfTheIterations) {
  const BoxStiffness s = box_stiffness(20);
  const std::vector<double> b = rhs(s, 11);
  std::vector<double> host_x;
  const CgResult host = host_cg(s.k, b, host_x, with(Preconditioner::jacobi));
  ASSERT_TRUE(host.converged());
  const DeviceSolve jacobi = device_cg(s.k, b, with(Preconditioner::jacobi));
  const DeviceSolve amg = device_cg(s.k, b, with(Preconditioner::amg));
  ASSERT_TRUE(amg.result.converged()) << to_string(amg.result.status);
  EXPECT_LT(amg.result.residual, 1e-10);
  // Both solutions are within the tolerance times cond(K) of the exact one.
  EXPECT_LE(max_difference(amg.x, host_x), 1e-7 * max_abs(host_x));
  std::cout << "[ info ] " << s.k.n << " unknowns: iterations Jacobi " << jacobi.result.iterations << " (host "
            << host.iterations << "), AMG " << amg.result.iterations << "; max |x_amg - x_host| / max |x| "
            << max_difference(amg.x, host_x) / max_abs(host_x) << "\n";
  EXPECT_LE(4 * amg.result.iterations, jacobi.result.iterations);
}

TEST(FemAmg, AmgCgStopsWhereverTheHostLooks) {
  // The cycles enqueued past convergence change nothing: every check interval gives the same x, and a
  // zero right-hand side stops at once with x = 0.
  const BoxStiffness s = box_stiffness(10);
  const std::vector<double> b = rhs(s, 14);
  const AmgHierarchy h(s.k);
  CgOptions o = with(Preconditioner::amg);
  o.check_interval = 1;
  const DeviceSolve every = device_cg(s.k, b, o, &h);
  ASSERT_TRUE(every.result.converged());
  for (const int interval : {3, 8, 1000}) {
    o.check_interval = interval;
    const DeviceSolve solve = device_cg(s.k, b, o, &h);
    EXPECT_EQ(solve.result.iterations, every.result.iterations) << "interval " << interval;
    EXPECT_EQ(solve.x, every.x) << "interval " << interval;
  }
  const DeviceSolve zero = device_cg(s.k, std::vector<double>(s.k.n, 0.0), o, &h);
  EXPECT_TRUE(zero.result.converged());
  EXPECT_EQ(zero.result.iterations, 0);
  EXPECT_EQ(max_abs(zero.x), 0.0);
}

// AMG-PCG iterations on H = pressure_matrix(τ) with K's hierarchy, on K itself, and on H with H's
// own hierarchy.
struct HierarchyComparison {
  int on_k = 0, on_h = 0, own = 0;
};

HierarchyComparison compare_hierarchies(const BoxStiffness& s, const std::vector<double>& tau, double dt) {
  PressureParameters param;
  param.dt = dt;
  const CsrMatrix h = pressure_matrix(s.data, tau, param, fixed_node_mask(s.k.n, s.fixed, "fixed"));
  const AmgHierarchy k_hierarchy(s.k);
  const std::vector<double> b = rhs(s, 5);
  const DeviceSolve on_k = device_cg(s.k, b, with(Preconditioner::amg), &k_hierarchy);
  const DeviceSolve on_h = device_cg(h, b, with(Preconditioner::amg), &k_hierarchy);
  const DeviceSolve own = device_cg(h, b, with(Preconditioner::amg));
  EXPECT_TRUE(on_k.result.converged() && on_h.result.converged() && own.result.converged());
  std::cout << "[ info ] AMG iterations: K " << on_k.result.iterations << ", H with K's hierarchy "
            << on_h.result.iterations << ", H with its own " << own.result.iterations << "\n";
  return {on_k.result.iterations, on_h.result.iterations, own.result.iterations};
}

TEST(FemAmg, StiffnessHierarchyPreconditionsThePressureMatrix) {
  // The paper's τ_I = 1 / (1/Δt + ‖u_I‖/h) on a smooth velocity (a lid-driven-like ‖u‖ = z², h = 1/16,
  // Δt = 0.02): H is θΔt K scaled by a smooth factor in [1, 3] and K's hierarchy solves it in about as
  // many iterations as K.
  const BoxStiffness s = box_stiffness(16);
  const double dt = 0.02;
  std::vector<double> tau;
  for (std::size_t i = 0; i < s.k.n; ++i) {
    const double z = static_cast<double>(i / (17 * 17)) / 16;
    tau.push_back(1 / (1 / dt + z * z * 16));
  }
  const HierarchyComparison smooth = compare_hierarchies(s, tau, dt);
  EXPECT_LE(smooth.on_h, smooth.on_k + smooth.on_k / 4);
  // τ jumping from node to node over [0, Δt]: H/(θΔt) lies between K and 3 K, so the condition number
  // grows by at most 3 and the iterations by about sqrt(3).
  for (std::size_t i = 0; i < s.k.n; ++i) tau[i] = dt * (0.5 + 0.5 * std::sin(0.37 * static_cast<double>(i)));
  const HierarchyComparison rough = compare_hierarchies(s, tau, dt);
  EXPECT_LE(rough.on_h, 2 * rough.on_k);
}

// Preconditioned CG on the host with the device's recurrences (the single-reduction form of Chronopoulos
// and Gear) and stopping rule, u = apply(r). Returns the iterations to r.r < tol^2 b.b (-1 past n of them);
// x is resized to n.
int host_cg_recurrences(const CsrMatrix& a, const std::function<std::vector<double>(const std::vector<double>&)>& apply,
                        const std::vector<double>& b, std::vector<double>& x, double tolerance) {
  const std::size_t n = a.n;
  x.assign(n, 0.0);
  std::vector<double> r = b, u = apply(r), w = multiply(a, u), p(n), s(n);
  const double bb = dot(b, b);
  double gamma_last = 0, alpha_last = 0;
  for (int k = 0; k <= static_cast<int>(n); ++k) {
    const double gamma = dot(r, u), wu = dot(w, u);
    if (dot(r, r) < tolerance * tolerance * bb) return k;
    const double beta = k == 0 ? 0 : gamma / gamma_last;
    const double alpha = gamma / (k == 0 ? wu : wu - beta * gamma / alpha_last);
    for (std::size_t i = 0; i < n; ++i) {
      p[i] = u[i] + beta * p[i];
      s[i] = w[i] + beta * s[i];
      x[i] += alpha * p[i];
      r[i] -= alpha * s[i];
    }
    u = apply(r);
    w = multiply(a, u);
    gamma_last = gamma;
    alpha_last = alpha;
  }
  return -1;
}

int host_amg_cg(const CsrMatrix& a, const AmgHierarchy& h, const std::vector<double>& b, std::vector<double>& x,
                double tolerance) {
  return host_cg_recurrences(a, [&h](const std::vector<double>& r) { return h.apply(r); }, b, x, tolerance);
}

// The device CG takes the iterations of the host's recurrences (128 with Jacobi, 16 with AMG on this box)
// and lands on the host's x: to rounding with AMG, within the solution's error with Jacobi.
TEST(FemAmg, DeviceCgFollowsTheHostRecurrences) {
  const BoxStiffness s = box_stiffness(12);
  const std::vector<double> b = rhs(s, 21);
  std::vector<double> host_x;
  const std::vector<double> inv = inverse_diagonal(s.k);
  const auto jacobi_apply = [&inv](const std::vector<double>& r) {
    std::vector<double> u(r.size());
    for (std::size_t i = 0; i < r.size(); ++i) u[i] = inv[i] * r[i];
    return u;
  };
  EXPECT_EQ(host_cg_recurrences(s.k, jacobi_apply, b, host_x, 1e-10), 128);
  const DeviceSolve jacobi = device_cg(s.k, b, with(Preconditioner::jacobi));
  EXPECT_EQ(jacobi.result.iterations, 128);
  // Over 128 Jacobi steps the recurrence for alpha parts the iterates of two summation orders by up to
  // the solution's error (docs/fem.md, "Pressure solver"): both reach the same error, 3.0e-11 relative.
  std::vector<double> solution;
  ASSERT_GT(host_cg_recurrences(s.k, jacobi_apply, b, solution, 1e-14), 0);
  const double host_error = max_difference(host_x, solution) / max_abs(solution);
  const double device_error = max_difference(jacobi.x, solution) / max_abs(solution);
  EXPECT_NEAR(device_error, host_error, 0.1 * host_error);
  EXPECT_LE(max_difference(jacobi.x, host_x), 2 * host_error * max_abs(solution));
  const AmgHierarchy h(s.k);
  ASSERT_GT(h.levels().size(), 1u);
  EXPECT_EQ(host_amg_cg(s.k, h, b, host_x, 1e-10), 16);
  const DeviceSolve amg = device_cg(s.k, b, with(Preconditioner::amg), &h);
  EXPECT_EQ(amg.result.iterations, 16);
  EXPECT_LE(max_difference(amg.x, host_x), 1e-13 * max_abs(host_x));
}

// A hierarchy of one level is the dense coarse solve: one iteration.
TEST(FemAmg, DeviceCgWithTheCoarseSolveAloneTakesOneIteration) {
  const BoxStiffness s = box_stiffness(6);
  const std::vector<double> b = rhs(s, 22);
  const AmgHierarchy h(s.k);
  ASSERT_EQ(h.levels().size(), 1u);
  std::vector<double> host_x;
  EXPECT_EQ(host_amg_cg(s.k, h, b, host_x, 1e-10), 1);
  const DeviceSolve amg = device_cg(s.k, b, with(Preconditioner::amg), &h);
  EXPECT_TRUE(amg.result.converged());
  EXPECT_EQ(amg.result.iterations, 1);
  EXPECT_LE(max_difference(amg.x, host_x), 1e-13 * max_abs(host_x));
}

}  // namespace
}  // namespace hetflow::fem
