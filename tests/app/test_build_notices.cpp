// app::BuildNotices through core's program build: a build that misses the binary cache (an empty cache
// folder) is announced with its label and device, and the same build from a warm cache says nothing.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <unistd.h>

#include "hetflow/app/build_notices.hpp"
#include "hetflow/core/build_notice.hpp"
#include "hetflow/core/context.hpp"
#include "hetflow/core/program.hpp"
#include "test_devices.hpp"

namespace hetflow::app {
namespace {

namespace fs = std::filesystem;

const std::string source = "__kernel void twice(__global double* x) { x[get_global_id(0)] *= 2.0; }\n";

TEST(BuildNotices, AColdBuildIsAnnouncedAndAWarmOneIsNot) {
  const fs::path cache = fs::temp_directory_path() / ("hetflow-build-notices-" + std::to_string(::getpid()));
  fs::remove_all(cache);
  const char* const given = std::getenv("HETFLOW_CACHE_DIR");
  const std::string previous = given ? given : "";
  ::setenv("HETFLOW_CACHE_DIR", cache.c_str(), 1);
  const core::DeviceSet devices = test::test_device();
  const std::string device = devices.device(0).label();
  std::ostringstream out;
  {
    // Announced as soon as it starts, so that the test does not depend on the compiler's speed.
    const BuildNotices notices(display::Verbosity::normal, out, std::chrono::milliseconds(0));
    const core::BuildLabel label("doubling kernel");
    const core::Context cold(devices.device(0));
    EXPECT_FALSE(core::build_program(cold, "twice.cl", source, "").from_cache());
    const std::string said = out.str();
    EXPECT_EQ(said.rfind("hetflow: building doubling kernel on " + device + ", first time only…\n", 0), 0u) << said;
    EXPECT_EQ(said.find("hetflow: built doubling kernel in "), said.find('\n') + 1) << said;
    out.str("");
    const core::Context warm(devices.device(0));
    EXPECT_TRUE(core::build_program(warm, "twice.cl", source, "").from_cache());
    EXPECT_EQ(out.str(), "");
  }
  // Without a label a build is named by its program.
  fs::remove_all(cache);
  {
    const BuildNotices notices(display::Verbosity::normal, out, std::chrono::milliseconds(0));
    const core::Context cold(devices.device(0));
    EXPECT_FALSE(core::build_program(cold, "twice.cl", source, "").from_cache());
    EXPECT_EQ(out.str().rfind("hetflow: building twice.cl on " + device, 0), 0u) << out.str();
  }
  // A build shorter than the wait says nothing, and quiet says nothing at all.
  for (const auto& [verbosity, wait] : {std::pair{display::Verbosity::normal, std::chrono::milliseconds(3600000)},
                                        std::pair{display::Verbosity::quiet, std::chrono::milliseconds(0)}}) {
    fs::remove_all(cache);
    out.str("");
    const BuildNotices notices(verbosity, out, wait);
    const core::Context cold(devices.device(0));
    EXPECT_FALSE(core::build_program(cold, "twice.cl", source, "").from_cache());
    EXPECT_EQ(out.str(), "");
  }
  if (given)
    ::setenv("HETFLOW_CACHE_DIR", previous.c_str(), 1);
  else
    ::unsetenv("HETFLOW_CACHE_DIR");
  fs::remove_all(cache);
}

}  // namespace
}  // namespace hetflow::app
