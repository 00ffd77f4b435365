#include "hetflow/fem/tet_geometry.hpp"

#include <cmath>

namespace hetflow::fem {

double signed_volume(const Point& a, const Point& b, const Point& c, const Point& d) {
  const double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
  const double v[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
  const double w[3] = {d[0] - a[0], d[1] - a[1], d[2] - a[2]};
  const double det = u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) +
                     u[2] * (v[0] * w[1] - v[1] * w[0]);
  return det / 6.0;
}

double signed_volume(const Mesh& mesh, const Tet& tet) {
  return signed_volume(mesh.nodes[tet[0]], mesh.nodes[tet[1]], mesh.nodes[tet[2]], mesh.nodes[tet[3]]);
}

double distance(const Point& a, const Point& b) {
  return std::hypot(b[0] - a[0], b[1] - a[1], b[2] - a[2]);
}

Point midpoint(const Point& a, const Point& b) {
  return {0.5 * (a[0] + b[0]), 0.5 * (a[1] + b[1]), 0.5 * (a[2] + b[2])};
}

}  // namespace hetflow::fem
