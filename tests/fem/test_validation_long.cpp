// The long validation runs of the flow solver, labelled `long` (tests/CMakeLists.txt), which the test
// presets leave out: minutes each on a GPU, hours on a CPU. The Ghia cavity also runs coarse in CI.
// HETFLOW_FEM_VALIDATION_COARSEN (flow_validation.hpp) runs them coarse; HETFLOW_VALIDATION_OUT collects their profiles
// and numbers as CSV for scripts/plot_fem_validation.py.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <string>
#include <vector>

#include "flow_validation.hpp"
#include "hetflow/fem/boundary_conditions.hpp"
#include "hetflow/fem/box_mesh.hpp"
#include "hetflow/fem/cylinder_channel.hpp"
#include "hetflow/fem/edge_data.hpp"
#include "hetflow/fem/find_patch.hpp"
#include "hetflow/fem/flow_solver.hpp"
#include "hetflow/fem/patch_force.hpp"
#include "hetflow/fem/point_locator.hpp"
#include "hetflow/fem/wall_traction.hpp"
#include "test_devices.hpp"
#include "validation_output.hpp"

namespace hetflow::fem {
namespace {

using hetflow::test::sci;
using hetflow::test::write_validation_csv;

constexpr double courant = 0.9;  // the adaptive step's Courant number (docs/fem.md, Time loop)

// Ghia, Ghia & Shin (1982), Table I and II, Re = 100: u on the vertical centre line x = 0.5 as (y, u) and
// v on the horizontal centre line y = 0.5 as (x, v).
const std::vector<std::array<double, 2>> ghia_u = {
    {1.0, 1.0},         {0.9766, 0.84123},  {0.9688, 0.78871},  {0.9609, 0.73722},  {0.9531, 0.68717},
    {0.8516, 0.23151},  {0.7344, 0.00332},  {0.6172, -0.13641}, {0.5, -0.20581},    {0.4531, -0.21090},
    {0.2813, -0.15662}, {0.1719, -0.10150}, {0.1016, -0.06434}, {0.0703, -0.04775}, {0.0625, -0.04192},
    {0.0547, -0.03717}, {0.0, 0.0}};
const std::vector<std::array<double, 2>> ghia_v = {
    {1.0, 0.0},         {0.9688, -0.05906}, {0.9609, -0.07391}, {0.9531, -0.08864}, {0.9453, -0.10313},
    {0.9063, -0.16914}, {0.8594, -0.22445}, {0.8047, -0.24533}, {0.5, 0.05454},     {0.2344, 0.17527},
    {0.2266, 0.17507},  {0.1563, 0.16077},  {0.0938, 0.12317},  {0.0781, 0.10890},  {0.0703, 0.10091},
    {0.0625, 0.09233},  {0.0, 0.0}};

// The lid-driven cavity [0, 1]² × [0, depth] at Re = 100 (lid u = 1, ν = 0.01): the lid y_max moves with
// (1, 0, 0), the other sides are walls, and the z faces are walls too or, for a quasi-2D slab, slip.
PatchCondition condition(const std::string& patch, BoundaryKind kind = BoundaryKind::no_slip) {
  PatchCondition c;
  c.patch = patch;
  c.kind = kind;
  return c;
}

struct Cavity {
  Mesh mesh;
  EdgeData data;
  BoundaryConstraints constraints;
  FlowParameters parameters;
};

Cavity cavity(std::uint32_t n, std::uint32_t nz, double depth, BoundaryKind z_faces) {
  Cavity c;
  c.mesh = box_mesh(n, n, nz, {0, 0, 0}, {1, 1, depth});
  c.data = build_edge_data(c.mesh);
  PatchCondition lid = condition("y_max", BoundaryKind::velocity);
  lid.value = {1, 0, 0};
  const std::vector<PatchCondition> conditions = {condition("x_min"),          condition("x_max"),
                                                  condition("y_min"),          lid,
                                                  condition("z_min", z_faces), condition("z_max", z_faces)};
  c.constraints = build_boundary_constraints(c.mesh, conditions, "cavity");
  c.parameters.momentum.viscosity = 0.01;
  c.parameters.cg.preconditioner = Preconditioner::amg;
  return c;
}

// The largest |u − Ghia| over the reference points of one centre line, the profile written as CSV.
double ghia_deviation(const PointLocator& locator, const std::vector<Vec3>& u, double z, bool vertical,
                      const std::vector<std::array<double, 2>>& reference, const std::string& csv) {
  std::vector<Point> points;
  for (const auto& [s, value] : reference) points.push_back(vertical ? Point{0.5, s, z} : Point{s, 0.5, z});
  const std::vector<double> fem = test::sample_velocity(locator, u, points, vertical ? 0 : 1);
  double deviation = 0;
  std::vector<std::vector<double>> rows;
  for (std::size_t k = 0; k < reference.size(); ++k) {
    deviation = std::max(deviation, std::abs(fem[k] - reference[k][1]));
    rows.push_back({reference[k][0], reference[k][1], fem[k]});
  }
  write_validation_csv(csv + "_ghia.csv", {"s", "ghia", "fem"}, rows);
  const std::vector<Point> line =
      vertical ? test::line_points({0.5, 0, z}, {0.5, 1, z}, 200) : test::line_points({0, 0.5, z}, {1, 0.5, z}, 200);
  const std::vector<double> profile = test::sample_velocity(locator, u, line, vertical ? 0 : 1);
  rows.clear();
  for (std::size_t k = 0; k < line.size(); ++k) rows.push_back({line[k][vertical ? 1 : 0], profile[k]});
  write_validation_csv(csv + "_profile.csv", {"s", "fem"}, rows);
  return deviation;
}

// Quasi-2D: one layer of n × n cubic cells between slip z faces, run until the kinetic energy changes by
// less than 1e-5 of itself per unit time; both centre lines within the acceptance's 0.02 of Ghia's points.
void expect_ghia_cavity(std::uint32_t n) {
  const double depth = 1.0 / n;
  Cavity c = cavity(n, 1, depth, BoundaryKind::slip);
  const core::DeviceSet devices = hetflow::test::test_device();
  FlowSolver solver(devices, 0, c.mesh, c.data, c.parameters, c.constraints);
  const test::SteadyRun run = test::run_to_steady(solver, courant, 1e-5, 0, 40);
  const std::vector<Vec3> u = solver.velocity();
  const PointLocator locator(c.mesh);
  const double du = ghia_deviation(locator, u, depth / 2, true, ghia_u, "fem_cavity_u");
  const double dv = ghia_deviation(locator, u, depth / 2, false, ghia_v, "fem_cavity_v");
  ::testing::Test::RecordProperty("cells_per_side", std::to_string(n));
  ::testing::Test::RecordProperty("steady_time", sci(run.time));
  ::testing::Test::RecordProperty("steps", std::to_string(run.steps));
  ::testing::Test::RecordProperty("max_deviation_u", sci(du));
  ::testing::Test::RecordProperty("max_deviation_v", sci(dv));
  EXPECT_TRUE(run.steady) << "still changing by " << run.change << " per unit time at t = " << run.time;
  EXPECT_LE(du, 0.02) << n << " cells per side";
  EXPECT_LE(dv, 0.02) << n << " cells per side";
}

// 64 cells per side: deviations 0.0059 (u) and 0.0094 (v), steady at t = 18, about 4 minutes on an H200.
TEST(FemValidationLong, GhiaCavityRe100) { expect_ghia_cavity(test::coarsened(64)); }

// 16 cells per side, in CI (about 20 s on two PoCL cores): deviations 0.0179 (u) and 0.0105 (v).
TEST(FemValidation, GhiaCavityRe100On16CellsPerSide) { expect_ghia_cavity(16); }

// Schäfer & Turek (1996), 2D-1 (Re = 20) in a slab of one layer between slip z faces: a parabolic inflow
// of peak U_m = 0.3, ramped up over 0.5, the outlet at p = 0, ν = 1e-3, ρ = 1. The coefficients are per
// unit depth, c = 2 F / (ρ Ū² D t_z) with Ū = 0.2, D = 0.1 and the slab thickness t_z.
struct ChannelResult {
  double drag = 0, lift = 0, pressure_drop = 0, wall_pressure_drop = 0, recirculation = 0;
  std::size_t nodes = 0;
  test::SteadyRun run;
};

ChannelResult schaefer_turek_2d1(const CylinderChannel& spec) {
  const Mesh mesh = cylinder_channel_mesh(spec);
  const EdgeData data = build_edge_data(mesh);
  PatchCondition inlet = condition("inlet", BoundaryKind::velocity);
  inlet.value = {0.3, 0, 0};
  inlet.profile = VelocityProfile::parabolic;
  inlet.profile_axes = {1};
  inlet.ramp_time = 0.5;
  const std::vector<PatchCondition> conditions = {inlet,
                                                  condition("outlet", BoundaryKind::outlet),
                                                  condition("wall"),
                                                  condition("cylinder"),
                                                  condition("z_min", BoundaryKind::slip),
                                                  condition("z_max", BoundaryKind::slip)};
  FlowParameters parameters;
  parameters.momentum.viscosity = 1e-3;
  parameters.cg.preconditioner = Preconditioner::amg;
  const core::DeviceSet devices = hetflow::test::test_device();
  FlowSolver solver(devices, 0, mesh, data, parameters,
                    build_boundary_constraints(mesh, conditions, "Schäfer–Turek channel"));
  ChannelResult r;
  r.nodes = mesh.nodes.size();
  // The coefficients settle long before the kinetic energy of the whole channel: with 8 cells per quarter
  // they stop changing in their fifth digit by t = 6, when the energy still changes by 7e-4 per unit time.
  // The run stops at 1e-4 per unit time or at t = 8, which bounds the finest run to minutes.
  r.run = test::run_to_steady(solver, courant, 1e-4, 1.0, 8);
  const std::vector<Vec3> u = solver.velocity();
  const std::vector<double> p = solver.pressure();
  const std::uint32_t cylinder = find_patch(mesh, "cylinder", "Schäfer–Turek channel");
  const Vec3 force =
      patch_force(data, parameters.momentum, u, p, solver.stable_dt(courant), patch_nodes(mesh, cylinder));
  const double scale = 2 / (1.0 * 0.2 * 0.2 * 0.1 * spec.thickness);
  r.drag = scale * force[0];
  r.lift = scale * force[1];
  const PointLocator locator(mesh);
  const double z = spec.thickness / 2;
  const auto front = locator.locate({0.15, 0.2, z});
  const auto back = locator.locate({0.25, 0.2, z});
  if (!front || !back) throw std::runtime_error("the cylinder's front or back point is outside the mesh");
  r.pressure_drop = interpolate(*front, p) - interpolate(*back, p);
  const WallTraction wall = wall_traction(mesh, data, parameters.momentum, u, p, solver.stable_dt(courant), cylinder);
  std::vector<double> wall_p = p;
  for (std::size_t k = 0; k < wall.nodes.size(); ++k) wall_p[wall.nodes[k]] = wall.pressure[k];
  r.wall_pressure_drop = interpolate(*front, wall_p) - interpolate(*back, wall_p);
  // The wake's end: the first sign change of u_x on y = 0.2 behind the cylinder, between samples 1e-4
  // apart, interpolated linearly.
  const std::vector<Point> line = test::line_points({0.25, 0.2, z}, {0.75, 0.2, z}, 5000);
  const std::vector<double> ux = test::sample_velocity(locator, u, line, 0);
  for (std::size_t k = 1; k < line.size(); ++k)
    if (ux[k - 1] < 0 && ux[k] >= 0) {
      const double x = line[k - 1][0] + (line[k][0] - line[k - 1][0]) * ux[k - 1] / (ux[k - 1] - ux[k]);
      r.recirculation = x - 0.25;
      break;
    }
  return r;
}

// Three meshes of 24, 32 and 48 cells per quarter of the cylinder, with half as many radial cells (radial
// spacing close to the spacing along the cylinder) and one layer as thick as the cells; the finest has about
// 110k nodes, minutes on a GPU. c_D, c_L and L_a converge into the published intervals and are held inside
// them at 48 cells. Δp falls towards its interval with every level but slowly: the pressure at the wall
// nodes stands above the field beside it by an excess that shrinks roughly like h^0.8 (docs/fem.md,
// Validation). It is held to fall and to end within 0.1225, a little above the finest value measured, so
// that the test catches a change for the worse.
TEST(FemValidationLong, SchaeferTurek2D1) {
  std::vector<ChannelResult> results;
  std::vector<std::vector<double>> rows;
  for (const std::uint32_t cells : {24u, 32u, 48u}) {
    CylinderChannel spec;
    spec.cells_per_quarter = test::coarsened(cells);
    spec.radial_cells = test::coarsened(cells / 2);
    spec.thickness = 0.1 / spec.cells_per_quarter;
    const ChannelResult r = schaefer_turek_2d1(spec);
    const std::string at = "_" + std::to_string(cells);
    RecordProperty("nodes" + at, std::to_string(r.nodes));
    RecordProperty("steady_time" + at, sci(r.run.time));
    RecordProperty("steps" + at, std::to_string(r.run.steps));
    RecordProperty("c_D" + at, sci(r.drag));
    RecordProperty("c_L" + at, sci(r.lift));
    RecordProperty("L_a" + at, sci(r.recirculation));
    RecordProperty("delta_p" + at, sci(r.pressure_drop));
    RecordProperty("delta_p_wall" + at, sci(r.wall_pressure_drop));
    std::printf("%u cells per quarter: c_D %.5f, c_L %.5f, L_a %.5f, delta p %.5f (nodal), %.5f (wall)\n", cells,
                r.drag, r.lift, r.recirculation, r.pressure_drop, r.wall_pressure_drop);
    EXPECT_TRUE(r.run.steady) << cells << " cells: still changing by " << r.run.change
                              << " per unit time at t = " << r.run.time;
    rows.push_back({static_cast<double>(spec.cells_per_quarter), static_cast<double>(r.nodes), r.drag, r.lift,
                    r.recirculation, r.pressure_drop, r.wall_pressure_drop});
    results.push_back(r);
  }
  write_validation_csv("fem_schaefer_turek_2d1.csv", {"cells_per_quarter", "nodes", "c_D", "c_L", "L_a", "delta_p", "delta_p_wall"},
                       rows);
  const ChannelResult& finest = results.back();
  EXPECT_GE(finest.drag, 5.57);
  EXPECT_LE(finest.drag, 5.59);
  EXPECT_GE(finest.lift, 0.0104);
  EXPECT_LE(finest.lift, 0.0110);
  EXPECT_GE(finest.recirculation, 0.0842);
  EXPECT_LE(finest.recirculation, 0.0852);
  for (std::size_t k = 1; k < results.size(); ++k)
    EXPECT_LT(results[k].pressure_drop, results[k - 1].pressure_drop) << "level " << k;
  EXPECT_GE(finest.pressure_drop, 0.1172);
  EXPECT_LE(finest.pressure_drop, 0.1225);
}

// The paper's 3D lid-driven cube at Re = 100, walls on every side but the lid, run to a steady state on
// three levels: the mid-plane (z = 0.5) centre-line profiles u(y) at x = 0.5 and v(x) at y = 0.5 converge
// (the finer pair differs by at most half the coarser pair's difference: first order or better), and so
// does the primary vortex's strength, min u on x = 0.5. Measured on an H200: profile differences 0.0234 then
// 0.0055 (u) and 0.0067 then 0.0013 (v), second order; min u −0.2211, −0.2172, −0.2160 at 16³, 32³, 64³,
// which extrapolates to about −0.2155, stronger than the 2D cavity's −0.2109 (Ghia et al. 1982), against
// the expectation of a weaker 3D vortex that no reference checked here supports (docs/fem.md, Validation).
TEST(FemValidationLong, CubeCavityRe100SelfConvergence) {
  const std::vector<std::uint32_t> levels = {test::coarsened(16), test::coarsened(32), test::coarsened(64)};
  const std::vector<Point> vertical = test::line_points({0.5, 0, 0.5}, {0.5, 1, 0.5}, 64);
  const std::vector<Point> horizontal = test::line_points({0, 0.5, 0.5}, {1, 0.5, 0.5}, 64);
  const core::DeviceSet devices = hetflow::test::test_device();
  std::vector<std::vector<double>> u_profiles, v_profiles;
  for (std::uint32_t n : levels) {
    Cavity c = cavity(n, n, 1, BoundaryKind::no_slip);
    FlowSolver solver(devices, 0, c.mesh, c.data, c.parameters, c.constraints);
    const test::SteadyRun run = test::run_to_steady(solver, courant, 1e-4, 0, 30);
    RecordProperty("steady_time_" + std::to_string(n), sci(run.time));
    EXPECT_TRUE(run.steady) << n << "³: still changing by " << run.change << " per unit time at t = " << run.time;
    const std::vector<Vec3> u = solver.velocity();
    const PointLocator locator(c.mesh);
    u_profiles.push_back(test::sample_velocity(locator, u, vertical, 0));
    v_profiles.push_back(test::sample_velocity(locator, u, horizontal, 1));
  }
  const auto difference = [](const std::vector<double>& a, const std::vector<double>& b) {
    double d = 0;
    for (std::size_t k = 0; k < a.size(); ++k) d = std::max(d, std::abs(a[k] - b[k]));
    return d;
  };
  const double du01 = difference(u_profiles[0], u_profiles[1]), du12 = difference(u_profiles[1], u_profiles[2]);
  const double dv01 = difference(v_profiles[0], v_profiles[1]), dv12 = difference(v_profiles[1], v_profiles[2]);
  std::vector<double> u_min;
  for (const std::vector<double>& profile : u_profiles)
    u_min.push_back(*std::min_element(profile.begin(), profile.end()));
  RecordProperty("u_difference_coarse", sci(du01));
  RecordProperty("u_difference_fine", sci(du12));
  RecordProperty("v_difference_coarse", sci(dv01));
  RecordProperty("v_difference_fine", sci(dv12));
  RecordProperty("u_min", sci(u_min[2]));
  std::vector<std::vector<double>> rows;
  for (std::size_t k = 0; k < vertical.size(); ++k)
    rows.push_back({vertical[k][1], u_profiles[0][k], u_profiles[1][k], u_profiles[2][k], horizontal[k][0],
                    v_profiles[0][k], v_profiles[1][k], v_profiles[2][k]});
  const std::string l0 = std::to_string(levels[0]), l1 = std::to_string(levels[1]), l2 = std::to_string(levels[2]);
  write_validation_csv("fem_cube_cavity.csv",
                       {"y", "u_" + l0, "u_" + l1, "u_" + l2, "x", "v_" + l0, "v_" + l1, "v_" + l2}, rows);
  EXPECT_LE(2 * du12, du01);
  EXPECT_LE(2 * dv12, dv01);
  EXPECT_LE(2 * std::abs(u_min[2] - u_min[1]), std::abs(u_min[1] - u_min[0]));
}

}  // namespace
}  // namespace hetflow::fem
