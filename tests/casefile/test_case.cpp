#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "hetflow/casefile/case.hpp"
#include "sample_schema.hpp"

namespace hetflow::casefile {
namespace {

// The fixtures live beside this file, in tests/casefile/data/cases.
const std::string cases = (std::filesystem::path(__FILE__).parent_path() / "data" / "cases").string() + "/";

Schema demo_schema() {
  Schema s("demo", "a schema with one key of every kind");
  auto& d = s.section("demo", "demo solver");
  d.key<double>("tau", "relaxation time").range(0.5, inf, Bounds::exclusive_min);
  d.key<std::vector<int>>("size", {8, 8, 8}, "grid size").length(3).at_least(1);
  d.key<std::string>("collision", "bgk", "collision operator").one_of({"bgk", "trt", "mrt"});
  d.key<bool>("periodic", true, "periodic boundaries");
  d.key<int>("steps", 100, "steps").range(1, 1000000);
  d.key<std::vector<double>>("force", {0.0, 0.0, 0.0}, "body force").length(3);
  d.key<std::vector<std::string>>("fields", {"rho", "u"}, "fields to write").one_of({"rho", "u", "p"});
  return s;
}

// The messages of the CaseError that `load` throws; an empty list fails the test.
template <class F> std::vector<std::string> errors_of(F load) {
  try {
    load();
  } catch (const CaseError& e) {
    EXPECT_FALSE(e.messages().empty());
    return e.messages();
  }
  ADD_FAILURE() << "expected a CaseError";
  return {};
}

// True when one message holds every fragment; prints the messages otherwise.
::testing::AssertionResult has_message(const std::vector<std::string>& messages,
                                       std::initializer_list<std::string> fragments) {
  for (const auto& m : messages) {
    bool all = true;
    for (const auto& f : fragments) all = all && m.find(f) != std::string::npos;
    if (all) return ::testing::AssertionSuccess();
  }
  auto failure = ::testing::AssertionFailure() << "no message holds all of:";
  for (const auto& f : fragments) failure << " [" << f << "]";
  failure << "\nmessages:";
  for (const auto& m : messages) failure << "\n  " << m;
  return failure;
}

TEST(CaseFile, ValidCaseResolvesWithDefaults) {
  const Case c = load_case(cases + "demo_valid.yaml", demo_schema());
  EXPECT_EQ(c.type(), "demo");
  EXPECT_EQ(c.source(), cases + "demo_valid.yaml");
  EXPECT_DOUBLE_EQ(c.get<double>("demo.tau"), 0.6);
  EXPECT_EQ(c.get<std::vector<int>>("demo.size"), (std::vector<int>{16, 8, 4}));
  EXPECT_EQ(c.get<std::string>("demo.collision"), "trt");
  EXPECT_EQ(c.get<std::string>("device.select"), "cpu");
  EXPECT_EQ(c.get<int>("output.every"), 10);
  // Defaults fill what the file leaves out.
  EXPECT_TRUE(c.get<bool>("demo.periodic"));
  EXPECT_EQ(c.get<long>("demo.steps"), 100);
  EXPECT_EQ(c.get<std::vector<double>>("demo.force"), (std::vector<double>{0, 0, 0}));
  EXPECT_EQ(c.get<std::vector<std::string>>("demo.fields"), (std::vector<std::string>{"rho", "u"}));
  EXPECT_EQ(c.get<std::string>("device.build_options"), "");
  EXPECT_TRUE(c.get<bool>("output.vti"));
  EXPECT_FALSE(c.get<bool>("output.hdf5"));
  EXPECT_TRUE(c.is_default("demo.steps"));
  EXPECT_FALSE(c.is_default("demo.tau"));
  EXPECT_EQ(c.where("demo.tau"), cases + "demo_valid.yaml:9");
  EXPECT_EQ(c.where("demo.steps"), cases + "demo_valid.yaml (default)");
}

TEST(CaseFile, SelftestFixtureValidates) {
  const Case c = load_case(cases + "selftest.yaml", test::sample_schema());
  EXPECT_EQ(c.get<std::vector<std::size_t>>("selftest.size"), (std::vector<std::size_t>{16, 16, 8}));
  EXPECT_FLOAT_EQ(c.get<float>("selftest.tolerance"), 1e-5f);
  EXPECT_FALSE(c.get<bool>("output.png"));
}

TEST(CaseFile, ToJsonHoldsTheWholeResolvedCase) {
  const nlohmann::json j = load_case(cases + "demo_valid.yaml", demo_schema()).to_json();
  EXPECT_EQ(j["type"], "demo");
  EXPECT_EQ(j["demo"]["tau"], 0.6);
  EXPECT_EQ(j["demo"]["size"], nlohmann::json::parse("[16, 8, 4]"));
  EXPECT_EQ(j["demo"]["steps"], 100);
  EXPECT_EQ(j["demo"]["periodic"], true);
  EXPECT_EQ(j["output"]["dir"], "out/demo");
  EXPECT_EQ(j["device"]["build_options"], "");
  EXPECT_TRUE(j["demo"]["steps"].is_number_integer());
}

TEST(CaseFile, OutOfRangeNamesFileLinePathValueAndForm) {
  const auto errors = errors_of([] { parse_case("type: demo\ndemo:\n  tau: 0.4\n", demo_schema(), {}, "case.yaml"); });
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0], "case.yaml:3: demo.tau = 0.4 is out of range: expected a real number > 0.5");
}

