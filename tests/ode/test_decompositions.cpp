// The phased mapping's decompositions on GPUs, in registers (register_lu.cl) and by dense_lu.cl's group LU,
// against dense_lu.cl one work-item per system, which mapping 1's tests tie to the Fortran's step
// statistics: the same factors, pivots and singular flags to the bit, on random matrices with ties, zeros
// and singular ones.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "hetflow/core/buffer.hpp"
#include "hetflow/core/device.hpp"
#include "hetflow/core/registry.hpp"
#include "hetflow/core/program.hpp"
#include "test_devices.hpp"

namespace hetflow::ode {
namespace {

// phased_state.cl's layout.
constexpr std::size_t p_fac1 = 10, p_alphn = 11, p_betan = 12, p_singular = 18;
std::size_t state_size(std::size_t n) { return 20 + 4 * n; }

struct Factors {
  std::vector<double> matrices, state;
  std::vector<cl_int> pivots;
};

// How radau5_decompose.cl is built: dense_lu.cl one work-item per system (the reference), dense_lu.cl's
// group LU (radau5_launch.cpp's on GPUs past n = 16; PoCL cannot compile it), or register_lu.cl in `parts`
// parts (radau5_launch.cpp's on GPUs up to n = 16; PoCL runs it too).
struct Variant {
  enum Kind { work_item, group, registers } kind = work_item;
  std::size_t parts = 1;
  int panel = 0;       // the group LU's ODE_LU_PANEL
  bool local = false;  // the group LU's matrices in local memory
  bool final_rows = false;  // dense_lu.cl's ODE_FINAL_ROWS
  bool warp_pivot = false;  // dense_lu.cl's ODE_WARP_PIVOT (NVIDIA)
  // The kernels in launch order, as radau5_run.cpp launches them.
  std::vector<std::string> kernels() const {
    if (kind == registers) return {"radau5_decompose"};
    return {"radau5_decompose_real", "radau5_decompose_complex"};
  }
  std::size_t group_size(std::size_t n) const {
    if (kind == registers) return parts * ((n + 31) / 32 * 32);
    return kind == group ? 128 : 1;
  }
};

core::Program build(const core::DeviceSet& devices, std::size_t n, const Variant& v) {
  const auto flag = [](bool on) { return std::string(on ? "1" : "0"); };
  const std::string options = "-DODE_N=" + std::to_string(n) + " -DODE_GROUP=" + flag(v.kind == Variant::group) +
                              " -DODE_PHASED=" + flag(v.kind == Variant::work_item) +
                              " -DODE_REGISTER_LU=" + flag(v.kind == Variant::registers) +
                              " -DODE_LU_BY_COLUMN=0 -DODE_LU_PANEL=" + std::to_string(v.panel) +
                              " -DODE_LOCAL_SCRATCH=" + flag(v.local) + " -DODE_RL_PARTS=" + std::to_string(v.parts) +
                              " -DODE_FINAL_ROWS=" + flag(v.final_rows) + " -DODE_WARP_PIVOT=" + flag(v.warp_pivot);
  return core::build_program(devices.context(0), "ode/radau5_decompose.cl",
                             core::kernel_source("ode/radau5_decompose.cl"), options);
}

// The decomposition of every system of `in`.
Factors decompose(const core::DeviceSet& devices, std::size_t n, const Variant& v, const Factors& in) {
  const core::Context& ctx = devices.context(0);
  const core::Queue& q = devices.compute(0);
  const core::Program program = build(devices, n, v);
  const std::size_t systems = in.state.size() / state_size(n);
  std::vector<cl_uint> list(systems);
  for (std::size_t s = 0; s < systems; ++s) list[s] = static_cast<cl_uint>(systems - 1 - s);  // any order
  core::Buffer<double> matrices(ctx, in.matrices.size()), state(ctx, in.state.size());
  core::Buffer<cl_int> pivots(ctx, in.pivots.size());
  core::Buffer<cl_uint> listed(ctx, systems);
  matrices.write(q, in.matrices);
  state.write(q, in.state);
  pivots.write(q, in.pivots);
  listed.write(q, list);
  const std::size_t local = v.group_size(n);
  for (const std::string& name : v.kernels()) {
    core::Kernel kernel = program.kernel(name);
    kernel.args(matrices, pivots, state, listed, static_cast<cl_uint>(systems));
    kernel.launch(q, core::NDRange(local * 3), core::NDRange(local));  // three groups share the systems
  }
  Factors out = in;
  matrices.read(q, out.matrices);
  state.read(q, out.state);
  pivots.read(q, out.pivots);
  return out;
}

// J with entries from a few values (so pivots tie), a share of zeros (as a mechanism's), and in every
// fifth system a zero column (E1 singular when fac1 cancels nothing: here J's column j zero and fac1 = 0).
Factors random_systems(std::size_t n, std::size_t systems) {
  std::mt19937_64 random(n);
  std::uniform_int_distribution<int> pick(-4, 4);
  std::uniform_real_distribution<double> scale(0.5, 2.0);
  Factors f;
  f.matrices.resize(systems * 4 * n * n);
  f.state.assign(systems * state_size(n), 0.0);
  f.pivots.assign(systems * 2 * n, -1);
  for (std::size_t s = 0; s < systems; ++s) {
    double* jac = f.matrices.data() + s * 4 * n * n;
    for (std::size_t k = 0; k < n * n; ++k) jac[k] = pick(random) % 3 == 0 ? 0.0 : pick(random) * 0.25;
    const bool singular = s % 5 == 4;
    if (singular)
      for (std::size_t i = 0; i < n; ++i) jac[i + (n / 2) * n] = 0.0;
    double* st = f.state.data() + s * state_size(n);
    st[p_fac1] = singular ? 0.0 : scale(random);
    st[p_alphn] = scale(random);
    st[p_betan] = scale(random);
  }
  return f;
}

// Same singular flags, and for the others the same pivots and factors to the bit.
void expect_same_factors(const Factors& tried, const Factors& dense, std::size_t n) {
  const std::size_t systems = dense.state.size() / state_size(n);
  std::size_t singular = 0;
  for (std::size_t s = 0; s < systems; ++s) {
    SCOPED_TRACE("system " + std::to_string(s));
    const double flag = dense.state[s * state_size(n) + p_singular];
    ASSERT_EQ(tried.state[s * state_size(n) + p_singular], flag);
    if (flag != 0.0) {
      ++singular;
      continue;  // the factors of a singular matrix are not used
    }
    for (std::size_t k = 0; k < 2 * n - 1; ++k) {
      if (k == n - 1) continue;  // E1's last pivot, which DEC does not set
      ASSERT_EQ(tried.pivots[s * 2 * n + k], dense.pivots[s * 2 * n + k]) << "pivot " << k;
    }
    for (std::size_t k = n * n; k < 4 * n * n; ++k) {
      const std::size_t at = s * 4 * n * n + k;
      ASSERT_EQ(std::bit_cast<std::uint64_t>(tried.matrices[at]), std::bit_cast<std::uint64_t>(dense.matrices[at]))
          << "matrix " << k / (n * n) << " entry " << k % (n * n) << ": " << tried.matrices[at] << " against "
          << dense.matrices[at];
    }
  }
  EXPECT_EQ(singular, systems / 5);  // every fifth system, and no other
}

class OdeRegisterLu : public ::testing::TestWithParam<std::size_t> {};

TEST_P(OdeRegisterLu, GivesDenseLuBits) {
  const std::size_t n = GetParam(), systems = 20;
  const core::DeviceSet devices = hetflow::test::test_device();
  const Factors in = random_systems(n, systems);
  const Factors dense = decompose(devices, n, Variant{}, in);
  for (const std::size_t parts : {2, 3, 4, 8}) {
    SCOPED_TRACE(std::to_string(parts) + " parts");
    expect_same_factors(decompose(devices, n, Variant{.kind = Variant::registers, .parts = parts}, in), dense, n);
  }
}

// Up to 16, where radau5_launch.cpp uses it, and past two warps of columns; larger n stay out, as PoCL
// takes long to build their kernels.
INSTANTIATE_TEST_SUITE_P(Sizes, OdeRegisterLu, ::testing::Values(2, 7, 16, 33));

class OdeGroupLu : public ::testing::TestWithParam<std::size_t> {};

TEST_P(OdeGroupLu, GivesDenseLuBits) {
  const core::DeviceSet devices = hetflow::test::test_device();
  if (devices.device(0).info.kind != core::DeviceKind::gpu)
    GTEST_SKIP() << "the group LU is tested on GPUs (PoCL cannot compile it)";
  const std::size_t n = GetParam(), systems = 20;
  const Factors in = random_systems(n, systems);
  const bool fits = (2 * n * n + n) * sizeof(double) <= devices.device(0).info.local_mem;  // E2 and the pivots
  const bool ptx = core::takes_inline_ptx(devices.device(0).info);
  for (const bool final_rows : {false, true}) {
    const Factors dense = decompose(devices, n, Variant{.final_rows = final_rows}, in);
    for (const bool local : {false, true})
      for (const int panel : {0, 4})
        for (const bool warp_pivot : {false, true}) {
          if ((local && !fits) || (warp_pivot && !ptx)) continue;
          SCOPED_TRACE(std::string(local ? "local" : "global") + " memory, panel " + std::to_string(panel) +
                       (final_rows ? ", final rows" : "") + (warp_pivot ? ", warp pivot" : ""));
          const Variant group{.kind = Variant::group,
                              .panel = panel,
                              .local = local,
                              .final_rows = final_rows,
                              .warp_pivot = warp_pivot};
          expect_same_factors(decompose(devices, n, group, in), dense, n);
        }
  }
}

// Sizes within and past one sweep of dense_lu.cl's row lanes (16 lanes of 4 rows), among them GRI-Mech
// 3.0's 54, the largest here that fits local memory.
INSTANTIATE_TEST_SUITE_P(Sizes, OdeGroupLu, ::testing::Values(2, 13, 54, 70));

}  // namespace
}  // namespace hetflow::ode
