// Copy, edit, re-run: every case type's template (`hetflow cases TYPE`) passes validation once the keys
// it marks REQUIRED are filled in; every run records its case as case.yaml (and in the manifest), and
// running that again from another folder reproduces the run's files bit for bit; relative paths in a
// case read from the case file's folder, whatever the working directory.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "command_test.hpp"
#include "hetflow/app/case_type.hpp"
#include "hetflow/casefile/case.hpp"

namespace {

namespace fs = std::filesystem;
using Result = hetflow::test::CommandResult;

using hetflow::test::file_text;
using hetflow::test::source_root;

nlohmann::json without_timings(nlohmann::json j) {
  if (j.is_object()) {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& [key, value] : j.items()) {
      const bool timing = key == "seconds" || (key.size() > 11 && key.ends_with("_per_second"));
      if (!timing) out[key] = without_timings(value);
    }
    return out;
  }
  if (j.is_array())
    for (auto& e : j) e = without_timings(e);
  return j;
}

// ---- templates -------------------------------------------------------------------------------------

// The value filled in for each key a template marks REQUIRED (or "REQUIRED unless ..."), by case type.
std::map<std::string, std::map<std::string, std::string>> required_values() {
  const std::string mechanisms = (source_root / "data/mechanisms").string();
  const std::string examples = (source_root / "examples").string();
  const std::map<std::string, std::string> forcing{{"forcing.inlet", examples + "/karst_storm_inlet.csv"},
                                                   {"forcing.velocity", examples + "/karst_storm_velocity.csv"}};
  auto inversion = forcing;
  inversion["observed.file"] = examples + "/karst_storm_observed.csv";
  return {{"lbm", {{"geometry.kind", "box"}, {"geometry.size", "[8, 8, 8]"}}},
          {"ignition", {{"mechanism.file", mechanisms + "/gri30.yaml"}, {"initial.temperature", "[1200]"}}},
          {"reactor_batch", {{"mechanism.file", mechanisms + "/gri30.yaml"}}},
          {"equilibrium", {{"mechanism.file", mechanisms + "/gri30.yaml"}}},
          {"flamelet", {{"mechanism.file", mechanisms + "/gri30.yaml"}}},
          {"karst", forcing},
          {"karst_inversion", inversion},
          {"incompressible", {{"fluid.viscosity", "0.01"}, {"time.end", "1"}}},
          {"compressible", {{"initial.background.rho", "1"}, {"initial.background.p", "1"}, {"time.end", "0.01"}}}};
}

// The template with each REQUIRED line's value replaced from `values`; a REQUIRED key missing from
// `values` fails the test, so a new required key or case type cannot go untested.
std::string filled(const std::string& type, const std::string& text, const std::map<std::string, std::string>& values) {
  const std::regex line_form(R"(^( *)([a-z0-9_]+):(.*)$)");
  std::istringstream in(text);
  std::vector<std::string> sections;
  std::string out;
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (std::regex_match(line, m, line_form)) {
      const std::size_t depth = m[1].length() / 2;
      sections.resize(depth);
      sections.push_back(m[2]);
      std::string path;
      for (const std::string& s : sections) path += (path.empty() ? "" : ".") + s;
      if (line.find("# REQUIRED") != std::string::npos && path != "type") {
        const auto v = values.find(path);
        if (v == values.end()) {
          ADD_FAILURE() << "the " << type << " template marks " << path
                        << " REQUIRED, and the test has no value for it";
        } else {
          line = m[1].str() + m[2].str() + ": " + v->second;
        }
      }
    }
    out += line + '\n';
  }
  return out;
}

