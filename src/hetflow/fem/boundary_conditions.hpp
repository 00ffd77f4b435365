#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "hetflow/fem/edge_operators.hpp"
#include "hetflow/fem/mesh.hpp"

namespace hetflow::fem {

// What one patch imposes (docs/fem.md, Boundary conditions).
enum class BoundaryKind {
  velocity,  // u = value × profile × ramp
  no_slip,   // u = 0
  slip,      // u·n = 0
  outlet,    // p = pressure, u free
};

// The shape of a velocity patch's value over the patch, from its bounding box.
enum class VelocityProfile {
  constant,   // value
  parabolic,  // value × Π_{axes} 4s(1 − s), s the coordinate scaled to [0, 1] over the box along the axis
  pipe,       // value × (1 − r²/R²), r from the box's centre, R the largest such distance of a patch node
};

// The condition on one patch, named as in Mesh::patches. Only the fields of its kind are read.
struct PatchCondition {
  std::string patch;
  BoundaryKind kind = BoundaryKind::no_slip;
  Vec3 value{0, 0, 0};  // velocity: the value the profile and ramp scale
  VelocityProfile profile = VelocityProfile::constant;
  std::vector<std::uint32_t> profile_axes;  // parabolic: the transverse axes, 0 = x, 1 = y, 2 = z
  double ramp_time = 0;                     // velocity: > 0 scales by (1 − cos(π t/T))/2 for t < T
  double pressure = 0;                      // outlet
};

// The nodal constraints of a mesh's boundary. Every node is in at most one of the four velocity lists,
// each sorted by node index; tangents and normals are unit vectors.
struct BoundaryConstraints {
  std::vector<std::uint32_t> crease_nodes;  // u ← (u·t) t
  std::vector<Vec3> crease_tangents;
  std::vector<std::uint32_t> corner_nodes;  // u ← 0
  std::vector<std::uint32_t> slip_nodes;    // u ← u − (u·n) n
  std::vector<Vec3> slip_normals;
  std::vector<std::uint32_t> dirichlet_nodes;  // u ← value × ramp(t)
  std::vector<Vec3> dirichlet_values;          // the value once ramped up
  std::vector<double> dirichlet_ramp_times;    // T, 0 for none
  // In a domain without an outlet, per Dirichlet node ∮ N_I n dΓ over its boundary faces, so that the net
  // outflow of the held velocities is Σ u_I·a_I; zero at no-slip nodes, and empty when an outlet exists.
  std::vector<Vec3> dirichlet_flux_areas;
  // The relative net outflow balance_closed_flux removed from the built values (0 when none flowed).
  double balanced_imbalance = 0;
  std::vector<std::uint32_t> pressure_nodes;   // p fixed, sorted by node index
  std::vector<double> pressure_values;
  // The node that fixes the pressure's constant in a domain without an outlet (then the only pressure
  // node, with value 0); empty when an outlet fixes the pressure.
  std::optional<std::uint32_t> reference_pressure_node;
};

// The constraints of `conditions` on `mesh`, whose `source` the errors name. Every patch must have
// exactly one condition: there is no default. A node of a velocity or no_slip patch is Dirichlet whatever
// else it touches, no_slip before velocity and, between velocity patches, the first listed. Other nodes
// of slip faces are creases where they have one or two crease edges (boundary edges whose two slip faces
// meet at more than 45°), corners with more, else slip nodes with the area-weighted normal of their slip
// faces. Outlet nodes fix the pressure (the first outlet listed wins) and keep any wall condition.
// Without an outlet, the pressure is fixed to 0 at the node nearest to `reference_point` (the lowest
// index among equals), by default the lowest-index node of the boundary. Throws MeshError naming the
// mesh, the patch and the patches the mesh has for an unknown patch, a patch given twice, patches
// without a condition, and a profile or ramp that cannot be applied.
BoundaryConstraints build_boundary_constraints(const Mesh& mesh, std::span<const PatchCondition> conditions,
                                               const std::string& source,
                                               std::optional<Point> reference_point = std::nullopt);

// A closed domain's held velocities must carry no net flow, or the pressure equation has no solution: its
// rows sum to the net outflow, which fixing the pressure at one node turns into a point source there.
// The P1 interpolant of an exactly balanced inflow still leaks O(h²), so this removes the net outflow
// Q of each group of nodes that share a ramp time (a group balanced at full value is balanced at every
// time of the ramp) by the least change: u_I ← u_I − (Q / Σ|a_I|²) a_I. Returns the largest |Q| of a
// group over its Σ|u_I·a_I|, 0 when nothing flows; leaves the values alone where the areas are empty.
double balance_closed_flux(const BoundaryConstraints& constraints, std::span<Vec3> values);

// The largest relative imbalance balance_closed_flux corrects without complaint: more is a case error
// (an inflow without an outlet), not the leak of an interpolant.
inline constexpr double kMaxClosedFluxImbalance = 0.1;

// The sorted nodes of the faces of patch `patch`.
std::vector<std::uint32_t> patch_nodes(const Mesh& mesh, std::uint32_t patch);

// The ramp factor (1 − cos(π t/T))/2 for t < T, 1 from T on and for T = 0.
double ramp_factor(double time, double ramp_time);

// Throws core::Error unless every list has one entry per node and every node is below node_count.
void check_constraints(const BoundaryConstraints& constraints, std::size_t node_count);

// Applies the velocity constraints at time t to a field, in the order crease projection, corner zeroing,
// slip projection, Dirichlet values: the host reference of VelocityConstraints.
void apply_constraints(const BoundaryConstraints& constraints, double time, std::span<Vec3> velocity);

}  // namespace hetflow::fem
