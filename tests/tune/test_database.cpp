// The tuning database: a round trip through the file, keys that miss on any other device, driver,
// kernel source or problem class, defaults where nothing is tuned or tuning is disabled, and files
// that are not a database.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "hetflow/core/error.hpp"
#include "hetflow/tune/database.hpp"

namespace hetflow::tune {
namespace {

namespace fs = std::filesystem;

class TuningDatabase : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() / ("hetflow-tune-db-" + std::to_string(::getpid()) + "-" +
                                       ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir);
  }
  void TearDown() override {
    fs::remove_all(dir);
    ::unsetenv("HETFLOW_NO_TUNE");
  }

  static core::DeviceInfo device(std::string name = "GPU X", std::string driver = "550.1") {
    core::DeviceInfo d;
    d.name = std::move(name);
    d.driver = std::move(driver);
    return d;
  }
  static Key key(const core::DeviceInfo& d = device(), std::string problem = "fp32 single-phase",
                 std::string file = "lbm/lbm.cl") {
    const std::string files[] = {std::move(file)};
    return make_key("lbm", d, files, std::move(problem));
  }
  static Entry entry(std::string work_group = "128") {
    Entry e;
    e.best = {{"work_group", std::move(work_group)}, {"pattern", "aa"}};
    e.best_seconds = 0.5;
    e.mean_seconds = 1.25;
    e.worst_seconds = 4;
    e.best_rate = 1234.5;
    e.unit = "MLUPs/s";
    e.search = "annealing";
    e.evaluations = 12;
    e.space_size = 60;
    e.problem = "duct 64^3";
    e.tuned_at = "2026-01-01T00:00:00Z";
    return e;
  }

  fs::path dir;
};

TEST_F(TuningDatabase, RoundTripThroughTheFile) {
  const Database db(dir / "sub" / "tuning.json");  // the folder is created on the first store
  EXPECT_FALSE(db.find(key()));
  db.store(key(), entry());
  const std::optional<Entry> e = Database(db.path()).find(key());
  ASSERT_TRUE(e);
  EXPECT_EQ(e->best, entry().best);
  EXPECT_EQ(e->best_seconds, 0.5);  // doubles survive exactly
  EXPECT_EQ(e->mean_seconds, 1.25);
  EXPECT_EQ(e->worst_seconds, 4);
  EXPECT_EQ(e->best_rate, 1234.5);
  EXPECT_EQ(e->unit, "MLUPs/s");
  EXPECT_EQ(e->search, "annealing");
  EXPECT_EQ(e->evaluations, 12u);
  EXPECT_EQ(e->space_size, 60u);
  EXPECT_EQ(e->problem, "duct 64^3");
  EXPECT_EQ(e->tuned_at, "2026-01-01T00:00:00Z");

  // Storing the same key replaces its entry; other keys stay.
  db.store(key(device("GPU Y")), entry("64"));
  db.store(key(), entry("256"));
  EXPECT_EQ(db.size(), 2u);
  EXPECT_EQ(db.find(key())->best.at("work_group"), "256");
  EXPECT_EQ(db.find(key(device("GPU Y")))->best.at("work_group"), "64");
  // No temporary is left beside the file.
  std::size_t files = 0;
  for (const auto& f : fs::directory_iterator(dir / "sub")) files += f.is_regular_file() ? 1 : 0;
  EXPECT_EQ(files, 1u);
}

// An entry of a counted cost keeps its unit and, stored for any device, is found from every device's key
// made device-independent; keys() lists what the file holds.
TEST_F(TuningDatabase, CountedCostsAndEntriesForAnyDevice) {
  const Database db(dir / "tuning.json");
  EXPECT_TRUE(db.keys().empty());  // no file at all
  Entry counted = entry();
  counted.cost_unit = "work";
  counted.best_seconds = 30.0;
  db.store(for_any_device(key()), counted);
  db.store(key(), entry());
  const std::optional<Entry> e = db.find(for_any_device(key(device("GPU Z", "1.0"))));
  ASSERT_TRUE(e);
  EXPECT_EQ(e->cost_unit, "work");
  EXPECT_EQ(e->best_seconds, 30.0);
  EXPECT_EQ(db.find(key())->cost_unit, "");  // a time: no unit stored
  const std::vector<Key> keys = db.keys();
  ASSERT_EQ(keys.size(), 2u);
  EXPECT_EQ(keys[0].device, any_device);
  EXPECT_EQ(keys[0].driver, any_device);
  EXPECT_EQ(keys[0].problem_class, "fp32 single-phase");
  EXPECT_EQ(keys[1], key());
}

