// The incompressible-flow outputs: .vtu snapshots and their .pvd, probes, lines, the cut-plane preview
// and the plots, on a box mesh carrying linear fields whose values are known everywhere.
#include <gtest/gtest.h>

#include <array>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "command_test.hpp"
#include "hetflow/app/fem/fem_cut_preview.hpp"
#include "hetflow/app/fem/fem_outputs.hpp"
#include "hetflow/app/run_directory.hpp"
#include "hetflow/fem/box_mesh.hpp"
#include "hetflow/fem/edge_data.hpp"
#include "hetflow/io/csv.hpp"
#include "hetflow/io/png_image.hpp"
#include "hetflow/io/pvd.hpp"
#include "hetflow/io/vtk_reader.hpp"
#include "run_outputs_check.hpp"

namespace {

namespace fs = std::filesystem;
using hetflow::app::FemOutputConfig;
using hetflow::fem::Point;
using hetflow::fem::Vec3;

// u = c + A x and p = 1 + x − 2y + 3z: the gradient A is what vorticity, Q and divergence come from.
constexpr std::array<double, 9> kA{0.3, -1.2, 2.0, 0.7, 0.1, -0.4, 1.5, 0.9, -0.6};
constexpr Vec3 kC{1.0, -2.0, 0.5};

Vec3 velocity_at(const Point& x) {
  Vec3 v = kC;
  for (std::size_t k = 0; k < 3; ++k)
    for (std::size_t l = 0; l < 3; ++l) v[k] += kA[3 * k + l] * x[l];
  return v;
}
double pressure_at(const Point& x) { return 1.0 + x[0] - 2.0 * x[1] + 3.0 * x[2]; }

class FemOutputs : public hetflow::test::CommandTest {
 protected:
  void SetUp() override {
    CommandTest::SetUp();
    mesh_ = hetflow::fem::box_mesh(4, 2, 2, {0, 0, 0}, {2, 1, 1});
    edges_ = hetflow::fem::build_edge_data(mesh_);
    for (const Point& x : mesh_.nodes) {
      u_.push_back(velocity_at(x));
      p_.push_back(pressure_at(x));
    }
    run_.emplace(dir / "run", true, "test");
  }
  fs::path run() const { return run_->path(); }

  hetflow::fem::Mesh mesh_;
  hetflow::fem::EdgeData edges_;
  std::vector<Vec3> u_;
  std::vector<double> p_;
  std::optional<hetflow::app::RunDirectory> run_;
};

TEST_F(FemOutputs, SnapshotRoundTripsThroughTheVtkReader) {
  hetflow::app::FemOutputs out(*run_, mesh_, edges_, FemOutputConfig{});
  out.snapshot(40, 0.5, u_, p_);
  out.snapshot(80, 1.25, u_, p_);
  out.finish();

  const auto grid = hetflow::io::read_vtu(run() / "fields_000040.vtu");
  ASSERT_EQ(grid.point_count(), mesh_.nodes.size());
  ASSERT_EQ(grid.cell_count(), mesh_.tets.size());
  const std::vector<double> points = grid.points.values<double>();
  for (std::size_t i = 0; i < mesh_.nodes.size(); ++i)
    for (std::size_t a = 0; a < 3; ++a) ASSERT_EQ(points[3 * i + a], mesh_.nodes[i][a]);
  for (std::size_t t = 0; t < mesh_.tets.size(); ++t)
    for (std::size_t a = 0; a < 4; ++a) ASSERT_EQ(grid.connectivity[4 * t + a], mesh_.tets[t][a]);
  EXPECT_EQ(grid.types[0], 10);  // VTK_TETRA

  const auto velocity = grid.point_array("velocity")->values<double>();
  const auto pressure = grid.point_array("pressure")->values<double>();
  const auto vorticity = grid.point_array("vorticity")->values<double>();
  const auto q = grid.point_array("Q")->values<double>();
  const auto divergence = grid.point_array("divergence")->values<double>();
  EXPECT_EQ(grid.point_array("vorticity")->components, 3);
  const Vec3 omega{kA[7] - kA[5], kA[2] - kA[6], kA[3] - kA[1]};
  double trace_a2 = 0.0;
  for (std::size_t k = 0; k < 3; ++k)
    for (std::size_t l = 0; l < 3; ++l) trace_a2 += kA[3 * k + l] * kA[3 * l + k];
  for (std::size_t i = 0; i < mesh_.nodes.size(); ++i) {
    for (std::size_t c = 0; c < 3; ++c) {
      ASSERT_EQ(velocity[3 * i + c], u_[i][c]);
      EXPECT_NEAR(vorticity[3 * i + c], omega[c], 1e-12) << "node " << i;
    }
    ASSERT_EQ(pressure[i], p_[i]);
    EXPECT_NEAR(q[i], -0.5 * trace_a2, 1e-12) << "node " << i;
    EXPECT_NEAR(divergence[i], kA[0] + kA[4] + kA[8], 1e-12) << "node " << i;
  }

  const auto entries = hetflow::io::read_pvd(run() / "fields.pvd");
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].file, "fields_000040.vtu");
  EXPECT_EQ(entries[0].time, 0.5);
  EXPECT_EQ(entries[1].file, "fields_000080.vtu");
  EXPECT_EQ(entries[1].time, 1.25);
}

