#pragma once
#include <vector>

#include "hetflow/lbm/geometry.hpp"
#include "hetflow/lbm/solver.hpp"

namespace hetflow::lbm {

// |curl u| at every node of `fields` (x fastest), by second-order central differences on the periodic
// lattice; a neighbour that is a wall counts as u = 0 there, which is first-order beside walls (the
// half-way bounce-back wall lies half a cell closer). Walls get 0. Computed on the host from fields
// already read back for output, so it costs no device memory.
std::vector<double> vorticity_magnitude(const Fields& fields, const Geometry& geometry);

}  // namespace hetflow::lbm
