#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "hetflow/core/error.hpp"
#include "hetflow/fem/boundary_conditions.hpp"
#include "hetflow/fem/box_mesh.hpp"
#include "hetflow/fem/device_edge_data.hpp"
#include "hetflow/fem/edge_data.hpp"
#include "hetflow/fem/mesh_error.hpp"
#include "hetflow/fem/momentum.hpp"
#include "hetflow/fem/momentum_step.hpp"
#include "hetflow/fem/velocity_constraints.hpp"
#include "test_devices.hpp"

namespace hetflow::fem {
namespace {

using Kind = BoundaryKind;

PatchCondition condition(const std::string& patch, Kind kind) {
  PatchCondition c;
  c.patch = patch;
  c.kind = kind;
  return c;
}

PatchCondition velocity(const std::string& patch, Vec3 value) {
  PatchCondition c = condition(patch, Kind::velocity);
  c.value = value;
  return c;
}

PatchCondition outlet(const std::string& patch, double pressure) {
  PatchCondition c = condition(patch, Kind::outlet);
  c.pressure = pressure;
  return c;
}

// Every side of a box_mesh with the same kind.
std::vector<PatchCondition> all_sides(Kind kind) {
  std::vector<PatchCondition> out;
  for (const char* side : {"x_min", "x_max", "y_min", "y_max", "z_min", "z_max"}) out.push_back(condition(side, kind));
  return out;
}

// Node (i, j, k) of a box_mesh of n cells per axis.
std::uint32_t box_node(std::uint32_t n, std::uint32_t i, std::uint32_t j, std::uint32_t k) {
  return i + (n + 1) * (j + (n + 1) * k);
}

// The index of `node` in a sorted list, or -1.
long position(const std::vector<std::uint32_t>& list, std::uint32_t node) {
  const auto it = std::lower_bound(list.begin(), list.end(), node);
  return it != list.end() && *it == node ? it - list.begin() : -1;
}

void expect_vector(const Vec3& got, const Vec3& expected, double tolerance, const std::string& what) {
  for (std::size_t c = 0; c < 3; ++c) EXPECT_NEAR(got[c], expected[c], tolerance) << what << " component " << c;
}

// The error for conditions on a one-cell unit box, which ends with the box's patches.
void expect_box_error(const std::vector<PatchCondition>& conditions, const std::string& message) {
  try {
    build_boundary_constraints(box_mesh(1, 1, 1, {0, 0, 0}, {1, 1, 1}), conditions, "box.msh");
    ADD_FAILURE() << "no error, expected: " << message;
  } catch (const MeshError& e) {
    EXPECT_EQ(std::string(e.what()), message + " (its patches: x_min, x_max, y_min, y_max, z_min, z_max)");
  }
}

// A slip box: faces keep their outward normal, the 12 edges become creases along the edge, the 8 corners are
// held at zero; no outlet, so the lowest boundary node fixes the pressure.
TEST(FemBoundary, SlipBoxHasFaceNormalsEdgeTangentsAndFixedCorners) {
  const std::uint32_t n = 3;
  const Mesh mesh = box_mesh(n, n, n, {0, 0, 0}, {1, 1, 1});
  const BoundaryConstraints c = build_boundary_constraints(mesh, all_sides(Kind::slip), "box");
  EXPECT_TRUE(c.dirichlet_nodes.empty());
  ASSERT_EQ(c.corner_nodes.size(), 8u);
  ASSERT_EQ(c.crease_nodes.size(), 12u * (n - 1));
  ASSERT_EQ(c.slip_nodes.size(), 6u * (n - 1) * (n - 1));
  for (std::uint32_t i : c.corner_nodes)
    for (double x : mesh.nodes[i]) EXPECT_TRUE(x == 0 || x == 1) << "corner node " << i;
  for (std::size_t k = 0; k < c.crease_nodes.size(); ++k) {
    // Along the edge the one coordinate strictly inside (0, 1) varies; the others are 0 or 1.
    const Point& x = mesh.nodes[c.crease_nodes[k]];
    for (std::size_t a = 0; a < 3; ++a) {
      const bool along = x[a] > 0 && x[a] < 1;
      EXPECT_NEAR(std::abs(c.crease_tangents[k][a]), along ? 1.0 : 0.0, 1e-15) << "crease node " << c.crease_nodes[k];
    }
  }
  for (std::size_t k = 0; k < c.slip_nodes.size(); ++k) {
    const Point& x = mesh.nodes[c.slip_nodes[k]];
    Vec3 outward{0, 0, 0};
    for (std::size_t a = 0; a < 3; ++a) outward[a] = x[a] == 0 ? -1.0 : x[a] == 1 ? 1.0 : 0.0;
    expect_vector(c.slip_normals[k], outward, 1e-15, "slip node " + std::to_string(c.slip_nodes[k]));
  }
  EXPECT_EQ(c.reference_pressure_node, 0u);
  EXPECT_EQ(c.pressure_nodes, std::vector<std::uint32_t>{0});
  EXPECT_EQ(c.pressure_values, std::vector<double>{0.0});
}

// The top of a 2 × 2 × 1 box with its x = 2 edge lifted by `lift`: the top bends along x = 1, and its middle
// node 13 = (1, 1, 1) has three flat triangles of area 1/2 on one side and three tilted ones of area
// √(1 + lift²)/2 on the other.
Mesh bent_top(double lift) {
  Mesh mesh = box_mesh(2, 2, 1, {0, 0, 0}, {2, 2, 1});
  for (Point& x : mesh.nodes)
    if (x[0] == 2 && x[2] == 1) x[2] += lift;
  return mesh;
}

std::vector<PatchCondition> slip_top() {
  std::vector<PatchCondition> out = all_sides(Kind::no_slip);
  out.back().kind = Kind::slip;
  return out;
}

// Below 45° (lift 0.5: 26.6°) the node is a slip node whose normal weights each face by its area:
// 3·(0, 0, 1)/2 + 3·(−lift, 0, 1)/2 ∝ (−lift, 0, 2).
TEST(FemBoundary, SlipNormalWeightsTheFacesByArea) {
  const BoundaryConstraints c = build_boundary_constraints(bent_top(0.5), slip_top(), "bent");
  ASSERT_EQ(c.slip_nodes, std::vector<std::uint32_t>{13});
  const double norm = std::sqrt(0.25 + 4);
  expect_vector(c.slip_normals[0], {-0.5 / norm, 0, 2 / norm}, 1e-15, "normal");
  EXPECT_TRUE(c.crease_nodes.empty());
}

// Above 45° (lift 1.5: 56.3°) the bend is a crease and node 13 keeps only the velocity along it.
TEST(FemBoundary, BendBeyondFortyFiveDegreesIsACrease) {
  const BoundaryConstraints c = build_boundary_constraints(bent_top(1.5), slip_top(), "bent");
  EXPECT_TRUE(c.slip_nodes.empty());
  ASSERT_EQ(c.crease_nodes, std::vector<std::uint32_t>{13});
  const Vec3& t = c.crease_tangents[0];
  expect_vector({t[0], std::abs(t[1]), t[2]}, {0, 1, 0}, 0, "tangent");
}

// Inlet x_min: U (1, 0, 0) 4s(1 − s) 4t(1 − t) over y and z; on a box of height H this is Schäfer and Turek's
// 16 U y z (H − y)(H − z) / H⁴.
TEST(FemBoundary, ParabolicProfileOverTwoAxes) {
  const double h = 0.41, u = 2.25;
  const Mesh mesh = box_mesh(2, 4, 4, {0, 0, 0}, {2.5, h, h});
  std::vector<PatchCondition> conditions = all_sides(Kind::no_slip);
  conditions[0] = velocity("x_min", {u, 0, 0});
  conditions[0].profile = VelocityProfile::parabolic;
  conditions[0].profile_axes = {1, 2};
  conditions[1] = outlet("x_max", 0);
  const BoundaryConstraints c = build_boundary_constraints(mesh, conditions, "channel");
  std::size_t inner = 0;
  for (std::size_t k = 0; k < c.dirichlet_nodes.size(); ++k) {
    const Point& x = mesh.nodes[c.dirichlet_nodes[k]];
    const double expected = x[0] == 0 ? 16 * u * x[1] * x[2] * (h - x[1]) * (h - x[2]) / std::pow(h, 4) : 0.0;
    EXPECT_NEAR(c.dirichlet_values[k][0], expected, 1e-15) << "node " << c.dirichlet_nodes[k];
    inner += expected > 0;
  }
  EXPECT_EQ(inner, 9u);  // the inlet's 3 × 3 inner nodes
  // The centre, node (0, 2, 2): U.
  EXPECT_EQ(c.dirichlet_values[position(c.dirichlet_nodes, 0 + 3 * (2 + 5 * 2))][0], u);
}

// A pipe profile on the unit square x_min: centre (0.5, 0.5), R² = 1/2 from its corners.
TEST(FemBoundary, PipeProfileAroundThePatchCentre) {
  const std::uint32_t n = 4;
  const Mesh mesh = box_mesh(n, n, n, {0, 0, 0}, {1, 1, 1});
  std::vector<PatchCondition> conditions = all_sides(Kind::slip);
  conditions[0] = velocity("x_min", {3, 0, -1});
  conditions[0].profile = VelocityProfile::pipe;
  conditions[1] = outlet("x_max", 0);
  const BoundaryConstraints c = build_boundary_constraints(mesh, conditions, "box");
  const auto value_at = [&](std::uint32_t j, std::uint32_t k) {
    return c.dirichlet_values[position(c.dirichlet_nodes, box_node(n, 0, j, k))];
  };
  expect_vector(value_at(2, 2), {3, 0, -1}, 0, "centre");
  expect_vector(value_at(1, 2), {3 * 0.875, 0, -0.875}, 1e-15, "r = 1/4");  // 1 − (1/16)/(1/2)
  expect_vector(value_at(1, 1), {3 * 0.75, 0, -0.75}, 1e-15, "r² = 1/8");
  expect_vector(value_at(0, 4), {0, 0, 0}, 1e-15, "corner");
}

TEST(FemBoundary, RampRisesAsAHalfCosine) {
  EXPECT_EQ(ramp_factor(0.0, 2.0), 0.0);
  EXPECT_NEAR(ramp_factor(0.5, 2.0), (1 - std::sqrt(0.5)) / 2, 1e-16);
  EXPECT_NEAR(ramp_factor(1.0, 2.0), 0.5, 1e-16);
  EXPECT_EQ(ramp_factor(2.0, 2.0), 1.0);
  EXPECT_EQ(ramp_factor(7.0, 2.0), 1.0);
  EXPECT_EQ(ramp_factor(0.0, 0.0), 1.0);
  const Mesh mesh = box_mesh(1, 1, 1, {0, 0, 0}, {1, 1, 1});
  std::vector<PatchCondition> conditions = all_sides(Kind::slip);
  conditions[0] = outlet("x_min", 0);
  conditions[1] = velocity("x_max", {-2, 0, 0});
  conditions[1].ramp_time = 2.0;
  const BoundaryConstraints c = build_boundary_constraints(mesh, conditions, "box");
  std::vector<Vec3> u(mesh.nodes.size(), Vec3{5, 5, 5});
  apply_constraints(c, 1.0, u);
  expect_vector(u[1], {-1, 0, 0}, 1e-15, "half way");
  apply_constraints(c, 2.5, u);
  expect_vector(u[1], {-2, 0, 0}, 0, "ramped up");
}

// x_min velocity, y_min no-slip, y_max and the z sides slip, x_max outlet, on 2³ cells.
TEST(FemBoundary, WallsTakePrecedenceAndOutletsKeepThem) {
  const std::uint32_t n = 2;
  const Mesh mesh = box_mesh(n, n, n, {0, 0, 0}, {1, 1, 1});
  const std::vector<PatchCondition> conditions{velocity("x_min", {1.5, 0, 0}),    outlet("x_max", 3.0),
                                               condition("y_min", Kind::no_slip), condition("y_max", Kind::slip),
                                               condition("z_min", Kind::slip),    condition("z_max", Kind::slip)};
  const BoundaryConstraints c = build_boundary_constraints(mesh, conditions, "box");
  const auto dirichlet = [&](std::uint32_t node) {
    const long k = position(c.dirichlet_nodes, node);
    EXPECT_GE(k, 0) << "node " << node;
    return k < 0 ? Vec3{-9, -9, -9} : c.dirichlet_values[std::size_t(k)];
  };
  expect_vector(dirichlet(box_node(n, 0, 0, 1)), {0, 0, 0}, 0, "inlet and no-slip: no-slip");
  expect_vector(dirichlet(box_node(n, 0, 2, 1)), {1.5, 0, 0}, 0, "inlet and slip: inlet");
  expect_vector(dirichlet(box_node(n, 2, 0, 1)), {0, 0, 0}, 0, "outlet and no-slip: no-slip");
  const std::uint32_t outlet_on_slip = box_node(n, 2, 1, 0);
  const long slip = position(c.slip_nodes, outlet_on_slip);
  ASSERT_GE(slip, 0);
  expect_vector(c.slip_normals[std::size_t(slip)], {0, 0, -1}, 0, "outlet and one slip side: slip");
  const std::uint32_t outlet_on_crease = box_node(n, 2, 2, 2);
  const long crease = position(c.crease_nodes, outlet_on_crease);
  ASSERT_GE(crease, 0);
  EXPECT_EQ(std::abs(c.crease_tangents[std::size_t(crease)][0]), 1.0);
  EXPECT_GE(position(c.crease_nodes, box_node(n, 1, 2, 2)), 0) << "the y_max–z_max edge";
  EXPECT_TRUE(c.corner_nodes.empty());
  // The outlet fixes the pressure at all its nodes, walls included.
  EXPECT_EQ(c.pressure_nodes.size(), 9u);
  for (std::uint32_t i : {box_node(n, 2, 0, 1), outlet_on_slip, outlet_on_crease})
    EXPECT_GE(position(c.pressure_nodes, i), 0) << "node " << i;
  for (double p : c.pressure_values) EXPECT_EQ(p, 3.0);
  EXPECT_FALSE(c.reference_pressure_node.has_value());
  EXPECT_TRUE(c.dirichlet_flux_areas.empty()) << "an outlet takes any net inflow";
  EXPECT_EQ(c.balanced_imbalance, 0.0);
  for (std::uint32_t i = 0; i < mesh.nodes.size(); ++i)
    EXPECT_LE((position(c.dirichlet_nodes, i) >= 0) + (position(c.slip_nodes, i) >= 0) +
                  (position(c.crease_nodes, i) >= 0) + (position(c.corner_nodes, i) >= 0),
              1)
        << "node " << i;
}

// ∮ N_I n dΓ of every node, from the boundary triangles: a third of each face's area times its normal.
std::vector<Vec3> node_flux_areas(const Mesh& mesh) {
  std::vector<Vec3> area(mesh.nodes.size(), Vec3{0, 0, 0});
  for (const BoundaryFace& f : mesh.boundary) {
    const Point &a = mesh.nodes[f.nodes[0]], &b = mesh.nodes[f.nodes[1]], &c = mesh.nodes[f.nodes[2]];
    const Vec3 u{b[0] - a[0], b[1] - a[1], b[2] - a[2]}, v{c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    const Vec3 n{u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
    for (std::uint32_t i : f.nodes)
      for (std::size_t d = 0; d < 3; ++d) area[i][d] += n[d] / 6;
  }
  return area;
}

// Σ u_I·a_I over the Dirichlet nodes of `ramp_time`: their net outflow.
double net_outflow(const Mesh& mesh, const BoundaryConstraints& c, const std::vector<Vec3>& values, double ramp_time) {
  const std::vector<Vec3> area = node_flux_areas(mesh);
  double q = 0;
  for (std::size_t k = 0; k < c.dirichlet_nodes.size(); ++k)
    if (c.dirichlet_ramp_times[k] == ramp_time)
      for (std::size_t d = 0; d < 3; ++d) q += values[k][d] * area[c.dirichlet_nodes[k]][d];
  return q;
}

// A closed 4³ box, slip on y and z, 1 flowing in through x_min and 1.02 out through x_max: the held values
// are changed along each node's area vector until nothing flows out net, and the imbalance was 0.02/2.02.
TEST(FemBoundary, AClosedDomainsHeldVelocitiesCarryNoNetFlow) {
  const Mesh mesh = box_mesh(4, 4, 4, {0, 0, 0}, {1, 1, 1});
  std::vector<PatchCondition> conditions = all_sides(Kind::slip);
  conditions[0] = velocity("x_min", {1, 0, 0});
  conditions[1] = velocity("x_max", {1.02, 0, 0});
  BoundaryConstraints c = build_boundary_constraints(mesh, conditions, "box");
  const std::vector<Vec3> area = node_flux_areas(mesh);
  ASSERT_EQ(c.dirichlet_flux_areas.size(), c.dirichlet_nodes.size());
  std::vector<Vec3> given;
  double area_squared = 0;
  for (std::size_t k = 0; k < c.dirichlet_nodes.size(); ++k) {
    const std::uint32_t i = c.dirichlet_nodes[k];
    expect_vector(c.dirichlet_flux_areas[k], area[i], 1e-17, "area of node " + std::to_string(i));
    given.push_back({mesh.nodes[i][0] == 0 ? 1.0 : 1.02, 0, 0});
    for (double a : area[i]) area_squared += a * a;
  }
  // The least change moves every value by one multiple of its area vector.
  for (std::size_t k = 0; k < c.dirichlet_nodes.size(); ++k) {
    const Vec3& a = area[c.dirichlet_nodes[k]];
    expect_vector(c.dirichlet_values[k], {given[k][0] - 0.02 / area_squared * a[0], -0.02 / area_squared * a[1],
                                          -0.02 / area_squared * a[2]},
                  1e-15, "node " + std::to_string(c.dirichlet_nodes[k]));
  }
  EXPECT_NEAR(net_outflow(mesh, c, given, 0), 0.02, 1e-15);
  EXPECT_NEAR(c.balanced_imbalance, 0.02 / 2.02, 1e-15);
  EXPECT_NEAR(net_outflow(mesh, c, c.dirichlet_values, 0), 0, 1e-15);
  EXPECT_NEAR(balance_closed_flux(c, given), 0.02 / 2.02, 1e-15);
  EXPECT_NEAR(net_outflow(mesh, c, given, 0), 0, 1e-15);
}

// A group balanced at full value stays balanced along its ramp, so each ramp time is balanced by itself.
TEST(FemBoundary, EachRampGroupIsBalancedByItself) {
  const Mesh mesh = box_mesh(3, 3, 3, {0, 0, 0}, {1, 1, 1});
  std::vector<PatchCondition> conditions = all_sides(Kind::slip);
  conditions[0] = velocity("x_min", {1, 0, 0});
  conditions[1] = velocity("x_max", {1.05, 0, 0});
  conditions[2] = velocity("y_min", {0, 2, 0});
  conditions[3] = velocity("y_max", {0, 1.9, 0});
  conditions[2].ramp_time = conditions[3].ramp_time = 0.5;
  const BoundaryConstraints c = build_boundary_constraints(mesh, conditions, "box");
  EXPECT_NEAR(net_outflow(mesh, c, c.dirichlet_values, 0), 0, 1e-15);
  EXPECT_NEAR(net_outflow(mesh, c, c.dirichlet_values, 0.5), 0, 1e-15);
  for (std::size_t k = 0; k < c.dirichlet_nodes.size(); ++k) {
    const Point& x = mesh.nodes[c.dirichlet_nodes[k]];
    if (x[0] == 0 && x[1] > 0 && x[1] < 1) EXPECT_GT(c.dirichlet_values[k][0], 1.0) << "x_min gives more";
    if (x[1] == 0 && x[0] > 0 && x[0] < 1) EXPECT_LT(c.dirichlet_values[k][1], 2.0) << "y_min gives less";
  }
}

TEST(FemBoundary, RejectsAnInflowWithoutAnOutlet) {
  std::vector<PatchCondition> conditions = all_sides(Kind::slip);
  conditions[0] = velocity("x_min", {1, 0, 0});
  expect_box_error(conditions,
                   "mesh 'box.msh': the velocity patches of a domain without an outlet let in or out 100 % of the "
                   "flow through them net; an incompressible flow needs an outlet or a balanced inflow");
}

TEST(FemBoundary, ReferencePressureNodeIsTheNearestToTheGivenPoint) {
  const Mesh mesh = box_mesh(2, 2, 2, {0, 0, 0}, {1, 1, 1});
  const BoundaryConstraints c = build_boundary_constraints(mesh, all_sides(Kind::no_slip), "box", Point{0.9, 0.6, 0.2});
  EXPECT_EQ(c.reference_pressure_node, box_node(2, 2, 1, 0));
  EXPECT_EQ(c.pressure_nodes, std::vector<std::uint32_t>{box_node(2, 2, 1, 0)});
}

TEST(FemBoundary, RejectsAnUnknownPatch) {
  std::vector<PatchCondition> conditions = all_sides(Kind::slip);
  conditions.push_back(condition("inlet", Kind::no_slip));
  expect_box_error(conditions, "mesh 'box.msh' has no patch 'inlet'");
}

TEST(FemBoundary, RejectsAPatchGivenTwice) {
  std::vector<PatchCondition> conditions = all_sides(Kind::slip);
  conditions.push_back(condition("y_max", Kind::no_slip));
  expect_box_error(conditions, "mesh 'box.msh': the patch 'y_max' is given two conditions");
}

TEST(FemBoundary, RejectsPatchesWithoutACondition) {
  std::vector<PatchCondition> conditions = all_sides(Kind::slip);
  conditions.erase(conditions.begin() + 4);
  conditions.erase(conditions.begin() + 1);
  expect_box_error(conditions,
                   "mesh 'box.msh': no boundary condition for the patches x_max, z_min; every patch needs one of "
                   "velocity, no_slip, slip, outlet");
}

TEST(FemBoundary, RejectsAParabolaAcrossNoExtent) {
  std::vector<PatchCondition> conditions = all_sides(Kind::slip);
  conditions[0] = velocity("x_min", {1, 0, 0});
  conditions[0].profile = VelocityProfile::parabolic;
  conditions[0].profile_axes = {1, 0};
  expect_box_error(conditions,
                   "mesh 'box.msh': the velocity of patch 'x_min' has a parabolic profile along axis 0, where the "
                   "patch has no extent");
  conditions[0].profile_axes = {1, 1};
  expect_box_error(conditions, "mesh 'box.msh': the velocity of patch 'x_min' lists the profile axis 1 twice");
  conditions[0].profile_axes = {3};
  expect_box_error(conditions,
                   "mesh 'box.msh': the velocity of patch 'x_min' has the profile axis 3, not 0 (x), 1 (y) or 2 (z)");
}

TEST(FemBoundary, RejectsANegativeRampTime) {
  std::vector<PatchCondition> conditions = all_sides(Kind::slip);
  conditions[0] = velocity("x_min", {1, 0, 0});
  conditions[0].ramp_time = -1;
  expect_box_error(
      conditions, "mesh 'box.msh': the velocity of patch 'x_min' has the ramp time -1, not a finite time of 0 or more");
}

TEST(FemBoundary, RejectsAConstraintNodeOutOfRange) {
  BoundaryConstraints c;
  c.slip_nodes = {2, 8};
  c.slip_normals = {Vec3{1, 0, 0}, Vec3{0, 1, 0}};
  std::vector<Vec3> u(8);
  try {
    apply_constraints(c, 0.0, u);
    FAIL() << "no error";
  } catch (const core::Error& e) {
    EXPECT_STREQ(e.what(), "the slip node 8 is not below the 8 nodes");
  }
}

class FemBoundaryDevice : public ::testing::Test {
 protected:
  FemBoundaryDevice() : devices_(test::test_device()) {}

  core::Buffer<double> device_field(const std::vector<Vec3>& values) const {
    std::vector<double> packed;
    for (const Vec3& v : values) packed.insert(packed.end(), v.begin(), v.end());
    core::Buffer<double> b(devices_.context(0), packed.size());
    b.write(devices_.compute(0), packed);
    return b;
  }
  std::vector<double> host(const core::Buffer<double>& b) const { return b.to_vector(devices_.compute(0)); }

  core::DeviceSet devices_;
};

// Every kind of entry at once (a ramped parabolic inlet, creases, corners, slip faces), during and after the
// ramp.
TEST_F(FemBoundaryDevice, DeviceApplyEqualsHostApply) {
  const std::uint32_t n = 4;
  const Mesh mesh = box_mesh(n, n, n, {0, 0, 0}, {1, 1, 1});
  std::vector<PatchCondition> conditions = all_sides(Kind::slip);
  conditions[0] = velocity("x_min", {1.5, 0.25, 0});
  conditions[0].profile = VelocityProfile::parabolic;
  conditions[0].profile_axes = {1, 2};
  conditions[0].ramp_time = 2.0;
  conditions[5] = outlet("z_max", 0);
  const BoundaryConstraints c = build_boundary_constraints(mesh, conditions, "box");
  ASSERT_FALSE(c.corner_nodes.empty());
  ASSERT_FALSE(c.crease_nodes.empty());
  std::vector<Vec3> u;
  for (const Point& x : mesh.nodes) u.push_back({std::sin(3 * x[1]) + x[2], x[0] * x[1] - 0.5, std::exp(x[0] - x[2])});
  VelocityConstraints constraints(devices_, 0, c, mesh.nodes.size());
  for (double t : {0.7, 2.5}) {
    const core::Buffer<double> field = device_field(u);
    constraints.apply(field, t);
    std::vector<Vec3> expected = u;
    apply_constraints(c, t, expected);
    const std::vector<double> got = host(field);
    for (std::size_t i = 0; i < u.size(); ++i)
      for (std::size_t a = 0; a < 3; ++a)
        EXPECT_NEAR(got[3 * i + a], expected[i][a], 1e-15) << "t " << t << " node " << i << " component " << a;
  }
}

// New Dirichlet values replace the constructed ones, in the order of the Dirichlet list, and leave the
// other constraints as they were; a list of another length is refused.
TEST_F(FemBoundaryDevice, NewDirichletValuesReplaceTheOldOnes) {
  const Mesh mesh = box_mesh(3, 3, 3, {0, 0, 0}, {1, 1, 1});
  std::vector<PatchCondition> conditions = all_sides(Kind::slip);
  conditions[0] = velocity("x_min", {1, 0, 0});
  conditions[1] = outlet("x_max", 0);
  BoundaryConstraints c = build_boundary_constraints(mesh, conditions, "box");
  VelocityConstraints constraints(devices_, 0, c, mesh.nodes.size());
  for (std::size_t k = 0; k < c.dirichlet_values.size(); ++k)
    c.dirichlet_values[k] = {0.5 * static_cast<double>(k), -1, 2};
  constraints.set_dirichlet_values(c.dirichlet_values);
  std::vector<Vec3> u(mesh.nodes.size(), Vec3{0.3, 0.2, 0.1});
  const core::Buffer<double> field = device_field(u);
  constraints.apply(field, 0);
  apply_constraints(c, 0, u);
  const std::vector<double> got = host(field);
  for (std::size_t i = 0; i < u.size(); ++i)
    for (std::size_t a = 0; a < 3; ++a) EXPECT_EQ(got[3 * i + a], u[i][a]) << "node " << i << " component " << a;
  c.dirichlet_values.pop_back();
  EXPECT_THROW(constraints.set_dirichlet_values(c.dirichlet_values), core::Error);
}

// A slab one cell thick with slip z sides: every node is on a z side or a wall, so a force along z leaves
// w = 0 exactly through a momentum step, on the device and the host alike.
TEST_F(FemBoundaryDevice, SlipSidesOfASlabKeepItsVelocityInPlane) {
  const Mesh mesh = box_mesh(5, 4, 1, {0, 0, 0}, {2.5, 1, 0.5});
  const std::vector<PatchCondition> conditions{velocity("x_min", {1, 0, 0}),      outlet("x_max", 0),
                                               condition("y_min", Kind::no_slip), condition("y_max", Kind::no_slip),
                                               condition("z_min", Kind::slip),    condition("z_max", Kind::slip)};
  const BoundaryConstraints c = build_boundary_constraints(mesh, conditions, "slab");
  const EdgeData data = build_edge_data(mesh);
  MomentumParameters parameters;
  parameters.viscosity = 0.05;
  parameters.body_force = {0.2, 0.1, 1.0};
  std::vector<Vec3> u;
  std::vector<double> p;
  for (const Point& x : mesh.nodes) {
    u.push_back({std::sin(x[1] * 3.14159) * (1 + 0.1 * x[0]), 0.1 * x[0] * x[1], 0});
    p.push_back(0.3 * x[0] - x[2]);
  }
  const double dt = 0.01;
  const std::vector<Vec3> expected = momentum_rk4(data, parameters, c, u, p, 0.0, dt);
  VelocityConstraints constraints(devices_, 0, c, mesh.nodes.size());
  const DeviceEdgeData edges(devices_, 0, data);
  MomentumStep step(devices_, 0, edges, parameters, constraints);
  const core::Buffer<double> u_device = device_field(u);
  core::Buffer<double> p_device(devices_.context(0), p.size());
  p_device.write(devices_.compute(0), p);
  core::Buffer<double> u_hat(devices_.context(0), u_device.size());
  step.advance(u_device, p_device, 0.0, dt, u_hat);
  const std::vector<double> got = host(u_hat);
  double moved = 0;
  for (std::size_t i = 0; i < u.size(); ++i) {
    EXPECT_EQ(expected[i][2], 0.0) << "node " << i;
    EXPECT_EQ(got[3 * i + 2], 0.0) << "node " << i;
    for (std::size_t a = 0; a < 2; ++a) EXPECT_NEAR(got[3 * i + a], expected[i][a], 1e-13) << "node " << i;
    moved = std::max(moved, std::abs(expected[i][0] - u[i][0]));
  }
  EXPECT_GT(moved, 1e-3);
}

}  // namespace
}  // namespace hetflow::fem
