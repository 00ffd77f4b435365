// A pressure drop over one period along z, applied to the populations that cross the
// periodic z boundary, against the duct's series solution, and the bits it keeps across patterns, devices
// and the mass.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "hetflow/core/error.hpp"
#include "hetflow/lbm/geometry_generators.hpp"
#include "hetflow/lbm/solver.hpp"
#include "lbm_test_cases.hpp"
#include "test_devices.hpp"
#include "validation_output.hpp"

namespace hetflow::lbm {
namespace {

// The thesis's acceptance case with its own drive: the 32 x 32 duct at tau = 1/2 + sqrt(3/16), FP64,
// driven by a pressure drop dp over its 4 nodes along z, against the series solution for the mean
// gradient g = dp / nz; relative L2 error of u_z at most 2.5e-4. The density varies along z by
// 3 dp (the drive needs a compressible fluid), which adds a little to the body force's error.
TEST(LbmPressureDrop, DuctMatchesTheSeriesForTheMeanGradient) {
  const core::DeviceSet ds = test::test_device();
  if (!ds.device(0).info.fp64) GTEST_SKIP() << "no fp64";
  const int nx = 34, ny = 34, nz = 4;
  const double g = 1e-5;
  Config c;
  c.tau = 0.5 + std::sqrt(3.0 / 16);
  c.storage = Storage::fp64;
  c.pressure_drop = g * nz;
  Solver s(ds, duct(nx, ny, nz), c);
  s.initialise();
  s.advance(static_cast<long>(6000 * 0.1 / s.viscosity()));
  const Fields f = s.fields();
  const double error = test::duct_error(f, nx, ny, nz, g, s.viscosity());
  RecordProperty("rel_l2", test::sci(error));
  EXPECT_LE(error, 2.5e-4);
  // The density falls along z by dp / nz per node, 3 dp in all across the period.
  const std::size_t centre = static_cast<std::size_t>(nx / 2 + nx * (ny / 2));
  const double drop = f.rho[centre] - f.rho[centre + static_cast<std::size_t>((nz - 1) * nx * ny)];
  EXPECT_NEAR(drop / (3 * c.pressure_drop * (nz - 1) / nz), 1.0, 1e-3) << drop;
}

// The random-wall box driven by a pressure drop alone: the patterns give the same bits, z-slabs on
// several devices (one jump plane on each end device) the same bits as one device, and the mass stays.
TEST(LbmPressureDrop, PatternsDevicesAndMassKeepTheirBits) {
  const core::DeviceSet one = test::test_device();
  const core::DeviceSet several = test::test_devices();
  const Geometry geo = test::random_walls();
  auto drop_config = [](Pattern pattern) {
    Config c = test::skewed_flow(pattern, Storage::fp32);
    c.force = {0, 0, 0};
    c.pressure_drop = 2e-3;
    c.exact_arithmetic = true;
    return c;
  };
  std::vector<Fields> results;
  for (Pattern p : {Pattern::ab, Pattern::aa, Pattern::lagrangian}) {
    Solver s(one, geo, drop_config(p));
    s.initialise();
    const double mass0 = s.mass();
    s.advance(9);
    results.push_back(s.fields());
    EXPECT_NEAR(s.mass() / mass0, 1.0, 1e-6) << to_string(p);
  }
  double largest = 0;
  for (double v : results[0].u) largest = std::max(largest, std::abs(v));
  EXPECT_GT(largest, 1e-4);  // the drop drives a flow
  for (std::size_t k = 1; k < results.size(); ++k) {
    EXPECT_EQ(results[k].rho, results[0].rho) << "pattern " << k;
    EXPECT_EQ(results[k].u, results[0].u) << "pattern " << k;
  }
  for (Pattern p : {Pattern::aa, Pattern::ab}) {
    Solver a(one, geo, drop_config(p)), b(several, geo, drop_config(p));
    ASSERT_GE(b.parts(), 2u);
    a.initialise();
    b.initialise();
    a.advance(9);
    b.advance(9);
    const Fields fa = a.fields(), fb = b.fields();
    EXPECT_EQ(fa.rho, fb.rho) << to_string(p);
    EXPECT_EQ(fa.u, fb.u) << to_string(p);
  }
}

TEST(LbmPressureDrop, RejectsBadInput) {
  const core::DeviceSet ds = test::test_device();
  Config c;
  c.pressure_drop = std::numeric_limits<double>::quiet_NaN();
  try {
    Solver(ds, duct(6, 6, 6), c);
    FAIL();
  } catch (const core::Error& e) {
    EXPECT_NE(std::string(e.what()).find("pressure_drop = nan is not a finite number"), std::string::npos) << e.what();
  }
  c.pressure_drop = 1e-3;
  Geometry open = duct(6, 6, 6);
  open.set(2, 2, 0, NodeType::inlet);
  try {
    Solver(ds, open, c);
    FAIL();
  } catch (const core::Error& e) {
    EXPECT_NE(std::string(e.what()).find("inlet or outlet nodes"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace hetflow::lbm
