#include "hetflow/fem/point_locator.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace hetflow::fem {
namespace {

using V = std::array<double, 3>;

V sub(const V& a, const V& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
double dot(const V& a, const V& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
V cross(const V& a, const V& b) { return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]}; }

// A candidate tet holds a point whose barycentric coordinates all reach −kInside: rounding on a shared
// face or at a node then still finds a tet at once.
constexpr double kInside = 1e-12;

// About four tets per bucket: each tet's box then meets a few buckets, and a query tests a few dozen tets.
constexpr double kTetsPerBucket = 4.0;

// Barycentric coordinates of p in the tet (x0, x1, x2, x3) by Cramer's rule; false for a flat tet.
bool barycentric(const V& x0, const V& x1, const V& x2, const V& x3, const V& p, std::array<double, 4>& l) {
  const V a = sub(x1, x0), b = sub(x2, x0), c = sub(x3, x0), r = sub(p, x0);
  const V bc = cross(b, c);
  const double det = dot(a, bc);
  if (det == 0.0) return false;
  l[1] = dot(r, bc) / det;
  l[2] = dot(a, cross(r, c)) / det;
  l[3] = dot(a, cross(b, r)) / det;
  l[0] = 1.0 - l[1] - l[2] - l[3];
  return true;
}

// The weights (of a, b, c) of the point of triangle abc closest to p, by the Voronoi regions of its
// vertices, edges and face (Ericson, Real-Time Collision Detection, 2005, §5.1.5).
std::array<double, 3> closest_on_triangle(const V& p, const V& a, const V& b, const V& c) {
  const V ab = sub(b, a), ac = sub(c, a), ap = sub(p, a);
  const double d1 = dot(ab, ap), d2 = dot(ac, ap);
  if (d1 <= 0 && d2 <= 0) return {1, 0, 0};
  const V bp = sub(p, b);
  const double d3 = dot(ab, bp), d4 = dot(ac, bp);
  if (d3 >= 0 && d4 <= d3) return {0, 1, 0};
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    const double v = d1 / (d1 - d3);
    return {1 - v, v, 0};
  }
  const V cp = sub(p, c);
  const double d5 = dot(ab, cp), d6 = dot(ac, cp);
  if (d6 >= 0 && d5 <= d6) return {0, 0, 1};
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    const double w = d2 / (d2 - d6);
    return {1 - w, 0, w};
  }
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
    const double w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    return {0, 1 - w, w};
  }
  const double denom = 1.0 / (va + vb + vc);
  const double v = vb * denom, w = vc * denom;
  return {1 - v - w, v, w};
}

}  // namespace

PointLocator::PointLocator(const Mesh& mesh, double relative_tolerance) : mesh_(mesh) {
  if (mesh.tets.empty()) throw std::invalid_argument("point locator: the mesh has no tets");
  if (!(relative_tolerance >= 0)) throw std::invalid_argument("point locator: the tolerance must be ≥ 0");
  lower_ = upper_ = mesh.nodes.at(mesh.tets[0][0]);
  for (const Tet& t : mesh.tets)
    for (const std::uint32_t n : t)
      for (std::size_t a = 0; a < 3; ++a) {
        lower_[a] = std::min(lower_[a], mesh.nodes.at(n)[a]);
        upper_[a] = std::max(upper_[a], mesh.nodes[n][a]);
      }
  const V extent = sub(upper_, lower_);
  const double diagonal = std::sqrt(dot(extent, extent));
  tolerance_ = relative_tolerance * diagonal;

  // Cubic buckets where the box allows; a flat axis gets one layer.
  const double floor_length = 1e-9 * diagonal;
  double volume = 1.0;
  for (double e : extent) volume *= std::max(e, floor_length);
  const double buckets = std::max(1.0, static_cast<double>(mesh.tets.size()) / kTetsPerBucket);
  const double edge = std::cbrt(volume / buckets);
  for (std::size_t a = 0; a < 3; ++a) {
    dims_[a] = static_cast<std::size_t>(std::clamp(std::ceil(extent[a] / edge), 1.0, 4096.0));
    cell_size_[a] = std::max(extent[a], floor_length) / static_cast<double>(dims_[a]);
  }

  // Two passes over the tets' widened boxes: count per bucket, then fill.
  const auto box_range = [&](const Tet& t, std::array<std::size_t, 3>& lo, std::array<std::size_t, 3>& hi) {
    Point bl = mesh.nodes[t[0]], bh = bl;
    for (std::size_t k = 1; k < 4; ++k)
      for (std::size_t a = 0; a < 3; ++a) {
        bl[a] = std::min(bl[a], mesh.nodes[t[k]][a]);
        bh[a] = std::max(bh[a], mesh.nodes[t[k]][a]);
      }
    for (std::size_t a = 0; a < 3; ++a) {
      bl[a] -= tolerance_;
      bh[a] += tolerance_;
    }
    lo = cell_of(bl);
    hi = cell_of(bh);
  };
  const auto for_each_bucket = [&](auto&& visit) {
    std::array<std::size_t, 3> lo{}, hi{};
    for (std::size_t t = 0; t < mesh.tets.size(); ++t) {
      box_range(mesh.tets[t], lo, hi);
      for (std::size_t k = lo[2]; k <= hi[2]; ++k)
        for (std::size_t j = lo[1]; j <= hi[1]; ++j)
          for (std::size_t i = lo[0]; i <= hi[0]; ++i) visit(i + dims_[0] * (j + dims_[1] * k), t);
    }
  };
  bucket_start_.assign(dims_[0] * dims_[1] * dims_[2] + 1, 0);
  for_each_bucket([&](std::size_t b, std::size_t) { ++bucket_start_[b + 1]; });
  for (std::size_t b = 1; b < bucket_start_.size(); ++b) bucket_start_[b] += bucket_start_[b - 1];
  bucket_tets_.resize(bucket_start_.back());
  std::vector<std::size_t> fill(bucket_start_.begin(), bucket_start_.end() - 1);
  for_each_bucket([&](std::size_t b, std::size_t t) { bucket_tets_[fill[b]++] = static_cast<std::uint32_t>(t); });
}

