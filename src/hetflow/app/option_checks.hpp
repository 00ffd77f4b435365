#pragma once
#include <CLI/CLI.hpp>
#include <string>

namespace hetflow::app {

// For options whose empty value would otherwise stand for the default (`--output ""`, `--device ""`): an
// empty value is a mistake on the command line (exit 2), never a silent request for the default.
inline CLI::Validator not_empty() {
  return CLI::Validator(
      [](const std::string& value) { return value.empty() ? std::string("an empty value is not allowed") : std::string(); },
      "", "not empty");
}

}  // namespace hetflow::app
