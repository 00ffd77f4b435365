// StepChunks: a run's chunk count doubles after a fast whole chunk and halves after a slow one; chunks
// cut short by output steps leave it as it is, however many there are.
#include <gtest/gtest.h>

#include "hetflow/app/step_chunks.hpp"

namespace hetflow::app {
namespace {

TEST(StepChunks, GrowsOnlyAfterWholeChunks) {
  StepChunks chunk(8);
  chunk.adapt(0.01, 8);  // fast and whole: twice as many
  EXPECT_EQ(chunk.steps(), 16);
  for (int i = 0; i < 1000; ++i) chunk.adapt(0.01, 5);  // fast, but cut short by outputs every 5 steps
  EXPECT_EQ(chunk.steps(), 16);
  chunk.adapt(1.0, 5);  // slow, even cut short: half as many
  EXPECT_EQ(chunk.steps(), 8);
  chunk.adapt(0.2, 8);  // on target: unchanged
  EXPECT_EQ(chunk.steps(), 8);
}

}  // namespace
}  // namespace hetflow::app
