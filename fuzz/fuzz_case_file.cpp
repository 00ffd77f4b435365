// libFuzzer target: arbitrary bytes as a case file. Validation must end in a Case or a CaseError;
// any other exception, a crash or a sanitizer report is a bug.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <nlohmann/json.hpp>

#include "hetflow/casefile/case.hpp"

namespace {

const hetflow::casefile::Schema& fuzz_schema() {
  static const hetflow::casefile::Schema schema = [] {
    hetflow::casefile::Schema s("fuzz", "a small schema with one key of each kind");
    auto& f = s.section("fuzz");
    f.key<double>("tau", "relaxation time").above(0.5);
    f.key<std::vector<int>>("size", {4, 4, 4}, "grid").length(3).at_least(1);
    f.key<std::string>("mode", "a", "mode").one_of({"a", "b"});
    f.key<bool>("flag", false, "flag");
    f.key<std::vector<std::string>>("names", {}, "names");
    f.key<std::vector<double>>("origin", {0.0, 0.0}, "origin").length(2);
    f.section("inner").key<std::int64_t>("count", 1, "count").range(0, 10);
    return s;
  }();
  return schema;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const auto c = hetflow::casefile::parse_case(text, fuzz_schema(), {"fuzz.flag=true"}, "fuzz.yaml");
    (void)c.to_json().dump();
  } catch (const hetflow::casefile::CaseError&) {
  }
  return 0;
}
