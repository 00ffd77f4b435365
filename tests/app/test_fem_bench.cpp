// `hetflow bench fem`: its bytes model and, on the test device, the cases of the smallest cavity mesh.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "command_test.hpp"
#include "hetflow/app/fem/fem_bench_model.hpp"
#include "test_devices.hpp"

namespace {

namespace fs = std::filesystem;

// n = 1000 nodes and E = 14000 directed edges, counted by hand: an edge loop moves 132 E + 4 n = 1 852 000
// bytes before its node vectors.
TEST(FemBenchModel, CountsEachArrayOncePerNodeAndEachUsedRecordSlotOnce) {
  const hetflow::app::FemBytes b(1000, 14000);
  EXPECT_DOUBLE_EQ(b.spmv, 15000 * 12 + 1000 * 16);
  // Edge loops: 14000 columns of 4 B and 3 (d), 9 (Λ's diagonal and pair sums, d) or 9 (tr Λ, d, g) slots
  // of 8 B per edge.
  EXPECT_DOUBLE_EQ(b.convective_projection, 14000 * 28 + 1000 * 56);
  EXPECT_DOUBLE_EQ(b.momentum_residual, 14000 * 76 + 1000 * 96);
  EXPECT_DOUBLE_EQ(b.pressure_assembly, 14000 * 76 + 15000 * 8 + 1000 * 81);
  EXPECT_DOUBLE_EQ(b.diagnostics, 14000 * 28 + 1000 * 48);
  EXPECT_DOUBLE_EQ(b.cg_iteration, 196000 + 1000 * 104);
  // τ 40 n, Π, the copy 48 n, 4 residuals, RK stages 3 × 128 n + 80 n, the assembly, the CG start 40 n, the
  // correction (edge loop + 80 n), ξ (edge loop + 40 n), the diagnostics.
  EXPECT_DOUBLE_EQ(b.step_fixed, 8289000);
  EXPECT_DOUBLE_EQ(b.step(100), 8289000 + 100 * 300000);
  // FP32 CG values: the SpMV's 15000 entries take 8 bytes, its vectors and the CG's 4 a node.
  const hetflow::app::FemBytes f(1000, 14000, 4);
  EXPECT_DOUBLE_EQ(f.spmv, 15000 * 8 + 1000 * 8);
  EXPECT_DOUBLE_EQ(f.cg_iteration, 128000 + 1000 * 52);
}

class FemBench : public hetflow::test::CommandTest {};

// The cases of the 14^3 mesh, in order; without a tuning database entry there is
// no "spmv tuned".
TEST_F(FemBench, TheSmallestMeshGivesEveryKernelAndTheStep) {
  const hetflow::test::CommandResult r =
      run_hetflow("bench fem --device " + device() + " --repeats 1 --only '^14\\^3 ' -o results", "HETFLOW_NO_TUNE=1");
  ASSERT_EQ(r.status, 0) << r.output;
  std::vector<fs::path> written;
  for (const auto& e : fs::recursive_directory_iterator(dir / "results"))
    if (e.is_regular_file()) written.push_back(e.path());
  ASSERT_EQ(written.size(), 1u) << r.output;
  std::ifstream in(written[0]);
  const nlohmann::json report = nlohmann::json::parse(in);
  EXPECT_EQ(report["benchmark"], "fem");
  std::vector<std::string> names;
  for (const auto& c : report["cases"]) {
    names.push_back(c["name"]);
    EXPECT_EQ(c["params"]["nodes"], 3375) << c["name"];
    EXPECT_EQ(c["params"]["directed_edges"], 42028) << c["name"];
    EXPECT_GT(c["efficiency"].get<double>(), 0) << c["name"];
  }
  EXPECT_EQ(names, (std::vector<std::string>{"14^3 spmv paper", "14^3 convective projection", "14^3 momentum residual",
                                             "14^3 pressure assembly", "14^3 diagnostics", "14^3 step jacobi",
                                             "14^3 step amg", "14^3 step jacobi fp32", "14^3 step amg fp32"}));
  const auto step = [&](const std::string& name) {
    const auto at = std::find(names.begin(), names.end(), name);
    EXPECT_NE(at, names.end()) << name;
    return report["cases"][static_cast<std::size_t>(at - names.begin())];
  };
  // The paper's SpMV runs on compressed sparse rows.
  EXPECT_EQ(step("14^3 spmv paper")["params"]["slice_rows"], 1);
  for (const char* name : {"14^3 step jacobi", "14^3 step amg", "14^3 step jacobi fp32", "14^3 step amg fp32"}) {
    const nlohmann::json s = step(name);
    EXPECT_EQ(s["unit"], "ms/step");
    EXPECT_GT(s["params"]["cg_iterations_median"].get<double>(), 0);
    EXPECT_NEAR(s["params"]["measured_over_limit"].get<double>() * s["efficiency"].get<double>(), 1.0, 1e-12);
  }
  EXPECT_EQ(step("14^3 step amg fp32")["params"]["cg_tolerance"], 1e-6);
  // The AMG preconditioner cuts the pressure CG's iterations (measured 17 against 166 on this mesh on PoCL).
  EXPECT_LT(5 * step("14^3 step amg")["params"]["cg_iterations_median"].get<double>(),
            step("14^3 step jacobi")["params"]["cg_iterations_median"].get<double>());
}

}  // namespace
