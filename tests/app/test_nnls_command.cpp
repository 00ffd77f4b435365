// `hetflow nnls` end to end: problems with a known solution (nnls::with_active_set) written as .npy,
// solved by each method through the executable, x.npy and report.json read back; several right-hand
// sides; input errors and a non-converged solve with their exit statuses and messages.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "command_test.hpp"
#include "hetflow/io/matrix_file.hpp"
#include "hetflow/io/npy.hpp"
#include "hetflow/nnls/test_problems.hpp"

namespace {

namespace fs = std::filesystem;
using hetflow::io::DenseArray;
using hetflow::nnls::Matrix;
using hetflow::nnls::Vector;

double relative_difference(const double* x, const Vector& reference) {
  double d = 0, r = 0;
  for (std::size_t i = 0; i < reference.size(); ++i) {
    d += (x[i] - reference[i]) * (x[i] - reference[i]);
    r += reference[i] * reference[i];
  }
  return std::sqrt(d / r);
}

class NnlsCommand : public hetflow::test::CommandTest {
 protected:
  // A 30 x 20 with kappa 100 and one right-hand side per active fraction, b.npy a vector when there is
  // one, else a 30 x k matrix; returns the known solutions.
  std::vector<Vector> write_problem(const std::vector<double>& active_fractions) const {
    const Matrix A = hetflow::nnls::random_matrix(30, 20, 100.0, 7);
    hetflow::io::write_dense(dir / "A.npy", {{A.rows, A.cols}, A.data});
    std::vector<Vector> solutions;
    DenseArray b{{A.rows}, {}};
    if (active_fractions.size() > 1) b.shape.push_back(active_fractions.size());
    for (std::size_t c = 0; c < active_fractions.size(); ++c) {
      const hetflow::nnls::Problem p = hetflow::nnls::with_active_set(A, active_fractions[c], 11 + c);
      EXPECT_TRUE(p.strict);
      b.values.insert(b.values.end(), p.b.begin(), p.b.end());
      solutions.push_back(p.x);
    }
    hetflow::io::write_dense(dir / "b.npy", b);
    return solutions;
  }

  std::string method_args(const std::string& method) const {
    return "--method " + method + (method == "tnt" ? " --device " + device() : "");
  }

