#pragma once
#include <optional>
#include <string>
#include <vector>

#include "hetflow/io/progress.hpp"

namespace hetflow::app {

struct RunRequest {
  std::string case_file;             // empty: the built-in default case
  std::optional<std::string> device;  // --device, overrides device.select
  std::optional<std::string> output;  // --output, overrides output.dir
  std::vector<std::string> overrides;  // --set a.b=value
  io::Verbosity verbosity = io::Verbosity::normal;
  std::string command_line;
};

// `hetflow run`: validates the case (nothing is computed or written before it validates), selects the
// devices, runs the case type into its run directory and prints where the results are.
// Returns 0 when complete, 130 when interrupted (final outputs written all the same).
int run_command(const RunRequest& request);

// The case that `hetflow run` without a file runs.
std::string default_case_yaml();

}  // namespace hetflow::app
