#pragma once
#include <chrono>
#include <future>
#include <iostream>
#include <string>
#include <utility>

#include "hetflow/core/device_set.hpp"
#include "hetflow/core/event.hpp"
#include "hetflow/fem/boundary_conditions.hpp"
#include "hetflow/fem/edge_data.hpp"
#include "hetflow/fem/flow_solver.hpp"
#include "hetflow/fem/mesh.hpp"

namespace hetflow::app {

// Runs `work` on a thread and reports its elapsed time to stderr once a second until it returns, so that the
// set-up of a large mesh (edge data on the host, uploads) is never a silent wait.
template <class Work>
auto with_progress(const std::string& what, Work&& work) {
  auto result = std::async(std::launch::async, std::forward<Work>(work));
  const core::WallTimer timer;
  while (result.wait_for(std::chrono::seconds(1)) != std::future_status::ready)
    std::cerr << "  " << what << ": " << static_cast<long>(timer.seconds()) << " s\n";
  return result.get();
}

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
