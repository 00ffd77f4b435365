// Solver::velocity_on_device: the velocity a solver on the same device takes in situ is the one
// fields() reads back, value for value.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "error_of.hpp"
#include "hetflow/lbm/geometry_generators.hpp"
#include "hetflow/lbm/solver.hpp"
#include "lbm_test_cases.hpp"
#include "test_devices.hpp"

namespace hetflow::lbm {
namespace {

// The `components` first velocity components per node that velocity_on_device leaves on the device.
std::vector<double> on_device(const core::DeviceSet& devices, const Solver& s, int components) {
  const std::size_t real = s.config().storage == Storage::fp64 ? 8 : 4;
  core::Buffer<std::uint8_t> u(devices.context(0), s.nodes() * static_cast<std::size_t>(components) * real);
  s.velocity_on_device(u, components);
  std::vector<std::uint8_t> bytes(u.size());
  u.read(devices.compute(0), std::span(bytes));
  std::vector<double> values(bytes.size() / real);
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (real == 8) {
      std::memcpy(&values[i], &bytes[8 * i], 8);
    } else {
      float f;
      std::memcpy(&f, &bytes[4 * i], 4);
      values[i] = f;
    }
  }
  return values;
}

TEST(LbmVelocityOnDevice, IsTheVelocityFieldsReads) {
  const core::DeviceSet one = test::test_device();
  for (Pattern pattern : {Pattern::aa, Pattern::ab}) {
    for (Storage storage : {Storage::fp32, Storage::fp64}) {
      const Config c = test::skewed_flow(pattern, storage);
      // A 3-D lattice (3 components) and a flat one (the x-y plane's 2).
      for (const Geometry& geo : {test::random_walls(), channel_with_cylinder(24, 12, 1, 8.0, 5.5, 3.0)}) {
        Solver s(one, geo, c);
        s.initialise(1.0, {0.01, 0.02, 0.0});
        s.advance(3);  // odd: A-A's reversed layout, A-B's second array
        const int components = geo.dims()[2] == 1 ? 2 : 3;
        const std::vector<double> u = on_device(one, s, components);
        const Fields f = s.fields();
        ASSERT_EQ(u.size(), s.nodes() * static_cast<std::size_t>(components));
        std::size_t differ = 0;
        for (std::size_t n = 0; n < s.nodes(); ++n) {
          for (int d = 0; d < components; ++d) differ += u[n * components + d] != f.u[3 * n + d];
        }
        EXPECT_EQ(differ, 0u) << to_string(pattern) << " " << to_string(storage) << " " << components << " components";
      }
    }
  }
}

TEST(LbmVelocityOnDevice, RefusesWhatItCannotHand) {
  const core::DeviceSet one = test::test_device();
  Config boxed = test::skewed_flow(Pattern::aa, Storage::fp32);
  boxed.boxes_per_device = 2;
  Solver split(one, test::random_walls(), boxed);
  core::Buffer<std::uint8_t> u(one.context(0), split.nodes() * 3 * 4);
  EXPECT_NE(
      test::error_of([&] { split.velocity_on_device(u, 3); }).find("in one box on one device; this run has 2 boxes"),
      std::string::npos);
  Solver deep(one, test::random_walls(), test::skewed_flow(Pattern::aa, Storage::fp32));
  EXPECT_NE(test::error_of([&] {
              deep.velocity_on_device(u, 2);
            }).find("velocity components 2 of a lattice 9 nodes deep: 3, or 2 for a lattice one node deep"),
            std::string::npos);
  core::Buffer<std::uint8_t> small(one.context(0), 16);
  EXPECT_NE(test::error_of([&] { deep.velocity_on_device(small, 3); }).find("a velocity buffer of 16 bytes for"),
            std::string::npos);
}

}  // namespace
}  // namespace hetflow::lbm
