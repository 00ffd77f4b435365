#include "hetflow/lbm/vorticity.hpp"

#include <cmath>
#include <stdexcept>

namespace hetflow::lbm {

std::vector<double> vorticity_magnitude(const Fields& fields, const Geometry& geometry) {
  const auto dims = geometry.dims();
  const std::size_t n = geometry.size();
  if (fields.u.size() != 3 * n) throw std::invalid_argument("vorticity_magnitude: fields and geometry differ in size");
  std::vector<double> w(n, 0.0);
  // Velocity component c at the node one step along axis a (s = +1 or -1) from (x, y, z), periodically.
  const auto u_at = [&](std::array<std::size_t, 3> p, std::size_t a, int s, std::size_t c) {
    p[a] = s > 0 ? (p[a] + 1 == dims[a] ? 0 : p[a] + 1) : (p[a] == 0 ? dims[a] - 1 : p[a] - 1);
    return geometry.solid(p[0], p[1], p[2]) ? 0.0 : fields.u[3 * geometry.index(p[0], p[1], p[2]) + c];
  };
  // d u_c / d x_a, halved central difference.
  const auto d = [&](const std::array<std::size_t, 3>& p, std::size_t c, std::size_t a) {
    return 0.5 * (u_at(p, a, +1, c) - u_at(p, a, -1, c));
  };
  for (std::size_t z = 0; z < dims[2]; ++z) {
    for (std::size_t y = 0; y < dims[1]; ++y) {
      for (std::size_t x = 0; x < dims[0]; ++x) {
        if (geometry.solid(x, y, z)) continue;
        const std::array<std::size_t, 3> p{x, y, z};
        const double wx = d(p, 2, 1) - d(p, 1, 2), wy = d(p, 0, 2) - d(p, 2, 0), wz = d(p, 1, 0) - d(p, 0, 1);
        w[geometry.index(x, y, z)] = std::sqrt(wx * wx + wy * wy + wz * wz);
      }
    }
  }
  return w;
}

}  // namespace hetflow::lbm
