// What a compressible case with bad input reports: each problem names the file, line, key and value, and
// the run exits 2, leaving no run directory (or, for a grid too large for the device, a failed one).
#include <gtest/gtest.h>

#include <string>

#include "command_test.hpp"

namespace {

// A valid case of air and water but for what the arguments put in, its lines fixed: `east` on line 5,
// `materials` on 7 and 8, `regions` from line 12.
std::string case_text(const std::string& materials, const std::string& regions, const std::string& east = "outflow") {
  return "type: compressible\n"
         "domain: {roots: [2, 1], block_size: 8, max_level: 1}\n"
         "boundary:\n"
         "  west: {type: outflow}\n"
         "  east: {type: " +
         east +
         "}\n"
         "materials:\n" +
         materials +
         "initial:\n"
         "  background: {rho: 1, p: 1, material: air}\n"
         "  regions:\n" +
         regions + "time: {end: 0.1}\noutput: {dir: out}\n";
}

const std::string gases = "  air: {gamma: 1.4}\n  water: {gamma: 4.4, p_inf: 6e8}\n";
const std::string drop = "    drop: {shape: disc, centre: [1, 0.5], radius: 0.2, rho: 1000, p: 1, material: water}\n";

class CompressibleInput : public hetflow::test::CommandTest {};

TEST_F(CompressibleInput, BadMaterialsStatesSidesAndShapesExitTwoNamingLineKeyAndValue) {
  expect_rejected({
      {"gamma", case_text("  air: {gamma: 1}\n  water: {gamma: 4.4, p_inf: 6e8}\n", drop),
       "gamma.yaml:7: materials.air.gamma = 1"},
      {"p_inf", case_text("  air: {gamma: 1.4}\n  water: {gamma: 4.4, p_inf: -1}\n", drop),
       "p_inf.yaml:8: materials.water.p_inf = -1"},
      {"unknown",
       case_text(gases, "    drop: {shape: disc, centre: [1, 0.5], radius: 0.2, rho: 1, p: 1, material: helium}\n"),
       "unknown.yaml:12: initial.regions.drop.material = helium is not a material of this case, which knows "
       "air, water (air unless materials replaces it)"},
      {"density",
       case_text(gases, "    drop: {shape: disc, centre: [1, 0.5], radius: 0.2, rho: -1, p: 1, material: water}\n"),
       "density.yaml:12: initial.regions.drop.rho = -1"},
      // Water holds p = -5e8 Pa (above its -p_inf); air does not hold p = 0.
      {"pressure",
       case_text(gases,
                 "    drop: {shape: disc, centre: [1, 0.5], radius: 0.2, rho: 1000, p: -5e8, material: water}\n"
                 "    gap: {shape: box, lower: [0, 0], upper: [0.5, 1], rho: 1, p: 0}\n"),
       "pressure.yaml:13: initial.regions.gap.p = 0.0 with material air (p_inf = 0.0): a stiffened gas needs "
       "p + p_inf > 0 (p > 0 for an ideal gas)"},
      {"periodic", case_text(gases, drop, "periodic"),
       "periodic.yaml:5: boundary.west.type = outflow but boundary.east.type = periodic: periodic goes on both "
       "sides of an axis or neither"},
      {"shape", case_text(gases, "    slab: {shape: box, lower: [0, 0], upper: [0.5, 1], radius: 0.2, rho: 1, p: 1}\n"),
       "shape.yaml:12: initial.regions.slab.radius does not apply to shape box: that shape reads lower, upper"},
  });
  // A key given by --set is named so, and an odd block size is refused.
  write("odd.yaml", case_text(gases, drop));
  const hetflow::test::CommandResult r =
      run_hetflow("run odd.yaml --device " + device() + " --set domain.block_size=9");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("odd.yaml (--set domain.block_size=9): domain.block_size = 9 is odd"), std::string::npos)
      << r.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "out"));
  // Local steps count levels: not fewer than none.
  const hetflow::test::CommandResult local =
      run_hetflow("run odd.yaml --device " + device() + " --set scheme.local_steps=-1");
  EXPECT_EQ(local.status, 2) << local.output;
  EXPECT_NE(local.output.find("odd.yaml (--set scheme.local_steps=-1): scheme.local_steps = -1"), std::string::npos)
      << local.output;
  // The paper's colour function closes two ideal gases, not water.
  write("colour.yaml", case_text(gases, drop));
  const hetflow::test::CommandResult colour =
      run_hetflow("run colour.yaml --device " + device() + " --set scheme.closure=colour");
  EXPECT_EQ(colour.status, 2) << colour.output;
  EXPECT_NE(colour.output.find("colour.yaml (--set scheme.closure=colour): scheme.closure = colour closes ideal "
                               "gases, and material water has p_inf > 0"),
            std::string::npos)
      << colour.output;
}

// The grid of 10^5 x 10^5 roots of 32 x 32 cells alone would take petabytes: refused at domain.roots,
// saying how many bytes it needs, before anything is computed. A finest level whose grid refined everywhere
// would not fit is no error: the adaptation keeps the grid it makes within the device (MragBlockFlow).
TEST_F(CompressibleInput, AGridTooLargeForTheDeviceSaysWhatItWouldNeed) {
  write("huge.yaml", case_text(gases, drop));
  const hetflow::test::CommandResult r = run_hetflow("run huge.yaml --device " + device() +
                                                     " --set domain.roots=[100000,100000] --set domain.block_size=32");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("huge.yaml (--set domain.roots=[100000,100000]): domain.roots = [100000, 100000]: the "
                          "grid of its 1e+10 root blocks of 32 x 32 cells alone would take "),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find(" bytes ("), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("PiB) of device memory"), std::string::npos) << r.output;
  EXPECT_EQ(manifest("out")["status"], "failed");
}

}  // namespace
