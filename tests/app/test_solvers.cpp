// The list of solvers is what the command shows: every case type, benchmark, tunable and command of
// app::solvers() appears in `hetflow cases` and in the help of `bench`, `tune` and `hetflow`.
#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <string>

#include "command_test.hpp"
#include "hetflow/app/solvers.hpp"

namespace {

using Result = hetflow::test::CommandResult;

class Solvers : public hetflow::test::CommandTest {
 protected:
  std::string output_of(const std::string& args) const {
    const Result r = run_hetflow(args);
    EXPECT_EQ(r.status, 0) << args << ":\n" << r.output;
    return r.output;
  }
};

// The list holds what hetflow has: 11 case types (selftest, lbm, ftle, ignition, reactor_batch, equilibrium,
// flamelet, karst, karst_inversion, incompressible, compressible), 9 benchmarks (probe, lbm, lbm-scaling, ftle,
// chem, nnls, karst, fem, compressible) and 10 tunables (probe, lbm, lbm-devices, ftle, ftle-devices, radau5,
// nnls, nnls-constants, karst, fem), so the checks below cannot pass on an empty list.
TEST_F(Solvers, TheListHoldsEverySolversEntries) {
  std::size_t case_types = 0, benchmarks = 0, tunables = 0;
  for (const hetflow::app::Solver& s : hetflow::app::solvers()) {
    case_types += s.case_types.size();
    benchmarks += s.benchmarks.size();
    tunables += s.tunables.size();
  }
  EXPECT_EQ(case_types, 11u);
  EXPECT_EQ(benchmarks, 9u);
  EXPECT_EQ(tunables, 10u);
}

TEST_F(Solvers, EveryCaseTypeIsListedByCases) {
  const std::string listed = output_of("cases");
  for (const hetflow::app::Solver& s : hetflow::app::solvers()) {
    for (const auto& type : s.case_types) {
      EXPECT_NE(listed.find(type->schema().type_name() + "\n"), std::string::npos)
          << s.name << "'s case type " << type->schema().type_name() << " is not in `hetflow cases`";
    }
  }
}

TEST_F(Solvers, EveryBenchmarkIsInBenchHelp) {
  const std::string help = output_of("bench --help");
  for (const hetflow::app::Solver& s : hetflow::app::solvers()) {
    for (const hetflow::app::Benchmark& b : s.benchmarks) {
      EXPECT_NE(help.find(b.name + ": " + b.summary), std::string::npos) << s.name << "'s benchmark " << b.name;
    }
  }
}

TEST_F(Solvers, EveryTunableIsInTuneHelpWithWhatItsOptionsMean) {
  const std::string help = output_of("tune --help");
  for (const hetflow::app::Solver& s : hetflow::app::solvers()) {
    for (const hetflow::app::TuneTarget& t : s.tunables) {
      EXPECT_NE(help.find(t.name + ": " + t.help), std::string::npos) << s.name << "'s tunable " << t.name;
      for (const std::string* option : {&t.size_help, &t.storage_help, &t.case_help, &t.every_device_help}) {
        if (!option->empty()) {
          EXPECT_NE(help.find(t.name + ": " + *option), std::string::npos) << *option;
        }
      }
    }
  }
}

TEST_F(Solvers, EveryCommandOfASolverIsInTheHelp) {
  const std::string help = output_of("--help");
  CLI::App app;
  for (const hetflow::app::Solver& s : hetflow::app::solvers()) {
    for (const auto& add : s.commands) {
      const hetflow::app::Command command = add(app);
      EXPECT_NE(help.find("  " + command.command->get_name() + " "), std::string::npos) << command.command->get_name();
    }
  }
}

}  // namespace