TEST_F(TuningDatabase, AnyOtherDeviceDriverSourceOrProblemMisses) {
  const Database db(dir / "tuning.json");
  db.store(key(), entry());
  EXPECT_TRUE(db.find(key()));
  EXPECT_FALSE(db.find(key(device("GPU X", "551.0"))));                       // new driver
  EXPECT_FALSE(db.find(key(device("GPU Z"))));                                // other device
  EXPECT_FALSE(db.find(key(device(), "fp16 single-phase")));                  // other problem class
  EXPECT_FALSE(db.find(key(device(), "fp32 single-phase", "core/probe.cl"))); // other kernel source
  Key other_tunable = key();
  other_tunable.tunable = "probe";
  EXPECT_FALSE(db.find(other_tunable));
}

TEST_F(TuningDatabase, SourceHashFollowsTheKernelText) {
  const Key lbm = key(), probe = key(device(), "fp32 single-phase", "core/probe.cl");
  EXPECT_EQ(lbm.source_hash.size(), 64u);  // SHA-256 in hex
  EXPECT_NE(lbm.source_hash, probe.source_hash);
  EXPECT_EQ(key().source_hash, lbm.source_hash);
  EXPECT_THROW(key(device(), "x", "no/such.cl"), core::Error);
}

TEST_F(TuningDatabase, DefaultsWhereNothingIsTuned) {
  const Database db(dir / "tuning.json");
  const Setting defaults{{"work_group", "64"}, {"pattern", "aa"}};
  EXPECT_EQ(tuned_or_default(db, key(), defaults), defaults);  // no file at all

  Entry partial = entry("256");
  partial.best = {{"work_group", "256"}, {"unrelated", "x"}};
  db.store(key(), partial);
  const Setting tuned = tuned_or_default(db, key(), defaults);
  EXPECT_EQ(tuned.at("work_group"), "256");
  EXPECT_EQ(tuned.at("pattern"), "aa");  // not in the entry: the default stays
  EXPECT_FALSE(tuned.contains("unrelated"));
  EXPECT_EQ(tuned_or_default(db, key(device("GPU Z")), defaults), defaults);

  ::setenv("HETFLOW_NO_TUNE", "1", 1);
  EXPECT_TRUE(tuning_disabled());
  EXPECT_EQ(tuned_or_default(db, key(), defaults), defaults);
  ::setenv("HETFLOW_NO_TUNE", "0", 1);
  EXPECT_FALSE(tuning_disabled());
}

TEST_F(TuningDatabase, AFileThatIsNoDatabaseIsNeitherTrustedNorOverwritten) {
  fs::create_directories(dir);
  for (const char* text : {"{ not json", R"({"format": "something-else", "version": 1, "entries": []})"}) {
    std::ofstream(dir / "tuning.json") << text;
    const Database db(dir / "tuning.json");
    EXPECT_FALSE(db.find(key())) << text;
    EXPECT_THROW(db.store(key(), entry()), core::Error) << text;
    std::ifstream in(dir / "tuning.json");
    EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), text);
  }
}

TEST_F(TuningDatabase, DefaultPathFromTheEnvironment) {
  const char* saved_db = std::getenv("HETFLOW_TUNING_DB");
  const char* saved_xdg = std::getenv("XDG_CACHE_HOME");
  const std::string db = saved_db ? saved_db : "", xdg = saved_xdg ? saved_xdg : "";
  ::setenv("HETFLOW_TUNING_DB", "/x/db.json", 1);
  ::setenv("XDG_CACHE_HOME", "/cache", 1);
  EXPECT_EQ(default_database_path(), fs::path("/x/db.json"));
  ::unsetenv("HETFLOW_TUNING_DB");
  EXPECT_EQ(default_database_path(), fs::path("/cache/hetflow/tuning.json"));
  if (saved_db) ::setenv("HETFLOW_TUNING_DB", db.c_str(), 1);
  if (saved_xdg) ::setenv("XDG_CACHE_HOME", xdg.c_str(), 1); else ::unsetenv("XDG_CACHE_HOME");
}

}  // namespace
}  // namespace hetflow::tune
