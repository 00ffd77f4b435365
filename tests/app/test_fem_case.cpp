// The incompressible case type through the `hetflow` executable: what bad input and failing runs report,
// and that a run's checkpoint and Ctrl-C keep what it computed.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "command_test.hpp"
#include "hetflow/io/csv.hpp"
#include "hetflow/io/pvd.hpp"
#include "test_devices.hpp"

namespace {

namespace fs = std::filesystem;

// A lid-driven slab of 4 x 4 x 1 cells: the smallest useful incompressible case; `extra` adds keys.
std::string slab(const std::string& extra = "") {
  return "type: incompressible\nmesh:\n  cells: [4, 4, 1]\n  upper: [1, 1, 0.25]\nfluid:\n  viscosity: 0.1\n"
         "boundary:\n  y_max: {type: velocity, value: [1, 0, 0]}\n  x_min: {type: no_slip}\n"
         "  x_max: {type: no_slip}\n  y_min: {type: no_slip}\n  z_min: {type: slip}\n  z_max: {type: slip}\n" +
         extra;
}

class FemCase : public hetflow::test::CommandTest {
 protected:
  hetflow::test::CommandResult run_case(const std::string& name, const std::string& text, const std::string& options = "") const {
    write(name + ".yaml", text);
    return run_hetflow("run " + name + ".yaml --device " + device() + " -q --output " + name + " " + options);
  }
};

TEST_F(FemCase, BadBoundaryConditionsExitTwoNamingThePatches) {
  // A patch the mesh lacks, and the mesh's patches left without a condition.
  hetflow::test::CommandResult r = run_case("unknown", slab("  top: {type: slip}\ntime:\n  end: 0.01\n"));
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("unknown.yaml: boundary: mesh 'box'"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("'top'"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("x_min, x_max, y_min, y_max, z_min, z_max"), std::string::npos) << r.output;

  r = run_case("missing", "type: incompressible\nmesh:\n  cells: [2, 2, 1]\nfluid:\n  viscosity: 0.1\n"
                          "time:\n  end: 0.01\nboundary:\n  x_min: {type: no_slip}\n");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("no boundary condition for the patches"), std::string::npos) << r.output;

  // A key of another condition's type, at its line.
  r = run_case("wrong_key", slab("  extra: {type: no_slip, value: [1, 0, 0]}\ntime:\n  end: 0.01\n"));
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("wrong_key.yaml:14: boundary.extra.value applies to type velocity, but "
                          "boundary.extra.type = no_slip"),
            std::string::npos)
      << r.output;
}

// An fp32 pressure solve asked for a residual below what single precision resolves is refused before the
// run starts, naming the key; at 1e-6 the case runs.
TEST_F(FemCase, AnFp32SolveNeedsATolerancePrecisionResolves) {
  hetflow::test::CommandResult r =
      run_case("tight", slab("time:\n  end: 0.02\nsolver:\n  cg_precision: fp32\n  tolerance: 1e-8\n"));
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("tight.yaml:18: solver.tolerance 1e-08 is below what an fp32 pressure solve reaches"),
            std::string::npos)
      << r.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "tight"));
  r = run_case("loose", slab("time:\n  end: 0.02\nsolver:\n  cg_precision: fp32\n  tolerance: 1e-6\n"));
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_GT(manifest("loose")["result"]["steps"].get<long>(), 0);
}

// A closed slab with velocities through two sides: 1 in and 1.05 out is balanced and recorded (0.05 of the
// gross 2.05), 1 in and nothing out is refused, naming the case and the rule.
TEST_F(FemCase, AClosedDomainsInflowIsBalancedOrRefused) {
  const std::string sides =
      "type: incompressible\nmesh:\n  cells: [4, 4, 1]\n  upper: [1, 1, 0.25]\nfluid:\n  viscosity: 0.1\n"
      "time:\n  end: 0.01\nboundary:\n  x_min: {type: velocity, value: [1, 0, 0]}\n  y_min: {type: slip}\n"
      "  y_max: {type: slip}\n  z_min: {type: slip}\n  z_max: {type: slip}\n";
  hetflow::test::CommandResult r = run_case("through", sides + "  x_max: {type: velocity, value: [1.05, 0, 0]}\n");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NEAR(manifest("through")["boundary"]["closed_flux_imbalance"].get<double>(), 0.05 / 2.05, 1e-14);
  r = run_case("blocked", sides + "  x_max: {type: slip}\n");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("blocked.yaml: boundary: mesh 'box': the velocity patches of a domain without an outlet "
                          "let in or out 100 % of the flow through them net"),
            std::string::npos)
      << r.output;
}

TEST_F(FemCase, AMalformedMeshFileAndAProbeOutsideTheMeshExitTwo) {
  write("bad.msh", "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n2\n1 0 0 0\n");
  hetflow::test::CommandResult r = run_case("file", "type: incompressible\nmesh:\n  kind: file\n  file: bad.msh\nfluid:\n"
                                     "  viscosity: 0.1\ntime:\n  end: 0.01\n");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("file.yaml:4: mesh.file = bad.msh"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("bad.msh:"), std::string::npos) << r.output;

  r = run_case("probe", slab("time:\n  end: 0.01\noutput:\n  probes:\n    far: {at: [2.5, 0.5, 0.1]}\n"));
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("probe 'far' at (2.5, 0.5, 0.1) is outside the mesh"), std::string::npos) << r.output;
}

