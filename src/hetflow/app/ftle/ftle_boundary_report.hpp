#pragma once
#include <cstddef>
#include <nlohmann/json.hpp>
#include <vector>

#include "hetflow/app/ftle/ftle_case_setup.hpp"

namespace hetflow::app {

// Whether the run keeps exit times: gridded velocity with ftle.boundary: freeze.
bool keeps_exit_times(const FtleSetup& setup);

// The manifest's result.boundary: the boundary mode, the tracers that met the data box's faces
// (ftle::Solver::boundary_hits) and what meeting them means in that mode; under freeze also the smallest
// and largest of `exit_times` (NaN for tracers that stayed inside), when a tracer left.
nlohmann::json boundary_report(const FtleSetup& setup, std::size_t hits, const std::vector<double>& exit_times);

}  // namespace hetflow::app
