// `hetflow run` with `type: lbm` end to end: outputs, permeability against the analytic duct, bad
// cases, a lattice too large for the device, a run that blows up, and Ctrl-C.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "command_test.hpp"
#include "run_outputs_check.hpp"
#include "hetflow/io/csv.hpp"
#include "hetflow/io/pvd.hpp"
#include "hetflow/io/vtk_reader.hpp"
#include "hetflow/lbm/references.hpp"

namespace {

namespace fs = std::filesystem;
using Result = hetflow::test::CommandResult;

class LbmCase : public hetflow::test::CommandTest {
 protected:
  // Runs `hetflow ARGS` on the test device (or `devices`).
  Result hetflow(const std::string& args, const std::string& devices = device()) const {
    return run_hetflow(args + " --device " + devices);
  }
};

// A 12 x 12 x 4 duct (10 x 10 fluid cross-section) driven along z; g = 1e-5 keeps the flow at
// Re ~ 0.07, deep in the Stokes regime the analytic solution assumes.
const char* duct_case = R"(type: lbm
lbm:
  tau: 0.8
  force: [0, 0, 1.0e-5]
  steps: 400
geometry:
  kind: duct
  size: [12, 12, 4]
output:
  dir: duct
  every: 100
)";

TEST_F(LbmCase, DuctPermeabilityMatchesTheAnalyticSeries) {
  write("duct.yaml", duct_case);
  const Result r = hetflow("run duct.yaml" + hetflow::test::with_hdf5());
  ASSERT_EQ(r.status, 0) << r.output;
  const auto m = manifest("duct");
  hetflow::test::expect_outputs_are_the_files(dir / "duct");
  EXPECT_EQ(m["status"], "complete");
  EXPECT_EQ(m["result"]["steps"], 400);
  EXPECT_GT(m["result"]["mlups"].get<double>(), 0.0);

  // Steps 0, 100, ..., 400, each a .vti with rho, u (3 components) and node_type.
  const auto entries = hetflow::io::read_pvd(dir / "duct" / "fields.pvd");
  ASSERT_EQ(entries.size(), 5u);
  EXPECT_EQ(entries.back().time, 400.0);
  const auto image = hetflow::io::read_vti(dir / "duct" / entries.back().file);
  EXPECT_EQ(image.dims, (std::array<std::size_t, 3>{12, 12, 4}));
  ASSERT_NE(image.point_array("u"), nullptr);
  EXPECT_EQ(image.point_array("u")->size(), 3u * 12 * 12 * 4);
  EXPECT_NE(image.point_array("rho"), nullptr);
  EXPECT_NE(image.point_array("node_type"), nullptr);
  // Vorticity: the shear is largest beside the walls and vanishes on the walls themselves.
  const auto* w = image.point_array("vorticity");
  ASSERT_NE(w, nullptr);
  ASSERT_EQ(w->size(), 12u * 12 * 4);
  const std::vector<float> wv = w->values<float>();
  const auto at = [&](std::size_t x, std::size_t y) { return wv[x + 12 * (y + 12 * 2)]; };
  EXPECT_EQ(at(0, 5), 0.0f);
  EXPECT_GT(at(1, 5), 3 * at(5, 5));
  EXPECT_TRUE(fs::exists(dir / "duct" / "geometry.vti"));
  EXPECT_TRUE(fs::exists(dir / "duct" / "speed_z_000400.png"));
  // The HDF5 series is numbered by step, as the .vti series is.
  if (!hetflow::test::with_hdf5().empty()) {
    for (const char* step : {"000000", "000100", "000200", "000300", "000400"}) {
      EXPECT_TRUE(fs::exists(dir / "duct" / ("fields_" + std::string(step) + ".h5"))) << step;
      EXPECT_TRUE(fs::exists(dir / "duct" / ("fields_" + std::string(step) + ".vti"))) << step;
    }
  }

  const auto csv = hetflow::io::read_csv(dir / "duct" / "lbm.csv");
  ASSERT_EQ(csv.rows.size(), 5u);
  // FP32 populations are stored shifted by their weights, so mass stays to ~1e-7 (issue goal 1e-5).
  for (const auto& row : csv.rows) EXPECT_LE(std::abs(row[csv.column("mass_drift")]), 1e-5);

  // Darcy k = nu <u_z> / g with <u_z> over the whole 12 x 12 section, walls counting as zero, so the
  // analytic duct mean is scaled by the fluid share 10*10 / (12*12). The slowest transient decays as
  // exp(-2 nu pi^2 t / W^2) with W = 10: e^-7.9 ~ 4e-4 after 400 steps, far below the tolerance.
  // Tolerance 5 %: with only 10 cells across, half-way bounce-back places the wall within a
  // tau-dependent fraction of a cell of the ideal plane; measured about 0.1 % here, the margin keeps the
  // test valid for fp16 storage, other tau and other devices.
  const double nu = (0.8 - 0.5) / 3.0, g = 1e-5;
  const double mean = hetflow::lbm::duct_poiseuille_mean(5.0, 5.0, g, nu) * (10.0 * 10.0) / (12.0 * 12.0);
  const double k_exact = hetflow::lbm::darcy_permeability(mean, nu, g);
  const double k = csv.rows.back()[csv.column("permeability")];
  EXPECT_NEAR(k / k_exact, 1.0, 0.05) << "k = " << k << ", analytic " << k_exact;
  EXPECT_DOUBLE_EQ(m["result"]["permeability"].get<double>(), k);

  // The headline: k to 4 digits, Re_k = U sqrt(k) / nu with U the superficial velocity, the mass drift.
  const double printed_k = number_after(r.output, "lbm: permeability k = ");
  EXPECT_NEAR(printed_k / k_exact, 1.0, 0.05) << r.output;
  EXPECT_NEAR(printed_k / k, 1.0, 1e-3) << r.output;
  const double u = m["result"]["mean_u"][2].get<double>();
  EXPECT_NEAR(number_after(r.output, "cells^2 along z, Re_k = U sqrt(k) / nu = ") / (u * std::sqrt(k) / nu), 1.0, 1e-3)
      << r.output;
  EXPECT_NEAR(number_after(r.output, "mass drift "), m["result"]["mass_drift"].get<double>(), 1e-5) << r.output;
  EXPECT_LT(r.output.find("lbm: permeability"), r.output.find("results in duct")) << r.output;
}

