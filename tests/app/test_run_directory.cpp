// Run directories: the lock against a second run at once, reruns into the next free numbered directory,
// what a killed run left, and where the examples write.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <thread>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "command_test.hpp"
#include "hetflow/io/yaml_tree.hpp"

namespace {

namespace fs = std::filesystem;
using Result = hetflow::test::CommandResult;

using hetflow::test::file_text;
using hetflow::test::source_root;

// Every file in `d` (hidden ones too) with its bytes.
std::map<std::string, std::string> contents(const fs::path& d) {
  std::map<std::string, std::string> files;
  for (const auto& e : fs::directory_iterator(d)) files[e.path().filename().string()] = file_text(e.path());
  return files;
}

class RunDirectories : public hetflow::test::CommandTest {
 protected:
  // A two-step self-test into `out` (a CSV and a .vti series of steps 0 and 2).
  Result run_into(const std::string& out) const {
    write("selftest.yaml", "type: selftest\nselftest:\n  steps: 2\noutput:\n  every: 2\n  png: false\n");
    return run_hetflow("run selftest.yaml --device " + device() + " -o " + out);
  }
};

TEST_F(RunDirectories, RerunWritesToTheNextFreeNumberedDirectoryAndLeavesTheFirstUntouched) {
  Result r = run_into("run");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("results in run\n"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("writing to"), std::string::npos) << r.output;
  const auto first = contents(dir / "run");
  ASSERT_TRUE(first.count("manifest.json") && first.count("field_000002.vti")) << r.output;
  // The lock file names the run that held it.
  const std::string holder = first.at(".hetflow-lock");
  EXPECT_EQ(holder.rfind("pid ", 0), 0u) << holder;
  EXPECT_NE(holder.find("run selftest.yaml"), std::string::npos) << holder;

  r = run_into("run");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("hetflow: run holds an earlier run; writing to run-2\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("results in run-2\n"), std::string::npos) << r.output;
  EXPECT_EQ(contents(dir / "run"), first);
  EXPECT_EQ(manifest("run-2")["directory"], "run-2");
  EXPECT_EQ(manifest("run-2")["status"], "complete");
  EXPECT_EQ(manifest("run")["directory"], "run");

  r = run_into("run");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("writing to run-3\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("results in run-3\n"), std::string::npos) << r.output;
  EXPECT_EQ(contents(dir / "run"), first);
}

TEST_F(RunDirectories, DirectoryWithOtherFilesIsLeftAsItIs) {
  write("mine/notes.txt", "my own notes\n");
  const Result r = run_into("mine");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("hetflow: mine is not empty; writing to mine-2\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("results in mine-2\n"), std::string::npos) << r.output;
  // Not even a lock file is left in it.
  EXPECT_EQ(contents(dir / "mine"), (std::map<std::string, std::string>{{"notes.txt", "my own notes\n"}}));

  // Named with a trailing '/' or as ".", the directory's siblings are numbered by its name.
  Result again = run_into("mine/");
  ASSERT_EQ(again.status, 0) << again.output;
  EXPECT_NE(again.output.find("writing to mine-3\n"), std::string::npos) << again.output;
  write("mine/here/notes.txt", "more notes\n");
  again = run_shell("cd mine/here && '" + std::string(HETFLOW_EXE) + "' run ../../selftest.yaml --device " + device() +
                    " -o .");
  ASSERT_EQ(again.status, 0) << again.output;
  EXPECT_TRUE(fs::exists(dir / "mine/here-2/manifest.json")) << again.output;
}

TEST_F(RunDirectories, EmptyDirectoryIsUsedAsItIs) {
  fs::create_directories(dir / "empty");
  const Result r = run_into("empty");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("results in empty\n"), std::string::npos) << r.output;
  EXPECT_EQ(manifest("empty")["status"], "complete");
  EXPECT_FALSE(fs::exists(dir / "empty-2"));
}

// The test holds the lock as a running hetflow would; a run asked for that directory stops with exit
// status 1, naming the holder, and writes nothing. Once the lock is released (as the kernel releases a
// killed run's), a lock file alone leaves the directory free.
TEST_F(RunDirectories, DirectoryInUseByARunningHetflowIsAnError) {
  fs::create_directories(dir / "busy");
  const std::string holder = "pid 1234 on elsewhere, started 2026-01-01T00:00:00Z, `hetflow run other.yaml`";
  const int fd = ::open((dir / "busy" / ".hetflow-lock").c_str(), O_RDWR | O_CREAT, 0666);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::flock(fd, LOCK_EX | LOCK_NB), 0);
  ASSERT_EQ(::write(fd, holder.data(), holder.size()), static_cast<ssize_t>(holder.size()));

  Result r = run_into("busy");
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("busy is in use by a running hetflow (" + holder + ")"), std::string::npos) << r.output;
  EXPECT_EQ(contents(dir / "busy"), (std::map<std::string, std::string>{{".hetflow-lock", holder}}));
  EXPECT_FALSE(fs::exists(dir / "busy-2"));

  ::close(fd);
  r = run_into("busy");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("results in busy\n"), std::string::npos) << r.output;
}