TEST(CaseTemplates, EveryTypeValidatesOnceItsRequiredKeysAreFilled) {
  const auto values = required_values();
  ASSERT_EQ(hetflow::app::case_types().size(), 11u);
  std::set<std::string> seen;
  for (const hetflow::app::CaseType* type : hetflow::app::case_types()) {
    const hetflow::casefile::Schema schema = type->schema();
    const std::string name = schema.type_name();
    seen.insert(name);
    const auto given = values.find(name);
    const std::map<std::string, std::string> none;
    const std::string text = filled(name, schema.describe(), given == values.end() ? none : given->second);
    try {
      const hetflow::casefile::Case c =
          hetflow::casefile::parse_case(text, hetflow::app::case_registry(), {}, "<" + name + " template>");
      type->check(c);
    } catch (const std::exception& e) {
      ADD_FAILURE() << "the " << name << " template, filled in, is rejected:\n" << e.what() << "\n" << text;
    }
  }
  for (const auto& [name, keys] : values) EXPECT_TRUE(seen.count(name)) << "no case type " << name;
}

// ---- re-running a run ------------------------------------------------------------------------------

// A small case of each type, written to cases/TYPE.yaml with its files in cases/data/ and read through
// relative paths.
struct SmallCase {
  std::string yaml;
  std::vector<std::pair<fs::path, std::string>> files;  // source (in the repository), name in cases/data/
};

std::map<std::string, SmallCase> small_cases() {
  const fs::path h2o2 = source_root / "data/mechanisms/h2o2.yaml";
  const fs::path examples = source_root / "examples";
  const std::vector<std::pair<fs::path, std::string>> forcing{{examples / "karst_storm_inlet.csv", "inlet.csv"},
                                                              {examples / "karst_storm_velocity.csv", "velocity.csv"}};
  auto inversion_files = forcing;
  inversion_files.emplace_back(examples / "karst_storm_observed.csv", "observed.csv");
  const std::string karst_grid = "forcing:\n  inlet: data/inlet.csv\n  velocity: data/velocity.csv\n"
                                 "grid:\n  nodes: 20\n  rock_nodes: 5\n  initial: 10\n";
  return {
      {"selftest", {"type: selftest\nselftest:\n  size: [12, 10, 8]\n  steps: 20\n  bandwidth: false\n"
                    "output:\n  every: 10\n  hdf5: true\n", {}}},
      {"lbm", {"type: lbm\ngeometry:\n  kind: cylinder\n  size: [16, 12, 4]\nlbm:\n  steps: 20\n  force: [1e-5, 0, 0]\n"
               "output:\n  every: 10\n  hdf5: true\n", {}}},
      {"ftle", {"type: ftle\nftle:\n  steps: 10\nseeds:\n  counts: [41, 21]\noutput:\n  hdf5: true\n", {}}},
      {"ignition", {"type: ignition\nmechanism:\n  file: data/h2o2.yaml\nmixture:\n  fuel: \"H2:1\"\n"
                    "initial:\n  temperature: [1200]\nignition:\n  end_time: 0.01\n", {{h2o2, "h2o2.yaml"}}}},
      {"reactor_batch", {"type: reactor_batch\nmechanism:\n  file: data/h2o2.yaml\nmixture:\n  fuel: \"H2:1\"\n"
                         "batch:\n  count: 20\n  dt: 1e-4\n", {{h2o2, "h2o2.yaml"}}}},
      {"equilibrium", {"type: equilibrium\nmechanism:\n  file: data/h2o2.yaml\nmixture:\n  fuel: \"H2:1\"\n"
                       "  phi: [0.5, 1]\n", {{h2o2, "h2o2.yaml"}}}},
      {"flamelet", {"type: flamelet\nmechanism:\n  file: data/h2o2.yaml\nmixture:\n  fuel: \"H2:1, N2:1\"\n"
                    "grid:\n  points: 6\nflamelet:\n  chi_st: [1000]\n", {{h2o2, "h2o2.yaml"}}}},
      {"karst", {"type: karst\n" + karst_grid + "model:\n  st: [2, 10]\ntime:\n  dt: 0.02\n  end: 2\n", forcing}},
      {"karst_inversion", {"type: karst_inversion\n" + karst_grid + "observed:\n  file: data/observed.csv\n"
                           "inversion:\n  noise: 0.01\n  max_evaluations: 5\n", inversion_files}},
      {"incompressible", {"type: incompressible\nmesh:\n  cells: [4, 4, 1]\n  upper: [1, 1, 0.25]\n"
                          "fluid:\n  viscosity: 0.1\ntime:\n  end: 0.05\noutput:\n  every: 5\n"
                          "boundary:\n  y_max: {type: velocity, value: [1, 0, 0]}\n  x_min: {type: no_slip}\n"
                          "  x_max: {type: no_slip}\n  y_min: {type: no_slip}\n  z_min: {type: slip}\n"
                          "  z_max: {type: slip}\n", {}}},
      {"compressible", {"type: compressible\ndomain: {roots: [2, 1], block_size: 8, max_level: 0}\n"
                        "initial:\n  background: {rho: 1, p: 1}\ntime: {end: 0.01}\n", {}}},
  };
}

