#include "hetflow/app/fem/fem_bench_cavity.hpp"

#include <cstdint>
#include <vector>

#include "hetflow/app/bench/timing.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/fem/box_mesh.hpp"

namespace hetflow::app {

CavityMesh cavity_mesh(int cells) {
  const std::string name = std::to_string(cells) + "^3";
  const auto c = static_cast<std::uint32_t>(cells);
  CavityMesh m;
  m.cells = cells;
  m.mesh = with_progress(name + " box mesh", [c] { return fem::box_mesh(c, c, c, {0, 0, 0}, {1, 1, 1}); });
  m.data = with_progress(name + " edge data", [&m] { return fem::build_edge_data(m.mesh); });
  std::cerr << "  " << name << ": " << m.data.node_count() << " nodes, " << m.data.edge_count() << " directed edges\n";
  return m;
}

fem::BoundaryConstraints cavity_constraints(const fem::Mesh& mesh) {
  std::vector<fem::PatchCondition> conditions;
  for (const std::string& patch : mesh.patches) {
    fem::PatchCondition c;
    c.patch = patch;
    c.kind = patch == "y_max" ? fem::BoundaryKind::velocity : fem::BoundaryKind::no_slip;
    if (patch == "y_max") c.value = {1, 0, 0};
    conditions.push_back(c);
  }
  return fem::build_boundary_constraints(mesh, conditions, "the cavity");
}

fem::FlowParameters cavity_parameters(const fem::SpmvShape& spmv, fem::Preconditioner preconditioner) {
  fem::FlowParameters p;
  p.cg.preconditioner = preconditioner;
  p.momentum.viscosity = 0.01;
  p.momentum.density = 1;
  // The Jacobi CG needs about as many iterations as there are nodes along a side (several hundred at 56³,
  // over a thousand at 160³): the limit leaves room for the largest mesh.
  p.cg.max_iterations = 10000;
  p.spmv = spmv;
  return p;
}

}  // namespace hetflow::app
