// TNT's constants rc and ec tuned per problem class: the search on the deterministic work objective
// beats the defaults on two SVC classes without losing the KKT point, the tuning database gives the
// constants back by class, and `hetflow tune nnls-constants` / `hetflow nnls --class` use them end to
// end; malformed classes, constants and entries are named errors.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "command_test.hpp"
#include "error_of.hpp"
#include "hetflow/app/nnls/tnt_class.hpp"
#include "hetflow/app/nnls/tnt_constants_choice.hpp"
#include "hetflow/app/nnls/tnt_constants_tunable.hpp"
#include "hetflow/core/number_text.hpp"
#include "hetflow/io/matrix_file.hpp"
#include "hetflow/nnls/fnnls.hpp"
#include "hetflow/nnls/kkt.hpp"
#include "hetflow/nnls/test_problems.hpp"
#include "hetflow/nnls/tnt.hpp"
#include "hetflow/nnls/tnt_work.hpp"
#include "temp_dir.hpp"
#include "test_devices.hpp"

namespace hetflow::app {
namespace {

namespace fs = std::filesystem;

double norm2(const nnls::Vector& v) {
  double s = 0;
  for (const double x : v) s += x * x;
  return std::sqrt(s);
}

// A class of one SVC problem with 10 % of the variables active, tuned on the work objective by
// annealing with 8 evaluations (seed 1). The references are the work counts on PoCL; the tolerance of
// 5 % leaves room for a device whose rounding takes TNT along a slightly different path.
struct ClassCase {
  std::size_t n;
  double kappa;
  double default_work;  // rc 0.8, ec 1.2 (TntOptions)
  double tuned_work;
};

TEST(TntConstantsTuning, TunedConstantsBeatTheDefaultsAndKeepTheKktPoint) {
  const core::DeviceSet devices = test::test_device();
  if (!devices.device(0).info.fp64) GTEST_SKIP() << "the test device has no FP64";
  for (const ClassCase& c : {ClassCase{200, 1e4, 69.6, 58.8}, ClassCase{100, 1e6, 87.8, 79.4}}) {
    SCOPED_TRACE("kappa " + std::to_string(c.kappa));
    TntClass problem_class;
    problem_class.name = "test";
    problem_class.n = c.n;
    problem_class.kappas = {c.kappa};
    const tune::Tunable t = tnt_constants_tunable(devices, problem_class, TntObjective::work, {});
    EXPECT_EQ(t.cost_unit, "work");
    EXPECT_TRUE(t.device_independent);
    EXPECT_EQ(t.space.feasible_size(), 19u * 7u);
    tune::TunerOptions options;
    options.search = tune::Search::annealing;
    options.budget = 8;
    const tune::TuneResult r = tune::tune(t.space, t.seconds, t.defaults, options);
    double default_work = 0;
    for (const tune::Trial& trial : r.trials)
      if (trial.setting == t.defaults) default_work = trial.seconds;
    EXPECT_NEAR(default_work, c.default_work, 0.05 * c.default_work);
    EXPECT_NEAR(r.best_seconds, c.tuned_work, 0.05 * c.tuned_work);
    EXPECT_LT(r.best_seconds, default_work);

    // The tuned constants reach the KKT point as the defaults do (the tolerances of tests/nnls/test_tnt.cpp).
    const TntClassProblem p = tnt_class_problems(problem_class).front();
    const nnls::Vector b = p.B.data;
    nnls::TntOptions o;
    o.reduction = std::stod(r.best.at("rc"));
    o.expansion = std::stod(r.best.at("ec"));
    nnls::Tnt tnt(devices);
    const nnls::TntResult s = tnt.solve(p.A, b, o);
    EXPECT_TRUE(s.converged) << s.diagnosis;
    EXPECT_NEAR(nnls::tnt_work(s), r.best_seconds, 1e-12);  // the objective is the solve's count
    EXPECT_TRUE(nnls::kkt_report(p.A, b, s.x).satisfied(1e-10));
    const nnls::Solution f = nnls::fnnls(p.A, b);
    EXPECT_LE(s.residual_norm, f.residual_norm * (1.0 + 1e-8) + 1e-14 * norm2(b));
  }
}

// A tuning database in a fresh folder, with the entries `hetflow tune nnls-constants` writes.
class TntConstantsDatabase : public ::testing::Test {
 protected:
  static core::DeviceInfo device(std::string name = "GPU X") {
    core::DeviceInfo d;
    d.name = std::move(name);
    d.driver = "550.1";
    return d;
  }
  static tune::Entry entry(std::string rc, std::string ec, std::string cost_unit) {
    tune::Entry e;
    e.best = {{"rc", std::move(rc)}, {"ec", std::move(ec)}};
    e.best_seconds = 12.5;
    e.cost_unit = std::move(cost_unit);
    e.search = "annealing";
    e.evaluations = 8;
    e.problem = "SVC 200 x 200";
    return e;
  }
  tune::Database db() const { return tune::Database(dir / "tuning.json"); }

