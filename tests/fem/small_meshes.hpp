#pragma once
#include <cstdint>
#include <vector>

#include "hetflow/fem/box_mesh.hpp"
#include "hetflow/fem/mesh.hpp"

namespace hetflow::fem {

// The unit cube as box_mesh cuts it (cells³ cubes of 6 tets sharing the main diagonal from the low
// corner to the high one; node (i, j, k) has index i + (cells+1)(j + (cells+1)k)). jitter > 0 moves every
// interior node by up to jitter·h along each axis, with a fixed pseudo-random sequence; boundary nodes
// stay, so the volume stays 1.
struct CubeMesh {
  Mesh mesh;
  std::vector<bool> interior;  // per node: not on the cube's surface
};

inline CubeMesh cube_mesh(std::uint32_t cells, double jitter = 0.0) {
  CubeMesh c{box_mesh(cells, cells, cells, {0, 0, 0}, {1, 1, 1}), {}};
  const double h = 1.0 / cells;
  std::uint64_t state = 88172645463325252ull;  // xorshift64: the same jitter on every platform
  const auto next_unit = [&state] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return static_cast<double>(state >> 11) / 9007199254740992.0 * 2 - 1;  // in [-1, 1)
  };
  for (Point& x : c.mesh.nodes) {
    bool inside = true;
    for (double xc : x) inside = inside && xc > 0.5 * h && xc < 1 - 0.5 * h;
    if (inside && jitter > 0)
      for (double& xc : x) xc += jitter * h * next_unit();
    c.interior.push_back(inside);
  }
  return c;
}

}  // namespace hetflow::fem