TEST_F(FemOutputs, ProbesOfALinearFieldAreExact) {
  FemOutputConfig config;
  config.vtu = false;
  config.probes = {{"inner", {0.37, 0.61, 0.29}}, {"corner", {2, 1, 1}}, {"face", {1.3, 0, 0.45}}};
  hetflow::app::FemOutputs out(*run_, mesh_, edges_, config);
  out.sample(0, 0.0, u_, p_);
  out.sample(7, 0.35, u_, p_);
  out.finish();

  const auto table = hetflow::io::read_csv(run() / "probes.csv");
  ASSERT_EQ(table.columns.size(), 2u + 4 * 3);
  EXPECT_EQ(table.columns[0], "time");
  EXPECT_EQ(table.columns[1], "step");
  EXPECT_EQ(table.columns[6], "corner_u");
  EXPECT_EQ(table.columns[13], "face_p");
  ASSERT_EQ(table.rows.size(), 2u);
  EXPECT_EQ(table.rows[1][0], 0.35);
  EXPECT_EQ(table.rows[1][1], 7.0);
  for (std::size_t p = 0; p < config.probes.size(); ++p) {
    const Point& x = config.probes[p].point;
    const Vec3 u = velocity_at(x);
    for (std::size_t c = 0; c < 3; ++c) EXPECT_NEAR(table.rows[1][2 + 4 * p + c], u[c], 1e-12) << config.probes[p].name;
    EXPECT_NEAR(table.rows[1][5 + 4 * p], pressure_at(x), 1e-12) << config.probes[p].name;
  }
  for (const char* q : {"u", "v", "w", "p"}) {
    const auto png = hetflow::io::read_png(run() / ("probes_" + std::string(q) + ".png"));
    EXPECT_EQ(png.width, 800);
    EXPECT_EQ(png.height, 500);
  }
}

TEST_F(FemOutputs, LinesHoldTheProfileAtEachSnapshot) {
  FemOutputConfig config;
  config.vtu = false;
  config.lines = {{"diagonal", {0, 0, 0}, {2, 1, 1}, 11}, {"vertical", {1.1, 0, 0.5}, {1.1, 1, 0.5}, 5}};
  hetflow::app::FemOutputs out(*run_, mesh_, edges_, config);
  out.snapshot(3, 0.1, u_, p_);
  out.finish();

  const auto table = hetflow::io::read_csv(run() / "lines" / "diagonal_000003.csv");
  EXPECT_EQ(table.columns, (std::vector<std::string>{"s", "x", "y", "z", "u", "v", "w", "p"}));
  ASSERT_EQ(table.rows.size(), 11u);
  for (std::size_t k = 0; k < 11; ++k) {
    const auto& row = table.rows[k];
    const double t = static_cast<double>(k) / 10.0;
    const Point x{2 * t, t, t};
    EXPECT_NEAR(row[0], t * std::sqrt(6.0), 1e-15);
    for (std::size_t a = 0; a < 3; ++a) EXPECT_NEAR(row[1 + a], x[a], 1e-15);
    const Vec3 u = velocity_at(x);
    for (std::size_t c = 0; c < 3; ++c) EXPECT_NEAR(row[4 + c], u[c], 1e-12) << "point " << k;
    EXPECT_NEAR(row[7], pressure_at(x), 1e-12) << "point " << k;
  }
  EXPECT_EQ(hetflow::io::read_csv(run() / "lines" / "vertical_000003.csv").rows.size(), 5u);
  EXPECT_EQ(hetflow::io::read_png(run() / "lines" / "vertical_velocity.png").width, 800);
  EXPECT_EQ(hetflow::io::read_png(run() / "lines" / "vertical_pressure.png").height, 500);
}

TEST_F(FemOutputs, RefusesAProbeOutsideTheMeshNamingItsPoint) {
  FemOutputConfig config;
  config.probes = {{"inside", {1, 0.5, 0.5}}, {"far", {2.5, 0.5, -0.25}}};
  try {
    hetflow::app::FemOutputs out(*run_, mesh_, edges_, config);
    FAIL() << "a probe outside the mesh was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "fem outputs: probe 'far' at (2.5, 0.5, -0.25) is outside the mesh");
  }
}

