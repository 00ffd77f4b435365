#include "hetflow/fem/box_mesh.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace hetflow::fem {
namespace {

// Every hexahedron uses the Kuhn (Freudenthal) split: the 6 tets walk from corner (0,0,0) to (1,1,1)
// along the axes in each of the 6 orders. All cells are translates of one another, so each shared face
// is cut along the same diagonal (from its lowest to its highest corner) on both sides and the mesh is
// conforming. The tet of an odd axis order is left-handed and gets its nodes 0 and 2 swapped: that keeps
// the node pairs (02, 13) whose midpoints refine() joins, so refinement keeps Kuhn tets (Bey 1995).
constexpr int kAxisOrders[6][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1}, {0, 2, 1}, {2, 1, 0}, {1, 0, 2}};
constexpr bool kOddOrder[6] = {false, false, false, true, true, true};

struct Grid {
  std::uint32_t n[3];
  std::uint32_t index(const std::uint32_t (&ijk)[3]) const {
    return ijk[0] + (n[0] + 1) * (ijk[1] + (n[1] + 1) * ijk[2]);
  }
};

void add_tets(const Grid& grid, Mesh& mesh) {
  for (std::uint32_t k = 0; k < grid.n[2]; ++k)
    for (std::uint32_t j = 0; j < grid.n[1]; ++j)
      for (std::uint32_t i = 0; i < grid.n[0]; ++i)
        for (int t = 0; t < 6; ++t) {
          std::uint32_t ijk[3] = {i, j, k};
          Tet tet{};
          tet[0] = grid.index(ijk);
          for (int step = 0; step < 3; ++step) {
            ++ijk[kAxisOrders[t][step]];
            tet[step + 1] = grid.index(ijk);
          }
          if (kOddOrder[t]) std::swap(tet[0], tet[2]);
          mesh.tets.push_back(tet);
        }
}

// The two triangles of each cell face on the side `axis` = 0 (low) or n[axis] (high), cut along the
// face's lowest-to-highest diagonal as the tets are, wound so the normal points out of the box.
void add_side(const Grid& grid, int axis, bool high, std::uint32_t patch, Mesh& mesh) {
  const int a = (axis + 1) % 3, b = (axis + 2) % 3;  // (a, b, axis) is right-handed
  for (std::uint32_t q = 0; q < grid.n[b]; ++q)
    for (std::uint32_t p = 0; p < grid.n[a]; ++p) {
      auto node = [&](std::uint32_t dp, std::uint32_t dq) {
        std::uint32_t ijk[3];
        ijk[axis] = high ? grid.n[axis] : 0;
        ijk[a] = p + dp;
        ijk[b] = q + dq;
        return grid.index(ijk);
      };
      // Counter-clockwise in (a, b) has its normal along +axis: outward on the high side.
      std::array<std::uint32_t, 3> t1{node(0, 0), node(1, 0), node(1, 1)};
      std::array<std::uint32_t, 3> t2{node(0, 0), node(1, 1), node(0, 1)};
      if (!high) {
        std::swap(t1[1], t1[2]);
        std::swap(t2[1], t2[2]);
      }
      mesh.boundary.push_back({t1, patch});
      mesh.boundary.push_back({t2, patch});
    }
}

}  // namespace

Mesh box_mesh(std::uint32_t nx, std::uint32_t ny, std::uint32_t nz, const Point& lower, const Point& upper) {
  if (nx == 0 || ny == 0 || nz == 0)
    throw std::invalid_argument("box_mesh: cell counts must be positive, got " + std::to_string(nx) + " x " +
                                std::to_string(ny) + " x " + std::to_string(nz));
  for (int d = 0; d < 3; ++d)
    if (!(upper[d] > lower[d]))
      throw std::invalid_argument("box_mesh: upper corner must exceed lower corner along axis " +
                                  std::to_string(d));
  const Grid grid{{nx, ny, nz}};
  Mesh mesh;
  mesh.nodes.reserve(std::size_t(nx + 1) * (ny + 1) * (nz + 1));
  for (std::uint32_t k = 0; k <= nz; ++k)
    for (std::uint32_t j = 0; j <= ny; ++j)
      for (std::uint32_t i = 0; i <= nx; ++i)
        mesh.nodes.push_back({lower[0] + (upper[0] - lower[0]) * i / nx,
                              lower[1] + (upper[1] - lower[1]) * j / ny,
                              lower[2] + (upper[2] - lower[2]) * k / nz});
  add_tets(grid, mesh);
  mesh.patches = {"x_min", "x_max", "y_min", "y_max", "z_min", "z_max"};
  for (int axis = 0; axis < 3; ++axis) {
    add_side(grid, axis, false, std::uint32_t(2 * axis), mesh);
    add_side(grid, axis, true, std::uint32_t(2 * axis + 1), mesh);
  }
  return mesh;
}

}  // namespace hetflow::fem
