// Sections whose entries the case names (a flow solver's boundary conditions, one per mesh patch), each
// entry checked against one template.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "hetflow/casefile/case.hpp"

namespace hetflow::casefile {
namespace {

Schema flow_schema() {
  Schema s("flow", "an incompressible flow");
  auto& b = s.entries("boundary", "one entry per mesh patch");
  b.key<std::string>("type", "the condition").one_of({"velocity", "no_slip", "slip", "outlet"});
  b.key<std::vector<double>>("value", std::vector<double>{0, 0, 0}, "the velocity").length(3).unit("m/s");
  b.key<std::string>("profile", "uniform", "the velocity's shape").one_of({"uniform", "parabolic"});
  b.key<std::vector<std::string>>("across", std::vector<std::string>{}, "axes of the profile").one_of({"x", "y", "z"});
  b.key<double>("ramp", 0.0, "time to reach the value").at_least(0).unit("s");
  b.key<double>("pressure", 0.0, "outlet pressure").unit("Pa");
  s.entries("probes", "points where the velocity is recorded")
      .key<std::vector<double>>("at", "position")
      .length(3)
      .unit("m");
  s.entries("tracers", "particle clouds").key<int>("count", 100, "particles").at_least(1);
  return s;
}

const std::string cavity = "type: flow\n"
                           "boundary:\n"
                           "  lid:    {type: velocity, value: [1, 0, 0]}\n"
                           "  inlet:  {type: velocity, value: [0.45, 0, 0], profile: parabolic, across: [y], ramp: 0.5}\n"
                           "  walls:  {type: no_slip}\n"
                           "  outlet: {type: outlet, pressure: 0}\n";

std::vector<std::string> errors_of(const std::string& yaml, const std::vector<std::string>& overrides = {}) {
  try {
    parse_case(yaml, flow_schema(), overrides, "case.yaml");
  } catch (const CaseError& e) {
    return e.messages();
  }
  ADD_FAILURE() << "expected a CaseError";
  return {};
}

TEST(CaseEntries, EntriesReadBackWithTheTemplatesDefaults) {
  const Case c = parse_case(cavity, flow_schema(), {}, "case.yaml");
  EXPECT_EQ(c.entry_names("boundary"), (std::vector<std::string>{"inlet", "lid", "outlet", "walls"}));
  EXPECT_EQ(c.get<std::string>("boundary.lid.type"), "velocity");
  EXPECT_EQ(c.get<std::vector<double>>("boundary.lid.value"), (std::vector<double>{1, 0, 0}));
  EXPECT_EQ(c.get<std::string>("boundary.lid.profile"), "uniform");
  EXPECT_TRUE(c.is_default("boundary.lid.profile"));
  EXPECT_EQ(c.get<std::string>("boundary.inlet.profile"), "parabolic");
  EXPECT_EQ(c.get<std::vector<std::string>>("boundary.inlet.across"), std::vector<std::string>{"y"});
  EXPECT_EQ(c.get<double>("boundary.inlet.ramp"), 0.5);
  EXPECT_EQ(c.get<std::vector<double>>("boundary.walls.value"), (std::vector<double>{0, 0, 0}));
  EXPECT_EQ(c.where("boundary.walls.type"), "case.yaml:5");
  EXPECT_EQ(c.where("boundary.walls.ramp"), "case.yaml (default)");
  EXPECT_TRUE(c.is_set("boundary.inlet.ramp"));
  EXPECT_FALSE(c.is_set("boundary.outlet.pressure"));  // given, with the default 0
  // A section of entries left out has no entries, and no defaults either.
  EXPECT_EQ(c.entry_names("probes"), std::vector<std::string>{});
  EXPECT_FALSE(c.contains("probes.at"));
  EXPECT_THROW(c.entry_names("output"), std::logic_error);
  EXPECT_THROW(c.get<std::string>("boundary.roof.type"), std::logic_error);

  const Case named = parse_case("type: flow\nprobes:\n  Front-2: {at: [0.15, 0.2, 0.025]}\n  b_1: {at: [0, 0, 0]}\n"
                                "tracers:\n  cloud:\n",
                                flow_schema());
  EXPECT_EQ(named.entry_names("probes"), (std::vector<std::string>{"Front-2", "b_1"}));
  EXPECT_EQ(named.get<std::vector<double>>("probes.Front-2.at"), (std::vector<double>{0.15, 0.2, 0.025}));
  EXPECT_EQ(named.entry_names("tracers"), std::vector<std::string>{"cloud"});
  EXPECT_EQ(named.get<int>("tracers.cloud.count"), 100);
}

TEST(CaseEntries, TheSchemaFindsTemplateKeysThroughAnyEntryName) {
  const Schema s = flow_schema();
  ASSERT_NE(s.find("boundary.lid.ramp"), nullptr);
  EXPECT_EQ(s.find("boundary.lid.ramp")->unit_name(), "s");
  EXPECT_EQ(s.find("boundary.ramp"), nullptr);
  EXPECT_TRUE(s.find_section("boundary")->holds_entries());
  EXPECT_FALSE(s.find_section("output")->holds_entries());
}

TEST(CaseEntries, ProblemsNameTheEntryAndItsLine) {
  const std::string yaml = "type: flow\n"
                           "boundary:\n"
                           "  lid: {type: velocity, valu: [1, 0, 0]}\n"
                           "  my lid: {type: no_slip}\n"
                           "  walls: no_slip\n"
                           "  inlet:\n"
                           "    value: [1, 0, 0]\n"
                           "  a.b: {type: slip}\n"
                           "  lid: {type: slip}\n"
                           "  outlet: [outlet]\n"
                           "probes: {front: {at: [0, 0]}}\n";
  const std::string keys = "(type, value, profile, across, ramp, pressure)";
  EXPECT_EQ(errors_of(yaml),
            (std::vector<std::string>{
                "case.yaml:3: unknown key boundary.lid.valu = [1, 0, 0] (did you mean 'value'?): expected one of: "
                "type, value, profile, across, ramp, pressure",
                "case.yaml:4: entry name 'my lid' in boundary is not a name: expected letters, digits, '_' and '-' "
                "only (no spaces; '.' separates key paths)",
                "case.yaml:5: boundary.walls = no_slip is a single value, not an entry: expected a map of its keys " +
                    keys + ", e.g. walls: {type: no_slip}",
                "case.yaml:6: boundary.inlet.type is missing: expected one of: velocity, no_slip, slip, outlet "
                "(the condition)",
                "case.yaml:8: entry name 'a.b' in boundary is not a name: expected letters, digits, '_' and '-' only "
                "(no spaces; '.' separates key paths)",
                "case.yaml:9: boundary.lid is given twice (first on line 3): expected each key once",
                "case.yaml:10: boundary.outlet = [outlet] is a list, not an entry: expected a map of its keys " + keys +
                    ", e.g. outlet: {type: ...}",
                "case.yaml:11: probes.front.at = [0, 0] has 2 entries: expected a list of 3 real numbers [m]",
            }));
  EXPECT_EQ(errors_of("type: flow\nboundary: [lid, walls]\n"),
            std::vector<std::string>{"case.yaml:2: boundary = [lid, walls] is a list, not a section: expected a map "
                                     "of named entries, each a map of keys: type, value, profile, across, ramp, "
                                     "pressure"});
}

TEST(CaseEntries, OverridesChangeAndAddEntries) {
  const Case c = parse_case(cavity, flow_schema(), {"boundary.lid.value=[2,0,0]", "boundary.new.type=slip",
                                                    "probes.front.at=[0.15, 0.2, 0.025]"},
                            "case.yaml");
  EXPECT_EQ(c.get<std::vector<double>>("boundary.lid.value"), (std::vector<double>{2, 0, 0}));
  EXPECT_EQ(c.where("boundary.lid.value"), "case.yaml (--set boundary.lid.value=[2,0,0])");
  EXPECT_EQ(c.entry_names("boundary"), (std::vector<std::string>{"inlet", "lid", "new", "outlet", "walls"}));
  EXPECT_EQ(c.get<std::string>("boundary.new.type"), "slip");
  EXPECT_EQ(c.get<std::string>("boundary.new.profile"), "uniform");
  EXPECT_EQ(c.entry_names("probes"), std::vector<std::string>{"front"});
  EXPECT_EQ(c.get<std::vector<double>>("probes.front.at"), (std::vector<double>{0.15, 0.2, 0.025}));

  EXPECT_EQ(errors_of(cavity, {"boundary.extra.ramp=1", "boundary.lid.profile=cubic"}),
            (std::vector<std::string>{
                "case.yaml (--set boundary.extra.ramp=1): boundary.extra.type is missing: expected one of: velocity, "
                "no_slip, slip, outlet (the condition)",
                "case.yaml (--set boundary.lid.profile=cubic): boundary.lid.profile = cubic is not a valid choice: "
                "expected one of: uniform, parabolic",
            }));
}

TEST(CaseEntries, TheTemplateShowsACommentedExampleEntryAndReadsAsACase) {
  Schema s("flow", "an incompressible flow");
  auto& b = s.entries("boundary", "one entry per mesh patch");
  b.key<std::string>("type", "the condition").one_of({"velocity", "no_slip"});
  b.key<double>("ramp", 0.0, "time to reach the value").at_least(0).unit("s");
  const std::string text = s.describe();
  const std::string expected_block =
      "boundary:  # one entry per mesh patch\n"
      "  # <name>:  # an entry, named by the case (letters, digits, '_' and '-'), with these keys\n"
      "  #   type: ~                         # REQUIRED; one of: velocity, no_slip; the condition\n"
      "  #   ramp: 0.0                       # a real number >= 0 [s]; time to reach the value\n";
  EXPECT_NE(text.find(expected_block), std::string::npos) << text;
  // As printed, the template is a case without entries.
  EXPECT_EQ(parse_case(text, s).entry_names("boundary"), std::vector<std::string>{});
  // Uncommented, with a name and its REQUIRED key filled in, the example is an entry.
  std::string entry = text;
  entry.replace(entry.find(expected_block), expected_block.size(),
                "boundary:\n  lid:\n    type: velocity\n    ramp: 0.0\n");
  const Case c = parse_case(entry, s);
  EXPECT_EQ(c.entry_names("boundary"), std::vector<std::string>{"lid"});
  EXPECT_EQ(c.get<std::string>("boundary.lid.type"), "velocity");
}

TEST(CaseEntries, CheckCoversTemplates) {
  EXPECT_NO_THROW(flow_schema().check());
  Schema bad("flow", "");
  bad.entries("boundary", "").key<double>("ramp", -1.0, "").at_least(0);
  try {
    bad.check();
    FAIL() << "expected std::logic_error";
  } catch (const std::logic_error& e) {
    EXPECT_EQ(std::string(e.what()), "schema bug: default boundary.<name>.ramp = -1.0 is out of range: expected a "
                                     "real number >= 0");
  }
  Schema empty("flow", "");
  empty.entries("probes", "");
  EXPECT_THROW(empty.check(), std::logic_error);
  Schema both("flow", "");
  both.entries("boundary", "");
  EXPECT_THROW(both.section("boundary"), std::logic_error);
  both.section("mesh");
  EXPECT_THROW(both.entries("mesh", ""), std::logic_error);
}

TEST(CaseEntries, TheGivenEntriesAsYamlOrJsonReadBackAsTheSameCase) {
  const std::string yaml = cavity + "  \"yes\": {type: slip}\n  -inlet: {type: slip}\ntracers:\n  cloud: {}\n";
  const Case c = parse_case(yaml, flow_schema(), {"boundary.lid.ramp=2"}, "case.yaml");
  EXPECT_EQ(c.entry_names("boundary"),
            (std::vector<std::string>{"-inlet", "inlet", "lid", "outlet", "walls", "yes"}));
  const std::vector<std::string> given = c.given_paths();
  // The cloud gives no key of its own; its default stands for it, so the record keeps the entry.
  EXPECT_EQ(given, (std::vector<std::string>{"boundary.-inlet.type", "boundary.inlet.across", "boundary.inlet.profile",
                                             "boundary.inlet.ramp", "boundary.inlet.type", "boundary.inlet.value",
                                             "boundary.lid.ramp", "boundary.lid.type", "boundary.lid.value",
                                             "boundary.outlet.pressure", "boundary.outlet.type", "boundary.walls.type",
                                             "boundary.yes.type", "tracers.cloud.count", "type"}));
  const std::string text = c.to_yaml(given);
  EXPECT_EQ(text, "type: flow\n"
                  "boundary:\n"
                  "  \"-inlet\":\n    type: slip\n"
                  "  inlet:\n    across: [y]\n    profile: parabolic\n    ramp: 0.5\n    type: velocity\n"
                  "    value: [0.45, 0.0, 0.0]\n"
                  "  lid:\n    ramp: 2.0\n    type: velocity\n    value: [1.0, 0.0, 0.0]\n"
                  "  outlet:\n    pressure: 0.0\n    type: outlet\n"
                  "  walls:\n    type: no_slip\n"
                  "  \"yes\":\n    type: slip\n"
                  "tracers:\n  cloud:\n    count: 100\n");
  for (const std::string& copy : {text, c.to_json(given).dump()}) {
    const Case again = parse_case(copy, flow_schema());
    EXPECT_EQ(again.given_paths(), given) << copy;
    EXPECT_EQ(again.paths(), c.paths()) << copy;
    for (const std::string& p : c.paths()) EXPECT_EQ(again.value(p), c.value(p)) << p;
    for (const char* section : {"boundary", "probes", "tracers"})
      EXPECT_EQ(again.entry_names(section), c.entry_names(section)) << section;
  }
}

}  // namespace
}  // namespace hetflow::casefile