TEST(CaseFile, UnknownKeySuggestsTheClosestName) {
  const auto errors = errors_of(
      [] { parse_case("type: demo\ndemo:\n  tau: 0.6\n  colision: trt\n", demo_schema(), {}, "case.yaml"); });
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_TRUE(has_message(errors, {"case.yaml:4:", "unknown key demo.colision = trt", "did you mean 'collision'?",
                                   "expected one of: tau, size, collision"}));
}

TEST(CaseFile, KeyInTheWrongSectionSuggestsItsPath) {
  const auto errors =
      errors_of([] { parse_case("type: demo\ndemo:\n  tau: 0.6\n  every: 3\n", demo_schema(), {}, "c.yaml"); });
  EXPECT_TRUE(has_message(errors, {"c.yaml:4:", "unknown key demo.every", "did you mean 'output.every'?"}));
}

TEST(CaseFile, WrongTypesAreReported) {
  const auto errors = errors_of([] {
    parse_case("type: demo\ndemo:\n  tau: fast\n  steps: 2.5\n  periodic: maybe\n  size: 8\n  force: {x: 1}\n",
               demo_schema(), {}, "t.yaml");
  });
  EXPECT_EQ(errors.size(), 5u);
  EXPECT_TRUE(has_message(errors, {"t.yaml:3:", "demo.tau = fast is not a number", "expected a real number > 0.5"}));
  EXPECT_TRUE(has_message(errors, {"t.yaml:4:", "demo.steps = 2.5 is not an integer",
                                   "expected an integer in [1, 1000000]"}));
  EXPECT_TRUE(has_message(errors, {"t.yaml:5:", "demo.periodic = maybe is not a boolean", "expected true or false"}));
  EXPECT_TRUE(has_message(errors, {"t.yaml:6:", "demo.size = 8 is not a list", "expected a list of 3 integers"}));
  EXPECT_TRUE(has_message(errors, {"t.yaml:7:", "demo.force = {x: 1} is not a list", "a list of 3 real numbers"}));
}

// `.inf` is a YAML number, but no key takes an infinite value: a force or a duration of .inf would fail
// later, inside a solver, for a reason that names no key. Reals and lists of reals reject it here.
TEST(CaseFile, InfiniteValuesAreRejectedWithTheKeyNamed) {
  const auto errors = errors_of([] {
    parse_case("type: demo\ndemo:\n  tau: .inf\n  force: [0, -.inf, 0]\n", demo_schema(), {}, "i.yaml");
  });
  EXPECT_EQ(errors.size(), 2u);
  EXPECT_TRUE(has_message(errors, {"i.yaml:3:", "demo.tau = .inf is not a finite number", "expected a real number > 0.5"}));
  EXPECT_TRUE(has_message(errors, {"i.yaml:4:", "demo.force[1] = -.inf is not a finite number"}));
}

TEST(CaseFile, ListEntriesAndLengthsAreChecked) {
  const auto errors = errors_of([] {
    parse_case("type: demo\ndemo:\n  tau: 0.6\n  size: [4, 0, 4]\n  force: [1, 2]\n  fields: [rho, v]\n", demo_schema(),
               {}, "l.yaml");
  });
  EXPECT_TRUE(has_message(errors, {"l.yaml:4:", "demo.size[1] = 0 is out of range", "each >= 1"}));
  EXPECT_TRUE(has_message(errors, {"l.yaml:5:", "demo.force = [1, 2] has 2 entries", "a list of 3 real numbers"}));
  EXPECT_TRUE(has_message(errors, {"l.yaml:6:", "demo.fields[1] = v is not a valid choice", "each one of: rho, u, p"}));
}