// Flow past a cylinder prints its Reynolds number (the PNG title's, the manifest's) instead of k.
TEST_F(LbmCase, CylinderRunPrintsItsReynoldsNumber) {
  write("cyl.yaml", "type: lbm\nlbm:\n  tau: 0.65\n  force: [3.5e-5, 0, 0]\n  steps: 200\ngeometry:\n"
                    "  kind: cylinder\n  size: [60, 22, 1]\n  radius: 4\noutput:\n  dir: cyl\n  every: 200\n"
                    "  png: false\n  vti: false\n");
  const Result r = hetflow("run cyl.yaml");
  ASSERT_EQ(r.status, 0) << r.output;
  const double re = manifest("cyl")["result"]["reynolds"].get<double>();
  EXPECT_GT(re, 0.1);
  EXPECT_NEAR(number_after(r.output, "lbm: Re = ") / re, 1.0, 1e-3) << r.output;
  EXPECT_NE(r.output.find("D = 8 cells, nu = 0.05)"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("permeability"), std::string::npos) << r.output;
}

// z-slabs, a 2 x 1 x 1 device grid (boxes side by side along x, edges across the duct's walls) and two
// boxes per device give one device's diagnostics; a grid that does not match the devices stops naming the key.
TEST_F(LbmCase, SeveralDevicesSplitTheLatticeAndGiveTheSameFields) {
  write("duct.yaml", duct_case);
  // Exact arithmetic: the devices may be of different kinds (a GPU and the CPU).
  const std::string args = " -q --set lbm.steps=100 --set lbm.exact_arithmetic=true --set output.vti=false "
                           "--set output.png=false";
  Result r = hetflow("run duct.yaml -o one" + args);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(manifest("one")["result"]["boxes_per_device"], 1);
  for (const std::string split : {"slabs", "grid", "boxes"}) {
    const std::string grid = split == "grid"    ? " --set lbm.device_grid=[2,1,1]"
                             : split == "boxes" ? " --set lbm.boxes_per_device=2"
                                                : "";
    r = hetflow("run duct.yaml -o " + split + grid + args, several_devices());
    ASSERT_EQ(r.status, 0) << r.output;
    ASSERT_GE(manifest(split)["devices"].size(), 2u);
    EXPECT_EQ(manifest(split)["result"]["boxes_per_device"], split == "boxes" ? 2 : 1);
    // The halo exchange reproduces one device's arithmetic, so the diagnostics agree exactly.
    for (const char* key : {"permeability", "max_u", "mass_drift"}) {
      EXPECT_EQ(manifest(split)["result"][key], manifest("one")["result"][key]) << split << " " << key;
    }
  }
  r = hetflow("run duct.yaml -o bad --set lbm.device_grid=[3,1,1]" + args, several_devices());
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("lbm.device_grid = [3, 1, 1]: a device grid of 3 x 1 x 1 boxes does not match"),
            std::string::npos)
      << r.output;
}

