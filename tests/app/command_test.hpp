// A test fixture that runs the `hetflow` executable in a fresh temporary folder of its own.
#pragma once
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace hetflow::test {

struct CommandResult {
  int status;
  std::string output;  // stdout and stderr together
};

class CommandTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir = std::filesystem::temp_directory_path() /
          ("hetflow-" + std::string(info->test_suite_name()) + "-" + std::to_string(::getpid()) + "-" + info->name());
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
  }
  void TearDown() override { std::filesystem::remove_all(dir); }

  // Runs `hetflow ARGS` in the test folder through the shell; `env` is prefixed as VAR=value words.
  CommandResult run_hetflow(const std::string& args, const std::string& env = "") const {
    const std::filesystem::path log = dir / "output.txt";
    const std::string cmd = "cd '" + dir.string() + "' && " + env + " '" + HETFLOW_EXE + "' " + args + " > '" +
                            log.string() + "' 2>&1";
    const int raw = std::system(cmd.c_str());
    std::ifstream in(log);
    std::stringstream text;
    text << in.rdbuf();
    return {WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, text.str()};
  }

  nlohmann::json manifest(const std::string& run) const {
    std::ifstream in(dir / run / "manifest.json");
    return nlohmann::json::parse(in);
  }

  // Writes `text` to `name` in the test folder, creating its parent folders.
  void write(const std::filesystem::path& name, const std::string& text) const {
    std::filesystem::create_directories((dir / name).parent_path());
    std::ofstream(dir / name) << text;
  }

  // The device selections CTest gives: one device, and several for multi-device tests.
  static std::string device() { return from_env("HETFLOW_TEST_DEVICE", "cpu:0"); }
  static std::string several_devices() { return from_env("HETFLOW_TEST_DEVICES", "cpu"); }

  std::filesystem::path dir;

 private:
  static std::string from_env(const char* name, const char* fallback) {
    const char* v = std::getenv(name);
    return v ? v : fallback;
  }
};

}  // namespace hetflow::test