TEST(CaseFile, MissingRequiredKeyNamesTheSection) {
  const auto errors = errors_of([] { load_case(cases + "demo_missing.yaml", demo_schema()); });
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_TRUE(has_message(errors, {"demo_missing.yaml:3:", "demo.tau is missing", "expected a real number > 0.5"}));
}

TEST(CaseFile, MissingSectionStillReportsItsRequiredKeys) {
  const auto errors = errors_of([] { parse_case("type: demo\n", demo_schema(), {}, "m.yaml"); });
  EXPECT_TRUE(has_message(errors, {"m.yaml:1:", "demo.tau is missing"}));
}

TEST(CaseFile, YamlSyntaxErrorHasTheLine) {
  const auto errors = errors_of([] { load_case(cases + "demo_syntax.yaml", demo_schema()); });
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_TRUE(has_message(errors, {"demo_syntax.yaml:", "YAML syntax error", "expected"})) << errors[0];
  // yaml-cpp finds the unclosed list where the flow ends, no later than the next key.
  EXPECT_TRUE(errors[0].find("demo_syntax.yaml:4:") != std::string::npos ||
              errors[0].find("demo_syntax.yaml:5:") != std::string::npos)
      << errors[0];
}

TEST(CaseFile, DuplicateKeysAreReported) {
  const auto errors = errors_of([] { load_case(cases + "demo_duplicate.yaml", demo_schema()); });
  EXPECT_TRUE(has_message(errors, {"demo_duplicate.yaml:5:", "demo.tau is given twice (first on line 3)"}));
}

