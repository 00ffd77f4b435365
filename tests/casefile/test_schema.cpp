#include <gtest/gtest.h>

#include <stdexcept>

#include "hetflow/casefile/registry.hpp"
#include "hetflow/casefile/schema.hpp"
#include "sample_schema.hpp"
#include "hetflow/casefile/suggest.hpp"

namespace hetflow::casefile {
namespace {

TEST(CaseSchema, CommonSectionsAreDeclared) {
  const Schema s("demo", "a test");
  for (const char* path : {"type", "device.select", "device.build_options", "output.dir", "output.vti", "output.png",
                           "output.hdf5", "output.every"})
    EXPECT_NE(s.find(path), nullptr) << path;
  EXPECT_TRUE(s.find("type")->is_required());
  EXPECT_EQ(std::get<std::string>(*s.find("device.select")->default_value()), "auto");
  EXPECT_EQ(std::get<std::string>(*s.find("device.build_options")->default_value()), "");
  EXPECT_EQ(s.find("output.nothing"), nullptr);
  EXPECT_EQ(s.find("nosection.dir"), nullptr);
}

TEST(CaseSchema, ExpectedFormsReadAsSentences) {
  Schema s("demo", "");
  auto& d = s.section("demo");
  EXPECT_EQ(d.key<double>("tau", "relaxation time").range(0.5, inf, Bounds::exclusive_min).expected_form(),
            "a real number > 0.5");
  EXPECT_EQ(d.key<int>("steps", 10, "").at_least(1).expected_form(), "an integer >= 1");
  EXPECT_EQ(d.key<double>("cfl", 0.5, "").range(0, 1, Bounds::exclusive_min).expected_form(),
            "a real number in (0, 1]");
  EXPECT_EQ(d.key<double>("x", 0.5, "").below(2.5).unit("m").expected_form(), "a real number < 2.5 [m]");
  EXPECT_EQ(d.key<std::vector<int>>("size", {4, 4, 4}, "").length(3).at_least(1).expected_form(),
            "a list of 3 integers, each >= 1");
  EXPECT_EQ(d.key<std::vector<double>>("origin", {0.0}, "").expected_form(), "a list of real numbers");
  EXPECT_EQ(d.key<std::string>("mode", "a", "").one_of({"a", "b"}).expected_form(), "one of: a, b");
  EXPECT_EQ(d.key<bool>("flag", true, "").expected_form(), "true or false");
  EXPECT_EQ(d.key<std::vector<std::string>>("fields", {"rho"}, "").one_of({"rho", "u"}).expected_form(),
            "a list of strings, each one of: rho, u");
}

TEST(CaseSchema, RangesCompose) {
  Schema s("demo", "");
  const Key& k = s.section("demo").key<int>("n", 5, "").at_least(1).below(10);
  EXPECT_EQ(k.expected_form(), "an integer in [1, 10)");
  EXPECT_EQ(k.element_problem(CaseValue{std::int64_t{0}}), "is out of range");
  EXPECT_EQ(k.element_problem(CaseValue{std::int64_t{1}}), "");
  EXPECT_EQ(k.element_problem(CaseValue{std::int64_t{10}}), "is out of range");
}

// An empty output directory or device selection would otherwise fail later, as an I/O or device error.
TEST(CaseSchema, NotEmptyRejectsTheEmptyString) {
  Schema s("demo", "");
  const Key& k = s.section("demo").key<std::string>("name", "x", "").not_empty();
  EXPECT_EQ(k.expected_form(), "a non-empty string");
  EXPECT_EQ(k.element_problem(CaseValue{std::string()}), "is empty");
  EXPECT_EQ(k.element_problem(CaseValue{std::string(" ")}), "");
  EXPECT_EQ(s.find("output.dir")->element_problem(CaseValue{std::string()}), "is empty");
  EXPECT_EQ(s.find("device.select")->element_problem(CaseValue{std::string()}), "is empty");
  EXPECT_THROW(s.section("demo").key<int>("count", 1, "").not_empty(), std::logic_error);
}

TEST(CaseSchema, RedeclaringAKeyReplacesIt) {
  Schema s("demo", "");
  s.section("output").key<int>("every", 7, "output interval").at_least(1);
  EXPECT_EQ(std::get<std::int64_t>(*s.find("output.every")->default_value()), 7);
  EXPECT_EQ(s.section("output").keys().size(), 5u);
}

TEST(CaseSchema, DeclarationMistakesThrow) {
  Schema s("demo", "");
  auto& d = s.section("demo");
  EXPECT_THROW(d.key<std::string>("name", "x", "").at_least(1), std::logic_error);
  EXPECT_THROW(d.key<int>("count", 1, "").one_of({"a"}), std::logic_error);
  EXPECT_THROW(d.key<int>("width", 1, "").length(3), std::logic_error);
  EXPECT_THROW(d.key<int>("Bad.Name", 1, ""), std::logic_error);
  EXPECT_THROW(d.key<int>("empty", 1, "").range(2, 1), std::logic_error);
}

TEST(CaseSchema, CheckRejectsADefaultOutsideItsRange) {
  Schema s("demo", "");
  s.section("demo").key<double>("tau", 0.4, "").above(0.5);
  try {
    s.check();
    FAIL() << "expected std::logic_error";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("demo.tau = 0.4"), std::string::npos) << e.what();
  }
  Schema lists("demo", "");
  lists.section("demo").key<std::vector<int>>("size", {4, 4}, "").length(3);
  EXPECT_THROW(lists.check(), std::logic_error);
}

TEST(CaseSchema, SelftestSchemaIsConsistentAndRegisters) {
  const Schema s = test::sample_schema();
  EXPECT_NO_THROW(s.check());
  EXPECT_EQ(s.type_name(), "selftest");
  ASSERT_NE(s.find("selftest.size"), nullptr);
  EXPECT_EQ(s.find("selftest.size")->fixed_length(), 3u);
  CaseRegistry registry;
  registry.add(test::sample_schema());
  EXPECT_NE(registry.find("selftest"), nullptr);
  EXPECT_EQ(registry.find("lbm"), nullptr);
  EXPECT_THROW(registry.add(test::sample_schema()), std::logic_error);
  EXPECT_EQ(registry.types(), std::vector<std::string>{"selftest"});
}

TEST(CaseSchema, DescribeListsEveryKeyWithItsDefault) {
  const std::string text = test::sample_schema().describe();
  EXPECT_NE(text.find("type: selftest"), std::string::npos) << text;
  EXPECT_NE(text.find("  size: [48, 40, 32]"), std::string::npos) << text;
  EXPECT_NE(text.find("a list of 3 integers, each >= 2 [cells]"), std::string::npos) << text;
  EXPECT_NE(text.find("  build_options: \"\""), std::string::npos) << text;
  EXPECT_NE(text.find("  every: 50 "), std::string::npos) << text;
}

TEST(CaseSchema, FormatsValuesAsYaml) {
  EXPECT_EQ(format_case_value(CaseValue{1.0}), "1.0");
  EXPECT_EQ(format_case_value(CaseValue{0.5}), "0.5");
  EXPECT_EQ(format_case_value(CaseValue{inf}), ".inf");
  EXPECT_EQ(format_case_value(CaseValue{std::string("yes")}), "\"yes\"");
  EXPECT_EQ(format_case_value(CaseValue{std::vector<std::int64_t>{1, 2}}), "[1, 2]");
}

TEST(CaseSuggest, EditDistanceCountsSwapsAsOneEdit) {
  EXPECT_EQ(edit_distance("tau", "tau"), 0u);
  EXPECT_EQ(edit_distance("tua", "tau"), 1u);
  EXPECT_EQ(edit_distance("taux", "tau"), 1u);
  EXPECT_EQ(edit_distance("", "abc"), 3u);
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
}

TEST(CaseSuggest, SuggestsOnlyCloseNames) {
  const std::vector<std::string> names{"tau", "size", "collision", "periodic"};
  EXPECT_EQ(closest_name("tua", names), "tau");
  EXPECT_EQ(closest_name("colision", names), "collision");
  EXPECT_EQ(closest_name("Size", names), "size");
  EXPECT_EQ(closest_name("viscosity", names), "");
}

}  // namespace
}  // namespace hetflow::casefile
