#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "hetflow/casefile/case.hpp"
#include "hetflow/casefile/overrides.hpp"
#include "sample_schema.hpp"

namespace hetflow::casefile {
namespace {

const std::string selftest_file =
    (std::filesystem::path(__FILE__).parent_path() / "data" / "cases" / "selftest.yaml").string();

std::vector<std::string> errors_of(const std::vector<std::string>& overrides) {
  try {
    load_case(selftest_file, test::sample_schema(), overrides);
  } catch (const CaseError& e) {
    return e.messages();
  }
  ADD_FAILURE() << "expected a CaseError";
  return {};
}

std::string joined(const std::vector<std::string>& messages) {
  std::string out;
  for (const auto& m : messages) out += m + "\n";
  return out;
}

TEST(CaseOverrides, ParseSplitsPathAndValue) {
  std::string why;
  const auto o = parse_override("selftest.size = [4,4,4]", why);
  ASSERT_TRUE(o);
  EXPECT_EQ(o->path, "selftest.size");
  EXPECT_EQ(o->value, "[4,4,4]");
  EXPECT_FALSE(parse_override("selftest.size", why));
  EXPECT_NE(why.find("expected --set section.key=value"), std::string::npos);
  EXPECT_FALSE(parse_override("=3", why));
  EXPECT_FALSE(parse_override("selftest..size=3", why));
}

TEST(CaseOverrides, OverridesChangeValuesAndAppearInJson) {
  const std::vector<std::string> overrides{"selftest.size=[4,4,4]", "selftest.steps=3", "output.dir=run2",
                                           "device.build_options=-cl-fast-relaxed-math"};
  const Case c = load_case(selftest_file, test::sample_schema(), overrides);
  EXPECT_EQ(c.get<std::vector<int>>("selftest.size"), (std::vector<int>{4, 4, 4}));
  EXPECT_EQ(c.get<int>("selftest.steps"), 3);
  EXPECT_EQ(c.overrides(), overrides);
  EXPECT_EQ(c.where("selftest.steps"), selftest_file + " (--set selftest.steps=3)");
  const auto j = c.to_json();
  EXPECT_EQ(j["selftest"]["size"], nlohmann::json::parse("[4, 4, 4]"));
  EXPECT_EQ(j["output"]["dir"], "run2");
  EXPECT_EQ(j["device"]["build_options"], "-cl-fast-relaxed-math");
}

TEST(CaseOverrides, LaterOverrideWinsAndMissingSectionsAreCreated) {
  const Case c = parse_case("type: selftest\n", test::sample_schema(), {"selftest.steps=3", "selftest.steps=4"});
  EXPECT_EQ(c.get<int>("selftest.steps"), 4);
}

TEST(CaseOverrides, UnknownKeyNamesTheOverride) {
  const auto errors = errors_of({"selftest.step=3"});
  ASSERT_EQ(errors.size(), 1u) << joined(errors);
  EXPECT_NE(errors[0].find("selftest.yaml (--set selftest.step=3): unknown key selftest.step = 3"), std::string::npos)
      << errors[0];
  EXPECT_NE(errors[0].find("did you mean 'steps'?"), std::string::npos) << errors[0];
}

TEST(CaseOverrides, BadValueNamesTheOverrideAndTheForm) {
  const auto errors = errors_of({"selftest.steps=0"});
  ASSERT_EQ(errors.size(), 1u) << joined(errors);
  EXPECT_EQ(errors[0], selftest_file +
                           " (--set selftest.steps=0): selftest.steps = 0 is out of range: expected an integer >= 1");
}

TEST(CaseOverrides, MalformedOverridesAreReportedWithFileErrors) {
  const auto errors = errors_of({"selftest.steps", "selftest.size=[4,4", "output.dir.x=1", "selftest.tolerance=2"});
  EXPECT_EQ(errors.size(), 4u) << joined(errors);
  const std::string text = joined(errors);
  EXPECT_NE(text.find("(--set selftest.steps): no '='"), std::string::npos) << text;
  EXPECT_NE(text.find("(--set selftest.size=[4,4): selftest.size = [4,4 is not valid YAML"), std::string::npos) << text;
  EXPECT_NE(text.find("(--set output.dir.x=1): output.dir = run/selftest is a key, not a section"), std::string::npos)
      << text;
  EXPECT_NE(text.find("(--set selftest.tolerance=2): selftest.tolerance = 2 is out of range: expected a real number in "
                      "(0, 1)"),
            std::string::npos)
      << text;
}

TEST(CaseOverrides, FileErrorsComeBeforeOverrideErrors) {
  try {
    parse_case("type: selftest\nselftest:\n  steps: -1\n", test::sample_schema(), {"selftest.precision=half"}, "f.yaml");
    FAIL() << "expected a CaseError";
  } catch (const CaseError& e) {
    ASSERT_EQ(e.messages().size(), 2u);
    EXPECT_NE(e.messages()[0].find("f.yaml:3: selftest.steps = -1"), std::string::npos);
    EXPECT_NE(e.messages()[1].find("f.yaml (--set selftest.precision=half): selftest.precision = half is not a valid "
                                   "choice: expected one of: float, double"),
              std::string::npos)
        << e.messages()[1];
  }
}

}  // namespace
}  // namespace hetflow::casefile
