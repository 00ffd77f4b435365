#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "world.hpp"

namespace {

hetflow::mpi::Communicator* the_world = nullptr;

// Ranks other than 0 print only their failures, each marked with the rank, so that the interleaved
// output of one run stays readable yet shows what failed where.
class RankFailures : public ::testing::EmptyTestEventListener {
 public:
  explicit RankFailures(std::size_t rank) : rank_(rank) {}
  // Kept here: asking the UnitTest for the current test while it reports a result deadlocks.
  void OnTestStart(const ::testing::TestInfo& test) override {
    test_ = std::string(test.test_suite_name()) + "." + test.name();
  }
  void OnTestPartResult(const ::testing::TestPartResult& result) override {
    if (!result.failed()) return;
    std::fprintf(stderr, "[rank %zu] %s failed at %s:%d\n%s\n", rank_, test_.c_str(),
                 result.file_name() ? result.file_name() : "?", result.line_number(), result.message());
  }

 private:
  std::size_t rank_;
  std::string test_;
};

}  // namespace

hetflow::mpi::Communicator& hetflow::test::world() { return *the_world; }

// Every rank runs every test; all exit non-zero when a test failed on any of them.
int main(int argc, char** argv) {
  const hetflow::mpi::Environment mpi(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  hetflow::mpi::Communicator world;
  the_world = &world;
  if (world.rank() > 0) {
    ::testing::TestEventListeners& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
    listeners.Append(new RankFailures(world.rank()));
  }
  const bool failed_here = RUN_ALL_TESTS() != 0;
  const bool failed = world.any(failed_here);
  if (failed && !failed_here && world.rank() == 0) std::fprintf(stderr, "[rank 0] tests failed on another rank\n");
  return failed ? 1 : 0;
}