// lbm.collision reaches the solver: at tau = 1.5 BGK's half-way wall sits well off the plane it stands
// for, TRT's with the default magic 3/16 does not; what remains is the cross-section's discretisation
// (docs/lbm-validation.md).
TEST_F(LbmCase, TrtKeepsTheDuctPermeabilityAtLargeTau) {
  const double nu = (1.5 - 0.5) / 3.0, g = 1e-5;
  const double mean = hetflow::lbm::duct_poiseuille_mean(5.0, 5.0, g, nu) * (10.0 * 10.0) / (12.0 * 12.0);
  const double k_exact = hetflow::lbm::darcy_permeability(mean, nu, g);
  for (const std::string collision : {"bgk", "trt"}) {
    write(collision + ".yaml", "type: lbm\nlbm:\n  tau: 1.5\n  collision: " + collision +
                                   "\n  force: [0, 0, 1.0e-5]\n  steps: 1500\ngeometry:\n  kind: duct\n  size: [12, 12, 4]\n"
                                   "output:\n  every: 1500\n");
    const Result r = hetflow("run " + collision + ".yaml -o " + collision);
    ASSERT_EQ(r.status, 0) << r.output;
    const double k = manifest(collision)["result"]["permeability"].get<double>() / k_exact;
    if (collision == "trt")
      EXPECT_NEAR(k, 1.0, 0.015);
    else
      EXPECT_GT(k, 1.05);
  }
}

// lbm.pressure_drop drives the duct as the body force dp / nz does: the same permeability (the drop
// takes the mean gradient; the density varies along z by 3 dp).
TEST_F(LbmCase, PressureDropDrivesTheDuctLikeItsForce) {
  const std::string drives[] = {"force: [0, 0, 1.0e-5]", "pressure_drop: 4.0e-5"};
  double k[2];
  for (int d = 0; d < 2; ++d) {
    const std::string name = "drive" + std::to_string(d);
    write(name + ".yaml", "type: lbm\nlbm:\n  tau: 0.8\n  " + drives[d] +
                              "\n  steps: 400\ngeometry:\n  kind: duct\n  size: [12, 12, 4]\noutput:\n  every: 400\n");
    const Result r = hetflow("run " + name + ".yaml -o " + name);
    ASSERT_EQ(r.status, 0) << r.output;
    k[d] = manifest(name)["result"]["permeability"].get<double>();
  }
  EXPECT_NEAR(k[1] / k[0], 1.0, 1e-3) << k[0] << " " << k[1];
}

