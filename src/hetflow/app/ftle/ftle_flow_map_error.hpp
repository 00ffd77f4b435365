#pragma once
#include <nlohmann/json.hpp>
#include <vector>

#include "hetflow/ftle/solver.hpp"

namespace hetflow::app {

// output.flow_map_error: how far the case's flow map lies from a tight reference of the same flow, seeds,
// steps and boundary, so that a user sees the accuracy a setting buys, not only its tolerance.

// The reference's configuration: `config` integrated by DOP853 in FP64 at rtol 1e-13, atol 1e-15.
ftle::Config reference_config(const ftle::Config& config);

// The largest and the root-mean-square distance between the flow maps' positions (dimension values
// per seed), over the seeds whose positions are finite in both.
struct FlowMapError {
  double max = 0, rms = 0;
  std::size_t seeds = 0;
};
FlowMapError flow_map_error(const std::vector<double>& map, const std::vector<double>& reference, int dimension);

// result.flow_map_error.
nlohmann::json flow_map_error_json(const FlowMapError& error, const ftle::Config& reference, double seconds);

}  // namespace hetflow::app
