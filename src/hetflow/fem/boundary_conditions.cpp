#include "hetflow/fem/boundary_conditions.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <numbers>
#include <string>
#include <utility>

#include "hetflow/core/error.hpp"
#include "hetflow/core/number_text.hpp"
#include "hetflow/fem/find_patch.hpp"
#include "hetflow/fem/mesh_error.hpp"

namespace hetflow::fem {
namespace {

// Two slip faces whose normals are more than 45° apart meet at a crease: cos 45° = √2/2.
constexpr double kCreaseCosine = 0.5 * std::numbers::sqrt2;
constexpr int kNone = -1;

Vec3 minus(const Point& a, const Point& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
double dot(const Vec3& a, const Vec3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
Vec3 cross(const Vec3& a, const Vec3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
Vec3 scaled(const Vec3& v, double s) { return {v[0] * s, v[1] * s, v[2] * s}; }
// Divides by the length, so that an axis-aligned vector becomes exactly ±1 on its axis.
Vec3 unit(const Vec3& v) {
  const double length = std::sqrt(dot(v, v));
  return {v[0] / length, v[1] / length, v[2] / length};
}
void add(Vec3& sum, const Vec3& v) {
  for (std::size_t c = 0; c < 3; ++c) sum[c] += v[c];
}

// Twice the area times the unit normal of a face, outward as the face is wound.
Vec3 area_normal(const Mesh& mesh, const BoundaryFace& face) {
  const Point& x0 = mesh.nodes[face.nodes[0]];
  return cross(minus(mesh.nodes[face.nodes[1]], x0), minus(mesh.nodes[face.nodes[2]], x0));
}

class Builder {
 public:
  Builder(const Mesh& mesh, std::span<const PatchCondition> conditions, const std::string& source)
      : mesh_(mesh), conditions_(conditions), source_(source), condition_of_patch_(mesh.patches.size(), kNone),
        shapes_(conditions.size()) {
    for (std::size_t k = 0; k < conditions.size(); ++k) {
      const std::uint32_t patch = find_patch(mesh, conditions[k].patch, source);
      patch_of_condition_.push_back(patch);
      if (condition_of_patch_[patch] != kNone) fail("the patch '" + conditions[k].patch + "' is given two conditions");
      condition_of_patch_[patch] = static_cast<int>(k);
    }
    std::string missing;
    for (std::size_t p = 0; p < mesh.patches.size(); ++p)
      if (condition_of_patch_[p] == kNone) missing += (missing.empty() ? "" : ", ") + mesh.patches[p];
    if (!missing.empty())
      fail("no boundary condition for the patches " + missing +
           "; every patch needs one of velocity, no_slip, slip, outlet");
    for (std::size_t p = 0; p < mesh.patches.size(); ++p)
      nodes_of_patch_.push_back(patch_nodes(mesh, std::uint32_t(p)));
  }

  BoundaryConstraints build(std::optional<Point> reference_point) {
    BoundaryConstraints out;
    const std::vector<int> wall = dirichlet_owners();
    for (std::uint32_t i = 0; i < wall.size(); ++i)
      if (wall[i] != kNone) add_dirichlet(out, i, std::size_t(wall[i]));
    add_slip(out, wall);
    add_pressure(out, reference_point);
    if (out.reference_pressure_node) add_flux_areas(out, wall);
    out.balanced_imbalance = balance_closed_flux(out, out.dirichlet_values);
    if (out.balanced_imbalance > kMaxClosedFluxImbalance)
      fail("the velocity patches of a domain without an outlet let in or out " +
           core::number_text(100 * out.balanced_imbalance, 3) + " % of the flow through them net; an " +
           "incompressible flow needs an outlet or a balanced inflow");
    return out;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw MeshError("mesh '" + source_ + "': " + what + " (its patches: " + patch_names(mesh_) + ")");
  }

  // Per node, the condition that sets its velocity: no_slip patches first, then velocity patches in the
  // order listed, each taking only nodes not yet taken.
  std::vector<int> dirichlet_owners() {
    std::vector<int> owner(mesh_.nodes.size(), kNone);
    for (BoundaryKind kind : {BoundaryKind::no_slip, BoundaryKind::velocity})
      for (std::size_t k = 0; k < conditions_.size(); ++k) {
        if (conditions_[k].kind != kind) continue;
        if (kind == BoundaryKind::velocity) prepare_velocity(k);
        for (std::uint32_t i : nodes_of_patch_[patch_of_condition_[k]])
          if (owner[i] == kNone) owner[i] = static_cast<int>(k);
      }
    return owner;
  }

  // Checks a velocity condition and records its patch's bounding box and pipe radius.
  void prepare_velocity(std::size_t k) {
    const PatchCondition& c = conditions_[k];
    const auto require = [&](bool ok, const std::string& what) {
      if (!ok) fail("the velocity of patch '" + c.patch + "' " + what);
    };
    for (double v : c.value) require(std::isfinite(v), "has the component " + core::shortest_text(v));
    require(c.ramp_time >= 0 && std::isfinite(c.ramp_time),
            "has the ramp time " + core::shortest_text(c.ramp_time) + ", not a finite time of 0 or more");
    const std::vector<std::uint32_t>& nodes = nodes_of_patch_[patch_of_condition_[k]];
    Shape shape;
    shape.lower.fill(std::numeric_limits<double>::infinity());
    shape.upper.fill(-std::numeric_limits<double>::infinity());
    for (std::uint32_t i : nodes)
      for (std::size_t a = 0; a < 3; ++a) {
        shape.lower[a] = std::min(shape.lower[a], mesh_.nodes[i][a]);
        shape.upper[a] = std::max(shape.upper[a], mesh_.nodes[i][a]);
      }
    if (c.profile == VelocityProfile::parabolic) {
      require(!c.profile_axes.empty(), "has a parabolic profile without axes");
      std::array<bool, 3> seen{};
      for (std::uint32_t a : c.profile_axes) {
        require(a < 3, "has the profile axis " + std::to_string(a) + ", not 0 (x), 1 (y) or 2 (z)");
        require(!seen[a], "lists the profile axis " + std::to_string(a) + " twice");
        seen[a] = true;
        require(shape.upper[a] > shape.lower[a],
                "has a parabolic profile along axis " + std::to_string(a) + ", where the patch has no extent");
      }
    }
    for (std::size_t a = 0; a < 3; ++a) shape.centre[a] = 0.5 * (shape.lower[a] + shape.upper[a]);
    for (std::uint32_t i : nodes) {
      const Vec3 r = minus(mesh_.nodes[i], shape.centre);
      shape.radius_squared = std::max(shape.radius_squared, dot(r, r));
    }
    shapes_[k] = shape;
  }

  void add_dirichlet(BoundaryConstraints& out, std::uint32_t node, std::size_t k) const {
    const PatchCondition& c = conditions_[k];
    out.dirichlet_nodes.push_back(node);
    if (c.kind == BoundaryKind::no_slip) {
      out.dirichlet_values.push_back({0, 0, 0});
      out.dirichlet_ramp_times.push_back(0);
      return;
    }
    const Shape& shape = shapes_[k];
    const Point& x = mesh_.nodes[node];
    double scale = 1;
    if (c.profile == VelocityProfile::parabolic) {
      for (std::uint32_t a : c.profile_axes) {
        const double s = (x[a] - shape.lower[a]) / (shape.upper[a] - shape.lower[a]);
        scale *= 4 * s * (1 - s);
      }
    } else if (c.profile == VelocityProfile::pipe) {
      const Vec3 r = minus(x, shape.centre);
      scale = 1 - dot(r, r) / shape.radius_squared;
    }
    out.dirichlet_values.push_back(scaled(c.value, scale));
    out.dirichlet_ramp_times.push_back(c.ramp_time);
  }

  // Slip nodes, creases and corners among the nodes of slip faces that no wall holds.
  void add_slip(BoundaryConstraints& out, const std::vector<int>& wall) const {
    const std::size_t n = mesh_.nodes.size();
    std::vector<Vec3> normal(n, Vec3{0, 0, 0});
    std::vector<bool> on_slip(n, false);
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<Vec3>> edge_normals;
    for (const BoundaryFace& face : mesh_.boundary) {
      const int k = condition_of_patch_[face.patch];
      if (conditions_[std::size_t(k)].kind != BoundaryKind::slip) continue;
      const Vec3 a = area_normal(mesh_, face);
      for (std::size_t v = 0; v < 3; ++v) {
        const std::uint32_t i = face.nodes[v], j = face.nodes[(v + 1) % 3];
        add(normal[i], a);
        on_slip[i] = true;
        edge_normals[std::minmax(i, j)].push_back(unit(a));
      }
    }
    // Per node, its crease edges' unit directions away from it, in the order of the sorted edges.
    std::vector<std::vector<Vec3>> creases(n);
    for (const auto& [edge, normals] : edge_normals) {
      if (normals.size() != 2 || dot(normals[0], normals[1]) >= kCreaseCosine) continue;
      const Vec3 along = unit(minus(mesh_.nodes[edge.second], mesh_.nodes[edge.first]));
      creases[edge.first].push_back(along);
      creases[edge.second].push_back(scaled(along, -1));
    }
    for (std::uint32_t i = 0; i < n; ++i) {
      if (!on_slip[i] || wall[i] != kNone) continue;
      const std::vector<Vec3>& c = creases[i];
      if (c.size() > 2) {
        out.corner_nodes.push_back(i);
      } else if (!c.empty()) {
        // Two crease edges run to either side of the node: the difference of their directions away from it
        // follows the crease.
        out.crease_nodes.push_back(i);
        out.crease_tangents.push_back(c.size() == 1 ? c[0] : unit(minus(c[0], c[1])));
      } else {
        out.slip_nodes.push_back(i);
        out.slip_normals.push_back(unit(normal[i]));
      }
    }
  }

  // ∮ N_I n dΓ = Σ over I's boundary faces of (area / 3) n for the nodes of velocity patches.
  void add_flux_areas(BoundaryConstraints& out, const std::vector<int>& wall) const {
    std::vector<Vec3> area(mesh_.nodes.size(), Vec3{0, 0, 0});
    for (const BoundaryFace& face : mesh_.boundary)
      for (std::uint32_t i : face.nodes) add(area[i], scaled(area_normal(mesh_, face), 1.0 / 6));
    for (std::uint32_t i : out.dirichlet_nodes)
      out.dirichlet_flux_areas.push_back(conditions_[std::size_t(wall[i])].kind == BoundaryKind::velocity ? area[i]
                                                                                                   : Vec3{0, 0, 0});
  }

  // The outlets' pressures (the first outlet listed wins a shared node), or the reference node.
  void add_pressure(BoundaryConstraints& out, std::optional<Point> reference_point) const {
    std::vector<int> owner(mesh_.nodes.size(), kNone);
    for (std::size_t k = 0; k < conditions_.size(); ++k) {
      const PatchCondition& c = conditions_[k];
      if (c.kind != BoundaryKind::outlet) continue;
      if (!std::isfinite(c.pressure))
        fail("the outlet '" + c.patch + "' has the pressure " + core::shortest_text(c.pressure));
      for (std::uint32_t i : nodes_of_patch_[patch_of_condition_[k]])
        if (owner[i] == kNone) owner[i] = static_cast<int>(k);
    }
    for (std::uint32_t i = 0; i < owner.size(); ++i)
      if (owner[i] != kNone) {
        out.pressure_nodes.push_back(i);
        out.pressure_values.push_back(conditions_[std::size_t(owner[i])].pressure);
      }
    if (!out.pressure_nodes.empty()) return;
    std::uint32_t reference = std::numeric_limits<std::uint32_t>::max();
    if (reference_point) {
      double nearest = std::numeric_limits<double>::infinity();
      for (std::uint32_t i = 0; i < mesh_.nodes.size(); ++i) {
        const Vec3 r = minus(mesh_.nodes[i], *reference_point);
        if (dot(r, r) < nearest) {
          nearest = dot(r, r);
          reference = i;
        }
      }
    } else {
      for (const BoundaryFace& face : mesh_.boundary)
        for (std::uint32_t i : face.nodes) reference = std::min(reference, i);
    }
    if (reference >= mesh_.nodes.size()) fail("there is no node to fix the pressure at");
    out.pressure_nodes.push_back(reference);
    out.pressure_values.push_back(0);
    out.reference_pressure_node = reference;
  }

  struct Shape {
    Point lower{}, upper{}, centre{};
    double radius_squared = 0;
  };

  const Mesh& mesh_;
  std::span<const PatchCondition> conditions_;
  const std::string& source_;
  std::vector<int> condition_of_patch_;            // per patch, its condition's index
  std::vector<std::uint32_t> patch_of_condition_;  // per condition, its patch's index
  std::vector<std::vector<std::uint32_t>> nodes_of_patch_;
  std::vector<Shape> shapes_;  // per condition, set for velocity conditions
};

void check_list(const std::vector<std::uint32_t>& list, std::size_t values, const char* what, std::size_t node_count) {
  if (values != list.size())
    throw core::Error(std::string("the ") + what + " constraint has " + std::to_string(list.size()) + " nodes and " +
                      std::to_string(values) + " values");
  for (std::uint32_t node : list)
    if (node >= node_count)
      throw core::Error(std::string("the ") + what + " node " + std::to_string(node) + " is not below the " +
                        std::to_string(node_count) + " nodes");
}

}  // namespace

BoundaryConstraints build_boundary_constraints(const Mesh& mesh, std::span<const PatchCondition> conditions,
                                               const std::string& source, std::optional<Point> reference_point) {
  return Builder(mesh, conditions, source).build(reference_point);
}

std::vector<std::uint32_t> patch_nodes(const Mesh& mesh, std::uint32_t patch) {
  std::vector<std::uint32_t> nodes;
  for (const BoundaryFace& face : mesh.boundary)
    if (face.patch == patch) nodes.insert(nodes.end(), face.nodes.begin(), face.nodes.end());
  std::sort(nodes.begin(), nodes.end());
  nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
  return nodes;
}

double balance_closed_flux(const BoundaryConstraints& c, std::span<Vec3> values) {
  const std::vector<Vec3>& areas = c.dirichlet_flux_areas;
  if (areas.empty()) return 0;
  if (areas.size() != values.size() || c.dirichlet_ramp_times.size() != values.size())
    throw core::Error("balancing the flux: " + std::to_string(values.size()) + " values for " +
                      std::to_string(areas.size()) + " Dirichlet areas");
  struct Group {
    double net = 0, gross = 0, area_squared = 0;
  };
  std::map<double, Group> groups;
  for (std::size_t k = 0; k < values.size(); ++k) {
    Group& g = groups[c.dirichlet_ramp_times[k]];
    const double flux = dot(values[k], areas[k]);
    g.net += flux;
    g.gross += std::abs(flux);
    g.area_squared += dot(areas[k], areas[k]);
  }
  for (std::size_t k = 0; k < values.size(); ++k) {
    const Group& g = groups[c.dirichlet_ramp_times[k]];
    if (g.net != 0) add(values[k], scaled(areas[k], -g.net / g.area_squared));
  }
  double worst = 0;
  for (const auto& [ramp, g] : groups)
    if (g.gross > 0) worst = std::max(worst, std::abs(g.net) / g.gross);
  return worst;
}

double ramp_factor(double time, double ramp_time) {
  return ramp_time > 0 && time < ramp_time ? 0.5 * (1 - std::cos(std::numbers::pi * time / ramp_time)) : 1.0;
}

void check_constraints(const BoundaryConstraints& c, std::size_t node_count) {
  check_list(c.crease_nodes, c.crease_tangents.size(), "crease", node_count);
  check_list(c.corner_nodes, c.corner_nodes.size(), "corner", node_count);
  check_list(c.slip_nodes, c.slip_normals.size(), "slip", node_count);
  check_list(c.dirichlet_nodes, c.dirichlet_values.size(), "velocity Dirichlet", node_count);
  check_list(c.dirichlet_nodes, c.dirichlet_ramp_times.size(), "velocity Dirichlet", node_count);
  check_list(c.pressure_nodes, c.pressure_values.size(), "pressure", node_count);
  if (!c.dirichlet_flux_areas.empty())
    check_list(c.dirichlet_nodes, c.dirichlet_flux_areas.size(), "velocity Dirichlet", node_count);
}

void apply_constraints(const BoundaryConstraints& c, double time, std::span<Vec3> velocity) {
  check_constraints(c, velocity.size());
  for (std::size_t k = 0; k < c.crease_nodes.size(); ++k) {
    Vec3& u = velocity[c.crease_nodes[k]];
    u = scaled(c.crease_tangents[k], dot(u, c.crease_tangents[k]));
  }
  for (std::uint32_t i : c.corner_nodes) velocity[i] = {0, 0, 0};
  for (std::size_t k = 0; k < c.slip_nodes.size(); ++k) {
    Vec3& u = velocity[c.slip_nodes[k]];
    const Vec3& n = c.slip_normals[k];
    const double un = dot(u, n);
    for (std::size_t a = 0; a < 3; ++a) u[a] -= un * n[a];
  }
  for (std::size_t k = 0; k < c.dirichlet_nodes.size(); ++k)
    velocity[c.dirichlet_nodes[k]] = scaled(c.dirichlet_values[k], ramp_factor(time, c.dirichlet_ramp_times[k]));
}

}  // namespace hetflow::fem