TEST_F(LbmCase, BadCasesExitTwoWithFileAndLine) {
  write("tau.yaml", "type: lbm\nlbm:\n  tau: 0.5\n  pattern: zigzag\n  max_registers: 256\n  collision: cm\n"
                    "  magic: 0\ngeometry:\n  kind: duct\n  size: [8, 8, 4]\n");
  Result r = hetflow("run tau.yaml -o tau");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("tau.yaml:3: lbm.tau = 0.5"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("tau.yaml:4: lbm.pattern = zigzag"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("tau.yaml:5: lbm.max_registers = 256 is out of range"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("tau.yaml:6: lbm.collision = cm"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("tau.yaml:7: lbm.magic = 0"), std::string::npos) << r.output;

  // A key the kind does not read, and a kind that needs a size it was not given.
  write("keys.yaml", "type: lbm\ngeometry:\n  kind: duct\n  size: [8, 8, 4]\n  radius: 3\n");
  r = hetflow("run keys.yaml -o keys");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("keys.yaml:5: geometry.radius does not apply"), std::string::npos) << r.output;
  write("nosize.yaml", "type: lbm\ngeometry:\n  kind: channel\n");
  r = hetflow("run nosize.yaml -o nosize");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("geometry.size is required"), std::string::npos) << r.output;
  // Refused before anything is written.
  for (const char* run : {"tau", "keys", "nosize"}) EXPECT_FALSE(fs::exists(dir / run)) << run;
}

TEST_F(LbmCase, MultiphaseKeysAreCheckedAgainstTheModel) {
  write("bad.yaml", "type: lbm\nlbm:\n  model: two_component\ngeometry:\n  kind: box\n  size: [8, 8, 1]\n"
                    "shan_chen:\n  g: -100\ninitial:\n  kind: uniform\n  radius: 3\n");
  const Result r = hetflow("run bad.yaml -o bad");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("bad.yaml:8: shan_chen.g does not apply to lbm.model = two_component"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("initial.density has 1 entries: lbm.model = two_component needs two densities"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("bad.yaml:11: initial.radius applies only to initial.kind = drop"), std::string::npos)
      << r.output;
  EXPECT_FALSE(fs::exists(dir / "bad"));
}

// A Shan-Chen drop and a two-component drop in periodic boxes: each starts at its model's coexistence
// densities and keeps a dense centre and a light far field; the outputs carry the components' densities.
TEST_F(LbmCase, MultiphaseDropsRunFromTheCaseFile) {
  write("sc.yaml", "type: lbm\nlbm:\n  tau: 1\n  model: shan_chen\n  steps: 200\n  storage: fp64\ngeometry:\n"
                   "  kind: box\n  size: [32, 32, 1]\ninitial:\n  kind: drop\n  density: [85.7]\n"
                   "  drop_density: [524]\n  radius: 8\noutput:\n  dir: sc\n  every: 100\n");
  Result r = hetflow("run sc.yaml");
  ASSERT_EQ(r.status, 0) << r.output;
  auto image = hetflow::io::read_vti(dir / "sc" / "fields_000200.vti");
  ASSERT_NE(image.point_array("rho"), nullptr);
  const auto rho = image.point_array("rho")->to_double();
  // Centre (16, 16) and corner: liquid and vapour within 10 % of the coexistence densities.
  EXPECT_NEAR(rho.at(16 + 32 * 16) / 524.0, 1.0, 0.1);
  EXPECT_NEAR(rho.at(0) / 85.7, 1.0, 0.1);
  EXPECT_TRUE(fs::exists(dir / "sc" / "rho_z_000200.png"));
  // fp64 Shan-Chen conserves mass to round-off.
  EXPECT_LT(std::abs(manifest("sc")["result"]["mass_drift"].get<double>()), 1e-12);
  // The headline: the phases' densities, within 10 % of coexistence as the fields are, and the drift.
  EXPECT_NEAR(number_after(r.output, "lbm: density from ") / 85.7, 1.0, 0.1) << r.output;
  EXPECT_NEAR(number_after(r.output, "(vapour) to ") / 524.0, 1.0, 0.1) << r.output;
  EXPECT_LT(std::abs(number_after(r.output, "(liquid), mass drift ")), 1e-12) << r.output;

  write("two.yaml", "type: lbm\nlbm:\n  tau: 1\n  model: two_component\n  steps: 200\ngeometry:\n"
                    "  kind: box\n  size: [32, 32, 1]\ninitial:\n  kind: drop\n  density: [0.03, 2.23]\n"
                    "  drop_density: [2.23, 0.03]\n  radius: 8\noutput:\n  dir: two\n  every: 100\n");
  r = hetflow("run two.yaml");
  ASSERT_EQ(r.status, 0) << r.output;
  image = hetflow::io::read_vti(dir / "two" / "fields_000200.vti");
  ASSERT_NE(image.point_array("rho_a"), nullptr);
  ASSERT_NE(image.point_array("rho_b"), nullptr);
  const auto a = image.point_array("rho_a")->to_double(), b = image.point_array("rho_b")->to_double();
  EXPECT_GT(a.at(16 + 32 * 16), 2.0);
  EXPECT_LT(a.at(0), 0.1);
  EXPECT_GT(b.at(0), 2.0);
  // The headline: component a's density from the b-rich far field to the a-rich drop, as the fields.
  const std::size_t at = r.output.find("lbm: component a's density from ");
  ASSERT_NE(at, std::string::npos) << r.output;
  const std::string line = r.output.substr(at, r.output.find('\n', at) - at);
  EXPECT_LT(number_after(line, "from "), 0.1) << line;
  EXPECT_GT(number_after(line, " to "), 2.0) << line;
  EXPECT_TRUE(fs::exists(dir / "two" / "rho_a_z_000200.png"));
}

TEST_F(LbmCase, FileGeometryIsFoundBesideTheCaseAndItsSizeChecked) {
  // A 6 x 6 x 4 raw mask, all fluid but a wall plane at y = 0, in a folder apart from the working one.
  std::string raw(6 * 6 * 4, '\0');
  for (int z = 0; z < 4; ++z)
    for (int x = 0; x < 6; ++x) raw[static_cast<std::size_t>(x + 36 * z)] = 1;
  write("cases/mask.raw", raw);
  write("cases/mask.yaml", "file: mask.raw\ndims: [6, 6, 4]\nsolid: [1]\n");
  write("cases/ok.yaml", "type: lbm\nlbm:\n  steps: 10\ngeometry:\n  kind: file\n  file: mask.yaml\n"
                         "output:\n  every: 5\n  png: false\n");
  Result r = hetflow("run cases/ok.yaml -q -o ok");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(manifest("ok")["geometry"]["dims"], nlohmann::json::array({6, 6, 4}));

  write("cases/bad.yaml", "type: lbm\ngeometry:\n  kind: file\n  file: mask.yaml\n  size: [6, 6, 5]\n");
  r = hetflow("run cases/bad.yaml -o bad");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("bad.yaml:5: geometry.size = [6, 6, 5] does not match"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("6x6x4"), std::string::npos) << r.output;
}

TEST_F(LbmCase, LatticeTooLargeForTheDeviceExitsOneSayingWhatItNeeds) {
  // 6.4e10 nodes: terabytes, more than any device; refused before the host builds the mask.
  write("huge.yaml", "type: lbm\ngeometry:\n  kind: duct\n  size: [4000, 4000, 4000]\n");
  const Result r = hetflow("run huge.yaml -o huge");
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("needs"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("MiB"), std::string::npos) << r.output;
  // What would fit, not the default pattern aa that the case already uses.
  EXPECT_NE(r.output.find("(what fits: a lattice of "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("(the same proportions) as configured; lbm.storage: fp16, which needs "), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find(" devices of this size (device.select, lbm.device_grid), "), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("lbm.pattern: aa"), std::string::npos) << r.output;
  EXPECT_EQ(manifest("huge")["status"], "failed");
}

TEST_F(LbmCase, UnstableRunStopsNamingStepAndCellAndKeepsEarlierOutputs) {
  // tau 0.51 and a force of 0.01 per step accelerate the flow past the lattice's limit within tens of steps.
  write("boom.yaml", "type: lbm\nlbm:\n  tau: 0.51\n  force: [0.01, 0, 0]\n  steps: 2000\n"
                     "geometry:\n  kind: channel\n  size: [8, 10, 2]\noutput:\n  dir: boom\n  every: 10\n");
  const Result r = hetflow("run boom.yaml -q");
  EXPECT_EQ(r.status, 1) << r.output;
  const bool speed = r.output.find("max |u|") != std::string::npos;
  const bool nonfinite = r.output.find("non-finite") != std::string::npos;
  EXPECT_TRUE(speed || nonfinite) << r.output;
  EXPECT_NE(r.output.find("at step "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("cell ("), std::string::npos) << r.output;
  if (speed) {
    EXPECT_NE(r.output.find("lbm.force"), std::string::npos) << r.output;
  }
  EXPECT_EQ(manifest("boom")["status"], "failed");
  EXPECT_GE(hetflow::io::read_pvd(dir / "boom" / "fields.pvd").size(), 1u);
  EXPECT_GE(hetflow::io::read_csv(dir / "boom" / "lbm.csv").rows.size(), 1u);
}

TEST_F(LbmCase, SigintStopsBetweenChunksAndWritesFinalOutputs) {
  write("long.yaml", "type: lbm\nlbm:\n  steps: 100000000\ngeometry:\n  kind: duct\n  size: [8, 8, 8]\n"
                     "output:\n  dir: long\n  every: 1000000000\n  png: false\n");
  // Step 0's output is written once stepping is about to start.
  EXPECT_EQ(run_interrupted({"long.yaml"}, "long/fields.pvd", std::chrono::milliseconds(300)), 130);
  const auto m = manifest("long");
  EXPECT_EQ(m["status"], "interrupted");
  const long steps = m["result"]["steps"].get<long>();
  EXPECT_GT(steps, 0);
  const auto entries = hetflow::io::read_pvd(dir / "long" / "fields.pvd");
  ASSERT_EQ(entries.size(), 2u);  // step 0 and the step it stopped at
  EXPECT_EQ(entries.back().time, static_cast<double>(steps));
}

}  // namespace