TEST(CaseFile, AllErrorsAreReportedInFileOrder) {
  const auto errors = errors_of([] { load_case(cases + "demo_errors.yaml", demo_schema()); });
  ASSERT_EQ(errors.size(), 6u);
  const std::string f = "demo_errors.yaml:";
  EXPECT_NE(errors[0].find(f + "3: output.every = 0 is out of range: expected an integer >= 1"), std::string::npos);
  EXPECT_NE(errors[1].find(f + "4: unknown key output.pngg = true (did you mean 'png'?)"), std::string::npos);
  EXPECT_NE(errors[2].find(f + "6: demo.tau = 0.4 is out of range"), std::string::npos);
  EXPECT_NE(errors[3].find(f + "7: demo.size[1] = x is not an integer"), std::string::npos);
  EXPECT_NE(errors[4].find(f + "8: demo.collision = bkg is not a valid choice (did you mean 'bgk'?)"),
            std::string::npos);
  EXPECT_NE(errors[5].find(f + "9: demo.periodic = maybe is not a boolean"), std::string::npos);
  // what() carries them all, one per line.
  try {
    load_case(cases + "demo_errors.yaml", demo_schema());
  } catch (const CaseError& e) {
    EXPECT_NE(std::string(e.what()).find("6 errors"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(errors[5]), std::string::npos);
  }
}

TEST(CaseFile, EmptyOrNonMapCaseIsRejected) {
  EXPECT_TRUE(has_message(errors_of([] { parse_case("", demo_schema(), {}, "e.yaml"); }),
                          {"e.yaml:1:", "the case is empty", "expected a map"}));
  EXPECT_TRUE(has_message(errors_of([] { parse_case("[1, 2]", demo_schema(), {}, "e.yaml"); }),
                          {"e.yaml:1:", "the case is [1, 2]"}));
  EXPECT_TRUE(has_message(errors_of([] { parse_case("a: 1\n---\nb: 2\n", demo_schema(), {}, "e.yaml"); }),
                          {"e.yaml:2:", "second YAML document"}));
}

TEST(CaseFile, CyclicAliasIsAnErrorNotACrash) {
  EXPECT_TRUE(has_message(errors_of([] { parse_case("&a [*a]", demo_schema(), {}, "a.yaml"); }),
                          {"a.yaml:1:", "deeper than"}));
}

TEST(CaseFile, InvalidUtf8IsAnErrorWithItsLine) {
  // Such a string would make the run manifest (JSON) unwritable.
  EXPECT_TRUE(has_message(errors_of([] { parse_case("type: demo\noutput:\n  dir: \xff\xfe\n", demo_schema(), {}, "u.yaml"); }),
                          {"u.yaml:3:", "not valid UTF-8"}));
  const Case c = parse_case("type: demo\noutput:\n  dir: \xc3\xa9t\xc3\xa9\ndemo: {tau: 1}\n", demo_schema(), {}, "u.yaml");
  EXPECT_EQ(c.to_json()["output"]["dir"], "\xc3\xa9t\xc3\xa9");
}

TEST(CaseFile, InputThatMakesYamlCppLoopEndsInAnError) {
  // Found by fuzz/fuzz_case_file: YAML::LoadAll in yaml-cpp 0.7 never returns on this input.
  EXPECT_THROW(parse_case(", 40e: 4, 4]\nty 4, 40e: 4, 4]\n", demo_schema(), {}, "f.yaml"), CaseError);
}

TEST(CaseFile, MissingFileIsACaseError) {
  EXPECT_TRUE(has_message(errors_of([] { load_case(cases + "no_such.yaml", demo_schema()); }),
                          {"no_such.yaml", "no such case file"}));
}

// A binary file given as a case (here a PNG's first bytes, whose chunk length holds NUL bytes) is named
// as such, not reported as a YAML escape error; a text file with tabs and CR LF line ends reads as before.
TEST(CaseFile, BinaryFileIsNotATextCaseFile) {
  const std::filesystem::path png = std::filesystem::temp_directory_path() / "hetflow-binary-case.png";
  {
    std::ofstream out(png, std::ios::binary);
    out << std::string("\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR", 16);
  }
  EXPECT_TRUE(has_message(errors_of([&] { load_case(png, demo_schema()); }),
                          {png.string() + " is not a text (YAML) case file: it holds byte 0x1a at offset 6 (line 2), "
                                          "which YAML text cannot hold; expected the path of a YAML case file"}));
  std::filesystem::remove(png);
  const std::filesystem::path text = std::filesystem::temp_directory_path() / "hetflow-tab-case.yaml";
  {
    std::ofstream out(text, std::ios::binary);
    out << "type: demo\r\ndemo:\r\n  tau: 1\t# a tab before the comment\r\n";
  }
  EXPECT_EQ(load_case(text, demo_schema()).type(), "demo");
  std::filesystem::remove(text);
}

TEST(CaseFile, RegistryPicksTheSchemaByType) {
  CaseRegistry registry;
  registry.add(demo_schema());
  registry.add(test::sample_schema());
  EXPECT_EQ(load_case(cases + "selftest.yaml", registry).type(), "selftest");
  EXPECT_EQ(load_case(cases + "demo_valid.yaml", registry).type(), "demo");
  EXPECT_TRUE(has_message(errors_of([&] { parse_case("type: selftst\n", registry, {}, "r.yaml"); }),
                          {"r.yaml:1:", "type = selftst is not a known case type", "did you mean 'selftest'?",
                           "expected one of: demo, selftest"}));
  EXPECT_TRUE(has_message(errors_of([&] { parse_case("output:\n  dir: x\n", registry, {}, "r.yaml"); }),
                          {"r.yaml:1:", "type is missing", "expected one of: demo, selftest"}));
}

TEST(CaseFile, TypeMustMatchASingleSchema) {
  EXPECT_TRUE(has_message(errors_of([] { parse_case("type: lbm\ndemo: {tau: 1}\n", demo_schema(), {}, "t.yaml"); }),
                          {"t.yaml:1:", "type = lbm is not a valid choice", "expected one of: demo"}));
}

TEST(CaseFile, GettersCheckKindAndNarrowing) {
  const Case c = parse_case("type: demo\ndemo:\n  tau: 0.6\n  steps: 1000000\n", demo_schema(), {}, "g.yaml");
  EXPECT_THROW(c.get<int>("demo.tau"), std::logic_error);
  EXPECT_THROW(c.get<double>("demo.nothing"), std::logic_error);
  EXPECT_DOUBLE_EQ(c.get<double>("demo.steps"), 1.0e6);
  try {
    c.get<std::int16_t>("demo.steps");
    FAIL() << "expected CaseError";
  } catch (const CaseError& e) {
    EXPECT_NE(std::string(e.what()).find("g.yaml:4: demo.steps = 1000000 does not fit"), std::string::npos)
        << e.what();
  }
}

TEST(CaseFile, NullStringIsEmptyButNullNumberIsAnError) {
  const Case c = parse_case("type: demo\ndevice:\n  build_options:\ndemo:\n  tau: 0.6\n", demo_schema(), {}, "n.yaml");
  EXPECT_EQ(c.get<std::string>("device.build_options"), "");
  EXPECT_TRUE(has_message(errors_of([] { parse_case("type: demo\ndemo:\n  tau:\n", demo_schema(), {}, "n.yaml"); }),
                          {"n.yaml:3:", "demo.tau has no value", "expected a real number > 0.5"}));
}

}  // namespace
}  // namespace hetflow::casefile
