#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>

#include "hetflow/lbm/geometry_generators.hpp"
#include "hetflow/lbm/solver.hpp"
#include "test_devices.hpp"
#include "validation_output.hpp"

namespace hetflow::lbm {
namespace {

// Plane channel, 20 fluid cells wide (walls at y = 0 and 21), 80 long, with a Zou-He plug inlet at
// z = 0 and a Zou-He pressure outlet at z = 79. Re = U h / nu = 4, so the flow is developed a few cells
// downstream; 12000 steps are three viscous times h^2 / nu.
class LbmZouHe : public ::testing::TestWithParam<Pattern> {};

TEST_P(LbmZouHe, DevelopsPlanePoiseuilleFlowAndConservesMass) {
  const int nx = 4, ny = 22, nz = 80;
  const double u_in = 0.02, h = 20.0;
  Geometry geo = channel(nx, ny, nz);
  for (int y = 1; y < ny - 1; ++y) {
    for (int x = 0; x < nx; ++x) {
      geo.set(static_cast<std::size_t>(x), static_cast<std::size_t>(y), 0, NodeType::inlet);
      geo.set(static_cast<std::size_t>(x), static_cast<std::size_t>(y), nz - 1, NodeType::outlet);
    }
  }
  Config c;
  c.tau = 0.8;
  c.pattern = GetParam();
  c.storage = Storage::fp64;
  c.inlet_velocity = {0, 0, u_in};
  c.outlet_density = 1.0;
  const core::DeviceSet ds = test::test_device();
  if (!ds.device(0).info.fp64) GTEST_SKIP() << "no fp64";
  Solver s(ds, geo, c);
  s.initialise();
  s.advance(12000);
  const Fields f = s.fields();
  const double nu = s.viscosity();
  auto at = [&](int y, int z) { return static_cast<std::size_t>(1 + nx * (y + ny * z)); };
  auto flux = [&](int z) {
    double q = 0;
    for (int y = 1; y < ny - 1; ++y) q += f.rho[at(y, z)] * f.u[3 * at(y, z) + 2];
    return q;
  };
  // Mass: the same flux through the cross-sections of the developed flow as at the inlet. The nodal
  // momentum is not exactly the lattice's link flux; they differ by terms in the second derivatives of
  // the flow, which are largest within ten cells of the outlet (1e-3 there, 2e-5 at z = 40; the same
  // after 40000 steps, so the flow is steady).
  const double q_in = flux(1);
  EXPECT_NEAR(flux(20) / q_in, 1.0, 1e-5);
  EXPECT_NEAR(flux(40) / q_in, 1.0, 1e-4);
  EXPECT_NEAR(q_in / (f.rho[at(10, 1)] * u_in * h), 1.0, 2e-2);

  // Developed profile: a parabola of the measured mean velocity, walls half a cell outside.
  double mean = 0;
  for (int y = 1; y < ny - 1; ++y) mean += f.u[3 * at(y, 60) + 2] / h;
  double err = 0, norm = 0;
  std::vector<std::vector<double>> rows;
  for (int y = 1; y < ny - 1; ++y) {
    const double eta = (y - 10.5) / (h / 2);
    const double exact = 1.5 * mean * (1 - eta * eta);
    err += std::pow(f.u[3 * at(y, 60) + 2] - exact, 2);
    norm += exact * exact;
    rows.push_back({y - 10.5, f.u[3 * at(y, 2) + 2], f.u[3 * at(y, 60) + 2], exact});
  }
  if (GetParam() == Pattern::aa) {
    test::write_validation_csv("zou_he_channel.csv", {"y", "u_z2", "u_z60", "u_exact"}, rows);
  }
  EXPECT_LE(std::sqrt(err / norm), 5e-3);

  // Pressure gradient of plane Poiseuille flow, dp/dz = -12 nu rho U / h^2, with p = rho / 3.
  const double dpdz = (f.rho[at(10, 60)] - f.rho[at(10, 40)]) / 3.0 / 20.0;
  EXPECT_NEAR(dpdz / (-12.0 * nu * mean / (h * h)), 1.0, 3e-2);
  // The outlet holds its density.
  EXPECT_NEAR(f.rho[at(10, nz - 1)], 1.0, 1e-3);
}

INSTANTIATE_TEST_SUITE_P(Patterns, LbmZouHe, ::testing::Values(Pattern::aa, Pattern::ab, Pattern::lagrangian),
                         [](const auto& param_info) { return std::string(to_string(param_info.param)); });

}  // namespace
}  // namespace hetflow::lbm
