#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "hetflow/fem/box_mesh.hpp"
#include "hetflow/fem/boundary_conditions.hpp"
#include "hetflow/fem/edge_data.hpp"
#include "hetflow/fem/renumber.hpp"

namespace hetflow::fem {

// The lid-driven unit cube of cells³ cells, its nodes in the order a case gives them: u = (1, 0, 0) on
// y = 1, no slip on the other faces, the pressure fixed at one corner.
struct LidCavity {
  explicit LidCavity(Ordering ordering, std::uint32_t cells = 6)
      : mesh(renumber(box_mesh(cells, cells, cells, {0, 0, 0}, {1, 1, 1}), ordering).mesh),
        data(build_edge_data(mesh)) {
    std::vector<PatchCondition> conditions;
    for (const std::string& patch : mesh.patches) {
      PatchCondition c;
      c.patch = patch;
      c.kind = patch == "y_max" ? BoundaryKind::velocity : BoundaryKind::no_slip;
      if (patch == "y_max") c.value = {1, 0, 0};
      conditions.push_back(c);
    }
    constraints = build_boundary_constraints(mesh, conditions, "the cavity");
  }

  Mesh mesh;
  EdgeData data;
  BoundaryConstraints constraints;
};

}  // namespace hetflow::fem
