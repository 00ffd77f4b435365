// What a case gave, apart from its defaults: keys given with their default value, path-valued keys made
// absolute against the case file's folder, and the given keys written back as YAML or JSON that read as
// the same case.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <unistd.h>
#include <vector>

#include "hetflow/casefile/case.hpp"

namespace hetflow::casefile {
namespace {

namespace fs = std::filesystem;

Schema given_schema() {
  Schema s("given", "keys of every kind, two of them paths");
  auto& g = s.section("given", "the keys");
  g.key<double>("tau", "relaxation time").above(0.5);
  g.key<int>("steps", 100, "steps").at_least(1);
  g.key<double>("dt", 0.1, "time step").above(0);
  g.key<std::string>("kind", "box", "a choice").one_of({"box", "file"});
  g.key<std::vector<double>>("centre", std::vector<double>{}, "a list, empty by default");
  g.key<std::vector<int>>("size", std::vector<int>{}, "lattice").required_unless("given.kind is file");
  g.key<std::string>("label", "plain", "a string that needs quotes in YAML when it holds ': '");
  g.key<std::string>("file", "", "one file").path();
  g.key<std::vector<std::string>>("series", std::vector<std::string>{}, "several files").path();
  return s;
}

// A fresh folder under the system's temporary folder, removed at the end of the test.
class GivenCase : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() / ("hetflow-given-case-" + std::to_string(::getpid()) + "-" +
                                       ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir);
    fs::create_directories(dir / "cases");
  }
  void TearDown() override { fs::remove_all(dir); }

  fs::path write(const fs::path& name, const std::string& text) const {
    std::ofstream(dir / name) << text;
    return dir / name;
  }

  fs::path dir;
};

TEST_F(GivenCase, AKeyGivenWithItsDefaultValueIsNotSet) {
  const Case c = parse_case("type: given\ngiven:\n  tau: 0.6\n  steps: 100\n  dt: 0.2\n  centre: []\n  kind: box\n",
                            given_schema());
  EXPECT_FALSE(c.is_default("given.steps"));
  EXPECT_FALSE(c.is_set("given.steps"));   // written, but with the default 100
  EXPECT_FALSE(c.is_set("given.centre"));  // [] is the default
  EXPECT_FALSE(c.is_set("given.kind"));
  EXPECT_TRUE(c.is_set("given.dt"));
  EXPECT_TRUE(c.is_set("given.tau"));        // a required key has no default to equal
  EXPECT_FALSE(c.is_set("given.label"));     // left out
  EXPECT_TRUE(c.is_default("given.label"));
}

TEST_F(GivenCase, TheTemplateMarksAConditionallyRequiredKey) {
  const std::string text = given_schema().describe();
  EXPECT_NE(text.find("size: []"), std::string::npos) << text;
  EXPECT_NE(text.find("# REQUIRED unless given.kind is file; a list of integers; lattice"), std::string::npos) << text;
}

TEST_F(GivenCase, RelativePathsReadFromTheCaseFilesFolder) {
  const fs::path file = write("cases/case.yaml", "type: given\ngiven:\n  tau: 1\n  file: data/mask.vti\n"
                                                 "  series: [a.csv, /abs/b.csv, ../c.csv]\n");
  const fs::path folder = fs::weakly_canonical(dir / "cases");
  const Case c = load_case(file, given_schema());
  EXPECT_EQ(c.get<std::string>("given.file"), (folder / "data/mask.vti").string());
  EXPECT_EQ(c.get<std::vector<std::string>>("given.series"),
            (std::vector<std::string>{(folder / "a.csv").string(), "/abs/b.csv", (folder / "../c.csv").string()}));
  EXPECT_EQ(c.path_text("given.file"), "data/mask.vti (resolved to " + (folder / "data/mask.vti").string() + ")");
  EXPECT_EQ(c.missing_file("given.file"), file.string() + ":4: given.file = data/mask.vti (resolved to " +
                                              (folder / "data/mask.vti").string() +
                                              "): no such file (a relative path reads from the case file's folder)");
  // An override is part of the case: it reads from the same folder.
  const Case o = load_case(file, given_schema(), {"given.file=other.vti"});
  EXPECT_EQ(o.get<std::string>("given.file"), (folder / "other.vti").string());
  // The empty default means no file and stays empty; an absolute path is kept as given.
  EXPECT_EQ(parse_case("type: given\ngiven: {tau: 1}\n", given_schema()).get<std::string>("given.file"), "");
  const Case a = parse_case("type: given\ngiven: {tau: 1, file: /x/y.vti}\n", given_schema());
  EXPECT_EQ(a.path_text("given.file"), "/x/y.vti");
}

TEST_F(GivenCase, ACaseGivenAsAStringReadsPathsFromTheWorkingDirectory) {
  const Case c = parse_case("type: given\ngiven: {tau: 1, file: mask.vti}\n", given_schema());
  EXPECT_EQ(c.get<std::string>("given.file"), (fs::current_path() / "mask.vti").string());
}

TEST_F(GivenCase, TheGivenKeysAsYamlReadBackAsTheSameCase) {
  const fs::path file = write("cases/case.yaml", "type: given\ngiven:\n  tau: 0.6000000000000001\n  file: m.vti\n"
                                                 "  centre: [1.5, 2]\n");
  const Case c = load_case(file, given_schema(), {"given.label='a: b'", "given.dt=0.30000000000000004",
                                                  "given.series=[x.csv]", "given.steps=100"});
  EXPECT_EQ(c.given_paths(), (std::vector<std::string>{"given.centre", "given.dt", "given.file", "given.label",
                                                       "given.series", "given.steps", "given.tau", "type"}));
  const std::string yaml = c.to_yaml(c.given_paths());
  const fs::path folder = fs::weakly_canonical(dir / "cases");
  EXPECT_EQ(yaml, "type: given\ngiven:\n  centre: [1.5, 2.0]\n  dt: 0.30000000000000004\n  file: " +
                      (folder / "m.vti").string() + "\n  label: \"a: b\"\n  series: [" + (folder / "x.csv").string() +
                      "]\n  steps: 100\n  tau: 0.6000000000000001\n");
  // Read from another folder, the copy gives the same keys with the same values, bit for bit.
  const Case again = load_case(write("copy.yaml", yaml), given_schema());
  EXPECT_EQ(again.given_paths(), c.given_paths());
  for (const std::string& p : c.paths()) EXPECT_EQ(again.value(p), c.value(p)) << p;
}

TEST_F(GivenCase, AManifestReadsAsTheCaseItRecords) {
  const Case c = load_case(write("cases/case.yaml", "type: given\ngiven: {tau: 0.7, file: m.vti, size: [4, 5]}\n"),
                           given_schema(), {"given.dt=0.25"});
  const nlohmann::json manifest = {{"status", "complete"}, {"case_given", c.to_json(c.given_paths())}};
  write("manifest.json", manifest.dump(2));
  const Case again = load_case(dir / "manifest.json", given_schema());
  EXPECT_EQ(again.given_paths(), c.given_paths());
  for (const std::string& p : c.paths()) EXPECT_EQ(again.value(p), c.value(p)) << p;

  write("other.json", "{\"status\": \"complete\"}");
  try {
    load_case(dir / "other.json", given_schema());
    ADD_FAILURE() << "a JSON file without case_given was read as a case";
  } catch (const CaseError& e) {
    EXPECT_EQ(std::string(e.what()).find((dir / "other.json").string() + ": is not a hetflow run's manifest"),
              0u) << e.what();
  }
}

}  // namespace
}  // namespace hetflow::casefile
