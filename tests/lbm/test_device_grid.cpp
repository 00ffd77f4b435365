#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "hetflow/core/error.hpp"
#include "hetflow/lbm/device_grid.hpp"
#include "hetflow/lbm/geometry_generators.hpp"
#include "hetflow/lbm/solver.hpp"
#include "lbm_test_cases.hpp"
#include "test_devices.hpp"

namespace hetflow::lbm {
namespace {

TEST(LbmDeviceGrid, BoxesTileTheLatticeAndNeighboursWrap) {
  const DeviceGrid grid({13, 11, 9}, {3, 2, 2}, 12);
  std::vector<int> owner(13 * 11 * 9, -1);
  for (std::size_t p = 0; p < grid.parts(); ++p) {
    const Extent o = grid.origin(p), e = grid.extent(p);
    for (int z = o[2]; z < o[2] + e[2]; ++z) {
      for (int y = o[1]; y < o[1] + e[1]; ++y) {
        for (int x = o[0]; x < o[0] + e[0]; ++x) {
          EXPECT_EQ(owner[static_cast<std::size_t>(x + 13 * (y + 11 * z))], -1) << "node owned twice";
          owner[static_cast<std::size_t>(x + 13 * (y + 11 * z))] = static_cast<int>(p);
        }
      }
    }
  }
  for (int o : owner) ASSERT_GE(o, 0) << "node owned by no box";
  // 13 = 5 + 4 + 4 along x: the lower boxes take the remainder.
  EXPECT_EQ(grid.extent(0), (Extent{5, 6, 5}));
  EXPECT_EQ(grid.extent(11), (Extent{4, 5, 4}));
  EXPECT_EQ(grid.local(0), (Extent{7, 8, 7}));
  EXPECT_EQ(grid.neighbour(0, 0, -1), 2u);
  EXPECT_EQ(grid.neighbour(2, 0, +1), 0u);
  EXPECT_EQ(grid.neighbour(0, 1, -1), 3u);
  EXPECT_EQ(grid.neighbour(0, 2, +1), 6u);
  // Local halo layer 0 of box 0 is the lattice's last node along each axis.
  EXPECT_EQ(grid.global(0, 0, 0), 12);
  EXPECT_EQ(grid.global(11, 2, 4), 8);
  EXPECT_EQ(grid.global(11, 2, 5), 0);
  // {0, 0, 0}: z-slabs; an axis left whole has no halo.
  const DeviceGrid slabs({13, 11, 9}, {0, 0, 0}, 3);
  EXPECT_EQ(slabs.grid(), (Extent{1, 1, 3}));
  EXPECT_EQ(slabs.local(1), (Extent{13, 11, 5}));
  // Several boxes per device cut each device's box along z; the device grid is checked as given.
  const DeviceGrid per_device({13, 11, 9}, {2, 1, 1}, 2, 3);
  EXPECT_EQ(per_device.grid(), (Extent{2, 1, 3}));
  EXPECT_EQ(per_device.extent(5), (Extent{6, 11, 3}));
  EXPECT_EQ(DeviceGrid({13, 11, 9}, {0, 0, 0}, 2, 2).grid(), (Extent{1, 1, 4}));
}

// Weights size the z-slabs by largest remainder; several boxes split a device's slab evenly.
TEST(LbmDeviceGrid, WeightsSizeTheSlabs) {
  const std::vector<double> weights{1.0, 0.25, 2.0};
  const DeviceGrid slabs({5, 4, 26}, {0, 0, 0}, 3, 1, weights);
  // 26 x (1, 0.25, 2) / 3.25 = 8, 2, 16.
  EXPECT_EQ(slabs.extent(0), (Extent{5, 4, 8}));
  EXPECT_EQ(slabs.extent(1), (Extent{5, 4, 2}));
  EXPECT_EQ(slabs.extent(2), (Extent{5, 4, 16}));
  EXPECT_EQ(slabs.origin(2), (Extent{0, 0, 10}));
  EXPECT_EQ(slabs.local(1), (Extent{5, 4, 4}));
  EXPECT_EQ(slabs.global(2, 2, 17), 0);  // the last slab's upper halo wraps to plane 0
  const DeviceGrid boxes({5, 4, 26}, {1, 1, 3}, 3, 2, weights);
  EXPECT_EQ(boxes.grid(), (Extent{1, 1, 6}));
  for (std::size_t part : {0u, 1u, 4u, 5u}) EXPECT_EQ(boxes.extent(part)[2], part < 2 ? 4 : 8) << part;
  EXPECT_EQ(boxes.extent(2)[2] + boxes.extent(3)[2], 2);
  EXPECT_EQ(boxes.origin(5), (Extent{0, 0, 18}));
}

TEST(LbmDeviceGrid, RefusesWeightsThatDoNotFit) {
  auto message = [](const Extent& grid, std::size_t per_device, const std::vector<double>& weights) {
    try {
      DeviceGrid g({8, 8, 12}, grid, 2, per_device, weights);
    } catch (const core::Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message({0, 0, 0}, 1, {1.0}).find("1 given for 2 devices"), std::string::npos);
  EXPECT_NE(message({2, 1, 1}, 1, {1.0, 2.0}).find("z-slabs only"), std::string::npos);
  EXPECT_NE(message({0, 0, 0}, 1, {1.0, 0.01}).find("device 1 0 of the lattice's 12 z-planes"), std::string::npos);
  EXPECT_NE(message({0, 0, 0}, 2, {1.0, 0.1}).find("fewer than its 2 box(es)"), std::string::npos);
  EXPECT_NE(message({0, 0, 0}, 1, {1.0, -1.0}).find("non-negative"), std::string::npos);
  EXPECT_EQ(message({0, 0, 0}, 1, {1.0, 1.0}), "no error");
}

TEST(LbmDeviceGrid, RejectsGridsThatDoNotFit) {
  auto message = [](const Extent& lattice, const Extent& grid, std::size_t parts) {
    try {
      DeviceGrid g(lattice, grid, parts);
    } catch (const core::Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message({8, 8, 8}, {2, 2, 1}, 2).find("does not match the 2 devices"), std::string::npos);
  EXPECT_NE(message({8, 8, 8}, {2, -1, -1}, 2).find("does not match"), std::string::npos);
  EXPECT_NE(message({8, 1, 8}, {1, 2, 1}, 2).find("a lattice of 1 nodes along y cannot be split into 2 boxes"),
            std::string::npos);
  try {
    DeviceGrid g({8, 8, 3}, {0, 0, 0}, 1, 4);
    ADD_FAILURE() << "4 boxes along z of 3 nodes accepted";
  } catch (const core::Error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot be split into 4 boxes; use fewer devices along z or fewer boxes per "
                                         "device"),
              std::string::npos)
        << e.what();
  }
}

// The test devices, repeated until there are `n`: each repetition gets its own context and queues, so
// one machine's devices stand in for a grid of any size.
core::DeviceSet repeated_devices(std::size_t n) {
  const core::DeviceSet several = test::test_devices();
  std::vector<core::Device> devices;
  for (std::size_t k = 0; k < n; ++k) devices.push_back(several.device(k % several.size()));
  return core::DeviceSet(devices);
}

// 2-D and 3-D grids, halos relayed axis by axis (edges in two hops), give the same bits as one device;
// random walls straddle every face and edge. Exact arithmetic makes a GPU + CPU mix comparable too.
TEST(LbmDeviceGrid, FieldsAreBitIdenticalToOneDevice) {
  const core::DeviceSet one = test::test_device();
  const Geometry geo = test::random_walls();
  for (const Extent grid : {Extent{4, 1, 1}, Extent{2, 2, 1}, Extent{1, 2, 2}, Extent{2, 2, 2}}) {
    const core::DeviceSet several = repeated_devices(static_cast<std::size_t>(grid[0] * grid[1] * grid[2]));
    for (Pattern pattern : {Pattern::aa, Pattern::ab}) {
      for (Storage storage : {Storage::fp32, Storage::fp16}) {
        Config c = test::skewed_flow(pattern, storage);
        c.exact_arithmetic = true;
        Config split = c;
        split.device_grid = grid;
        Solver a(one, geo, c), b(several, geo, split);
        EXPECT_EQ(b.grid().grid(), grid);
        a.initialise(1.0, {0.01, 0.02, -0.02});
        b.initialise(1.0, {0.01, 0.02, -0.02});
        for (long steps : {1L, 6L}) {  // 1 and 7 in all: both A-A parities at the end
          a.advance(steps);
          b.advance(steps);
          const Fields fa = a.fields(), fb = b.fields();
          const std::string what = std::to_string(grid[0]) + "x" + std::to_string(grid[1]) + "x" +
                                   std::to_string(grid[2]) + " " + to_string(pattern) + " " + to_string(storage) +
                                   ", step " + std::to_string(a.step());
          EXPECT_EQ(fa.rho, fb.rho) << what;
          EXPECT_EQ(fa.u, fb.u) << what;
        }
      }
    }
  }
}

// The multiphase fields' halos (pseudo-potential, mixture densities) cross faces and edges too.
TEST(LbmDeviceGrid, MultiphaseFieldsAreBitIdenticalToOneDevice) {
  const core::DeviceSet one = test::test_device();
  const core::DeviceSet four = repeated_devices(4);
  const Geometry geo = duct(12, 10, 9);
  // A liquid ball straddling the boxes' faces.
  std::vector<double> inside(geo.size());
  for (std::size_t i = 0; i < geo.size(); ++i) {
    const double x = static_cast<double>(i % 12) - 6, y = static_cast<double>(i / 12 % 10) - 5,
                 z = static_cast<double>(i / 120) - 4.5;
    inside[i] = x * x + y * y + z * z < 9 ? 1 : 0;
  }
  Config c;
  c.tau = 1.0;
  c.exact_arithmetic = true;
  c.shan_chen = ShanChen{};
  Config split = c;
  split.device_grid = {2, 1, 2};
  std::vector<double> rho(geo.size());
  for (std::size_t i = 0; i < rho.size(); ++i) rho[i] = inside[i] ? 500.0 : 90.0;
  {
    Solver a(one, geo, c), b(four, geo, split);
    a.initialise(rho);
    b.initialise(rho);
    a.advance(9);
    b.advance(9);
    const Fields fa = a.fields(), fb = b.fields();
    EXPECT_EQ(fa.rho, fb.rho) << "shan-chen";
    EXPECT_EQ(fa.u, fb.u) << "shan-chen";
  }
  c.shan_chen.reset();
  c.tau = 0.9;
  c.two_component = TwoComponent{1.2, 0.7, {1.2, 0.6}};
  split = c;
  split.device_grid = {1, 2, 2};
  std::vector<double> rho_a(geo.size()), rho_b(geo.size());
  for (std::size_t i = 0; i < geo.size(); ++i) {
    rho_a[i] = inside[i] ? 2.2 : 0.03;
    rho_b[i] = inside[i] ? 0.03 : 2.2;
  }
  Solver a(one, geo, c), b(four, geo, split);
  a.initialise(rho_a, rho_b, {0.01, 0.0, -0.02});
  b.initialise(rho_a, rho_b, {0.01, 0.0, -0.02});
  a.advance(9);
  b.advance(9);
  const Fields fa = a.fields(), fb = b.fields();
  EXPECT_EQ(fa.rho_a, fb.rho_a) << "two components";
  EXPECT_EQ(fa.rho_b, fb.rho_b) << "two components";
  EXPECT_EQ(fa.u, fb.u) << "two components";
}

}  // namespace
}  // namespace hetflow::lbm
