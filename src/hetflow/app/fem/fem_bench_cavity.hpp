#pragma once
#include <string>
#include <utility>

#include "hetflow/core/device_set.hpp"
#include "hetflow/fem/boundary_conditions.hpp"
#include "hetflow/fem/edge_data.hpp"
#include "hetflow/fem/flow_solver.hpp"
#include "hetflow/fem/mesh.hpp"

namespace hetflow::app {

// The unit cube cut into cells³ cubes of 6 tets, with its edge data: the paper's cavity meshes.
struct CavityMesh {
  int cells = 0;
  fem::Mesh mesh;
  fem::EdgeData data;
};

// Builds it, reporting progress to stderr.
CavityMesh cavity_mesh(int cells);

// The lid-driven cavity's boundary conditions: u = (1, 0, 0) on the y = 1 face (patch y_max), no slip on the
// other five, which win on the lid's rim, and p = 0 at the lowest-index boundary node, the corner (0, 0, 0).
fem::BoundaryConstraints cavity_constraints(const fem::Mesh& mesh);

// The paper's cavity physics (Rossi, Mossaiby & Idelsohn 2013): ρ = 1, ν = 0.01 (Re 100 with the lid's unit
// speed), no body force; the SpMV shape `spmv` and the pressure CG's preconditioner.
fem::FlowParameters cavity_parameters(const fem::SpmvShape& spmv, fem::Preconditioner preconditioner);

}  // namespace hetflow::app
