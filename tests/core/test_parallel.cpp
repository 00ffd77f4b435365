// core::parallel_ranges: the ranges cover every index once, in order, whatever the count and grain.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <mutex>
#include <string>
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

}  // namespace
}  // namespace hetflow::core
