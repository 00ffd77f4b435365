// core::KernelArgs binds a kernel's arguments in the order of its parameter list, real_t ones in the
// build's precision, and remembers where an argument set per launch goes.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "hetflow/core/buffer.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/core/kernel_args.hpp"
#include "hetflow/core/program.hpp"
#include "hetflow/core/registry.hpp"
#include "test_devices.hpp"

namespace hetflow::core {
namespace {

const char* affine = R"(
__kernel void affine(__global real_t* y, const real_t a, const uint n, const real_t b) {
  const size_t i = get_global_id(0);
  if (i < n) y[i] = a * y[i] + b;
})";

Kernel affine_kernel(const Context& ctx, Precision precision) {
  const std::string source = kernel_source("core/common.cl") + affine;
  return build_program(ctx, "test/affine", source, BuildOptions(precision).str()).kernel("affine");
}

// y = 0.5 y + 0.25 on the first 6 of 8 values, y bound last at the index the binder gave for it.
template <class Real>
std::vector<Real> run_affine(const Context& ctx, const Queue& q, Precision precision) {
  Kernel k = affine_kernel(ctx, precision);
  KernelArgs args(k, precision);
  const cl_uint y_at = args.next();
  args.skip().real(0.5).add(cl_uint{6}).real(0.25);
  EXPECT_EQ(args.next(), 4u);
  Buffer<Real> y(ctx, 8);
  y.fill(q, Real(1));
  KernelArgs(k, precision, y_at).add(y);
  k.launch(q, 8).wait();
  return y.to_vector(q);
}

TEST(CoreKernelArgs, BindsInParameterOrderInTheBuildsPrecision) {
  const DeviceSet ds = test::test_device();
  const Context& ctx = ds.context(0);
  const Queue& q = ds.compute(0);
  const std::vector<float> f = run_affine<float>(ctx, q, Precision::f32);
  EXPECT_EQ(f[5], 0.75f);
  EXPECT_EQ(f[6], 1.0f);
  if (!ctx.device().info.fp64) return;
  const std::vector<double> d = run_affine<double>(ctx, q, Precision::f64);
  EXPECT_EQ(d[5], 0.75);
  EXPECT_EQ(d[6], 1.0);
}

TEST(CoreKernelArgs, RealNeedsAPrecision) {
  const DeviceSet ds = test::test_device();
  Kernel k = affine_kernel(ds.context(0), Precision::f32);
  KernelArgs args(k);
  args.skip();
  EXPECT_THROW(args.real(0.5), Error);
}

}  // namespace
}  // namespace hetflow::core
