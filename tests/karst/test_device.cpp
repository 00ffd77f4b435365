// The batched device solver (karst.cl) against the host reference: the same operations in the same
// order, so every outlet value must be bit for bit the host's.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "hetflow/core/error.hpp"
#include "hetflow/karst/device_solver.hpp"
#include "hetflow/karst/host_solver.hpp"
#include "test_devices.hpp"

namespace hetflow::karst {
namespace {

Series sampled(double (*f)(double)) {
  Series s;
  for (int i = 0; i <= 30; ++i) {
    s.t.push_back(0.05 * i);
    s.value.push_back(f(s.t.back()));
  }
  return s;
}

const Series velocity = sampled([](double t) { return 1 + 0.3 * std::sin(4 * t); });
const Series inlet = sampled([](double t) { return 1 + 0.8 * std::exp(-(t - 0.3) * (t - 0.3) / 0.01); });

// Uneven steps: the rock matrix changes with dt, so each step refactors it.
std::vector<double> uneven_times(std::size_t steps) {
  std::vector<double> t(steps);
  double now = 0;
  for (std::size_t k = 0; k < steps; ++k) t[k] = now += 0.008 + 0.004 * static_cast<double>(k % 3);
  return t;
}

const std::vector<KarstParameters> sets = {
    {1000, 15.7239, 23.057, 2.235, 0},  // Tyson Spring Cave (thesis Table 4.3)
    {2000, 10, 4.5, 2.235, 0},          // NLCG start of thesis Ch. 7
    {150, 0.558, 1369, 2.235, 0.3},     // C11 groups
    {50, 0, 1, 1, -0.5},
    {400, 2, 0.5, 1.5, 0},
};

void expect_identical(KarstDevice& device, const Grid& grid) {
  const std::vector<Series> got = device.run(inlet, velocity, sets, grid);
  ASSERT_EQ(got.size(), sets.size());
  for (std::size_t p = 0; p < sets.size(); ++p) {
    const Series want = host_run(inlet, velocity, sets[p], grid);
    ASSERT_EQ(got[p].t, want.t);
    for (std::size_t k = 0; k < want.size(); ++k)
      ASSERT_EQ(got[p].value[k], want.value[k]) << "set " << p << ", step " << k;
  }
}

TEST(KarstDevice, BatchEqualsHostBitForBit) {
  const core::DeviceSet devices = test::test_device();
  KarstDevice device(devices);
  Grid g;
  g.nodes = 40;
  g.rock_nodes = 12;
  g.rock_extent = 4;
  g.times = uneven_times(60);
  for (const Model model : {Model::heat, Model::solute})
    for (const Outlet outlet : {Outlet::outflow, Outlet::thesis})
      for (const FarField far : {FarField::fixed, FarField::insulated}) {
        SCOPED_TRACE(std::to_string(static_cast<int>(model)) + std::to_string(static_cast<int>(outlet)) +
                     std::to_string(static_cast<int>(far)));
        g.model = model;
        g.outlet = outlet;
        g.far_field = far;
        expect_identical(device, g);
      }
}

TEST(KarstDevice, MoreColumnsThanWorkItems) {
  // Each work-item then owns several rock columns and water rows.
  const core::DeviceSet devices = test::test_device();
  KarstDevice device(devices);
  Grid g;
  g.nodes = device.work_group() + 45;
  g.rock_nodes = 4;
  g.rock_extent = 1;
  g.initial = 0.75;
  g.times = Grid::uniform_times(0.02, 15);
  expect_identical(device, g);
}

TEST(KarstDevice, RefusesBadInputBeforeLaunch) {
  const core::DeviceSet devices = test::test_device();
  KarstDevice device(devices);
  Grid g;
  g.nodes = 10;
  g.rock_nodes = 3;
  g.times = Grid::uniform_times(0.1, 3);
  const std::vector<KarstParameters> bad = {{100, 1, 1, 1, 0}, {-1, 1, 1, 1, 0}};
  EXPECT_THROW(device.run(inlet, velocity, bad, g), core::Error);
  const Series backwards{{0, 2, 1}, {1, 1, 1}};
  EXPECT_THROW(device.run(inlet, backwards, sets, g), core::Error);
  g.nodes = 1'000'000;  // 16 MB of local memory
  EXPECT_THROW(device.run(inlet, velocity, sets, g), core::Error);
}

}  // namespace
}  // namespace hetflow::karst
