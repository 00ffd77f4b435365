#include "hetflow/app/case_record.hpp"

#include <algorithm>

#include "hetflow/io/atomic_file.hpp"

namespace hetflow::app {
namespace {

std::vector<std::string> recorded_paths(const casefile::Case& c, const CaseType& type) {
  std::vector<std::string> paths = c.given_paths();
  const std::vector<std::string> overruled = type.overruled_keys(c);
  std::erase_if(paths, [&](const std::string& p) {
    return std::find(overruled.begin(), overruled.end(), p) != overruled.end();
  });
  return paths;
}

// One line of a comment: a newline in a file name or an override must not end the comment.
std::string comment_text(std::string text) {
  std::replace(text.begin(), text.end(), '\n', ' ');
  return text;
}

}  // namespace

std::string recorded_case_yaml(const casefile::Case& c, const CaseType& type, const std::filesystem::path& dir) {
  std::string from = c.source();
  for (const std::string& o : c.overrides()) from += " --set " + o;
  const std::string file = (std::filesystem::absolute(dir) / "case.yaml").string();
  return "# The case of the hetflow run in this folder, as given: " + comment_text(from) +
         "\n# Only the keys given are here (every other key takes its default); relative file paths are made "
         "absolute.\n# To run it again, from any folder (--output names a new run directory):\n#   hetflow run " +
         comment_text(file) + " --output DIR\n" + c.to_yaml(recorded_paths(c, type));
}

void record_case(const casefile::Case& c, const CaseType& type, RunDirectory& dir, bool writes) {
  dir.manifest()["case_given"] = c.to_json(recorded_paths(c, type));
  dir.add_output("case.yaml", "the case as given, to run again: hetflow run case.yaml (or manifest.json)");
  if (writes) io::write_file_atomically(dir.file("case.yaml"), recorded_case_yaml(c, type, dir.path()));
}

}  // namespace hetflow::app
