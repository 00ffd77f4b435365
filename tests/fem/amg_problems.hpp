#pragma once
#include <cstdint>
#include <vector>

#include "hetflow/fem/box_mesh.hpp"
#include "hetflow/fem/csr_matrix.hpp"
#include "hetflow/fem/edge_data.hpp"
#include "hetflow/fem/pressure_stiffness.hpp"
#include "hetflow/fem/pressure_system.hpp"

namespace hetflow::fem {

// The pressure stiffness K of the unit cube cut into cells³ cubes (box_mesh), the pressure fixed at
// the listed nodes.
struct BoxStiffness {
  EdgeData data;
  std::vector<std::uint32_t> fixed;
  CsrMatrix k;
};

inline BoxStiffness box_stiffness(std::uint32_t cells, std::vector<std::uint32_t> fixed = {0}) {
  BoxStiffness s{build_edge_data(box_mesh(cells, cells, cells, {0, 0, 0}, {1, 1, 1})), std::move(fixed), {}};
  s.k = pressure_stiffness(s.data, fixed_node_mask(s.data.node_count(), s.fixed, "fixed pressure"));
  return s;
}

}  // namespace hetflow::fem
