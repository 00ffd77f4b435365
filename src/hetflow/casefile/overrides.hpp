#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hetflow/io/yaml_tree.hpp"

namespace hetflow::casefile {

// One `--set a.b=value` from the command line.
struct CaseOverride {
  std::string text;   // as given: "lbm.tau=0.6"
  std::string path;   // "lbm.tau"
  std::string value;  // "0.6": YAML, so lists read as [4, 4, 4]
};

// Splits "a.b=value"; on a malformed override returns nullopt and says why in `why`.
std::optional<CaseOverride> parse_override(std::string_view text, std::string& why);

// Writes the overrides into the tree in order (a later one wins), creating sections as needed and
// marking every node it writes with the override's index, so that validation errors about those
// values name the override instead of a line of the file. Malformed overrides are appended to errors.
void apply_overrides(io::YamlNode& root, const std::vector<std::string>& overrides, const std::string& source,
                     std::vector<std::string>& errors);

// "case.yaml (--set lbm.tau=0.6)": where a message about an overridden value points.
std::string override_location(const std::string& source, const std::string& override_text);

}  // namespace hetflow::casefile
