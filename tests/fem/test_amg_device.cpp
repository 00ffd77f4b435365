#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
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
  return {z.begin(), z.end()};
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
    const std::vector<double> dev = device_cycle<double>(h, b);
    EXPECT_LE(max_difference(dev, host), 1e-12 * max_abs(host)) << h.levels().size() << " levels";
    const std::vector<double> single = device_cycle<float>(h, b);
    EXPECT_LE(max_difference(single, host), 1e-4 * max_abs(host)) << h.levels().size() << " levels, FP32";
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

}  // namespace
}  // namespace hetflow::fem