// A second run into the directory of a run still going stops at once, naming the first by its pid.
TEST_F(RunDirectories, SecondRunWhileTheFirstRunsIsRefused) {
  write("long.yaml", "type: selftest\nselftest:\n  steps: 100000000\n  size: [8, 8, 8]\n  bandwidth: false\n"
                     "output:\n  every: 1000000000\n  png: false\n");
  std::vector<std::string> words{HETFLOW_EXE, "run", "long.yaml", "-o", "long", "-q", "--device", device()};
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    if (chdir(dir.c_str()) != 0) _exit(99);
    execv(HETFLOW_EXE, argv.data());
    _exit(98);
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!fs::exists(dir / "long/manifest.json") && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  const Result r = run_into("long");
  kill(pid, SIGINT);
  int raw = 0;
  ASSERT_EQ(waitpid(pid, &raw, 0), pid);
  EXPECT_EQ(r.status, 1) << r.output;
  const std::string expected = "long is in use by a running hetflow (pid " + std::to_string(pid) + " on ";
  EXPECT_NE(r.output.find(expected), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir / "long-2"));
  EXPECT_TRUE(WIFEXITED(raw) && WEXITSTATUS(raw) == 130) << raw;
  EXPECT_EQ(manifest("long")["status"], "interrupted");
}

TEST_F(RunDirectories, KilledRunsTemporariesAreRemovedAndItsManifestMarkedKilled) {
  write("old/manifest.json", "{\"status\": \"running\", \"command\": \"hetflow run x.yaml\"}\n");
  write("old/.hetflow-lock", "pid 99 on gone, started 2026-01-01T00:00:00Z, `hetflow run x.yaml`");
  write("old/.field_000002.vti.tmp-99-3", "partial");
  write("old/selftest.csv", "step,min,max,total\n0,0,1,2\n");
  Result r = run_into("old");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("hetflow: removed 1 temporary left by a killed run in old: .field_000002.vti.tmp-99-3\n"),
            std::string::npos) << r.output;
  EXPECT_NE(r.output.find("hetflow: old/manifest.json said \"running\" but no run holds old: marked \"killed\"\n"),
            std::string::npos) << r.output;
  EXPECT_NE(r.output.find("results in old-2\n"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir / "old/.field_000002.vti.tmp-99-3"));
  EXPECT_EQ(manifest("old")["status"], "killed");
  EXPECT_EQ(manifest("old")["command"], "hetflow run x.yaml");
  EXPECT_EQ(file_text(dir / "old/selftest.csv"), "step,min,max,total\n0,0,1,2\n");

  // A run killed before its manifest left only temporaries: once they are gone the directory is free.
  write("bare/.selftest.csv.tmp-7-0", "step");
  r = run_into("bare");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("removed 1 temporary left by a killed run in bare: .selftest.csv.tmp-7-0\n"),
            std::string::npos) << r.output;
  EXPECT_NE(r.output.find("results in bare\n"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir / "bare/.selftest.csv.tmp-7-0"));
}

// Every example writes under runs/ (in .gitignore), never into the folder it is run from.
TEST(Examples, EveryExampleWritesUnderRuns) {
  std::size_t examples = 0;
  for (const auto& e : fs::directory_iterator(source_root / "examples")) {
    if (e.path().extension() != ".yaml") continue;
    ++examples;
    std::vector<std::string> errors;
    const hetflow::io::YamlNode tree = hetflow::io::read_yaml_tree(file_text(e.path()), e.path().string(), errors);
    ASSERT_TRUE(errors.empty()) << errors.front();
    const hetflow::io::YamlNode* output = tree.find("output");
    const hetflow::io::YamlNode* out_dir = output ? output->find("dir") : nullptr;
    ASSERT_NE(out_dir, nullptr) << e.path() << " names no output.dir";
    EXPECT_EQ(out_dir->text.rfind("runs/", 0), 0u) << e.path() << ": output.dir " << out_dir->text;
  }
  EXPECT_GE(examples, 11u);
  EXPECT_NE(file_text(source_root / ".gitignore").find("\nruns/\n"), std::string::npos);
}

}  // namespace
