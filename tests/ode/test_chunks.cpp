#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "hetflow/core/error.hpp"
#include "hetflow/core/selection.hpp"
#include "problems.hpp"
#include "test_devices.hpp"

namespace hetflow::ode {
namespace {

// Mapping 1: the one PoCL compiles in test time; chunking does not depend on the mapping.
Options chunk_options(std::size_t budget) {
  Options o;
  o.mapping = Mapping::work_item;
  o.rtol = {1e-4};
  o.atol = {1e-4};
  o.h0 = 1e-6;
  o.memory_budget = budget;
  o.order = Order::batch;  // a device's share is then a range of the batch (TwoDevicesChunkTheirShares)
  return o;
}

// 1000 Van der Pol systems of differing stiffness, so the chunks take differing step counts.
Batch vdp_batch() {
  const double eps[] = {1e-6, 1e-4, 1e-2, 1.0, 1e-3};
  Batch b;
  for (std::size_t k = 0; k < 1000; ++k) {
    b.y0.insert(b.y0.end(), {2.0, -0.66});
    b.params.push_back(eps[k % 5]);
  }
  b.t_end = {2.0};
  return b;
}

// A sort key per system that runs them in another order: a permutation of 0 .. count - 1 (count 1000).
std::vector<double> shuffled_keys(std::size_t count) {
  std::vector<double> keys;
  for (std::size_t k = 0; k < count; ++k) keys.push_back(static_cast<double>((k * 7919) % count));
  return keys;
}

std::size_t total_chunks(const Result& r) {
  std::size_t chunks = 0;
  for (const ChunkPlan& p : r.chunking) chunks += p.chunks;
  return chunks;
}

// Each plan covers its share within its budget.
void expect_consistent(const std::vector<ChunkPlan>& plans, std::size_t systems) {
  std::size_t next = 0;
  for (const ChunkPlan& p : plans) {
    EXPECT_EQ(p.first, next);
    next += p.systems;
    EXPECT_GE(p.chunks * p.chunk_systems, p.systems);
    EXPECT_LT((p.chunks - 1) * p.chunk_systems, p.systems);
    EXPECT_LE(p.device_bytes, p.budget);
  }
  EXPECT_EQ(next, systems);
}

TEST(OdeChunks, VanDerPolChunksEqualOneChunk) {
  const core::DeviceSet devices = hetflow::test::test_device();
  const Batch batch = vdp_batch();
  const Result whole = Radau5(devices, test::van_der_pol(true), chunk_options(0)).integrate(batch);
  ASSERT_EQ(whole.chunking.size(), 1u);
  EXPECT_EQ(whole.chunking[0].chunks, 1u);
  // y, eps, t and h, 8 counters: 104 bytes per system; 32 KiB holds two chunks of about 150.
  const Result chunked = Radau5(devices, test::van_der_pol(true), chunk_options(32 * 1024)).integrate(batch);
  EXPECT_EQ(chunked.chunking[0].system_bytes, 104u);
  EXPECT_GE(chunked.chunking[0].chunks, 5u);
  expect_consistent(chunked.chunking, 1000);
  EXPECT_EQ(whole.failures(), 0u) << whole.report();
  test::expect_identical(whole, chunked);
}

// chunk_systems caps the chunks and changes no bits; keep_going is asked before every chunk after the
// first with the systems then in, and a stop finishes the chunk in flight and runs no later one.
TEST(OdeChunks, KeepGoingStopsBetweenCappedChunks) {
  const core::DeviceSet devices = hetflow::test::test_device();
  const Batch batch = vdp_batch();
  const Result whole = Radau5(devices, test::van_der_pol(true), chunk_options(0)).integrate(batch);
  Options o = chunk_options(0);
  o.chunk_systems = 100;
  const Radau5 capped(devices, test::van_der_pol(true), o);
  std::vector<std::size_t> asked;
  const Result all = capped.integrate(batch, [&](std::size_t done, std::size_t total) {
    EXPECT_EQ(total, 1000u);
    asked.push_back(done);
    return true;
  });
  EXPECT_EQ(all.chunking[0].chunks, 10u);
  EXPECT_EQ(asked, (std::vector<std::size_t>{0, 100, 200, 300, 400, 500, 600, 700, 800}));
  test::expect_identical(whole, all);

  asked.clear();
  const Result stopped = capped.integrate(batch, [&](std::size_t done, std::size_t) {
    asked.push_back(done);
    return done < 100;
  });
  EXPECT_EQ(asked, (std::vector<std::size_t>{0, 100}));
  EXPECT_EQ(stopped.started(), 200u);
  EXPECT_EQ(all.started(), 1000u);
  for (std::size_t i = 0; i < 1000; ++i) {
    if (i < 200) {
      EXPECT_EQ(stopped.statistics[i].status, whole.statistics[i].status) << i;
      EXPECT_EQ(stopped.statistics[i].nstep, whole.statistics[i].nstep) << i;
      EXPECT_EQ(stopped.y[2 * i], whole.y[2 * i]) << i;
      EXPECT_EQ(stopped.y[2 * i + 1], whole.y[2 * i + 1]) << i;
    } else {
      EXPECT_EQ(stopped.statistics[i].status, Status::not_run) << i;
    }
  }
}

// Per-system end times travel with their chunk; forward differences for the Jacobian.
TEST(OdeChunks, RobertsonPerSystemTimesChunksEqualOneChunk) {
  const core::DeviceSet devices = hetflow::test::test_device();
  Batch batch;
  batch.t_end.clear();
  for (std::size_t k = 0; k < 1000; ++k) {
    batch.y0.insert(batch.y0.end(), {1.0, 0.0, 0.0});
    batch.t_end.push_back(0.1 + 0.04 * static_cast<double>(k));
  }
  Options o = chunk_options(0);
  o.rtol = {1e-6};
  o.atol = {1e-10};
  const Result whole = Radau5(devices, test::robertson(false), o).integrate(batch);
  o.memory_budget = 20000;
  const Radau5 chunking(devices, test::robertson(false), o);
  const Result chunked = chunking.integrate(batch);
  EXPECT_GE(chunked.chunking[0].chunks, 5u);
  expect_consistent(chunking.plan(1000, true), 1000);
  EXPECT_EQ(whole.failures(), 0u) << whole.report();
  test::expect_identical(whole, chunked);
}

// A solver keeps its buffers from one integrate() to the next, growing them for a larger batch or one
// with per-system times: every run equals a fresh solver's.
TEST(OdeChunks, ReusedSolverEqualsFreshSolvers) {
  const core::DeviceSet devices = hetflow::test::test_device();
  const Options o = chunk_options(32 * 1024);
  const Batch chunked = vdp_batch();
  Batch small = chunked;
  small.y0.resize(2 * 100);
  small.params.resize(100);
  small.t_end = {1.0};
  Batch timed = small;
  timed.t_end.clear();
  for (std::size_t k = 0; k < 100; ++k) timed.t_end.push_back(0.5 + 0.01 * static_cast<double>(k));
  const Radau5 reused(devices, test::van_der_pol(true), o);
  const Batch* const runs[] = {&small, &chunked, &timed, &small};
  for (const Batch* b : runs) {
    const Result again = reused.integrate(*b);
    EXPECT_EQ(again.failures(), 0u) << again.report();
    test::expect_identical(Radau5(devices, test::van_der_pol(true), o).integrate(*b), again);
  }
}

// Systems run in the order of Batch::sort_key and come back in batch order: the same values and
// counters, bit for bit, as without a key, also across chunks with per-system times.
TEST(OdeChunks, SortKeyChangesOnlyTheRunOrder) {
  const core::DeviceSet devices = hetflow::test::test_device();
  Batch batch = vdp_batch();
  batch.t_end.clear();
  for (std::size_t k = 0; k < 1000; ++k) batch.t_end.push_back(1.0 + 0.001 * static_cast<double>(k));
  batch.sort_key = shuffled_keys(1000);
  const Radau5 chunking(devices, test::van_der_pol(true), chunk_options(32 * 1024));
  const Result sorted = chunking.integrate(batch);
  EXPECT_GE(sorted.chunking[0].chunks, 5u);
  EXPECT_EQ(sorted.failures(), 0u) << sorted.report();
  batch.sort_key.clear();
  test::expect_identical(chunking.integrate(batch), sorted);
}

// Order::initial_rate's key is the scaled norm of rhs(t0, y0) (here Van der Pol's, computed on the host),
// and running the systems in its order changes no bit of any result.
TEST(OdeChunks, InitialRateOrderChangesOnlyTheRunOrder) {
  const core::DeviceSet devices = hetflow::test::test_device();
  const Batch batch = vdp_batch();
  Options o = chunk_options(0);
  o.order = Order::initial_rate;
  const Radau5 solver(devices, test::van_der_pol(true), o);
  const std::vector<double> keys = solver.initial_rates(batch);
  const Tolerances tol = transformed_tolerances(o, 2);
  ASSERT_EQ(keys.size(), 1000u);
  for (std::size_t k = 0; k < 1000; ++k) {
    const double y1 = batch.y0[2 * k], y2 = batch.y0[2 * k + 1];
    const double f[2] = {y2, ((1 - y1 * y1) * y2 - y1) / batch.params[k]};
    const double q1 = f[0] / (tol.atol[0] + tol.rtol[0] * std::fabs(y1));
    const double q2 = f[1] / (tol.atol[1] + tol.rtol[1] * std::fabs(y2));
    EXPECT_NEAR(keys[k], std::sqrt((q1 * q1 + q2 * q2) / 2), 1e-14 * keys[k]) << "system " << k;
  }
  const Result sorted = solver.integrate(batch);
  EXPECT_EQ(sorted.failures(), 0u) << sorted.report();
  test::expect_identical(Radau5(devices, test::van_der_pol(true), chunk_options(0)).integrate(batch), sorted);
}

// The multi-device test devices, or the one device twice (a context each) where CI's PoCL has one.
core::DeviceSet two_devices() {
  std::vector<core::Device> d = core::select_devices(hetflow::test::test_device_spec(true));
  if (d.size() == 1) d.push_back(d.front());
  return core::DeviceSet(d);
}

// Each device chunks its own share; the result equals the unchunked run on the same devices.
TEST(OdeChunks, TwoDevicesChunkTheirShares) {
  const core::DeviceSet devices = two_devices();
  const Batch batch = vdp_batch();
  const Result whole = Radau5(devices, test::van_der_pol(false), chunk_options(0)).integrate(batch);
  const Result chunked = Radau5(devices, test::van_der_pol(false), chunk_options(16 * 1024)).integrate(batch);
  ASSERT_GE(chunked.chunking.size(), 2u);
  // 16 KiB holds two chunks of about 75 of VdP's 104-byte systems: 7 per device of two.
  for (const ChunkPlan& p : chunked.chunking) EXPECT_GE(p.chunks, 2u);
  EXPECT_GE(total_chunks(chunked), 5u);
  expect_consistent(chunked.chunking, 1000);
  test::expect_identical(whole, chunked);
  // Sorted, each device's share is a range of the run order, not of the batch: chunked or not, the
  // same bits; and those of the unsorted run for every system that runs on the same device in both
  // (a GPU and a CPU may round differently: pow, sqrt).
  Batch sorted = batch;
  sorted.sort_key = shuffled_keys(1000);
  const Result sorted_chunked = Radau5(devices, test::van_der_pol(false), chunk_options(16 * 1024)).integrate(sorted);
  test::expect_identical(Radau5(devices, test::van_der_pol(false), chunk_options(0)).integrate(sorted), sorted_chunked);
  const std::size_t first_share = chunked.chunking[0].systems;  // keys are run positions
  std::size_t compared = 0;
  for (std::size_t s = 0; s < 1000; ++s) {
    if ((s < first_share) != (sorted.sort_key[s] < static_cast<double>(first_share))) continue;
    ++compared;
    for (std::size_t i = 2 * s; i < 2 * s + 2; ++i) ASSERT_EQ(sorted_chunked.y[i], whole.y[i]) << "value " << i;
  }
  EXPECT_GE(compared, 400u);
}

// The phased mapping's passes run chunk by chunk, on two devices at once: the bits of mapping 1 in one
// chunk. Each system holds its record, matrices, pivots and list places besides: at n = 2, 8 (20 + 4n +
// 4n^2) + 4 (2n) + 12 = 380 bytes more than mapping 1's 104.
TEST(OdeChunks, PhasedChunksOnTwoDevicesEqualMapping1) {
  const core::DeviceSet devices = two_devices();
  const Batch batch = vdp_batch();
  const Result whole = Radau5(devices, test::van_der_pol(true), chunk_options(0)).integrate(batch);
  Options o = chunk_options(48 * 1024);
  o.mapping = Mapping::phased;
  const Result chunked = Radau5(devices, test::van_der_pol(true), o).integrate(batch);
  ASSERT_GE(chunked.chunking.size(), 2u);
  EXPECT_EQ(chunked.chunking[0].system_bytes, 104u + 380u);
  for (const ChunkPlan& p : chunked.chunking) EXPECT_GE(p.chunks, 2u);
  expect_consistent(chunked.chunking, 1000);
  EXPECT_EQ(whole.failures(), 0u) << whole.report();
  test::expect_identical(whole, chunked);
}

TEST(OdeChunks, BudgetBelowOneSystemIsAnError) {
  const core::DeviceSet devices = hetflow::test::test_device();
  const Radau5 solver(devices, test::van_der_pol(true), chunk_options(100));
  try {
    (void)solver.integrate(vdp_batch());
    FAIL() << "expected core::Error";
  } catch (const core::Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("memory_budget = 100 bytes"), std::string::npos) << what;
    EXPECT_NE(what.find("104 bytes per system"), std::string::npos) << what;
  }
  EXPECT_THROW((void)solver.plan(1, false), core::Error);
}

}  // namespace
}  // namespace hetflow::ode
