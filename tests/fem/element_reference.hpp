#pragma once
#include <array>
#include <cmath>
#include <cstddef>

#include "hetflow/fem/mesh.hpp"

namespace hetflow::fem {

// One tet's volume and shape-function gradients computed element by element, as a reference that does
// not go through the edge data: with A the matrix whose rows are x_a − x_0 (a = 1..3), ∇N_a is column a
// of A⁻¹ (from A ∇N_a = e_a), taken from the cofactors, and ∇N_0 = −Σ ∇N_a.
struct ElementGeometry {
  double volume = 0;
  std::array<std::array<double, 3>, 4> grad{};
};

inline ElementGeometry element_geometry(const Mesh& mesh, const Tet& tet) {
  std::array<std::array<double, 3>, 3> a{};
  for (std::size_t r = 0; r < 3; ++r)
    for (std::size_t c = 0; c < 3; ++c) a[r][c] = mesh.nodes[tet[r + 1]][c] - mesh.nodes[tet[0]][c];
  const auto cofactor = [&a](std::size_t r, std::size_t c) {
    const std::size_t r1 = (r + 1) % 3, r2 = (r + 2) % 3, c1 = (c + 1) % 3, c2 = (c + 2) % 3;
    return a[r1][c1] * a[r2][c2] - a[r1][c2] * a[r2][c1];
  };
  double det = 0;
  for (std::size_t c = 0; c < 3; ++c) det += a[0][c] * cofactor(0, c);
  ElementGeometry g;
  g.volume = std::abs(det) / 6;
  for (std::size_t col = 0; col < 3; ++col)
    for (std::size_t row = 0; row < 3; ++row) {
      const double inverse = cofactor(col, row) / det;  // (A⁻¹)[row][col] = cof(col, row) / det
      g.grad[col + 1][row] = inverse;
      g.grad[0][row] -= inverse;
    }
  return g;
}

}  // namespace hetflow::fem