class RunAgain : public hetflow::test::CommandTest {
 protected:
  // Writes the small case of `type` to cases/TYPE.yaml, with its files.
  void write_case(const std::string& type, const SmallCase& small) const {
    write("cases/" + type + ".yaml", small.yaml);
    fs::create_directories(dir / "cases/data");
    for (const auto& [from, name] : small.files)
      fs::copy_file(from, dir / "cases/data" / name, fs::copy_options::overwrite_existing);
  }

  // Every file of run `a` but its manifest, case.yaml and lock file (which hold times, the command line,
  // the process and the run directory) is in run `b` with the same bytes, and `b` has no file `a` lacks.
  // A JSON result file is compared without its timings (keys "seconds" and "..._per_second"), which no
  // run repeats.
  void expect_same_files(const fs::path& a, const fs::path& b, const std::string& type) const {
    std::set<std::string> names_a, names_b;
    for (const auto& e : fs::directory_iterator(dir / a)) names_a.insert(e.path().filename().string());
    for (const auto& e : fs::directory_iterator(dir / b)) names_b.insert(e.path().filename().string());
    EXPECT_EQ(names_a, names_b) << type;
    std::size_t compared = 0;
    for (const std::string& name : names_a) {
      if (name == "manifest.json" || name == "case.yaml" || name == ".hetflow-lock" || !names_b.count(name)) continue;
      if (fs::path(name).extension() == ".json") {
        EXPECT_EQ(without_timings(nlohmann::json::parse(file_text(dir / a / name))),
                  without_timings(nlohmann::json::parse(file_text(dir / b / name))))
            << type << ": " << name << " differs";
      } else {
        EXPECT_TRUE(file_text(dir / a / name) == file_text(dir / b / name)) << type << ": " << name << " differs";
      }
      ++compared;
    }
    EXPECT_GE(compared, 1u) << type << " wrote no output to compare";
  }
};

// Each type's small case runs from the test folder (not the case's folder: its relative paths read from
// cases/), and its case.yaml, run from another folder into another directory, writes the same bytes.
TEST_F(RunAgain, EveryTypeReproducesItsRunFromItsCaseYaml) {
  const auto cases = small_cases();
  fs::create_directories(dir / "elsewhere");
  for (const hetflow::app::CaseType* type : hetflow::app::case_types()) {
    const std::string name = type->schema().type_name();
    const auto small = cases.find(name);
    if (small == cases.end()) {
      ADD_FAILURE() << "no small case of type " << name << " to run again";
      continue;
    }
    write_case(name, small->second);
    const Result first = run_hetflow("run cases/" + name + ".yaml --device " + device() + " -q --output first/" + name);
    ASSERT_EQ(first.status, 0) << name << ": " << first.output;
    const std::string recorded = file_text(dir / "first" / name / "case.yaml");
    EXPECT_EQ(recorded.rfind("# The case of the hetflow run in this folder, as given: cases/" + name + ".yaml", 0), 0u)
        << recorded;
    EXPECT_TRUE(manifest("first/" + name)["outputs"].contains("case.yaml")) << name;
    const Result again = run_shell("cd elsewhere && '" + std::string(HETFLOW_EXE) + "' run ../first/" + name +
                                   "/case.yaml -q --output ../again/" + name);
    ASSERT_EQ(again.status, 0) << name << ": " << again.output << "\n" << recorded;
    expect_same_files("first/" + name, "again/" + name, name);
  }
}

