#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "hetflow/core/link.hpp"
#include "hetflow/display/progress.hpp"

namespace hetflow::app {

struct RunRequest {
  std::string case_file;             // empty: case_yaml, else the built-in default case
  std::optional<std::string> case_yaml;  // the case as text (Python's hetflow.run with a dict); paths relative to the working directory
  std::optional<std::string> device;  // --device, overrides device.select
  std::optional<std::string> output;  // --output, overrides output.dir
  std::vector<std::string> overrides;  // --set a.b=value
  display::Verbosity verbosity = display::Verbosity::normal;
  std::string command_line;
};

// What a run left: its exit status, 0 when complete, 130 when interrupted (final outputs written all
// the same), and its run directory.
struct RunReport {
  int status = 0;
  std::filesystem::path directory;
};

// `hetflow run`: validates the case (nothing is computed or written before it validates), selects the
// devices, runs the case type into its run directory and prints where the results are.
// With `processes` (mpiexec -n N, N > 1) every rank calls it: each selects its own devices, the case
// type spreads over them, rank 0 alone writes the run directory and prints, and all ranks return the
// same status or throw together (docs/case-files.md, "Several processes (MPI)").
RunReport run_command(const RunRequest& request, core::Link* processes = nullptr);

// The case that `hetflow run` without a file runs.
std::string default_case_yaml();

}  // namespace hetflow::app
