#include <gtest/gtest.h>

#include <csignal>
#include <cstdlib>

#include "hetflow/io/interrupt.hpp"

namespace hetflow::io {
namespace {

volatile std::sig_atomic_t custom_calls = 0;
extern "C" void custom_handler(int) { custom_calls = custom_calls + 1; }

TEST(Interrupt, RaisedSigintSetsTheFlag) {
  InterruptGuard guard(false);
  EXPECT_FALSE(interrupted());
  std::raise(SIGINT);
  EXPECT_TRUE(interrupted());
  EXPECT_EQ(interrupt_signal(), SIGINT);
  clear_interrupt();
  EXPECT_FALSE(interrupted());
}

TEST(Interrupt, SigtermIsAStopRequestToo) {
  InterruptGuard guard(false);
  std::raise(SIGTERM);
  EXPECT_TRUE(interrupted());
  EXPECT_EQ(interrupt_signal(), SIGTERM);
}

TEST(Interrupt, ANewGuardStartsClear) {
  {
    InterruptGuard guard(false);
    std::raise(SIGINT);
  }
  InterruptGuard next(false);
  EXPECT_FALSE(interrupted());
}

TEST(Interrupt, LoopStopsAfterTheCurrentStepAndWritesOutputs) {
  InterruptGuard guard(false);
  int steps = 0;
  bool wrote_final_outputs = false;
  for (int step = 0; step < 100 && !interrupted(); ++step) {
    ++steps;
    if (step == 3) std::raise(SIGINT);
  }
  wrote_final_outputs = true;
  EXPECT_EQ(steps, 4);
  EXPECT_TRUE(wrote_final_outputs);
}

TEST(Interrupt, PreviousHandlersComeBack) {
  struct sigaction custom {}, saved_int{}, saved_term{};
  custom.sa_handler = custom_handler;
  sigemptyset(&custom.sa_mask);
  ASSERT_EQ(sigaction(SIGINT, &custom, &saved_int), 0);
  ASSERT_EQ(sigaction(SIGTERM, &custom, &saved_term), 0);
  custom_calls = 0;
  {
    InterruptGuard guard(false);
    std::raise(SIGINT);
    EXPECT_EQ(custom_calls, 0);
    EXPECT_TRUE(interrupted());
  }
  std::raise(SIGINT);
  std::raise(SIGTERM);
  EXPECT_EQ(custom_calls, 2);
  sigaction(SIGINT, &saved_int, nullptr);
  sigaction(SIGTERM, &saved_term, nullptr);
}

TEST(Interrupt, NestedGuardsKeepTheOuterRequest) {
  InterruptGuard outer(false);
  std::raise(SIGINT);
  {
    InterruptGuard inner(false);
    EXPECT_TRUE(interrupted());
  }
  EXPECT_TRUE(interrupted());
}

TEST(InterruptDeathTest, SecondSigintKills) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        InterruptGuard guard(false);
        std::raise(SIGINT);
        std::raise(SIGINT);
        std::exit(0);
      },
      ::testing::KilledBySignal(SIGINT), "");
}

}  // namespace
}  // namespace hetflow::io
