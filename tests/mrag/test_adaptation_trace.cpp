#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "hetflow/core/trace.hpp"
#include "shock_and_disc.hpp"
#include "temp_dir.hpp"
#include "test_devices.hpp"

namespace hetflow::mrag {
namespace {

// The fields of a CSV line, quotes dropped (a quoted field may hold commas).
std::vector<std::string> fields(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (const char c : line) {
    if (c == '"')
      quoted = !quoted;
    else if (c == ',' && !quoted)
      out.emplace_back();
    else
      out.back() += c;
  }
  return out;
}

// Traces one set() (which binds the tree) and one adaptation that changes the tree, then prints the trace's
// host marks in order and exits: 0 when every row has the host time and the times never run backwards. The
// flow ends before the exit: std::exit destroys the statics but not the locals, and the flow's band for the
// next adaptation is still being planned on another thread, which uses them.
[[noreturn]] void trace_an_adaptation() {
  const test::TempDir dir;
  ::setenv("HETFLOW_TRACE", (dir / "unused.csv").c_str(), 1);
  if (!core::trace::enabled()) std::exit(1);
  bool changed = false;
  {
    const core::DeviceSet devices = test::test_device();
    BlockFlow flow = test::shock_and_disc_flow(devices, core::Precision::f64);
    flow.set(test::shock_and_disc);
    const std::size_t leaves = flow.tree().leaves().size();
    flow.adapt(1e-3, 1e-4);
    changed = flow.tree().leaves().size() != leaves;
  }
  if (!changed) std::exit(2);
  core::trace::write(dir / "trace.csv");
  std::ifstream in(dir / "trace.csv");
  std::string line;
  std::getline(in, line);
  if (line.substr(line.rfind(',') + 1) != "host_us") std::exit(3);
  std::string marks;
  double last = 0;
  while (std::getline(in, line)) {
    const std::vector<std::string> f = fields(line);
    if (f.size() != 10) std::exit(4);
    const double host = std::stod(f[9]);
    if (host < last) std::exit(5);
    last = host;
    if (f[0] == "host") marks += f[2] + ";";
  }
  std::fprintf(stderr, "%s\n", marks.c_str());
  std::exit(0);
}

// The command timeline (core/trace.hpp) holds an adaptation's host phases as marks among its commands, in
// their order and on the host clock that every row carries. The trace starts with the process's first
// command, so the run is a child process's.
TEST(MragAdaptationTrace, MarksTheHostPhasesInOrderOnOneClock) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(trace_an_adaptation(), testing::ExitedWithCode(0),
              "mrag bind: ghost plan;mrag bind: right-hand side;mrag bind: done;mrag adapt: begin;mrag adapt: details;"
              "mrag adapt: decisions;mrag adapt: remap;mrag adapt: grid and flux table;mrag bind: ghost plan;"
              "mrag bind: right-hand side;mrag bind: done;\n");
}

}  // namespace
}  // namespace hetflow::mrag
