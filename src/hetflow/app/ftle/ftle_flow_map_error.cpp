#include "hetflow/app/ftle/ftle_flow_map_error.hpp"

#include <algorithm>
#include <cmath>

#include "hetflow/core/number_text.hpp"

namespace hetflow::app {

ftle::Config reference_config(const ftle::Config& config) {
  ftle::Config reference = config;
  reference.integrator = ftle::Integrator::dop853;
  reference.precision = core::Precision::f64;
  reference.rtol = 1e-13;
  reference.atol = 1e-15;
  return reference;
}

FlowMapError flow_map_error(const std::vector<double>& map, const std::vector<double>& reference, int dimension) {
  FlowMapError e;
  double sum = 0;
  const auto dim = static_cast<std::size_t>(dimension);
  for (std::size_t i = 0; i + dim <= std::min(map.size(), reference.size()); i += dim) {
    double squared = 0;
    bool finite = true;
    for (std::size_t d = 0; d < dim; ++d) {
      const double diff = map[i + d] - reference[i + d];
      finite = finite && std::isfinite(diff);
      squared += diff * diff;
    }
    if (!finite) continue;
    e.max = std::max(e.max, std::sqrt(squared));
    sum += squared;
    ++e.seeds;
  }
  e.rms = e.seeds ? std::sqrt(sum / static_cast<double>(e.seeds)) : 0.0;
  return e;
}

nlohmann::json flow_map_error_json(const FlowMapError& error, const ftle::Config& reference, double seconds) {
  return {{"max", error.max},
          {"rms", error.rms},
          {"seeds", error.seeds},
          {"note", "distance between final positions, against the reference"},
          {"reference", std::string(ftle::to_string(reference.integrator)) + " fp64 rtol " +
                            core::number_text(reference.rtol, 3) + " atol " + core::number_text(reference.atol, 3)},
          {"reference_stepping_seconds", seconds}};
}

}  // namespace hetflow::app
