#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "hetflow/core/error.hpp"
#include "hetflow/fem/edge_data.hpp"
#include "hetflow/fem/edge_kernels.hpp"
#include "hetflow/fem/edge_operators.hpp"
#include "small_meshes.hpp"
#include "test_devices.hpp"

namespace hetflow::fem {
namespace {

// The device sums a row in the host's order; only the fusing of multiply-adds may differ, so the
// results agree to a few units in the last place of the row's largest term.
constexpr double kRoundOff = 1e-14;

class FemEdgeKernels : public ::testing::Test {
 protected:
  FemEdgeKernels()
      : cube_(cube_mesh(5, 0.15)), data_(build_edge_data(cube_.mesh)), devices_(test::test_device()),
        kernels_(devices_, 0, data_) {}

  std::vector<double> nonlinear_field() const {
    std::vector<double> f;
    for (const Point& x : cube_.mesh.nodes) f.push_back(std::exp(x[0]) * std::sin(2 * x[1]) + 3 * x[2] * x[2]);
    return f;
  }
  core::Buffer<double> device_field(const std::vector<double>& values) const {
    core::Buffer<double> b(devices_.context(0), values.size());
    b.write(devices_.compute(0), values);
    return b;
  }

  CubeMesh cube_;
  EdgeData data_;
  core::DeviceSet devices_;
  EdgeKernels kernels_;
};

TEST_F(FemEdgeKernels, StrongGradientEqualsTheHostOperator) {
  const std::vector<double> p = nonlinear_field();
  const std::vector<Vec3> expected = strong_gradient(data_, p);
  const core::Buffer<double> p_device = device_field(p);
  core::Buffer<double> grad(devices_.context(0), 3 * p.size());
  kernels_.strong_gradient(p_device, grad);
  const std::vector<double> got = grad.to_vector(devices_.compute(0));
  // |d_IJ (p_J − p_I)| ≤ (V/4)|∇N| |Δp| ~ h² · 10 h: the row's terms are below 1e-2 here.
  for (std::size_t i = 0; i < p.size(); ++i)
    for (std::size_t c = 0; c < 3; ++c) EXPECT_NEAR(got[3 * i + c], expected[i][c], kRoundOff) << "node " << i;
}

TEST_F(FemEdgeKernels, StiffnessEqualsTheHostOperator) {
  const std::vector<double> phi = nonlinear_field();
  const std::vector<double> expected = stiffness(data_, phi);
  const core::Buffer<double> phi_device = device_field(phi);
  core::Buffer<double> out(devices_.context(0), phi.size());
  kernels_.stiffness(phi_device, out);
  const std::vector<double> got = out.to_vector(devices_.compute(0));
  for (std::size_t i = 0; i < phi.size(); ++i) EXPECT_NEAR(got[i], expected[i], kRoundOff) << "node " << i;
}

TEST_F(FemEdgeKernels, RejectsAFieldOfTheWrongSize) {
  const core::Buffer<double> p = device_field(nonlinear_field());
  core::Buffer<double> grad(devices_.context(0), p.size());
  try {
    kernels_.strong_gradient(p, grad);
    FAIL() << "no error";
  } catch (const core::Error& e) {
    EXPECT_EQ(std::string(e.what()), "the device field grad holds 216 values; the edge kernels need 648");
  }
}

}  // namespace
}  // namespace hetflow::fem
