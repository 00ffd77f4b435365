// A test fixture that runs the `hetflow` executable in a fresh temporary folder of its own.
#pragma once
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace hetflow::test {

// The repository's root folder, for the examples and mechanisms tests copy or name.
inline const std::filesystem::path source_root =
    std::filesystem::path(__FILE__).parent_path().parent_path().parent_path();

// A file's lines (none when it cannot be read).
inline std::vector<std::string> file_lines(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::vector<std::string> out;
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

// The fields of a CSV line whose quoted fields may hold commas (RFC 4180, no doubled quotes).
inline std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (char c : line) {
    if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  return fields;
}

// A file's bytes as a string (empty when it cannot be read).
inline std::string file_text(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

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
    return run_shell(env + " '" + HETFLOW_EXE + "' " + args);
  }

  // Runs a shell command line in the test folder.
  CommandResult run_shell(const std::string& command) const {
    const std::filesystem::path log = dir / "output.txt";
    const std::string cmd = "cd '" + dir.string() + "' && " + command + " > '" + log.string() + "' 2>&1";
    const int raw = std::system(cmd.c_str());
    return {WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, file_text(log)};
  }

  // Starts `hetflow run ARGS... --device <test device> -q` in the test folder, waits (up to a minute)
  // until `ready` (relative to the folder) exists and then `settle` longer, sends SIGINT and returns the
  // exit status (-1 when it did not exit normally).
  int run_interrupted(const std::vector<std::string>& args, const std::filesystem::path& ready,
                      std::chrono::milliseconds settle) const {
    std::vector<std::string> words{HETFLOW_EXE, "run"};
    words.insert(words.end(), args.begin(), args.end());
    words.insert(words.end(), {"--device", device(), "-q"});
    std::vector<char*> argv;
    for (std::string& w : words) argv.push_back(w.data());
    argv.push_back(nullptr);
    const pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
      if (chdir(dir.c_str()) != 0) _exit(99);
      execv(HETFLOW_EXE, argv.data());
      _exit(98);
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (!std::filesystem::exists(dir / ready) && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    std::this_thread::sleep_for(settle);
    kill(pid, SIGINT);
    int raw = 0;
    if (waitpid(pid, &raw, 0) != pid) return -1;
    return WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  }

  // A malformed case: its file name (without .yaml), text, and a part of the message it must give.
  struct Bad {
    std::string name, text, expected;
  };
  // Each case, run on the test device, exits 2 with its expected message and leaves no run directory
  // (every case writes to `out`).
  void expect_rejected(const std::vector<Bad>& cases) const {
    for (const Bad& b : cases) {
      write(b.name + ".yaml", b.text);
      const CommandResult r = run_hetflow("run " + b.name + ".yaml --device " + device());
      EXPECT_EQ(r.status, 2) << b.name << ": " << r.output;
      EXPECT_NE(r.output.find(b.expected), std::string::npos) << b.name << ": " << r.output;
      EXPECT_FALSE(std::filesystem::exists(dir / "out")) << b.name;
    }
  }

  // The number printed right after `label` in `text` (a headline's value); NaN, which no expectation
  // accepts, when the label is missing.
  static double number_after(const std::string& text, const std::string& label) {
    const std::size_t at = text.find(label);
    if (at == std::string::npos) return std::nan("");
    return std::strtod(text.c_str() + at + label.size(), nullptr);
  }

  nlohmann::json manifest(const std::string& run) const {
    std::ifstream in(dir / run / "manifest.json");
    return nlohmann::json::parse(in);
  }

  // A solver run stopped by SIGINT after its first steps (run_interrupted): its manifest says interrupted
  // with steps taken, fields.pvd holds t = 0 and the state where it stopped, and the checkpoint is kept.
  void expect_interrupted_keeping_outputs(const std::string& run) const {
    const nlohmann::json m = manifest(run);
    EXPECT_EQ(m["status"], "interrupted");
    EXPECT_GT(m["result"]["steps"].get<long>(), 0);
    const std::string pvd = file_text(dir / run / "fields.pvd");
    std::size_t snapshots = 0;
    for (std::size_t at = pvd.find("<DataSet"); at != std::string::npos; at = pvd.find("<DataSet", at + 1)) ++snapshots;
    EXPECT_EQ(snapshots, 2u);
    EXPECT_TRUE(std::filesystem::exists(dir / run / "checkpoint.bin"));
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
