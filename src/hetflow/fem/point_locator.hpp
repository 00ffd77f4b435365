#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "hetflow/fem/mesh.hpp"

namespace hetflow::fem {

// Where a point lies in a tet mesh: the tet, its four nodes, and the point's barycentric weights in it
// (non-negative, summing to 1), so that a nodal P1 field is interpolated as Σ_a weights[a] φ[nodes[a]].
struct Location {
  std::uint32_t tet = 0;
  std::array<std::uint32_t, 4> nodes{};
  std::array<double, 4> weights{};
};

// Finds the tet that holds a point, through a uniform grid of buckets, each listing the tets whose
// bounding box (widened by the tolerance) meets it. A point is inside a candidate tet when its
// barycentric coordinates are all ≥ −1e-12; when no candidate holds it, the nearest candidate is taken if
// the point lies within the tolerance of it, with the weights of the tet's closest point. A point
// farther than that from every tet is outside the mesh. The mesh is referenced, not copied: it must
// outlive the locator.
class PointLocator {
 public:
  // tolerance: a length, relative to the diagonal of the mesh's bounding box. Throws
  // std::invalid_argument for a mesh without tets or a negative tolerance.
  explicit PointLocator(const Mesh& mesh, double relative_tolerance = 1e-9);

  // The location of p, or nothing when p is outside the mesh.
  std::optional<Location> locate(const Point& p) const;

  // The mesh's bounding box and the absolute tolerance, for messages.
  const Point& lower() const { return lower_; }
  const Point& upper() const { return upper_; }
  double tolerance() const { return tolerance_; }

 private:
  std::array<std::size_t, 3> cell_of(const Point& p) const;

  const Mesh& mesh_;
  Point lower_{}, upper_{};
  double tolerance_ = 0.0;
  std::array<std::size_t, 3> dims_{};
  Point cell_size_{};
  std::vector<std::uint32_t> bucket_start_;  // CSR over the buckets, x fastest
  std::vector<std::uint32_t> bucket_tets_;
};

// Σ_a w_a φ[node_a]: a nodal field at a located point.
double interpolate(const Location& at, std::span<const double> field);
std::array<double, 3> interpolate(const Location& at, std::span<const std::array<double, 3>> field);

}  // namespace hetflow::fem