// The manifest stands for its case: `hetflow run DIR/manifest.json` runs the case it records.
TEST_F(RunAgain, AManifestRunsTheCaseItRecords) {
  write_case("karst", small_cases().at("karst"));
  ASSERT_EQ(run_hetflow("run cases/karst.yaml --device " + device() + " -q --output first").status, 0);
  const Result again = run_shell("cd cases && '" + std::string(HETFLOW_EXE) + "' run ../first/manifest.json -q "
                                 "--output ../again");
  ASSERT_EQ(again.status, 0) << again.output;
  expect_same_files("first", "again", "karst");
  EXPECT_EQ(manifest("again")["case_source"], "../first/manifest.json");
}

// A given key's value is what the case gave, relative paths made absolute against the case's folder; keys
// the case left out are not recorded, and a --set that overrules another key drops the overruled one.
TEST_F(RunAgain, TheRecordHoldsTheGivenKeysWithAbsolutePaths) {
  write_case("reactor_batch", small_cases().at("reactor_batch"));
  ASSERT_EQ(run_hetflow("run cases/reactor_batch.yaml --device " + device() + " -q --output first").status, 0);
  const nlohmann::json given = manifest("first")["case_given"];
  const fs::path cases = fs::weakly_canonical(dir / "cases");
  EXPECT_EQ(given["mechanism"]["file"], (cases / "data/h2o2.yaml").string());
  EXPECT_EQ(manifest("first")["case"]["mechanism"]["file"], (cases / "data/h2o2.yaml").string());
  EXPECT_EQ(given["batch"], nlohmann::json::parse(R"({"count": 20, "dt": 0.0001})"));
  EXPECT_FALSE(given.contains("solver"));
  EXPECT_EQ(given["device"]["select"], device());

  write("steps.yaml", "type: ftle\nftle:\n  steps: 10\nseeds:\n  counts: [21, 11]\n");
  ASSERT_EQ(run_hetflow("run steps.yaml --device " + device() + " -q --output ftle --set ftle.dt=0.5").status, 0);
  const std::string recorded = file_text(dir / "ftle/case.yaml");
  EXPECT_NE(recorded.find("ftle:\n  dt: 0.5\n"), std::string::npos) << recorded;
  EXPECT_EQ(recorded.find("steps:"), std::string::npos) << recorded;
}

// ---- relative paths --------------------------------------------------------------------------------

// Chem and karst cases in a subfolder read their files from that folder, whatever the working directory
// (this test's is not it); a missing file is named as given and as resolved.
TEST_F(RunAgain, RelativePathsReadFromTheCaseFilesFolder) {
  const auto cases = small_cases();
  const fs::path folder = fs::weakly_canonical(dir / "cases");
  for (const std::string name : {"ignition", "reactor_batch", "karst", "karst_inversion"}) {
    write_case(name, cases.at(name));
    const hetflow::casefile::Case c = hetflow::casefile::load_case(dir / "cases" / (name + ".yaml"),
                                                                   hetflow::app::case_registry());
    EXPECT_NO_THROW(hetflow::app::find_case_type(name).check(c)) << name;
  }
  const hetflow::casefile::Case k =
      hetflow::casefile::load_case(dir / "cases/karst.yaml", hetflow::app::case_registry());
  EXPECT_EQ(k.get<std::string>("forcing.inlet"), (folder / "data/inlet.csv").string());

  write("cases/missing.yaml", "type: reactor_batch\nmechanism:\n  file: data/none.yaml\n");
  const Result r = run_hetflow("run cases/missing.yaml --device " + device());
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("cases/missing.yaml:3: mechanism.file = data/none.yaml (resolved to " +
                          (folder / "data/none.yaml").string() + "): no such file"),
            std::string::npos)
      << r.output;
}

}  // namespace