std::array<std::size_t, 3> PointLocator::cell_of(const Point& p) const {
  std::array<std::size_t, 3> c{};
  for (std::size_t a = 0; a < 3; ++a) {
    const double f = std::floor((p[a] - lower_[a]) / cell_size_[a]);
    c[a] = static_cast<std::size_t>(std::clamp(f, 0.0, static_cast<double>(dims_[a] - 1)));
  }
  return c;
}

std::optional<Location> PointLocator::locate(const Point& p) const {
  for (std::size_t a = 0; a < 3; ++a)
    if (!(p[a] >= lower_[a] - tolerance_ && p[a] <= upper_[a] + tolerance_)) return std::nullopt;
  const auto c = cell_of(p);
  const std::size_t b = c[0] + dims_[0] * (c[1] + dims_[1] * c[2]);
  const auto first = bucket_tets_.begin() + static_cast<std::ptrdiff_t>(bucket_start_[b]);
  const auto last = bucket_tets_.begin() + static_cast<std::ptrdiff_t>(bucket_start_[b + 1]);

  Location at;
  for (auto it = first; it != last; ++it) {
    const Tet& t = mesh_.tets[*it];
    if (!barycentric(mesh_.nodes[t[0]], mesh_.nodes[t[1]], mesh_.nodes[t[2]], mesh_.nodes[t[3]], p, at.weights)) continue;
    if (*std::min_element(at.weights.begin(), at.weights.end()) >= -kInside) {
      for (double& w : at.weights) w = std::max(w, 0.0);
      const double sum = at.weights[0] + at.weights[1] + at.weights[2] + at.weights[3];
      for (double& w : at.weights) w /= sum;
      at.tet = *it;
      at.nodes = t;
      return at;
    }
  }

  // No tet holds p: the closest point of the nearest candidate, over the faces of each.
  constexpr std::array<std::array<std::size_t, 3>, 4> faces{{{1, 2, 3}, {0, 2, 3}, {0, 1, 3}, {0, 1, 2}}};
  double best = std::numeric_limits<double>::infinity();
  for (auto it = first; it != last; ++it) {
    const Tet& t = mesh_.tets[*it];
    for (const auto& f : faces) {
      const V& xa = mesh_.nodes[t[f[0]]];
      const V& xb = mesh_.nodes[t[f[1]]];
      const V& xc = mesh_.nodes[t[f[2]]];
      const auto w = closest_on_triangle(p, xa, xb, xc);
      V q{};
      for (std::size_t a = 0; a < 3; ++a) q[a] = w[0] * xa[a] + w[1] * xb[a] + w[2] * xc[a];
      const V d = sub(p, q);
      const double distance = std::sqrt(dot(d, d));
      if (distance < best) {
        best = distance;
        at.tet = *it;
        at.nodes = t;
        at.weights = {0, 0, 0, 0};
        for (std::size_t k = 0; k < 3; ++k) at.weights[f[k]] = w[k];
      }
    }
  }
  if (best <= tolerance_) return at;
  return std::nullopt;
}

double interpolate(const Location& at, std::span<const double> field) {
  double v = 0.0;
  for (std::size_t a = 0; a < 4; ++a) v += at.weights[a] * field[at.nodes[a]];
  return v;
}

std::array<double, 3> interpolate(const Location& at, std::span<const std::array<double, 3>> field) {
  std::array<double, 3> v{};
  for (std::size_t a = 0; a < 4; ++a)
    for (std::size_t c = 0; c < 3; ++c) v[c] += at.weights[a] * field[at.nodes[a]][c];
  return v;
}

}  // namespace hetflow::fem
