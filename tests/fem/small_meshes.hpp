#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "hetflow/fem/mesh.hpp"

namespace hetflow::fem {

// The unit cube cut into cells³ cubes, each cut into the 6 tets that share its main diagonal from the
// low corner to the high one (each tet steps once along x, y and z, in one of the 6 orders), so the face
// diagonals of neighbouring cells agree. Node (i, j, k) has index i + (cells+1)(j + (cells+1)k).
// jitter > 0 moves every interior node by up to jitter·h along each axis, with a fixed pseudo-random
// sequence; boundary nodes stay, so the volume stays 1.
struct CubeMesh {
  Mesh mesh;
  std::vector<bool> interior;  // per node: not on the cube's surface
};

inline CubeMesh cube_mesh(std::uint32_t cells, double jitter = 0.0) {
  const std::uint32_t m = cells + 1;
  const double h = 1.0 / cells;
  const auto index = [m](std::uint32_t i, std::uint32_t j, std::uint32_t k) { return i + m * (j + m * k); };
  CubeMesh c;
  std::uint64_t state = 88172645463325252ull;  // xorshift64: the same jitter on every platform
  const auto next_unit = [&state] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return static_cast<double>(state >> 11) / 9007199254740992.0 * 2 - 1;  // in [-1, 1)
  };
  for (std::uint32_t k = 0; k < m; ++k)
    for (std::uint32_t j = 0; j < m; ++j)
      for (std::uint32_t i = 0; i < m; ++i) {
        const bool inside = i > 0 && j > 0 && k > 0 && i < cells && j < cells && k < cells;
        Point x{i * h, j * h, k * h};
        if (inside && jitter > 0)
          for (double& xc : x) xc += jitter * h * next_unit();
        c.mesh.nodes.push_back(x);
        c.interior.push_back(inside);
      }
  constexpr std::array<std::array<int, 3>, 6> orders{{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}};
  for (std::uint32_t k = 0; k < cells; ++k)
    for (std::uint32_t j = 0; j < cells; ++j)
      for (std::uint32_t i = 0; i < cells; ++i)
        for (const auto& order : orders) {
          std::array<std::uint32_t, 3> at{i, j, k};
          Tet tet{};
          tet[0] = index(at[0], at[1], at[2]);
          for (std::size_t s = 0; s < 3; ++s) {
            ++at[static_cast<std::size_t>(order[s])];
            tet[s + 1] = index(at[0], at[1], at[2]);
          }
          c.mesh.tets.push_back(tet);
        }
  return c;
}

}  // namespace hetflow::fem