// A fixed step far beyond the stability limit: the run stops at step 1 naming the node, exits 1, and the
// snapshot of step 0 and the log stay.
TEST_F(FemCase, ADivergingRunStopsNamingStepAndNodeAndKeepsItsOutputs) {
  const hetflow::test::CommandResult r = run_case("fast", slab("time:\n  end: 1\n  dt: 0.5\n"));
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("step 1 (from t = 0): the Courant number dt * rate = "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("largest at node "), std::string::npos) << r.output;
  EXPECT_TRUE(fs::exists(dir / "fast" / "fields_000000.vtu"));
  EXPECT_EQ(hetflow::io::read_pvd(dir / "fast" / "fields.pvd").size(), 1u);
  EXPECT_EQ(manifest("fast")["status"], "failed");
}

// With forces.patches, the run ends by writing the wall pressure and traction at each node of those
// patches (fem::wall_traction, tested on exact fields in test_fem): one row per node of the lid's and the
// floor's 5 x 2 nodes, their normals out of the fluid, at the run's last time.
TEST_F(FemCase, ForcePatchesGetTheirWallPressureAtEveryNode) {
  const hetflow::test::CommandResult r =
      run_case("walls", slab("time:\n  end: 0.05\nforces:\n  patches: [y_max, y_min]\noutput:\n  png: false\n"));
  ASSERT_EQ(r.status, 0) << r.output;
  const hetflow::io::CsvTable walls = hetflow::io::read_csv(dir / "walls" / "walls.csv");
  ASSERT_EQ(walls.rows.size(), 20u);
  for (const std::vector<double>& row : walls.rows) {
    const double patch = row[walls.column("patch")];
    EXPECT_EQ(row[walls.column("y")], patch == 0 ? 1.0 : 0.0);
    EXPECT_EQ(row[walls.column("ny")], patch == 0 ? 1.0 : -1.0);
    EXPECT_EQ(row[walls.column("nx")], 0.0);
    EXPECT_TRUE(std::isfinite(row[walls.column("p_wall")]));
    EXPECT_NEAR(row[walls.column("time")], 0.05, 1e-12);
  }
}

// A run continued from the checkpoint of a shorter one ends in the same bits as the run straight through:
// snapshots every 0.05 end steps there in all three runs, so they take the same steps.
TEST_F(FemCase, ARestartFromACheckpointRepeatsTheStraightRunBitForBit) {
  const std::string output = "output:\n  interval: 0.05\n  every: 1000\n  png: false\n";
  ASSERT_EQ(run_case("straight", slab("time:\n  end: 0.1\n" + output)).status, 0);
  ASSERT_EQ(run_case("first", slab("time:\n  end: 0.05\n" + output)).status, 0);
  const hetflow::test::CommandResult r =
      run_case("second", slab("time:\n  end: 0.1\n" + output + "initial:\n  checkpoint: first/checkpoint.bin\n"));
  ASSERT_EQ(r.status, 0) << r.output;
  const std::string straight = hetflow::test::file_text(dir / "straight" / "checkpoint.bin");
  EXPECT_GT(straight.size(), 1000u);
  EXPECT_TRUE(straight == hetflow::test::file_text(dir / "second" / "checkpoint.bin"));
  EXPECT_EQ(manifest("second")["result"]["steps"].get<long>() + manifest("first")["result"]["steps"].get<long>(),
            manifest("straight")["result"]["steps"].get<long>());
}

// A case that selects several devices splits the mesh over them (docs/fem.md, "Several devices") and runs
// as on one device: the same steps, and a kinetic energy equal to rounding (within the CG's tolerance on
// the GPU machine, whose second device is PoCL's CPU).
TEST_F(FemCase, SeveralDevicesSplitTheMeshAndRunAsOne) {
  // The parts' shares follow the devices' measured copy bandwidths, which differ a hundredfold or more
  // between a GPU and a loaded CPU: the 507 nodes of 12 x 12 x 2 cells leave the CPU some nodes where the
  // 50 of the usual slab may leave it none (a refused split).
  std::string text = slab("time:\n  end: 0.1\noutput:\n  every: 1000\n  png: false\n");
  text.replace(text.find("[4, 4, 1]"), 9, "[12, 12, 2]");
  write("split.yaml", text);
  const hetflow::test::CommandResult split =
      run_hetflow("run split.yaml --device " + several_devices() + " -q --output split");
  ASSERT_EQ(split.status, 0) << split.output;
  ASSERT_EQ(run_case("one", text).status, 0);
  EXPECT_GE(manifest("split")["solver"]["devices"].size(), 2u);
  EXPECT_EQ(manifest("split")["result"]["steps"], manifest("one")["result"]["steps"]);
  const double one = manifest("one")["result"]["kinetic_energy"].get<double>();
  EXPECT_GT(one, 1e-3);
  EXPECT_NEAR(manifest("split")["result"]["kinetic_energy"].get<double>(), one, 1e-8 * one);
}

TEST_F(FemCase, SigintStopsAfterAStepAndKeepsTheStateAndOutputs) {
  write("long.yaml", slab("time:\n  end: 1000000\noutput:\n  dir: long\n  every: 100000000\n  png: false\n"));
  EXPECT_EQ(run_interrupted({"long.yaml"}, "long/fields.pvd", std::chrono::milliseconds(300)), 130);
  expect_interrupted_keeping_outputs("long");
}

}  // namespace