  nlohmann::json report(const std::string& out) const {
    std::ifstream in(dir / out / "report.json");
    return nlohmann::json::parse(in);
  }
};

TEST_F(NnlsCommand, EachMethodRecoversTheKnownSolution) {
  const std::vector<Vector> truth = write_problem({0.4});
  for (const std::string method : {"tnt", "fnnls", "lawson-hanson"}) {
    const auto r = run_hetflow("nnls A.npy b.npy -o " + method + " " + method_args(method));
    ASSERT_EQ(r.status, 0) << method << ": " << r.output;
    EXPECT_NE(r.output.find("rhs 1/1: converged"), std::string::npos) << r.output;

    const DenseArray x = hetflow::io::read_npy(dir / method / "x.npy");
    ASSERT_EQ(x.shape, std::vector<std::size_t>{20}) << method;
    EXPECT_LE(relative_difference(x.values.data(), truth[0]), 1e-10) << method;

    const nlohmann::json j = report(method);
    EXPECT_EQ(j["method"], method);
    EXPECT_EQ(j["m"], 30);
    EXPECT_EQ(j["n"], 20);
    EXPECT_EQ(j["k"], 1);
    ASSERT_EQ(j["rhs"].size(), 1u);
    const nlohmann::json& rhs = j["rhs"][0];
    EXPECT_TRUE(rhs["converged"].get<bool>()) << method;
    EXPECT_EQ(rhs["diagnosis"], "");
    EXPECT_GE(rhs["iterations"].get<int>(), 1);
    EXPECT_EQ(rhs["positive"], 12);  // round(0.6 * 20) free variables
    EXPECT_EQ(rhs["zero"], 8);
    EXPECT_EQ(rhs["tiny"], 0);
    EXPECT_EQ(rhs["negative"], 0);
    EXPECT_NE(r.output.find("12 of 20 positive (above 1.5e-08 max|x|), 0 tiny, 8 zero"), std::string::npos) << r.output;
    // with_active_set puts ||r|| at ||A x|| / 2, so about 0.45 ||b||.
    EXPECT_NEAR(rhs["relative_residual"].get<double>(), 1 / std::sqrt(5.0), 1e-10);
    EXPECT_GE(rhs["kkt"]["min_x"].get<double>(), 0.0);
    EXPECT_LE(rhs["kkt"]["max_active_gradient"].get<double>(), 0.0);  // strict: every mu_j >= 0.5
    EXPECT_LE(rhs["kkt"]["max_free_gradient"].get<double>(), 1e-12);
    EXPECT_GE(rhs["seconds"].get<double>(), 0.0);
    EXPECT_EQ(rhs.contains("factorizations"), method == "tnt");
    if (method == "tnt") {
      EXPECT_GE(rhs["inner_iterations"].get<int>(), 1);
      EXPECT_GE(rhs["cg_iterations"].get<int>(), 1);
      EXPECT_GE(rhs["factorizations"].get<int>(), 1);
      // The time breakdown fits in the solve's time (the rest: gradients, residuals, line searches).
      EXPECT_GT(rhs["factor_seconds"].get<double>(), 0.0);
      EXPECT_LE(rhs["setup_seconds"].get<double>() + rhs["factor_seconds"].get<double>() +
                    rhs["cg_seconds"].get<double>(),
                rhs["seconds"].get<double>());
      EXPECT_EQ(j["device"]["type"], device().starts_with("gpu") ? "GPU" : "CPU");  // the one asked for
    }
  }
}

TEST_F(NnlsCommand, SeveralRightHandSides) {
  const std::vector<double> fractions = {0.05, 0.3, 0.6};
  const std::vector<Vector> truth = write_problem(fractions);
  for (const std::string method : {"tnt", "fnnls"}) {
    const auto r = run_hetflow("nnls A.npy b.npy -o " + method + " " + method_args(method));
    ASSERT_EQ(r.status, 0) << method << ": " << r.output;
    EXPECT_NE(r.output.find("rhs 3/3: converged"), std::string::npos) << r.output;
    const DenseArray x = hetflow::io::read_npy(dir / method / "x.npy");
    ASSERT_EQ(x.shape, (std::vector<std::size_t>{20, 3})) << method;
    for (std::size_t c = 0; c < truth.size(); ++c)
      EXPECT_LE(relative_difference(x.values.data() + 20 * c, truth[c]), 1e-10) << method << " rhs " << c;
    const nlohmann::json j = report(method);
    EXPECT_EQ(j["k"], 3);
    ASSERT_EQ(j["rhs"].size(), 3u);
    for (const auto& rhs : j["rhs"]) EXPECT_TRUE(rhs["converged"].get<bool>());
  }
}

// --reach sets TntOptions::early_reach and the report records it: on an ill-conditioned problem the reach
// changes which variables each first trial moves, and so the count of factorisations (which
// reach needs fewer depends on the problem: docs/nnls.md).
TEST_F(NnlsCommand, ReachSetsTheEarlyZeros) {
  const Matrix A = hetflow::nnls::random_matrix(60, 60, 1e8, 7);
  const hetflow::nnls::Problem p = hetflow::nnls::with_active_set(A, 0.05, 11);
  hetflow::io::write_dense(dir / "A.npy", {{A.rows, A.cols}, A.data});
  hetflow::io::write_dense(dir / "b.npy", {{A.rows}, p.b});
  int factorizations[2] = {};
  for (const int reach : {1, 4}) {
    const std::string out = "reach" + std::to_string(reach);
    const auto r =
        run_hetflow("nnls A.npy b.npy -o " + out + " --reach " + std::to_string(reach) + " " + method_args("tnt"));
    ASSERT_EQ(r.status, 0) << r.output;
    const nlohmann::json j = report(out);
    EXPECT_EQ(j["options"]["early_reach"], reach);
    EXPECT_TRUE(j["rhs"][0]["converged"].get<bool>());
    factorizations[reach == 4] = j["rhs"][0]["factorizations"].get<int>();
  }
  EXPECT_NE(factorizations[0], factorizations[1]);
}

TEST_F(NnlsCommand, UnusableInputIsNamedAndNothingIsWritten) {
  hetflow::io::write_dense(dir / "A.npy", {{6, 4}, Vector(24, 1.0)});
  hetflow::io::write_dense(dir / "b5.npy", {{5}, Vector(5, 1.0)});
  Vector with_nan(24, 1.0);
  with_nan[2 + 1 * 6] = std::numeric_limits<double>::quiet_NaN();
  hetflow::io::write_dense(dir / "nan.npy", {{6, 4}, with_nan});
  write("bad.npy", "this is not a NumPy file");

  struct Input {
    std::string args, expected;
  };
  for (const Input& b : std::vector<Input>{{"missing.npy b5.npy", "cannot open 'missing.npy'"},
                                       {"bad.npy b5.npy", "bad.npy"},
                                       {"A.npy b5.npy", "b5.npy: b has 5 rows but A has 6"},
                                       {"nan.npy b5.npy", "nan.npy: A(2, 1) = nan"}}) {
    const auto r = run_hetflow("nnls " + b.args + " -o out --device " + device());
    EXPECT_EQ(r.status, 1) << b.args << ": " << r.output;
    EXPECT_NE(r.output.find("hetflow: error: " + b.expected), std::string::npos) << b.args << ": " << r.output;
    EXPECT_FALSE(fs::exists(dir / "out")) << b.args;
  }
  // TNT's options with a host method are a command-line error.
  EXPECT_EQ(run_hetflow("nnls A.npy b5.npy --method fnnls --fp32").status, 2);
  EXPECT_EQ(run_hetflow("nnls A.npy b5.npy --method simplex").status, 2);
}

// An empty A (no rows, no columns, or neither) is refused as invalid input with its shape, not solved as
// "converged"; nothing is written.
TEST_F(NnlsCommand, EmptyMatrixIsInvalidInput) {
  hetflow::io::write_dense(dir / "b0.npy", {{0}, {}});
  hetflow::io::write_dense(dir / "b5.npy", {{5}, Vector(5, 1.0)});
  struct Empty {
    std::size_t rows, cols;
    std::string b;
  };
  for (const Empty& e : std::vector<Empty>{{0, 0, "b0.npy"}, {0, 5, "b0.npy"}, {5, 0, "b5.npy"}}) {
    const std::string shape = std::to_string(e.rows) + " x " + std::to_string(e.cols);
    hetflow::io::write_dense(dir / "A.npy", {{e.rows, e.cols}, {}});
    for (const std::string method : {"tnt", "fnnls"}) {
      const auto r = run_hetflow("nnls A.npy " + e.b + " -o out " + method_args(method));
      EXPECT_EQ(r.status, 2) << shape << " " << method << ": " << r.output;
      EXPECT_NE(r.output.find("hetflow: invalid input: A.npy: A is " + shape +
                              " (empty): expected a matrix with at least one row and one column"),
                std::string::npos)
          << shape << " " << method << ": " << r.output;
      EXPECT_FALSE(fs::exists(dir / "out")) << shape;
    }
  }
}

TEST_F(NnlsCommand, NonConvergedSolveStillWritesItsResults) {
  write_problem({0.4});
  // FNNLS frees one variable per iteration: one iteration cannot reach 12 free variables.
  const auto r = run_hetflow("nnls A.npy b.npy -o out --method fnnls --max-iterations 1");
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("1 of 1 right-hand sides did not converge"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("rhs 1/1: NOT converged"), std::string::npos) << r.output;
  ASSERT_TRUE(fs::exists(dir / "out" / "x.npy"));
  const nlohmann::json j = report("out");
  EXPECT_FALSE(j["rhs"][0]["converged"].get<bool>());
  EXPECT_EQ(j["rhs"][0]["iterations"], 1);
  EXPECT_NE(j["rhs"][0]["diagnosis"], "");
}

}  // namespace
