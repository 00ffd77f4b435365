#include "hetflow/lbm/geometry_generators.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>

namespace hetflow::lbm {
namespace {

using Size = std::size_t;

std::string num(double v) {
  std::string s = std::to_string(v);
  s.erase(s.find_last_not_of('0') + 1);
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s;
}

void require(bool ok, const std::string& what, const std::string& message) {
  if (!ok) throw std::invalid_argument(what + ": " + message);
}

void require_dims(const char* fn, int nx, int ny, int nz, int min_x, int min_y) {
  const std::string where = std::string(fn) + "(" + std::to_string(nx) + ", " + std::to_string(ny) + ", " +
                            std::to_string(nz) + ")";
  require(nx >= min_x, where, "nx must be at least " + std::to_string(min_x));
  require(ny >= min_y, where, "ny must be at least " + std::to_string(min_y) + " (two walls and fluid between)");
  require(nz >= 1, where, "nz must be at least 1");
}

Geometry channel_box(int nx, int ny, int nz) {
  Geometry g(static_cast<Size>(nx), static_cast<Size>(ny), static_cast<Size>(nz));
  for (Size z = 0; z < g.nz(); ++z)
    for (Size x = 0; x < g.nx(); ++x) {
      g.set(x, 0, z, NodeType::wall);
      g.set(x, g.ny() - 1, z, NodeType::wall);
    }
  return g;
}

// The nodes a ball covers, as an inclusive index range per axis (may reach outside the box).
struct Range {
  long lo, hi;
};
Range covered(double c, double r) { return {static_cast<long>(std::ceil(c - r)), static_cast<long>(std::floor(c + r))}; }

Size wrap(long i, Size n) {
  const long m = static_cast<long>(n);
  return static_cast<Size>(((i % m) + m) % m);
}

// Marks the nodes within `radius` of `centre` as walls (periodic images through wrap); returns how
// many were fluid before.
Size stamp_sphere(Geometry& g, const std::array<double, 3>& c, double radius) {
  Size newly = 0;
  const double r2 = radius * radius;
  const Range rx = covered(c[0], radius), ry = covered(c[1], radius), rz = covered(c[2], radius);
  for (long k = rz.lo; k <= rz.hi; ++k)
    for (long j = ry.lo; j <= ry.hi; ++j)
      for (long i = rx.lo; i <= rx.hi; ++i) {
        const double dx = static_cast<double>(i) - c[0], dy = static_cast<double>(j) - c[1],
                     dz = static_cast<double>(k) - c[2];
        if (dx * dx + dy * dy + dz * dz > r2) continue;
        const Size x = wrap(i, g.nx()), y = wrap(j, g.ny()), z = wrap(k, g.nz());
        if (!g.solid(x, y, z)) ++newly;
        g.set(x, y, z, NodeType::wall);
      }
  return newly;
}

void require_clear_of_walls(const std::string& where, double cy, double radius, int ny) {
  require(std::isfinite(radius) && radius > 0.0, where, "radius must be positive");
  require(std::isfinite(cy) && cy - radius > 0.0 && cy + radius < ny - 1, where,
          "the body must clear the walls at y = 0 and y = " + std::to_string(ny - 1) + " (need " + num(radius) +
              " < cy < " + num(ny - 1 - radius) + ")");
}

void require_inside(const std::string& where, const char* axis, double c, double radius, int n) {
  require(std::isfinite(c) && c - radius >= 0.0 && c + radius <= n - 1, where,
          std::string("the body must lie within 0 <= ") + axis + " <= " + std::to_string(n - 1) + " (need " +
              num(radius) + " <= c" + axis + " <= " + num(n - 1 - radius) + ")");
}

// Uniform in [0, 1) from the top 53 bits: the same double on every platform, unlike
// std::uniform_real_distribution whose algorithm the standard leaves open.
double unit(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

}  // namespace

Geometry duct(int nx, int ny, int nz) {
  require_dims("duct", nx, ny, nz, 3, 3);
  Geometry g = channel_box(nx, ny, nz);
  for (Size z = 0; z < g.nz(); ++z)
    for (Size y = 0; y < g.ny(); ++y) {
      g.set(0, y, z, NodeType::wall);
      g.set(g.nx() - 1, y, z, NodeType::wall);
    }
  return g;
}

Geometry channel(int nx, int ny, int nz) {
  require_dims("channel", nx, ny, nz, 1, 3);
  return channel_box(nx, ny, nz);
}

Geometry channel_with_cylinder(int nx, int ny, int nz, double cx, double cy, double radius) {
  require_dims("channel_with_cylinder", nx, ny, nz, 1, 3);
  const std::string where = "channel_with_cylinder: cylinder at (" + num(cx) + ", " + num(cy) + ") radius " + num(radius);
  require_clear_of_walls(where, cy, radius, ny);
  require_inside(where, "x", cx, radius, nx);
  Geometry g = channel_box(nx, ny, nz);
  const Range rx = covered(cx, radius), ry = covered(cy, radius);
  for (Size z = 0; z < g.nz(); ++z)
    for (long j = ry.lo; j <= ry.hi; ++j)
      for (long i = rx.lo; i <= rx.hi; ++i) {
        const double dx = static_cast<double>(i) - cx, dy = static_cast<double>(j) - cy;
        if (dx * dx + dy * dy <= radius * radius) g.set(static_cast<Size>(i), static_cast<Size>(j), z, NodeType::wall);
      }
  return g;
}

Geometry channel_with_sphere(int nx, int ny, int nz, std::array<double, 3> centre, double radius) {
  require_dims("channel_with_sphere", nx, ny, nz, 1, 3);
  const std::string where = "channel_with_sphere: sphere at (" + num(centre[0]) + ", " + num(centre[1]) + ", " +
                            num(centre[2]) + ") radius " + num(radius);
  require_clear_of_walls(where, centre[1], radius, ny);
  require_inside(where, "x", centre[0], radius, nx);
  require_inside(where, "z", centre[2], radius, nz);
  Geometry g = channel_box(nx, ny, nz);
  stamp_sphere(g, centre, radius);
  return g;
}

SpherePacking random_sphere_packing(const SpherePackingOptions& o) {
  const std::string where = "random_sphere_packing";
  require(o.nx >= 1 && o.ny >= 1 && o.nz >= 1, where,
          "dimensions " + std::to_string(o.nx) + "x" + std::to_string(o.ny) + "x" + std::to_string(o.nz) +
              " must be positive");
  require(o.target_porosity > 0.0 && o.target_porosity < 1.0, where,
          "target_porosity " + num(o.target_porosity) + " must lie in (0, 1)");
  require(o.min_radius > 0.0 && o.min_radius <= o.max_radius, where,
          "radii [" + num(o.min_radius) + ", " + num(o.max_radius) + "] must satisfy 0 < min_radius <= max_radius");
  const int smallest = std::min({o.nx, o.ny, o.nz});
  require(2.0 * o.max_radius < smallest, where,
          "max_radius " + num(o.max_radius) + " must be below half the smallest dimension (" +
              std::to_string(smallest) + ")");

  SpherePacking out;
  out.geometry = Geometry(static_cast<Size>(o.nx), static_cast<Size>(o.ny), static_cast<Size>(o.nz));
  const Size total = out.geometry.size();
  Size fluid = total;
  // Overlapping spheres leave a fraction exp(-n v / V) open, so even porosity 1e-6 needs only about
  // 14 V / v spheres; the cap only stops a target that rounding on a tiny box cannot reach.
  const double v_min = 4.0 / 3.0 * 3.14159265358979323846 * std::pow(o.min_radius, 3.0);
  const auto max_spheres = static_cast<Size>(50.0 * static_cast<double>(total) / v_min) + 1000;
  std::mt19937_64 rng(o.seed);
  const double target_fluid = o.target_porosity * static_cast<double>(total);
  while (static_cast<double>(fluid) > target_fluid) {
    if (out.spheres.size() >= max_spheres)
      throw std::invalid_argument(where + ": porosity " + num(static_cast<double>(fluid) / static_cast<double>(total)) +
                                  " after " + std::to_string(max_spheres) + " spheres, still above target " +
                                  num(o.target_porosity));
    Sphere s;
    s.centre = {unit(rng) * o.nx, unit(rng) * o.ny, unit(rng) * o.nz};
    s.radius = o.min_radius + unit(rng) * (o.max_radius - o.min_radius);
    fluid -= stamp_sphere(out.geometry, s.centre, s.radius);
    out.spheres.push_back(s);
  }
  out.porosity = static_cast<double>(fluid) / static_cast<double>(total);
  return out;
}

}  // namespace hetflow::lbm
