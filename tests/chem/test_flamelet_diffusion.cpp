// The device's diffusion sub-step (chem/flamelet_diffusion.cl) against closed forms: a sine mode of the
// uniform grid's discrete operator decays by the extrapolated backward-Euler factor of its eigenvalue,
// and a linear profile between the boundary values stays as it is on a clustered grid.
#include <gtest/gtest.h>

#include <cmath>

#include "hetflow/chem/flamelet_diffusion.hpp"
#include "hetflow/chem/flamelet_grid.hpp"
#include "test_devices.hpp"

namespace hetflow::chem {
namespace {

TEST(FlameletDiffusion, SineModesDecayByTheExtrapolatedEulerFactor) {
  const core::DeviceSet devices = hetflow::test::test_device();
  const std::size_t points = 15, components = 4;
  const std::vector<double> z = flamelet_grid(points, 0.5, 0.0);
  const double chi = 40.0, h = 1.0 / static_cast<double>(points + 1), dt = 2e-3;
  FlameletDiffusion diffusion(devices, 0, points, components);
  diffusion.set_operator(flamelet_diffusion_operator(z, std::vector<double>(z.size(), chi)));
  // Component k carries mode k + 1 (the highest, stiff ones included when k is large).
  const std::size_t modes[components] = {1, 2, 7, 15};
  std::vector<double> state(z.size() * components);
  for (std::size_t j = 0; j < z.size(); ++j)
    for (std::size_t k = 0; k < components; ++k)
      state[j * components + k] = std::sin(M_PI * static_cast<double>(modes[k]) * z[j]);
  const std::vector<double> start = state;
  diffusion.advance(state, dt);
  for (std::size_t k = 0; k < components; ++k) {
    const double s = std::sin(M_PI * static_cast<double>(modes[k]) * h / 2.0);
    const double lambda = -0.5 * chi * 4.0 / (h * h) * s * s;
    const double x = lambda * dt;
    const double factor = 2.0 / ((1.0 - x / 2.0) * (1.0 - x / 2.0)) - 1.0 / (1.0 - x);
    for (std::size_t j = 0; j < z.size(); ++j)
      EXPECT_NEAR(state[j * components + k], factor * start[j * components + k], 1e-13)
          << "mode " << modes[k] << " node " << j;
  }
}

TEST(FlameletDiffusion, LinearProfilesBetweenTheBoundariesStay) {
  const core::DeviceSet devices = hetflow::test::test_device();
  const std::size_t points = 20, components = 3;
  const std::vector<double> z = flamelet_grid(points, 0.1, 4.0);
  FlameletDiffusion diffusion(devices, 0, points, components);
  diffusion.set_operator(flamelet_diffusion_operator(z, dissipation_rates(z, 300.0, 0.1)));
  std::vector<double> state(z.size() * components);
  for (std::size_t j = 0; j < z.size(); ++j)
    for (std::size_t k = 0; k < components; ++k)
      state[j * components + k] = 300.0 * static_cast<double>(k) + (1.0 + static_cast<double>(k)) * z[j];
  const std::vector<double> start = state;
  for (const double dt : {1e-4, 1e-2, 1.0}) diffusion.advance(state, dt);
  for (std::size_t i = 0; i < state.size(); ++i)
    EXPECT_NEAR(state[i], start[i], 1e-12 * (1.0 + std::abs(start[i]))) << i;
}

}  // namespace
}  // namespace hetflow::chem