  test::TempDir dir;
};

// A counted entry serves every device; an entry timed on this device comes first; the command line
// overrides either constant.
TEST_F(TntConstantsDatabase, TheClassGivesItsConstantsBack) {
  db().store(tnt_constants_key(device(), "svc", TntObjective::work), entry("0.85", "1.35", "work"));
  TntConstantsChoice c = choose_tnt_constants(device("GPU Y"), "svc", std::nullopt, std::nullopt, db());
  EXPECT_EQ(c.reduction, 0.85);  // the stored text, read back exactly
  EXPECT_EQ(c.expansion, 1.35);
  EXPECT_EQ(c.reduction_source, "tuned class svc");
  EXPECT_EQ(c.record.at("class").at("tuned_for"), "any device");
  EXPECT_EQ(c.record.at("class").at("objective"), "work");
  EXPECT_EQ(c.record.at("class").at("cost"), 12.5);
  EXPECT_EQ(describe(c), "rc 0.85 (tuned class svc), ec 1.35 (tuned class svc)");

  db().store(tnt_constants_key(device(), "svc", TntObjective::time), entry("0.50", "1.05", ""));
  c = choose_tnt_constants(device(), "svc", std::nullopt, 1.8, db());
  EXPECT_EQ(c.reduction, 0.5);
  EXPECT_EQ(c.expansion, 1.8);
  EXPECT_EQ(c.record.at("class").at("tuned_for"), "GPU X");
  EXPECT_EQ(c.record.at("class").at("cost_unit"), "s");
  EXPECT_EQ(c.record.at("ec_source"), "command line");
  EXPECT_EQ(choose_tnt_constants(device("GPU Y"), "svc", {}, {}, db()).reduction, 0.85);  // not timed there

  c = choose_tnt_constants(device(), "", std::nullopt, std::nullopt, db());
  EXPECT_EQ(c.reduction, 0.8);  // nnls::TntOptions' defaults
  EXPECT_EQ(c.expansion, 1.2);
  EXPECT_EQ(describe(c), "rc 0.8 (default), ec 1.2 (default)");
  EXPECT_FALSE(c.record.contains("class"));
}

TEST_F(TntConstantsDatabase, MalformedClassesConstantsAndEntriesAreNamed) {
  const std::string path = (dir / "tuning.json").string();
  const auto choose = [&](const std::string& name, std::optional<double> rc, std::optional<double> ec,
                          const core::DeviceInfo& d = device()) {
    return test::error_of([&] { choose_tnt_constants(d, name, rc, ec, db()); });
  };
  EXPECT_EQ(choose("svc", {}, {}), "--class svc: no TNT constants tuned for class 'svc' in " + path +
                                       " (it holds none); `hetflow tune nnls-constants --class svc` tunes them");
  db().store(tnt_constants_key(device(), "svc", TntObjective::time), entry("0.50", "1.05", ""));
  db().store(tnt_constants_key(device(), "bad-rc", TntObjective::work), entry("1.5", "1.2", "work"));
  db().store(tnt_constants_key(device(), "bad-ec", TntObjective::work), entry("0.5", "0.9", "work"));
  db().store(tnt_constants_key(device(), "text", TntObjective::work), entry("half", "1.2", "work"));
  EXPECT_EQ(choose("nope", {}, {}), "--class nope: no TNT constants tuned for class 'nope' in " + path +
                                        " (its classes: svc, bad-rc, bad-ec, text); `hetflow tune nnls-constants "
                                        "--class nope` tunes them");
  EXPECT_EQ(choose("svc", {}, {}, device("GPU Y")),
            "--class svc: no TNT constants tuned for class 'svc' on 'GPU Y' (driver 550.1) in " + path +
                ": it was tuned for device 'GPU X' (driver 550.1); `hetflow tune nnls-constants --class svc` tunes "
                "it here");
  EXPECT_EQ(choose("nope", 0.5, 1.5), choose("nope", {}, {}));  // a misspelt class is an error all the same
  EXPECT_EQ(choose("a b", {}, {}), "--class 'a b': a class name is one or more letters, digits, '.', '_' and '-'");
  EXPECT_EQ(choose("bad-rc", {}, {}), path + ": class bad-rc: rc = 1.5: TNT's reduction constant must lie in (0, 1)");
  EXPECT_EQ(choose("bad-ec", {}, {}),
            path + ": class bad-ec: ec = 0.9: TNT's expansion constant must be finite and >= 1");
  EXPECT_EQ(choose("text", {}, {}), path + ": class text: rc = 'half' is not a number");
  EXPECT_EQ(choose("", 1.0, {}), "--rc = 1: TNT's reduction constant must lie in (0, 1)");
  EXPECT_EQ(choose("", 0.0, {}), "--rc = 0: TNT's reduction constant must lie in (0, 1)");
  EXPECT_EQ(choose("", {}, 0.5), "--ec = 0.5: TNT's expansion constant must be finite and >= 1");
  EXPECT_EQ(choose("svc", {}, {}), "no error");
}

TEST(TntClassDefinition, BadParametersAreNamed) {
  const auto error = [](TntClass c) { return test::error_of([&] { validate(c); }); };
  TntClass c;
  c.name = "svc";
  EXPECT_EQ(error(c), "no error");
  EXPECT_EQ(describe(c), "SVC 200 x 200 (seed 5), kappa 100, 10 % active (seed 7)");
  c.kappas = {1e2, 1e6};
  c.active = {0.05, 0.5};
  EXPECT_EQ(describe(c), "SVC 200 x 200 (seed 5), kappa 100 and 1e+06, 5 % and 50 % active (seed 7)");
  c.kappas = {0.5};
  EXPECT_EQ(error(c), "--kappa 0.5: a condition number must be finite and >= 1");
  c.kappas = {1e2};
  c.active = {1.0};
  EXPECT_EQ(error(c), "--active 1: the fraction of active variables must lie in [0, 1)");
  c.active = {0.1};
  c.name = "";
  EXPECT_EQ(error(c), "--class '': a class name is one or more letters, digits, '.', '_' and '-'");
  c.name = "files";
  c.files = {"A.npy", "b.npy", "A2.npy"};
  EXPECT_EQ(error(c), "--problem A2.npy: each problem is a matrix file and a right-hand-side file");
  c.files.pop_back();
  EXPECT_EQ(describe(c), "A.npy with b.npy");
}

class NnlsTuningCommand : public test::CommandTest {
 protected:
  std::string env() const { return "HETFLOW_TUNING_DB='" + (dir / "db.json").string() + "'"; }
  nlohmann::json json_file(const fs::path& name) const {
    std::ifstream in(dir / name);
    return nlohmann::json::parse(in);
  }
  // A 30 x 20 problem (kappa 100, 40 % active) with a known solution, as A.npy and b.npy.
  void write_problem() const {
    const nnls::Matrix A = nnls::random_matrix(30, 20, 100.0, 7);
    io::write_dense(dir / "A.npy", {{A.rows, A.cols}, A.data});
    io::write_dense(dir / "b.npy", {{A.rows}, nnls::with_active_set(A, 0.4, 11).b});
  }
};

// `hetflow tune nnls-constants` counts the work of a small SVC class and stores its best constants for
// any device; `hetflow nnls --class` takes them where --rc and --ec are not given, says so, and still
// reaches the KKT point.
TEST_F(NnlsTuningCommand, TheTunedClassIsWhatNnlsUses) {
  test::CommandResult r = run_hetflow(
      "tune nnls-constants --class small --size 60 --kappa 1e2,1e6 --objective work "
      "--budget 6 --device " +
          device(),
      env());
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("defaults: ec=1.20, rc=0.80, "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("annealing search: 6 of 133 settings evaluated"), std::string::npos) << r.output;
  const nlohmann::json db = json_file("db.json");
  ASSERT_EQ(db.at("entries").size(), 1u);
  const nlohmann::json& e = db.at("entries").at(0);
  EXPECT_EQ(e.at("key").at("tunable"), "nnls-constants");
  EXPECT_EQ(e.at("key").at("problem_class"), "small");
  EXPECT_EQ(e.at("key").at("device"), "any");
  EXPECT_EQ(e.at("cost_unit"), "work");
  EXPECT_EQ(e.at("evaluations"), 6);
  EXPECT_EQ(e.at("problem"),
            "SVC 60 x 60 (seed 5), kappa 100 and 1e+06, 10 % active (seed 7); work = "
            "factorisations + 0.1 PCGNR iterations");
  const double rc = std::stod(e.at("best").at("rc").get<std::string>());
  const double ec = std::stod(e.at("best").at("ec").get<std::string>());

  write_problem();
  r = run_hetflow("nnls A.npy b.npy -o tuned --class small --device " + device(), env());
  ASSERT_EQ(r.status, 0) << r.output;
  const std::string used = "TNT constants: rc " + e.at("best").at("rc").get<std::string>();
  nlohmann::json report = json_file("tuned/report.json");
  EXPECT_EQ(report.at("options").at("rc"), rc);
  EXPECT_EQ(report.at("options").at("ec"), ec);
  const nlohmann::json& constants = report.at("constants");
  EXPECT_EQ(constants.at("rc"), rc);
  EXPECT_EQ(constants.at("rc_source"), "tuned class small");
  EXPECT_EQ(constants.at("ec_source"), "tuned class small");
  EXPECT_EQ(constants.at("class").at("tuned_for"), "any device");
  EXPECT_EQ(constants.at("class").at("cost"), e.at("best_seconds"));
  const nlohmann::json& rhs = report.at("rhs").at(0);
  EXPECT_TRUE(rhs.at("converged").get<bool>());
  EXPECT_LE(rhs.at("kkt").at("max_active_gradient").get<double>(), 1e-10);
  EXPECT_LE(rhs.at("kkt").at("max_free_gradient").get<double>(), 1e-10);
  EXPECT_NEAR(rhs.at("relative_residual").get<double>(), 1 / std::sqrt(5.0), 1e-10);  // with_active_set's

  r = run_hetflow("nnls A.npy b.npy -o mixed --class small --rc 0.5 --device " + device(), env());
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(
      r.output.find("TNT constants: rc 0.5 (command line), ec " + core::shortest_text(ec) + " (tuned class small)"),
      std::string::npos)
      << r.output;
  r = run_hetflow("nnls A.npy b.npy -o plain --device " + device(), env());
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("TNT constants: rc 0.8 (default), ec 1.2 (default)"), std::string::npos) << r.output;
  EXPECT_EQ(json_file("plain/report.json").at("constants").at("rc_source"), "default");
}

// The user's own matrix and right-hand side as the class, timed on the device.
TEST_F(NnlsTuningCommand, AClassOfTheUsersFiles) {
  write_problem();
  const test::CommandResult r = run_hetflow(
      "tune nnls-constants --class mine --problem A.npy b.npy --repeats 1 --budget 4 --device " + device(), env());
  ASSERT_EQ(r.status, 0) << r.output;
  const nlohmann::json e = json_file("db.json").at("entries").at(0);
  EXPECT_NE(e.at("key").at("device"), "any");  // timed: this device's
  EXPECT_FALSE(e.contains("cost_unit"));
  EXPECT_EQ(e.at("problem"), "A.npy with b.npy");
  EXPECT_EQ(e.at("evaluations"), 4);
  EXPECT_GT(e.at("best_seconds").get<double>(), 0.0);
}

TEST_F(NnlsTuningCommand, MalformedInputIsNamed) {
  write_problem();
  struct Case {
    std::string args;
    int status;
    std::string message;
    bool on_device = true;  // --device is TNT's, refused with a host method
  };
  const std::string db = (dir / "db.json").string();
  for (const Case& c : std::vector<Case>{
           {"nnls A.npy b.npy -o out --class nope", 1,
            "hetflow: error: --class nope: no TNT constants tuned for class 'nope' in " + db +
                " (it holds none); `hetflow tune nnls-constants --class nope` tunes them"},
           {"nnls A.npy b.npy -o out --rc 1.5", 2, "--rc: 1.5: TNT's reduction constant must lie in (0, 1)"},
           {"nnls A.npy b.npy -o out --rc 0", 2, "--rc: 0: TNT's reduction constant must lie in (0, 1)"},
           {"nnls A.npy b.npy -o out --ec 0.5", 2, "--ec: 0.5: TNT's expansion constant must be finite and >= 1"},
           {"nnls A.npy b.npy -o out --ec x", 2, "--ec: 'x' is not a number"},
           {"nnls A.npy b.npy -o out --reach 0.5", 2, "--reach: 0.5: TNT's early reach must be finite and >= 1"},
           {"nnls A.npy b.npy -o out --reach inf", 2, "--reach: inf: TNT's early reach must be finite and >= 1"},
           {"nnls A.npy b.npy -o out --reach 2 --method fnnls", 2, "--reach: applies to --method tnt only", false},
           {"nnls A.npy b.npy -o out --class small --no-tune", 2,
            "--class: reads the tuning database, which --no-tune turns off"},
           {"nnls A.npy b.npy -o out --class small --method fnnls", 2, "--class: applies to --method tnt only", false},
           {"tune nnls-constants --kappa 1e2", 1, "tune nnls-constants: --class NAME is required"},
           {"tune nnls-constants --class x --kappa 0.5", 1, "--kappa 0.5: a condition number must be finite and >= 1"},
           {"tune nnls-constants --class x --active 1", 1,
            "--active 1: the fraction of active variables must lie in [0, 1)"},
           {"tune nnls-constants --class x --problem A.npy b.npy --kappa 10", 1,
            "tune nnls-constants: --problem gives the class's problems; --size, --kappa and --active describe SVC "
            "ones instead"},
           {"tune nnls-constants --class x --problem A.npy missing.npy", 1, "cannot open 'missing.npy'"},
           {"tune nnls-constants --class x --objective speed", 2, "--objective"},
           {"tune nnls --class x", 1, "tune nnls: --class is for nnls-constants only"}}) {
    const test::CommandResult r = run_hetflow(c.args + (c.on_device ? " --device " + device() : ""), env());
    EXPECT_EQ(r.status, c.status) << c.args << ": " << r.output;
    EXPECT_NE(r.output.find(c.message), std::string::npos) << c.args << ": " << r.output;
    EXPECT_FALSE(fs::exists(dir / "out")) << c.args;
    EXPECT_FALSE(fs::exists(dir / "db.json")) << c.args;
  }
}

}  // namespace
}  // namespace hetflow::app
