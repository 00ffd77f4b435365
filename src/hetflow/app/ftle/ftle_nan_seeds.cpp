#include "hetflow/app/ftle/ftle_nan_seeds.hpp"

#include <algorithm>

#include "hetflow/ftle/body.hpp"

namespace hetflow::app {

NanSeeds nan_seeds(const FtleSetup& setup) {
  NanSeeds n;
  if (setup.body) {
    n.mask = ftle::body_mask(*setup.body, setup.seeds);
    n.body = static_cast<std::size_t>(std::count(n.mask.begin(), n.mask.end(), 1));
  }
  if (!setup.nan_edges) return n;
  const std::vector<std::uint8_t> edges = ftle::edge_mask(setup.seeds);
  if (n.mask.empty()) n.mask.assign(edges.size(), 0);
  for (std::size_t i = 0; i < edges.size(); ++i) {
    if (!edges[i] || n.mask[i]) continue;
    n.mask[i] = 1;
    ++n.edges;
  }
  return n;
}

}  // namespace hetflow::app
