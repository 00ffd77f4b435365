// core::parallel_ranges: the ranges cover every index once, in order, whatever the count and grain;
// core::run_parts runs every part once, from several threads at a time and nested.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "hetflow/core/parallel.hpp"

namespace hetflow::core {
namespace {

TEST(CoreParallel, RangesCoverEveryIndexOnce) {
  for (const std::size_t count : {0, 1, 7, 9, 1000, 1000003})
    for (const std::size_t grain : {1, 3, 1000, 2000000}) {
      SCOPED_TRACE(std::to_string(count) + " items, grain " + std::to_string(grain));
      std::mutex m;
      std::vector<std::pair<std::size_t, std::size_t>> ranges;
      std::vector<std::atomic<int>> visits(count);
      parallel_ranges(count, grain, [&](std::size_t first, std::size_t last) {
        for (std::size_t i = first; i < last; ++i) ++visits[i];
        const std::lock_guard<std::mutex> lock(m);
        ranges.emplace_back(first, last);
      });
      for (std::size_t i = 0; i < count; ++i) ASSERT_EQ(visits[i].load(), 1) << "index " << i;
      std::erase_if(ranges, [](const auto& r) { return r.first == r.second; });
      std::sort(ranges.begin(), ranges.end());
      std::size_t next = 0;
      for (std::size_t r = 0; r < ranges.size(); ++r) {
        EXPECT_EQ(ranges[r].first, next);
        if (r + 1 < ranges.size()) {
          EXPECT_GE(ranges[r].second - ranges[r].first, grain);  // the last may be short
        }
        next = ranges[r].second;
      }
      EXPECT_EQ(next, count);
    }
}

// Batches from four threads at once (all but one find the pool busy) and batches started inside a part
// (by a worker or by the caller): every part of every batch runs exactly once.
TEST(CoreParallel, PartsRunOnceFromSeveralThreadsAndNested) {
  constexpr std::size_t callers = 4, batches = 200;
  std::vector<std::vector<std::atomic<int>>> runs(callers);
  for (auto& r : runs) r = std::vector<std::atomic<int>>(batches * 64);
  std::vector<std::jthread> threads;
  for (std::size_t c = 0; c < callers; ++c)
    threads.emplace_back([&runs, c] {
      for (std::size_t b = 0; b < batches; ++b) {
        const std::size_t parts = 2 + (b * 7 + c) % 30;
        run_parts(parts, [&](std::size_t p) {
          ++runs[c][b * 64 + p];
          if (p == 1) run_parts(2, [&](std::size_t q) { ++runs[c][b * 64 + 32 + q]; });
        });
      }
    });
  threads.clear();
  for (std::size_t c = 0; c < callers; ++c)
    for (std::size_t b = 0; b < batches; ++b) {
      const std::size_t parts = 2 + (b * 7 + c) % 30;
      for (std::size_t p = 0; p < 64; ++p) {
        const int expected = p < parts || p == 32 || p == 33 ? 1 : 0;
        ASSERT_EQ(runs[c][b * 64 + p].load(), expected) << "caller " << c << ", batch " << b << ", part " << p;
      }
    }
}

// A part that throws on the calling thread: run_parts lets the other threads' parts finish and rethrows;
// the next batch runs every part. The other parts take a millisecond, so the caller takes one of them.
TEST(CoreParallel, APartThrowingOnTheCallersThreadPropagates) {
  const std::thread::id caller = std::this_thread::get_id();
  EXPECT_THROW(run_parts(64,
                         [&](std::size_t) {
                           if (std::this_thread::get_id() == caller) throw std::runtime_error("part");
                           std::this_thread::sleep_for(std::chrono::milliseconds(1));
                         }),
               std::runtime_error);
  std::vector<std::atomic<int>> runs(40);
  run_parts(runs.size(), [&](std::size_t p) { ++runs[p]; });
  for (std::size_t p = 0; p < runs.size(); ++p) EXPECT_EQ(runs[p].load(), 1) << "part " << p;
}

}  // namespace
}  // namespace hetflow::core
