#include "hetflow/app/cli.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "hetflow/app/bench/registry.hpp"
#include "hetflow/app/bench_command.hpp"
#include "hetflow/app/case_type.hpp"
#include "hetflow/app/devices_command.hpp"
#include "hetflow/app/option_checks.hpp"
#include "hetflow/app/processes.hpp"
#include "hetflow/app/ranks.hpp"
#include "hetflow/app/run_command.hpp"
#include "hetflow/app/solvers.hpp"
#include "hetflow/app/tune_command.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/casefile/error.hpp"
#include "hetflow/io/error.hpp"
#include "hetflow/commit.hpp"
#include "hetflow/version.hpp"

namespace hetflow::app {
namespace {

// Exit statuses, documented in the README.
enum Exit : int { ok = 0, failed = 1, bad_input = 2, no_device = 3, kernel_build = 4 };

std::string joined(int argc, char** argv) {
  std::string s;
  for (int i = 0; i < argc; ++i) s += (i ? " " : "") + std::string(argv[i]);
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"hetflow: scientific solvers on CPUs and GPUs from one OpenCL source"};
  app.set_version_flag("--version", std::string("hetflow ") + version + " (" + git_commit() + ")");
  app.require_subcommand(1);

  std::string device = "all";
  bool bench_devices = false;
  auto* devices_cmd = app.add_subcommand("devices", "list OpenCL devices");
  devices_cmd->add_option("--device", device, "which devices to list (default all; auto, gpu, cpu:0, nvidia:0, ...)")
      ->check(not_empty());
  devices_cmd->add_flag("--bench", bench_devices, "measure copy and triad bandwidth of each device");

  RunRequest run;
  std::string run_device, run_output;
  bool quiet = false, verbose = false;
  auto* run_cmd = app.add_subcommand("run", "run a case file (without one: the built-in default case)");
  run_cmd->add_option("case", run.case_file, "case file (YAML)");
  run_cmd->add_option("--device", run_device, "device selection, overrides device.select")->check(not_empty());
  run_cmd->add_option("--output,-o", run_output, "run directory, overrides output.dir")->check(not_empty());
  run_cmd->add_option("--set", run.overrides, "override a case key: --set section.key=value")->allow_extra_args(false);
  run_cmd->add_flag("--quiet,-q", quiet, "print nothing but errors and where the results are");
  run_cmd->add_flag("--verbose,-v", verbose, "print every file written");
  bool no_tune = false;
  run_cmd->add_flag("--no-tune", no_tune, "take no settings from the tuning database (as HETFLOW_NO_TUNE=1)");

  std::string bench_name, bench_device = "auto", bench_output = "bench/results";
  int repeats = 15;
  auto* bench_cmd = app.add_subcommand("bench", "run a benchmark and write its JSON");
  std::string listed;
  std::vector<std::string> names;
  for (const auto& b : benchmarks()) {
    listed += "\n  " + b.name + ": " + b.summary;
    names.push_back(b.name);
  }
  bench_cmd->add_option("name", bench_name, "benchmark:" + listed)->required()->check(CLI::IsMember(names));
  bench_cmd
      ->add_option("--device", bench_device,
                   "device selection; the first selected device is measured, all of them by scaling cases")
      ->check(not_empty());
  bench_cmd->add_option("--output,-o", bench_output,
                        "results folder; JSON goes to OUTPUT/<device>/NAME.json (NAME-partial.json, the cases so "
                        "far, while it runs)")
      ->check(not_empty());
  bench_cmd->add_option("--repeats", repeats, "timed repeats per case")->check(CLI::Range(1, 10000));
  std::string bench_build_options;
  bench_cmd->add_option("--build-options", bench_build_options, "extra OpenCL compiler options for every kernel");
  std::string bench_only;
  bench_cmd
      ->add_option("--only", bench_only,
                   "run only the cases whose name matches this regular expression; writes NAME-subset.json")
      ->check([](const std::string& pattern) {
        try {
          std::regex{pattern};
          return std::string();
        } catch (const std::regex_error& e) {
          return "not a regular expression (" + std::string(e.what()) + ")";
        }
      });

  // The solvers' own commands (`hetflow nnls`).
  std::vector<Command> solver_commands;
  for (const Solver& s : solvers()) {
    for (const auto& add : s.commands) solver_commands.push_back(add(app));
  }

  TuneRequest tune_request;
  const CLI::App* tune_cmd = add_tune_command(app, tune_request);

  std::string case_name;
  auto* cases_cmd = app.add_subcommand("cases", "list case types, or print a commented template of one");
  cases_cmd->add_option("type", case_name, "case type");

  // Under mpiexec every rank reports its own error; the prefix tells them apart. After a failure the
  // ranks agreed on, they meet once more, so that no rank exits (and has the launcher stop the others)
  // before rank 0 has said which rank failed and why.
  std::optional<Processes> processes;
  std::string rank_prefix;
  const auto report = [&](const char* what, const std::string& message, int status) {
    // One write per message, so that the ranks' messages do not interleave.
    const std::string line = "hetflow: " + rank_prefix + what + ": " + message + "\n";
    std::fwrite(line.data(), 1, line.size(), stderr);
    if (core::Link* link = processes ? processes->link() : nullptr; link && failure_agreed()) link->all_gather({});
    return status;
  };

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int status = app.exit(e);
    return status == 0 ? ok : bad_input;
  }

  try {
    // Through the environment, which every solver's tuning lookup reads (tune::tuning_disabled).
    if (no_tune) ::setenv("HETFLOW_NO_TUNE", "1", 1);
    if (*devices_cmd) return devices_command(device, bench_devices, std::cout);
    if (*bench_cmd) return bench_command(bench_name, bench_device, bench_output, repeats, bench_build_options, bench_only);
    for (const Command& c : solver_commands) {
      if (*c.command) return c.run();
    }
    if (*tune_cmd) return tune_command(tune_request, std::cout);
    if (*cases_cmd) {
      if (case_name.empty()) {
        for (const std::string& t : case_registry().types()) std::cout << t << "\n";
      } else if (const casefile::Schema* s = case_registry().find(case_name)) {
        std::cout << s->describe();
      } else {
        return report("error", "no case type named '" + case_name + "'; `hetflow cases` lists them", bad_input);
      }
      return ok;
    }
    if (!run_device.empty()) run.device = run_device;
    if (!run_output.empty()) run.output = run_output;
    run.verbosity = quiet ? display::Verbosity::quiet : verbose ? display::Verbosity::verbose : display::Verbosity::normal;
    run.command_line = joined(argc, argv);
    processes.emplace(argc, argv);
    if (const core::Link* link = processes->link()) rank_prefix = "rank " + std::to_string(link->rank()) + ": ";
    return run_command(run, processes->link()).status;
  } catch (const casefile::CaseError& e) {
    return report("invalid case", e.what(), bad_input);
  } catch (const core::SelectionError& e) {
    return report("invalid device selection", e.what(), bad_input);
  } catch (const core::NoPlatformError& e) {
    return report("no OpenCL device", e.what(), no_device);
  } catch (const core::NoDeviceError& e) {
    return report("no such OpenCL device", e.what(), no_device);
  } catch (const core::KernelBuildError& e) {
    return report("kernel build failed", e.what(), kernel_build);
  } catch (const core::Error& e) {
    return report("error", e.what(), failed);
  } catch (const io::FormatError& e) {
    return report("invalid input", e.what(), bad_input);
  } catch (const io::IoError& e) {
    return report("output error", e.what(), failed);
  } catch (const std::exception& e) {
    return report("error", e.what(), failed);
  }
}

}  // namespace hetflow::app
