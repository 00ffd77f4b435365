#include "hetflow/fem/cylinder_channel.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "hetflow/fem/exterior_faces.hpp"
#include "hetflow/fem/extrude.hpp"

namespace hetflow::fem {
namespace {

using Planar = std::array<double, 2>;

// Cells of spacing about h over a length, at least one.
std::uint32_t cells_over(double length, double h) {
  return std::max<std::uint32_t>(1, std::uint32_t(std::lround(length / h)));
}

// Grid lines over [0, a], [a, b], [b, end] with the given cell counts.
std::vector<double> grid_lines(double a, double b, double end, std::uint32_t n1, std::uint32_t n2,
                               std::uint32_t n3) {
  std::vector<double> lines;
  for (std::uint32_t i = 0; i < n1; ++i) lines.push_back(a * i / n1);
  for (std::uint32_t i = 0; i < n2; ++i) lines.push_back(a + (b - a) * i / n2);
  for (std::uint32_t i = 0; i <= n3; ++i) lines.push_back(b + (end - b) * i / n3);
  return lines;
}

// The order that makes the mesh mirror-symmetric about the cylinder's axis y = y_c wherever its nodes are:
// by distance from the axis, then by x, then by y (which only separates a node from its mirror image).
// Distances and x are rounded to 1e-9 of the channel's length, so that mirror images, whose coordinates
// differ by rounding, compare alike.
struct MirrorOrder {
  double axis_y, unit;
  std::array<long long, 2> key(const Planar& p) const {
    return {std::llround(std::abs(p[1] - axis_y) / unit), std::llround(p[0] / unit)};
  }
  bool operator()(const Planar& a, const Planar& b) const {
    const auto ka = key(a), kb = key(b);
    return ka != kb ? ka < kb : a[1] < b[1];
  }
};

// Adds the quadrilateral (p, q, r, s), counter-clockwise, as 2 triangles cut along its shorter diagonal;
// where the diagonals are equal (to 1e-9), along the one through the corner first in the mirror order, so
// that a quad and its mirror image are cut alike and the cylinder feels no lift from the mesh.
void add_quad(PlanarMesh& plane, const MirrorOrder& order, std::uint32_t p, std::uint32_t q, std::uint32_t r,
              std::uint32_t s) {
  auto dist2 = [&](std::uint32_t u, std::uint32_t v) {
    const double dx = plane.nodes[u][0] - plane.nodes[v][0], dy = plane.nodes[u][1] - plane.nodes[v][1];
    return dx * dx + dy * dy;
  };
  const double pr = dist2(p, r), qs = dist2(q, s);
  bool along_pr = pr < qs;
  if (std::abs(pr - qs) <= 1e-9 * std::max(pr, qs)) {
    std::uint32_t first = p;
    for (std::uint32_t v : {q, r, s})
      if (order(plane.nodes[v], plane.nodes[first])) first = v;
    along_pr = first == p || first == r;
  }
  if (along_pr) {
    plane.triangles.push_back({p, q, r});
    plane.triangles.push_back({p, r, s});
  } else {
    plane.triangles.push_back({p, q, s});
    plane.triangles.push_back({q, r, s});
  }
}

// The nodes renumbered in the mirror order. extrude() cuts each prism side from its lower-numbered node,
// so with this numbering a prism and its mirror image are cut alike too.
PlanarMesh in_mirror_order(const PlanarMesh& plane, const MirrorOrder& order) {
  std::vector<std::uint32_t> by_order(plane.nodes.size());
  for (std::uint32_t i = 0; i < by_order.size(); ++i) by_order[i] = i;
  std::sort(by_order.begin(), by_order.end(),
            [&](std::uint32_t a, std::uint32_t b) { return order(plane.nodes[a], plane.nodes[b]); });
  PlanarMesh out;
  std::vector<std::uint32_t> renamed(plane.nodes.size());
  for (std::uint32_t k = 0; k < by_order.size(); ++k) {
    renamed[by_order[k]] = k;
    out.nodes.push_back(plane.nodes[by_order[k]]);
  }
  for (const auto& t : plane.triangles) out.triangles.push_back({renamed[t[0]], renamed[t[1]], renamed[t[2]]});
  return out;
}

PlanarMesh plane_mesh(const CylinderChannel& c) {
  const double half = 2.0 * c.radius;
  const std::uint32_t nq = c.cells_per_quarter;  // a side of the square faces a quarter of the cylinder
  const double h = 2.0 * half / nq;
  const std::uint32_t left = cells_over(c.center_x - half, h), right = cells_over(c.length - c.center_x - half, h);
  const std::uint32_t below = cells_over(c.center_y - half, h), above = cells_over(c.height - c.center_y - half, h);
  const auto xs = grid_lines(c.center_x - half, c.center_x + half, c.length, left, nq, right);
  const auto ys = grid_lines(c.center_y - half, c.center_y + half, c.height, below, nq, above);
  const std::uint32_t i0 = left, i1 = left + nq, j0 = below, j1 = below + nq;

  PlanarMesh plane;
  const MirrorOrder order{c.center_y, 1e-9 * c.length};
  // The tensor grid, without the nodes strictly inside the square.
  std::vector<std::vector<std::uint32_t>> at(xs.size(), std::vector<std::uint32_t>(ys.size(), 0));
  for (std::uint32_t j = 0; j < ys.size(); ++j)
    for (std::uint32_t i = 0; i < xs.size(); ++i) {
      if (i > i0 && i < i1 && j > j0 && j < j1) continue;
      at[i][j] = std::uint32_t(plane.nodes.size());
      plane.nodes.push_back({xs[i], ys[j]});
    }
  for (std::uint32_t j = 0; j + 1 < ys.size(); ++j)
    for (std::uint32_t i = 0; i + 1 < xs.size(); ++i)
      if (!(i >= i0 && i < i1 && j >= j0 && j < j1))
        add_quad(plane, order, at[i][j], at[i + 1][j], at[i + 1][j + 1], at[i][j + 1]);

  // The square's nodes counter-clockwise from its lower left corner: the O-grid's outer ring.
  std::vector<std::uint32_t> ring;
  for (std::uint32_t i = i0; i < i1; ++i) ring.push_back(at[i][j0]);
  for (std::uint32_t j = j0; j < j1; ++j) ring.push_back(at[i1][j]);
  for (std::uint32_t i = i1; i > i0; --i) ring.push_back(at[i][j1]);
  for (std::uint32_t j = j1; j > j0; --j) ring.push_back(at[i0][j]);
  // Rings inward to the cylinder: each square node moves along its ray from the centre, linearly
  // between the square and the circle.
  std::vector<std::vector<std::uint32_t>> rings(c.radial_cells + 1);
  rings[c.radial_cells] = ring;
  for (std::uint32_t k = 0; k < c.radial_cells; ++k)
    for (auto outer : ring) {
      const Planar p = plane.nodes[outer];
      const double dx = p[0] - c.center_x, dy = p[1] - c.center_y, r = std::hypot(dx, dy);
      const double t = double(k) / c.radial_cells;
      const double scale = (c.radius + t * (r - c.radius)) / r;
      rings[k].push_back(std::uint32_t(plane.nodes.size()));
      plane.nodes.push_back({c.center_x + scale * dx, c.center_y + scale * dy});
    }
  const auto m = ring.size();
  for (std::uint32_t k = 0; k < c.radial_cells; ++k)
    for (std::size_t a = 0; a < m; ++a) {
      const std::size_t b = (a + 1) % m;
      // Counter-clockwise: out along a's ray, round to b's, and back in along it.
      add_quad(plane, order, rings[k][a], rings[k + 1][a], rings[k + 1][b], rings[k][b]);
    }
  return in_mirror_order(plane, order);
}

}  // namespace

Mesh cylinder_channel_mesh(const CylinderChannel& c) {
  const double half = 2.0 * c.radius;
  if (c.cells_per_quarter == 0 || c.radial_cells == 0 || c.layers == 0)
    throw std::invalid_argument("cylinder_channel_mesh: cell counts must be positive");
  if (!(c.radius > 0.0 && c.thickness > 0.0 && c.center_x - half > 0.0 && c.center_x + half < c.length &&
        c.center_y - half > 0.0 && c.center_y + half < c.height))
    throw std::invalid_argument("cylinder_channel_mesh: the square of half-width 2 * radius = " +
                                std::to_string(half) + " around the cylinder must lie inside the channel");
  Mesh mesh = extrude(plane_mesh(c), c.thickness, c.layers);
  // Each exterior face goes to the patch of the side it lies on; what lies on no side of the channel
  // is the cylinder.
  mesh.patches = {"inlet", "outlet", "wall", "cylinder", "z_min", "z_max"};
  const double tol = 1e-9 * c.length;
  for (const auto& f : exterior_faces(mesh)) {
    Point mid{0, 0, 0};
    for (auto n : f)
      for (int d = 0; d < 3; ++d) mid[d] += mesh.nodes[n][d] / 3.0;
    std::uint32_t patch = 3;
    if (mid[2] < tol) patch = 4;
    else if (mid[2] > c.thickness - tol) patch = 5;
    else if (mid[0] < tol) patch = 0;
    else if (mid[0] > c.length - tol) patch = 1;
    else if (mid[1] < tol || mid[1] > c.height - tol) patch = 2;
    mesh.boundary.push_back({f, patch});
  }
  return mesh;
}

}  // namespace hetflow::fem
