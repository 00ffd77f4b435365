#pragma once
// Shared by the device tests of the reactor: running its generated rhs() and jac() (a work-item per state)
// and its cooperative functions (a work-group per state) on a device, and comparing values bit for bit.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "hetflow/core/buffer.hpp"
#include "hetflow/core/device_set.hpp"
#include "hetflow/core/program.hpp"
#include "hetflow/core/registry.hpp"
#include "hetflow/ode/radau5.hpp"
#include "jacobian_test_util.hpp"

namespace hetflow::chem::test {

// Calls rhs_group (or, with `jacobian`, jac_group) of `system` once per state, one group of 16
// work-items each, so that every work-item owns several species, reactions and columns; returns f (or
// dfdy) of every state one after the other. With `low_rank`, jac_group is built with ODE_LOW_RANK and
// each state's dfdy holds S, then u and v (n^2 + 2 n values; ode::System::jacobian_low_rank).
inline std::vector<double> run_group(const core::DeviceSet& devices, const ode::System& system,
                                     const StackedStates& states, bool jacobian, const std::string& name,
                                     bool low_rank = false) {
  const auto n = static_cast<std::size_t>(system.n);
  const std::size_t count = states.pressures.size(), out = jacobian ? n * n + (low_rank ? 2 * n : 0) : n;
  const std::string function = jacobian ? "jac_group" : "rhs_group";
  const std::string wrapper = "__kernel void run(__global const double* y, __global double* out,"
                              " __global const double* p, __global const double* tables, __global double* work) {\n"
                              "  const size_t i = get_group_id(0);\n  " +
                              function + "(0.0, y + i * " + std::to_string(n) + ", out + i * " + std::to_string(out) +
                              ", p + i, tables, work + i * " + std::to_string(system.group_work) + ");\n}\n";
  const std::string source = "#define ODE_GROUP 1\n#define ODE_GROUP_RHS 1\n#define ODE_GROUP_JAC " +
                             std::string(jacobian ? "1" : "0") + "\n#define ODE_LOW_RANK " + (low_rank ? "1" : "0") +
                             "\n#define ODE_N " + std::to_string(n) + "\n" + core::kernel_source("ode/mapping.cl") +
                             system.source + wrapper;
  const core::Context& ctx = devices.context(0);
  const core::Queue& q = devices.compute(0);
  const core::Program program = core::build_program(ctx, "chem reactor " + function + " " + name, source, "");
  core::Kernel kernel = program.kernel("run");
  core::Buffer<double> y(ctx, states.y.size()), result(ctx, count * out), p(ctx, count),
      tables(ctx, system.tables.size()), work(ctx, count * system.group_work);
  y.write(q, states.y);
  p.write(q, states.pressures);
  tables.write(q, system.tables);
  kernel.args(y, result, p, tables, work);
  constexpr std::size_t group = 16;
  kernel.launch(q, core::NDRange(count * group), core::NDRange(group));
  std::vector<double> values(count * out);
  result.read(q, values);
  return values;
}

// The Jacobians S + u vᵀ of run_group's low-rank output, n^2 values per state; fails for every entry of
// S outside the system's jacobian_pattern and diagonal that is not zero (naming the first ten).
inline std::vector<double> low_rank_jacobians(const std::vector<double>& out, const ode::System& system) {
  const auto n = static_cast<std::size_t>(system.n);
  std::vector<char> in_pattern(n * n, 0);
  for (const auto& [r, c] : system.jacobian_pattern) in_pattern[static_cast<std::size_t>(r + c * system.n)] = 1;
  for (std::size_t i = 0; i < n; ++i) in_pattern[i + i * n] = 1;
  std::vector<double> j;
  std::size_t outside = 0;
  for (std::size_t at = 0; at + n * n + 2 * n <= out.size(); at += n * n + 2 * n) {
    const double *s = out.data() + at, *u = s + n * n, *v = u + n;
    for (std::size_t e = 0; e < n * n; ++e) {
      if (!in_pattern[e] && s[e] != 0.0 && outside++ < 10)
        ADD_FAILURE() << "state " << at / (n * n + 2 * n) << ": S(" << e % n << ", " << e / n << ") = " << s[e]
                      << " lies outside the Jacobian pattern";
      j.push_back(s[e] + u[e % n] * v[e / n]);
    }
  }
  EXPECT_EQ(outside, 0u);
  return j;
}

// Evaluates rhs() once per work-item, or jac(): state i is y[i*n..], its parameter p[i].
inline constexpr const char* generated_wrappers = R"(
__kernel void reactor_rhs(__global const double* y, __global double* f, __global const double* p) {
  const size_t i = get_global_id(0);
  double yi[REACTOR_N], fi[REACTOR_N];
  for (int k = 0; k < REACTOR_N; ++k) yi[k] = y[i * REACTOR_N + k];
  rhs(0.0, yi, fi, p + i);
  for (int k = 0; k < REACTOR_N; ++k) f[i * REACTOR_N + k] = fi[k];
}
#if ODE_ANALYTIC_JACOBIAN
__kernel void reactor_jac(__global const double* y, __global double* dfdy, __global const double* p) {
  const size_t i = get_global_id(0);
  double yi[REACTOR_N], ji[REACTOR_N * REACTOR_N];
  for (int k = 0; k < REACTOR_N; ++k) yi[k] = y[i * REACTOR_N + k];
  jac(0.0, yi, ji, p + i);
  for (int k = 0; k < REACTOR_N * REACTOR_N; ++k) dfdy[i * REACTOR_N * REACTOR_N + k] = ji[k];
}
#endif
)";

// The generated rhs() (or, with `jacobian`, jac()) of `system` at every state, one work-item each; f (or
// dfdy) of every state one after the other.
inline std::vector<double> run_generated(const core::DeviceSet& devices, const ode::System& system,
                                         const StackedStates& states, bool jacobian, const std::string& name) {
  const auto n = static_cast<std::size_t>(system.n);
  const std::size_t count = states.pressures.size(), out = jacobian ? n * n : n;
  const std::string source = "#define REACTOR_N " + std::to_string(n) + "\n#define ODE_ANALYTIC_JACOBIAN " +
                             std::string(system.analytic_jacobian ? "1" : "0") + "\n" + system.source +
                             generated_wrappers;
  const core::Context& ctx = devices.context(0);
  const core::Queue& q = devices.compute(0);
  const core::Program program =
      core::build_program(ctx, "chem reactor " + std::string(jacobian ? "jac " : "rhs ") + name, source, "");
  core::Kernel kernel = program.kernel(jacobian ? "reactor_jac" : "reactor_rhs");
  core::Buffer<double> y(ctx, states.y.size()), result(ctx, count * out), p(ctx, count);
  y.write(q, states.y);
  p.write(q, states.pressures);
  kernel.args(y, result, p);
  kernel.launch(q, count);
  std::vector<double> values(count * out);
  result.read(q, values);
  return values;
}

// Fails for every value whose bits differ (naming the first ten: `what` of value i); returns how many.
template <class Name>
std::size_t expect_same_bits(const std::vector<double>& got, const std::vector<double>& expected, Name what) {
  EXPECT_EQ(got.size(), expected.size());
  std::size_t differing = 0;
  for (std::size_t i = 0; i < std::min(got.size(), expected.size()); ++i)
    if (std::memcmp(&got[i], &expected[i], sizeof(double)) != 0 && differing++ < 10)
      ADD_FAILURE() << what(i) << ": cooperative " << got[i] << ", one work-item " << expected[i];
  EXPECT_EQ(differing, 0u);
  return differing;
}

}  // namespace hetflow::chem::test