TEST_F(FemOutputs, ListsEveryProblemOfTheConfiguration) {
  FemOutputConfig config;
  config.probes = {{"a", {1, 0.5, 0.5}}, {"a", {1, 0.5, 0.5}}, {"b c", {1, 0.5, 0.5}}};
  config.lines = {{"short", {0, 0, 0}, {1, 1, 1}, 1}, {"long", {0, 0.5, 0.5}, {3, 0.5, 0.5}, 4}};
  config.cut_plane = hetflow::app::FemCutPlane{.axis = 1, .position = 1.5, .width = 100};
  const hetflow::fem::PointLocator locator(mesh_);
  EXPECT_EQ(hetflow::app::fem_output_problems(locator, config),
            (std::vector<std::string>{
                "two probes are named 'a'",
                "probe name 'b c' must be non-empty and hold only letters, digits, '_', '-' and '.'",
                "line 'short' has 1 points; it needs at least 2",
                "line 'long' from (0, 0.5, 0.5) to (3, 0.5, 0.5): point 3 at (3, 0.5, 0.5) is outside the mesh",
                "the cut plane y = 1.5 misses the mesh, which spans y = 0 .. 1",
                "the cut plane's width 100 is outside 300 .. 8192 pixels"}));
}

TEST_F(FemOutputs, CutPlanePreviewHasTheExpectedSize) {
  FemOutputConfig config;
  config.vtu = false;
  config.cut_plane = hetflow::app::FemCutPlane{.axis = 2, .position = 0.5, .field = hetflow::app::FemCutField::vorticity_normal, .width = 400};
  hetflow::app::FemOutputs out(*run_, mesh_, edges_, config);
  out.snapshot(12, 0.75, u_, p_);
  // The x-y plane of the 2 × 1 box: height = 400 (2 + 6 · 0.5) / 9.
  const auto png = hetflow::io::read_png(run() / "vorticity_normal_z_000012.png");
  EXPECT_EQ(png.width, 400);
  EXPECT_EQ(png.height, 222);
}

// A 3 × 3 × 1 box without its middle cube: the plane z = 0.5 shows the hole grey, a third of the plot
// wide and high, and nothing else grey.
TEST_F(FemOutputs, CutPlaneDrawsPointsOutsideTheMeshGrey) {
  hetflow::fem::Mesh holed = hetflow::fem::box_mesh(3, 3, 1, {0, 0, 0}, {3, 3, 1});
  std::erase_if(holed.tets, [&](const hetflow::fem::Tet& t) {
    Point c{};
    for (const std::uint32_t n : t)
      for (std::size_t a = 0; a < 3; ++a) c[a] += 0.25 * holed.nodes[n][a];
    return c[0] > 1 && c[0] < 2 && c[1] > 1 && c[1] < 2;
  });
  std::vector<Vec3> u;
  std::vector<double> p;
  for (const Point& x : holed.nodes) {
    u.push_back(velocity_at(x));
    p.push_back(pressure_at(x));
  }
  const hetflow::fem::PointLocator locator(holed);
  const hetflow::app::FemCutPreview preview(locator, {.axis = 2, .position = 0.5, .field = hetflow::app::FemCutField::pressure, .width = 300});
  hetflow::display::PreviewLayout layout;
  const hetflow::io::Image image = preview.render(1, 0.1, u, p, {}, &layout);
  const auto& plot = layout.plot;
  EXPECT_EQ(image.pixel(plot.x + plot.width / 2, plot.y + plot.height / 2), hetflow::display::kNanColor);
  EXPECT_NE(image.pixel(plot.x + plot.width / 6, plot.y + plot.height / 6), hetflow::display::kNanColor);
  int grey = 0;
  for (int y = 0; y < image.height; ++y)
    for (int x = 0; x < image.width; ++x) grey += image.pixel(x, y) == hetflow::display::kNanColor ? 1 : 0;
  EXPECT_GE(grey, (plot.width / 3 - 1) * (plot.height / 3 - 1));
  EXPECT_LE(grey, (plot.width / 3 + 1) * (plot.height / 3 + 1));
}

TEST_F(FemOutputs, TheManifestListsEveryFileWritten) {
  FemOutputConfig config;
  config.probes = {{"centre", {1, 0.5, 0.5}}};
  config.lines = {{"axis", {0, 0.5, 0.5}, {2, 0.5, 0.5}, 9}};
  config.cut_plane = hetflow::app::FemCutPlane{.axis = 0, .position = 1, .field = hetflow::app::FemCutField::speed, .width = 300};
  hetflow::app::FemOutputs out(*run_, mesh_, edges_, config);
  for (int step = 0; step <= 2; ++step) {
    out.sample(step, 0.1 * step, u_, p_);
    if (step % 2 == 0) out.snapshot(step, 0.1 * step, u_, p_);
  }
  out.finish();
  run_->write_manifest("complete");
  EXPECT_TRUE(fs::exists(run() / "speed_x_000002.png"));
  EXPECT_TRUE(fs::exists(run() / "lines" / "axis_000002.csv"));
  hetflow::test::expect_outputs_are_the_files(run());
}

TEST_F(FemOutputs, RejectsFieldsOfTheWrongSize) {
  hetflow::app::FemOutputs out(*run_, mesh_, edges_, FemOutputConfig{});
  const std::vector<double> short_p(3);
  EXPECT_THROW(out.snapshot(0, 0.0, u_, short_p), std::invalid_argument);
}

}  // namespace
