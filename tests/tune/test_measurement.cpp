// Measurement with a fake timer: warm-up runs are made but not counted, and the result is the median
// of the repeats, so one slow repeat moves nothing.
#include <gtest/gtest.h>

#include <vector>

#include "hetflow/core/error.hpp"
#include "hetflow/tune/measurement.hpp"

namespace hetflow::tune {
namespace {

// A TimedRun that answers the given durations in turn and counts its calls.
struct FakeTimer {
  std::vector<double> seconds;
  std::size_t calls = 0;
  TimedRun run() {
    return [this] { return seconds.at(calls++); };
  }
};

TEST(Measurement, MedianOfRepeatsAfterWarmUp) {
  // Two warm-ups far slower than the rest (a program build), then five repeats, one disturbed.
  FakeTimer t{{9.0, 7.0, 3.0, 1.0, 50.0, 2.0, 4.0}};
  const core::Summary s = measure(t.run(), {.warmup = 2, .repeats = 5});
  EXPECT_EQ(t.calls, 7u);
  EXPECT_EQ(s.median, 3.0);  // of {3, 1, 50, 2, 4}: exact, no tolerance
  EXPECT_EQ(s.min, 1.0);
  EXPECT_EQ(s.max, 50.0);
  EXPECT_EQ(s.repeats, 5);

  FakeTimer even{{1.0, 2.0, 6.0, 4.0, 8.0}};
  EXPECT_EQ(measure(even.run(), {.warmup = 1, .repeats = 4}).median, 5.0);  // mean of the middle two
}

TEST(Measurement, RefusesNonsense) {
  FakeTimer t{{1.0, 0.0}};
  EXPECT_THROW(measure(t.run(), {.warmup = 1, .repeats = 1}), core::Error);  // a zero-length run
  EXPECT_THROW(measure(t.run(), {.warmup = 0, .repeats = 0}), core::Error);
  EXPECT_THROW(measure(t.run(), {.warmup = -1, .repeats = 1}), core::Error);
}

TEST(Measurement, WallClockTimesTheWork) {
  int runs = 0;
  const TimedRun run = wall_clock([&] {
    volatile double x = 0;
    for (int i = 0; i < 100000; ++i) x = x + 1;
    ++runs;
  });
  const core::Summary s = measure(run, {.warmup = 1, .repeats = 3});
  EXPECT_EQ(runs, 4);
  EXPECT_GT(s.median, 0.0);
  EXPECT_LT(s.median, 1.0);
}

}  // namespace
}  // namespace hetflow::tune
