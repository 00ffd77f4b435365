#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>

#include "hetflow/core/error.hpp"
#include "hetflow/lbm/geometry_generators.hpp"
#include "hetflow/lbm/solver.hpp"
#include "test_devices.hpp"
#include "world.hpp"

namespace hetflow::lbm {
namespace {

// A duct along z with a skewed body force and start velocity: packets cross the faces between the
// processes' slabs in every direction, beside walls too.
const Geometry& small_duct() {
  static const Geometry geo = duct(16, 12, 10);
  return geo;
}

Config duct_config(Pattern pattern, Storage storage) {
  Config c;
  c.tau = 0.7;
  c.force = {2e-5, -1e-5, 3e-5};
  c.pattern = pattern;
  c.storage = storage;
  return c;
}

// fp64 only where every rank's device has it: a rank that skipped alone would leave the others waiting.
bool fp64_everywhere(const core::DeviceSet& devices) {
  bool missing = false;
  for (std::size_t k = 0; k < devices.size(); ++k) missing = missing || !devices.device(k).info.fp64;
  return !test::world().any(missing);
}

// Runs `steps` on the devices of every rank, and on rank 0 also on one device alone; the fields must
// have the same bits.
void expect_bit_identical(const core::DeviceSet& devices, const Geometry& geo, const Config& c, long steps,
                          const std::function<void(Solver&)>& initialise, const std::string& what) {
  mpi::Communicator& world = test::world();
  Solver several(devices, geo, c, &world);
  EXPECT_EQ(several.parts(), devices.size()) << what;
  initialise(several);
  several.advance(steps);
  const Fields f = several.fields();
  if (world.rank() != 0) return;
  const core::DeviceSet one_device = test::test_device();
  Config whole = c;
  whole.device_grid = {0, 0, 0};
  Solver one(one_device, geo, whole);
  initialise(one);
  one.advance(steps);
  const Fields reference = one.fields();
  EXPECT_EQ(f.rho, reference.rho) << what;
  EXPECT_EQ(f.u, reference.u) << what;
}

TEST(LbmMpi, FieldsAreBitIdenticalToOneDevice) {
  const core::DeviceSet device = test::test_device();
  const bool fp64 = fp64_everywhere(device);
  for (Pattern pattern : {Pattern::aa, Pattern::ab}) {
    for (Storage storage : {Storage::fp32, Storage::fp64}) {
      if (storage == Storage::fp64 && !fp64) continue;
      // An odd count leaves A-A's state in its swapped layout, which fields() must read too.
      expect_bit_identical(device, small_duct(), duct_config(pattern, storage), 21,
                           [](Solver& s) { s.initialise(1.0, {0.01, 0.0, -0.02}); },
                           std::string(to_string(pattern)) + " " + to_string(storage));
    }
  }
}

// Two devices per rank: each process's slabs trade halos with each other and with the other process.
TEST(LbmMpi, SeveralDevicesPerProcessGiveTheSameBits) {
  const core::DeviceSet devices = test::test_devices();
  Config c = duct_config(Pattern::ab, fp64_everywhere(devices) ? Storage::fp64 : Storage::fp32);
  // A rank's devices may be of different kinds (the GPU machine's GPU + CPU), which the solver answers
  // with exact arithmetic; the one-device reference must then use it too.
  c.exact_arithmetic = true;
  expect_bit_identical(devices, small_duct(), c, 20, [](Solver& s) { s.initialise(1.0, {0.01, 0.0, -0.02}); },
                       "two devices per rank");
}

// Boxes split along x between the processes (one device each), and a 2-D grid of two devices per
// process: faces and edges cross between processes as well as between a process's devices.
TEST(LbmMpi, DeviceGridsGiveTheSameBits) {
  Config c = duct_config(Pattern::aa, Storage::fp32);
  c.exact_arithmetic = true;  // a rank's devices may be of different kinds (see above)
  c.device_grid = {2, 1, 1};
  expect_bit_identical(test::test_device(), small_duct(), c, 9, [](Solver& s) { s.initialise(1.0, {0.01, 0.02, -0.02}); },
                       "2 x 1 x 1 over processes");
  c.pattern = Pattern::ab;
  c.device_grid = {2, 1, 2};
  expect_bit_identical(test::test_devices(), small_duct(), c, 9, [](Solver& s) { s.initialise(1.0, {0.01, 0.02, -0.02}); },
                       "2 x 1 x 2, two devices per process");
}

TEST(LbmMpi, ShanChenFieldsAreBitIdenticalToOneDevice) {
  // A liquid slab across the face between the two processes' slabs (z = 5), in its vapour.
  const Geometry& geo = small_duct();
  std::vector<double> rho(geo.size());
  for (std::size_t i = 0; i < rho.size(); ++i) {
    const std::size_t z = i / (16 * 12);
    rho[i] = z >= 3 && z < 7 ? 500.0 : 90.0;
  }
  Config c;
  c.tau = 1.0;
  c.shan_chen = ShanChen{};
  expect_bit_identical(test::test_device(), geo, c, 11, [&](Solver& s) { s.initialise(rho); }, "shan-chen");
}

// Forced flow through the duct on two processes: the mass every rank gets stays put, and equals what
// one device gets, since rank 0 sums the gathered field in the same order.
TEST(LbmMpi, MassIsConservedAcrossProcesses) {
  mpi::Communicator& world = test::world();
  const core::DeviceSet device = test::test_device();
  const bool fp64 = fp64_everywhere(device);
  const Config c = duct_config(Pattern::aa, fp64 ? Storage::fp64 : Storage::fp32);
  Solver s(device, small_duct(), c, &world);
  s.initialise();
  const double m0 = s.mass();
  s.advance(400);
  const double m = s.mass();
  EXPECT_LE(std::abs(m - m0) / m0, fp64 ? 1e-12 : 1e-5);
  const std::vector<std::vector<double>> everyone = world.all_gather(std::span(&m, 1));
  for (std::size_t r = 0; r < world.size(); ++r) EXPECT_EQ(everyone[r][0], m) << "rank " << r;
  if (world.rank() == 0) {
    Solver one(device, small_duct(), c);
    one.initialise();
    one.advance(400);
    EXPECT_EQ(one.mass(), m);
  }
}

void expect_error(const std::function<void()>& construct, const std::string& expected) {
  try {
    construct();
    ADD_FAILURE() << "no error; expected one containing: " << expected;
  } catch (const core::Error& e) {
    EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
  }
}

TEST(LbmMpi, RefusesTheLagrangianPatternAndTooThinLattices) {
  mpi::Communicator& world = test::world();
  const core::DeviceSet device = test::test_device();
  Config c;
  c.pattern = Pattern::lagrangian;
  expect_error([&] { Solver(device, duct(6, 6, 8), c, &world); },
               "the lagrangian pattern runs in one box, on one device; use aa or ab on several devices or processes");
  c.pattern = Pattern::aa;
  expect_error([&] { Solver(device, duct(6, 6, 1), c, &world); },
               "a lattice of 1 nodes along z cannot be split into 2 boxes");
}

}  // namespace
}  // namespace hetflow::lbm
