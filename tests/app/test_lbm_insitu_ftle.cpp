// In-situ FTLE of an LBM run: the velocity stays on the device, and the field is the one the host round
// trip (fields() read back, handed to an FTLE solver as data) gives, bit for bit; through a case, frames
// at output steps and errors at their keys.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "command_test.hpp"
#include "hetflow/app/lbm/lbm_insitu_ftle.hpp"
#include "hetflow/ftle/solver.hpp"
#include "hetflow/io/vtk_reader.hpp"
#include "hetflow/lbm/geometry_generators.hpp"
#include "test_devices.hpp"

namespace hetflow::app {
namespace {

// Flow past a cylinder in a flat channel; snapshots every 5 steps, windows of 4 (T = 15 steps), both
// directions: the in-situ field equals an FTLE solver's on the same velocity read back to the host.
TEST(LbmInsituFtle, GivesTheFieldOfTheHostRoundTrip) {
  const core::DeviceSet one = test::test_device();
  const lbm::Geometry geo = lbm::channel_with_cylinder(40, 20, 1, 12.0, 9.5, 4.0);
  std::size_t walls = 0;
  for (const std::uint8_t code : geo.codes()) walls += code == static_cast<std::uint8_t>(lbm::NodeType::wall);
  for (const bool backward : {true, false}) {
    lbm::Config c;
    c.tau = 0.6;
    c.force = {2e-5, 0, 0};
    lbm::Solver s(one, geo, c);
    s.initialise(1.0, {0.03, 0, 0});
    LbmInsituFtle insitu({5, 4, backward, 2}, one, s, geo);
    ftle::VelocityGrid host{2, {40, 20, 1}, {0, 0, 0}, {1, 1, 1}, {}, {}, {}};
    std::vector<std::vector<double>> planes;
    for (int k = 0; k < 4; ++k) {
      if (k > 0) s.advance(5);
      EXPECT_FALSE(insitu.ready());
      insitu.take();
      const lbm::Fields f = s.fields();
      host.times.push_back(5.0 * k);
      std::vector<double> plane;
      for (std::size_t n = 0; n < s.nodes(); ++n) plane.insert(plane.end(), {f.u[3 * n], f.u[3 * n + 1]});
      planes.push_back(std::move(plane));
    }
    host.hold(std::move(planes));
    ASSERT_TRUE(insitu.ready());
    const std::vector<double> field = insitu.field();
    ftle::Config fc;
    fc.t0 = backward ? 15.0 : 0.0;
    fc.duration = backward ? -15.0 : 15.0;
    fc.steps = 6;
    fc.integrator = ftle::Integrator::rk4;
    fc.boundary = ftle::Boundary::periodic;
    fc.precision = core::Precision::f32;
    ftle::Solver reference(one, host, insitu.seeds(), fc);
    reference.initialise();
    reference.advance_to_end();
    const std::vector<double> expected = reference.ftle();
    ASSERT_EQ(field.size(), expected.size());
    std::size_t masked = 0, differ = 0;
    double largest = 0;
    for (std::size_t n = 0; n < field.size(); ++n) {
      if (geo.codes()[n] == static_cast<std::uint8_t>(lbm::NodeType::wall)) {
        masked += std::isnan(field[n]);
        continue;
      }
      differ += field[n] != expected[n];
      largest = std::max(largest, field[n]);
    }
    EXPECT_EQ(masked, walls) << "walls are NaN";
    EXPECT_EQ(differ, 0u) << (backward ? "backward" : "forward");
    EXPECT_GT(largest, 1e-3) << "the wake stretches";  // not a field of zeros
  }
}

// A uniform flow stays uniform: its flow map is a translation, its FTLE 0 up to FP32 rounding.
TEST(LbmInsituFtle, UniformFlowHasNoStretching) {
  const core::DeviceSet one = test::test_device();
  const lbm::Geometry geo(24, 12, 1);  // no walls: periodic both ways
  lbm::Solver s(one, geo, lbm::Config{});
  s.initialise(1.0, {0.05, 0.02, 0});
  LbmInsituFtle insitu({4, 3, true, 4}, one, s, geo);
  for (int k = 0; k < 3; ++k) {
    if (k > 0) s.advance(4);
    insitu.take();
  }
  const std::vector<double> field = insitu.field();
  ASSERT_EQ(field.size(), 24u * 12u);
  for (const double v : field) ASSERT_LT(std::abs(v), 1e-5);
}

TEST(LbmInsituFtle, RefusesSeveralBoxes) {
  const core::DeviceSet one = test::test_device();
  const lbm::Geometry geo(24, 12, 4);
  lbm::Config c;
  c.boxes_per_device = 2;
  lbm::Solver s(one, geo, c);
  try {
    LbmInsituFtle insitu({4, 3, true, 4}, one, s, geo);
    ADD_FAILURE() << "two boxes accepted";
  } catch (const core::Error& e) {
    EXPECT_NE(std::string(e.what()).find("one component on one device in one box; this run has 1 devices, 2 boxes"),
              std::string::npos)
        << e.what();
  }
}

class LbmInsituFtleCase : public test::CommandTest {};

const char* wake_case = R"(type: lbm
lbm:
  tau: 0.6
  force: [2.0e-5, 0, 0]
  initial_velocity: [0.03, 0, 0]
  steps: 40
geometry:
  kind: cylinder
  size: [40, 20, 1]
  radius: 4
  centre: [12, 9.5, 0]
ftle:
  every: 5
  window: 4
  steps_per_snapshot: 2
output:
  dir: wake
  every: 10
)";

// Outputs at 0, 10, ..., 40; the window of 4 snapshots 5 apart is full from step 15: frames at 20, 30, 40.
TEST_F(LbmInsituFtleCase, WritesFramesAtOutputSteps) {
  write("wake.yaml", wake_case);
  const test::CommandResult r = run_hetflow("run wake.yaml -q --device " + device());
  ASSERT_EQ(r.status, 0) << r.output;
  const nlohmann::json m = manifest("wake");
  ASSERT_EQ(m["ftle"]["frames"].size(), 3u) << m["ftle"].dump();
  EXPECT_EQ(m["ftle"]["frames"][0]["step"], 20);
  EXPECT_EQ(m["ftle"]["integration_time"], -15.0);
  const io::VtkImageData image = io::read_vti(dir / "wake" / "ftle_000040.vti");
  EXPECT_EQ(image.dims, (std::array<std::size_t, 3>{40, 20, 1}));
  ASSERT_NE(image.point_array("ftle"), nullptr);
  EXPECT_TRUE(std::filesystem::exists(dir / "wake" / "ftle_000040.png"));
  EXPECT_GT(m["ftle"]["frames"][2]["max_ftle"].get<double>(), 1e-3);
}

TEST_F(LbmInsituFtleCase, BadSettingsStopAtTheirKeys) {
  std::string odd = wake_case;
  odd.replace(odd.find("every: 5"), 8, "every: 3");
  write("odd.yaml", odd);
  test::CommandResult r = run_hetflow("run odd.yaml -q --device " + device());
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("odd.yaml:13: ftle.every = 3 does not divide output.every = 10"), std::string::npos)
      << r.output;
  // Two devices side by side along x.
  write("wake.yaml", wake_case);
  r = run_hetflow("run wake.yaml -q -o split --set lbm.device_grid=[2,1,1] --device " + several_devices());
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("wake.yaml:13: ftle.every = 5: in-situ FTLE takes the velocity of one component on one "
                          "device in one box; this run has 2 devices"),
            std::string::npos)
      << r.output;
}

}  // namespace
}  // namespace hetflow::app
