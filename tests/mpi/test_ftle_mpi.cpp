#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <numbers>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "hetflow/core/partition.hpp"
#include "hetflow/ftle/solver.hpp"
#include "test_devices.hpp"
#include "world.hpp"

// The FTLE solver split over the two ranks of the test run against one process alone.
//
// Why the bits must agree: a tracer's path depends only on its seed, which the kernel computes from the
// seed's global index, and on the flow; no operation mixes tracers while advancing. The gradient at a
// seed reads the tracers of its neighbour planes, which every part advects itself, with the same
// kernel code on a device of the same kind, so they hold the owner's bits. Any cut of the seed planes,
// over devices or processes, therefore gives the same flow map and field, bit for bit.
namespace hetflow::ftle {
namespace {

constexpr double pi = std::numbers::pi;

// Where a rank's own seeds lie in a whole-sized result: rank 0 holds everything, another rank its own
// planes (its `parts_per_rank` parts of all ranks', split uniformly as the solver does) and zeros
// elsewhere.
void expect_rank_share(const std::vector<double>& result, const std::vector<double>& reference, const SeedGrid& seeds,
                       std::size_t per_seed, std::size_t parts_per_rank, const std::string& what) {
  mpi::Communicator& world = test::world();
  ASSERT_EQ(result.size(), reference.size()) << what;
  if (world.rank() == 0) {
    EXPECT_EQ(result, reference) << what;
    return;
  }
  const core::Partition split(seeds.planes(), 1, std::vector<double>(world.size() * parts_per_rank, 1.0));
  const std::size_t per_plane = seeds.plane() * per_seed;
  const core::Share& last = split.share((world.rank() + 1) * parts_per_rank - 1);
  const std::size_t begin = split.share(world.rank() * parts_per_rank).offset * per_plane;
  const std::size_t end = (last.offset + last.count) * per_plane;
  for (std::size_t i = 0; i < result.size(); ++i) {
    ASSERT_EQ(result[i], i >= begin && i < end ? reference[i] : 0.0) << what << ", value " << i;
  }
}

// The flow map, FTLE field and stretch direction on `devices` of every rank (a part each) against one
// process on one device, which every rank computes for itself to check its share.
void expect_same_as_one_process(const core::DeviceSet& devices, const AnalyticFlow& flow, const SeedGrid& seeds,
                                const Config& c, const std::string& what) {
  Solver split(devices, flow, seeds, c, &test::world());
  EXPECT_EQ(split.parts(), devices.size());
  split.advance(c.steps / 3);  // in two chunks: the processes need not meet while advancing
  split.advance_to_end();
  const core::DeviceSet device = test::test_device();  // outlives the solver, which keeps its address
  Solver one(device, flow, seeds, c);
  one.advance_to_end();
  const std::size_t dim = static_cast<std::size_t>(seeds.dimension), parts = devices.size();
  expect_rank_share(split.flow_map(), one.flow_map(), seeds, dim, parts, what + ": flow map");
  expect_rank_share(split.ftle(), one.ftle(), seeds, 1, parts, what + ": FTLE");
  expect_rank_share(split.stretch_direction(), one.stretch_direction(), seeds, dim, parts,
                    what + ": stretch direction");
}

// Steady ABC flow over one period cube, T = 10: chaotic, so the last bits of every tracer matter.
TEST(FtleMpi, AbcFieldIsBitIdenticalToOneProcess) {
  const double L = 2 * pi;
  Config c;
  c.duration = 10.0;
  c.steps = 100;
  const core::DeviceSet device = test::test_device();
  expect_same_as_one_process(device, AbcFlow{}, SeedGrid::spanning({0, 0, 0}, {L, L, L}, {10, 9, 11}, 3), c, "ABC 3D");
}

// The double gyre backward in time, in FP64 and FP32 (positions in float, the gradient in double).
TEST(FtleMpi, DoubleGyreFieldIsBitIdenticalToOneProcess) {
  Config c;
  c.duration = -8.0;
  c.steps = 80;
  const core::DeviceSet device = test::test_device();
  for (core::Precision precision : {core::Precision::f64, core::Precision::f32}) {
    c.precision = precision;
    expect_same_as_one_process(device, DoubleGyre{},
                               SeedGrid::spanning({0, 0, 0}, {2, 1, 0}, {41, 21, 1}, 2), c,
                               precision == core::Precision::f64 ? "double gyre FP64" : "double gyre FP32");
  }
}

// Two devices per rank, four parts in all, their planes cut inside and between the processes.
TEST(FtleMpi, SeveralDevicesPerRankGiveTheSameBits) {
  const core::DeviceSet devices = test::test_devices();
  // The bits agree only within one platform (test_devices.hpp, one_platform).
  if (!test::one_platform(test::test_device(), devices)) GTEST_SKIP() << "the test devices span platforms";
  Config c;
  c.duration = 6.0;
  c.steps = 60;
  expect_same_as_one_process(devices, DoubleGyre{}, SeedGrid::spanning({0, 0, 0}, {2, 1, 0}, {41, 21, 1}, 2), c,
                             "double gyre, " + std::to_string(devices.size()) + " devices per rank");
}

// An unsteady shear flow on [0, 2] x [0, 1] (h = 0.05), sampled every 0.5 time units on t in [0, 6].
VelocityGrid shear_series() {
  std::vector<double> times(13);
  for (std::size_t i = 0; i < times.size(); ++i) times[i] = 0.5 * static_cast<double>(i);
  const auto u = [](const std::array<double, 3>& x, double t) -> std::array<double, 3> {
    return {0.3 * std::sin(2 * pi * x[1] + t), 0.2 * std::sin(pi * x[0] - 0.5 * t), 0};
  };
  return sample_on_grid(2, {41, 21, 1}, {0, 0, 0}, {0.05, 0.05, 1}, times, u);
}

// A series streamed through 3 slots on each rank gives the resident one-process field, bit for bit (a
// step's times come from its index, whatever the launches); each rank streams into its own ring. The
// memory plan is per process: the two ranks together hold one more copy of the velocity than one
// process, and two more tracer planes (each side of the cut advects one of the other's).
TEST(FtleMpi, StreamedSeriesOnTwoRanksEqualsResidentOneProcess) {
  mpi::Communicator& world = test::world();
  const core::DeviceSet device = test::test_device();
  const VelocityGrid grid = shear_series();
  const SeedGrid seeds = SeedGrid::spanning({0.05, 0.05, 0}, {1.9, 0.9, 0}, {40, 20, 1}, 2);
  Config resident;
  resident.t0 = 0.25;
  resident.duration = 5.5;
  resident.steps = 110;
  Config streamed = resident;
  const std::size_t snapshot = grid.nodes() * 2 * sizeof(double);
  streamed.velocity_budget_bytes = 3 * snapshot;

  const MemoryPlan mine = Solver::memory_plan(device, grid, seeds, resident, &world);
  const MemoryPlan alone = Solver::memory_plan(device, grid, seeds, resident);
  double bytes = static_cast<double>(mine.device_bytes);
  double total = 0;
  for (const std::vector<double>& b : world.all_gather(std::span(&bytes, 1))) total += b[0];
  // A copy of the series, its times and the kernel's 9 grid parameters (origin, inverse spacing, upper faces).
  const std::size_t velocity = grid.snapshots.size() * snapshot + (9 + grid.snapshots.size()) * sizeof(double);
  const std::size_t tracer_plane = seeds.plane() * (2 * sizeof(double) + sizeof(cl_uint2));
  EXPECT_EQ(static_cast<std::size_t>(total), alone.device_bytes + velocity + 2 * tracer_plane);

  Solver s(device, grid, seeds, streamed, &world);
  ASSERT_TRUE(s.memory().streamed);
  EXPECT_EQ(s.device_bytes(), Solver::memory_plan(device, grid, seeds, streamed, &world).device_bytes);
  while (s.step() < streamed.steps) s.advance(std::min(9L, streamed.steps - s.step()));
  EXPECT_GE(s.uploads(), s.memory().slots + 3);  // this rank's ring was refilled

  Solver one(device, grid, seeds, resident);
  ASSERT_FALSE(one.memory().streamed);
  one.advance_to_end();
  expect_rank_share(s.flow_map(), one.flow_map(), seeds, 2, 1, "streamed flow map");
  expect_rank_share(s.ftle(), one.ftle(), seeds, 1, 1, "streamed FTLE");
  // Not collective: each rank interpolates on its own device, from its own ring.
  const std::vector<double> points{0.3, 0.7, 1.55, 0.2};
  EXPECT_EQ(s.velocity_at(points, 3.1), one.velocity_at(points, 3.1));
}

// u = (0, y) with Euler steps of dt = 1212: y grows by 1213 per step, so after 100 steps it is
// y0 * 2.43e308, past the largest double (1.80e308) for y0 = 0.8 but not for y0 = 0.7 (1.70e308).
// Of the 11 rows y0 = 0, 0.1, .., 1 (6 on rank 0 with row 6 beside them, 5 on rank 1 with row 5),
// rows 8 to 10 fail, which only rank 1 advects: rank 0 must still throw the same error.
TEST(FtleMpi, TracerFailureIsReportedAlikeOnEveryRank) {
  mpi::Communicator& world = test::world();
  const core::DeviceSet device = test::test_device();
  const SeedGrid seeds = SeedGrid::spanning({0, 0, 0}, {1, 1, 0}, {5, 11, 1}, 2);
  Config c;
  c.integrator = Integrator::euler;
  c.duration = 121200;
  c.steps = 100;
  const AnalyticFlow flow = LinearFlow::saddle({0, 1});
  Solver s(device, flow, seeds, c, &world);
  s.advance_to_end();
  Solver one(device, flow, seeds, c);
  one.advance_to_end();
  std::string expected;
  try {
    one.ftle();
  } catch (const TracerError& e) {
    expected = e.what();
  }
  ASSERT_NE(expected.find("seed 40 (grid index (0, 8), started at (0, 0.8)): the position is not finite"),
            std::string::npos)
      << expected;
  const std::vector<std::pair<std::string, std::function<void()>>> calls{
      {"flow_map", [&] { s.flow_map(); }},
      {"ftle", [&] { s.ftle(); }},
      {"stretch_direction", [&] { s.stretch_direction(); }}};
  for (const auto& [name, call] : calls) {
    try {
      call();
      ADD_FAILURE() << name << ": no error";
    } catch (const TracerError& e) {
      EXPECT_EQ(e.seed(), 40u) << name;
      EXPECT_EQ(e.step(), 100) << name;
      EXPECT_EQ(std::string(e.what()), expected) << name;
    }
  }
  // No rank is left inside a collective: the next one completes.
  EXPECT_EQ(s.stopped_tracers(), 0u);
}

// Uniform flow u = (1, 0) through [0, 1]^2 for T = 0.5 with the stop boundary: the tracers of
// x0 = 0.6 .. 1.0 halt, 5 in each of the 11 rows, on both ranks; each rank counts its own rows (not
// the neighbour row it also advects) and every rank gets the total.
TEST(FtleMpi, StoppedTracersAreSummedOverRanks) {
  mpi::Communicator& world = test::world();
  const core::DeviceSet device = test::test_device();
  const VelocityGrid flow = sample_on_grid(2, {11, 11, 1}, {0, 0, 0}, {0.1, 0.1, 1}, {0.0, 1.0},
                                           [](const std::array<double, 3>&, double) -> std::array<double, 3> {
                                             return {1, 0, 0};
                                           });
  const SeedGrid seeds = SeedGrid::spanning({0, 0, 0}, {1, 1, 0}, {11, 11, 1}, 2);
  Config c;
  c.duration = 0.5;
  c.steps = 5;
  c.integrator = Integrator::heun;
  c.boundary = Boundary::stop;
  Solver s(device, flow, seeds, c, &world);
  EXPECT_EQ(s.stopped_tracers(), 0u);  // before any step
  s.advance_to_end();
  EXPECT_EQ(s.stopped_tracers(), 55u);
  Solver one(device, flow, seeds, c);
  one.advance_to_end();
  EXPECT_EQ(one.stopped_tracers(), 55u);
}

TEST(FtleMpi, RefusesFewerSeedPlanesThanPartsOfAllProcesses) {
  mpi::Communicator& world = test::world();
  const core::DeviceSet devices = test::test_devices();
  const std::size_t parts = world.size() * devices.size();
  // A seed grid has at least 2 planes, so this needs 3 parts or more (every rank decides alike).
  if (parts < 3) GTEST_SKIP() << "needs 3 parts, has " << parts;
  const SeedGrid seeds = SeedGrid::spanning({0, 0, 0}, {1, 1, 0}, {4, parts - 1, 1}, 2);
  try {
    Solver(devices, AnalyticFlow(DoubleGyre{}), seeds, Config{}, &world);
    ADD_FAILURE() << "no error";
  } catch (const core::Error& e) {
    EXPECT_NE(std::string(e.what()).find("a seed grid of " + std::to_string(parts - 1) +
                                         " planes cannot be split over " + std::to_string(parts) +
                                         " devices of all processes"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace hetflow::ftle
