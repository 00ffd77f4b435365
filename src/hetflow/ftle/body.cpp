#include "hetflow/ftle/body.hpp"

#include <cmath>
#include <limits>

#include "hetflow/core/error.hpp"
#include "hetflow/ftle/messages.hpp"

namespace hetflow::ftle {
namespace {

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};

void check_point(const std::array<double, 3>& x, int dimension, const std::string& what) {
  for (int d = 0; d < dimension; ++d) {
    if (!std::isfinite(x[static_cast<std::size_t>(d)]))
      throw core::Error("body " + what + " " + point(std::span(x).first(static_cast<std::size_t>(dimension))) +
                        ": expected finite coordinates");
  }
}

void check_radius(double r, const std::string& kind) {
  if (!(r > 0.0) || !std::isfinite(r))
    throw core::Error(kind + " radius " + number(r) + ": expected a positive radius");
}

double squared(double v) { return v * v; }

}  // namespace

std::string body_kind(const Body& body) {
  return std::visit(Overloaded{[](const Ball&) { return "ball"; }, [](const Cylinder&) { return "cylinder"; },
                               [](const Box&) { return "box"; }, [](const Voxels&) { return "voxels"; }},
                    body);
}

void check_body(const Body& body, int dimension) {
  if (dimension != 2 && dimension != 3)
    throw core::Error("a body in a flow of dimension " + std::to_string(dimension) + ": expected 2 or 3");
  std::visit(Overloaded{
                 [&](const Ball& b) {
                   check_point(b.centre, dimension, "centre");
                   check_radius(b.radius, dimension == 2 ? "circle" : "sphere");
                 },
                 [&](const Cylinder& c) {
                   if (dimension != 3)
                     throw core::Error("a cylinder in a 2D flow: expected a 3D flow (a 2D flow takes a circle, Ball)");
                   if (c.axis < 0 || c.axis > 2)
                     throw core::Error("cylinder axis " + std::to_string(c.axis) + ": expected 0, 1 or 2 (x, y, z)");
                   check_point(c.centre, dimension, "centre");
                   check_radius(c.radius, "cylinder");
                 },
                 [&](const Box& b) {
                   check_point(b.lower, dimension, "lower corner");
                   check_point(b.upper, dimension, "upper corner");
                   for (int d = 0; d < dimension; ++d) {
                     const auto a = static_cast<std::size_t>(d);
                     if (!(b.lower[a] < b.upper[a]))
                       throw core::Error(std::string("box from ") + "xyz"[d] + " = " + number(b.lower[a]) + " to " +
                                         "xyz"[d] + " = " + number(b.upper[a]) +
                                         ": expected the lower corner below the upper one on every axis");
                   }
                 },
                 [&](const Voxels& v) {
                   if (dimension == 2 && v.dims[2] != 1)
                     throw core::Error("a voxel body of " + std::to_string(v.dims[2]) +
                                       " layers along z in a 2D flow: expected one layer");
                   if (v.dims[0] * v.dims[1] * v.dims[2] != v.solid.size())
                     throw core::Error("a voxel body of " + std::to_string(v.dims[0]) + " x " +
                                       std::to_string(v.dims[1]) + " x " + std::to_string(v.dims[2]) + " nodes holds " +
                                       std::to_string(v.solid.size()) + " values: expected one per node");
                   check_point(v.origin, dimension, "voxel origin");
                   for (int d = 0; d < dimension; ++d) {
                     const double h = v.spacing[static_cast<std::size_t>(d)];
                     if (!(h > 0.0) || !std::isfinite(h))
                       throw core::Error("voxel spacing " + number(h) + " along " + "xyz"[d] +
                                         ": expected a positive spacing");
                   }
                 },
             },
             body);
}

bool inside(const Body& body, const std::array<double, 3>& x, int dimension) {
  return std::visit(Overloaded{
                        [&](const Ball& b) {
                          double r2 = 0.0;
                          for (int d = 0; d < dimension; ++d)
                            r2 += squared(x[static_cast<std::size_t>(d)] - b.centre[static_cast<std::size_t>(d)]);
                          return r2 <= squared(b.radius);
                        },
                        [&](const Cylinder& c) {
                          double r2 = 0.0;
                          for (int d = 0; d < 3; ++d) {
                            if (d != c.axis)
                              r2 += squared(x[static_cast<std::size_t>(d)] - c.centre[static_cast<std::size_t>(d)]);
                          }
                          return r2 <= squared(c.radius);
                        },
                        [&](const Box& b) {
                          for (int d = 0; d < dimension; ++d) {
                            const auto a = static_cast<std::size_t>(d);
                            if (x[a] < b.lower[a] || x[a] > b.upper[a]) return false;
                          }
                          return true;
                        },
                        [&](const Voxels& v) {
                          std::size_t node[3] = {0, 0, 0};
                          for (int d = 0; d < dimension; ++d) {
                            const auto a = static_cast<std::size_t>(d);
                            // The nearest node; the comparison also refuses NaN.
                            const double i = std::floor((x[a] - v.origin[a]) / v.spacing[a] + 0.5);
                            if (!(i >= 0.0 && i < static_cast<double>(v.dims[a]))) return false;
                            node[a] = static_cast<std::size_t>(i);
                          }
                          return v.solid[node[0] + v.dims[0] * (node[1] + v.dims[1] * node[2])] != 0;
                        },
                    },
                    body);
}

std::vector<std::uint8_t> body_mask(const Body& body, const SeedGrid& seeds) {
  check_body(body, seeds.dimension);
  std::vector<std::uint8_t> mask(seeds.size(), 0);
  const auto& n = seeds.counts;
  std::size_t s = 0;
  for (std::size_t k = 0; k < n[2]; ++k) {
    for (std::size_t j = 0; j < n[1]; ++j) {
      for (std::size_t i = 0; i < n[0]; ++i, ++s) {
        const std::array<double, 3> x{seeds.position(0, i), seeds.position(1, j),
                                      seeds.dimension == 3 ? seeds.position(2, k) : 0.0};
        mask[s] = inside(body, x, seeds.dimension) ? 1 : 0;
      }
    }
  }
  return mask;
}

std::size_t mask_seeds(std::span<const std::uint8_t> mask, std::span<double> values, std::size_t per_seed) {
  if (values.size() != mask.size() * per_seed)
    throw core::Error("a mask of " + std::to_string(mask.size()) + " seeds over " + std::to_string(values.size()) +
                      " values: expected " + std::to_string(per_seed) + " per seed");
  std::size_t masked = 0;
  for (std::size_t i = 0; i < mask.size(); ++i) {
    if (!mask[i]) continue;
    ++masked;
    for (std::size_t c = 0; c < per_seed; ++c) values[i * per_seed + c] = std::numeric_limits<double>::quiet_NaN();
  }
  return masked;
}

}  // namespace hetflow::ftle
