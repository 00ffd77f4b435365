#include "hetflow/ftle/seed_grid.hpp"

#include <cmath>
#include <string>

#include "hetflow/core/error.hpp"

namespace hetflow::ftle {

void SeedGrid::check() const {
  if (dimension != 2 && dimension != 3)
    throw core::Error("seed grid of dimension " + std::to_string(dimension) + ": expected 2 or 3");
  for (int d = 0; d < 3; ++d) {
    const auto a = static_cast<std::size_t>(d);
    if (d < dimension && counts[a] < 2)
      throw core::Error("the seed grid has " + std::to_string(counts[a]) + " seed(s) along axis " + std::to_string(d) +
                        ": expected at least 2, since the flow-map gradient needs a neighbour");
    if (d >= dimension && counts[a] != 1)
      throw core::Error("a 2D seed grid has one seed along z, not " + std::to_string(counts[a]));
    if (d < dimension && !(spacing[a] > 0.0 && std::isfinite(spacing[a])))
      throw core::Error("seed spacing " + std::to_string(spacing[a]) + " along axis " + std::to_string(d) +
                        ": expected a positive number");
    if (!std::isfinite(origin[a])) throw core::Error("the seed origin along axis " + std::to_string(d) + " is not finite");
  }
  if (size() >= (std::size_t{1} << 32)) throw core::Error("more than 2^32 seeds: split the seed grid");
}

SeedGrid SeedGrid::spanning(std::array<double, 3> lo, std::array<double, 3> hi, std::array<std::size_t, 3> counts,
                            int dimension) {
  SeedGrid g;
  g.dimension = dimension;
  g.counts = counts;
  g.origin = lo;
  for (std::size_t a = 0; a < 3; ++a) {
    g.spacing[a] = counts[a] > 1 ? (hi[a] - lo[a]) / static_cast<double>(counts[a] - 1) : 1.0;
  }
  return g;
}

std::vector<std::uint8_t> edge_mask(const SeedGrid& seeds) {
  const auto& n = seeds.counts;
  const auto on_face = [](std::size_t k, std::size_t count) { return k == 0 || k + 1 == count; };
  std::vector<std::uint8_t> mask(seeds.size());
  for (std::size_t i = 0; i < mask.size(); ++i) {
    const std::size_t x = i % n[0], y = i / n[0] % n[1], z = i / (n[0] * n[1]);
    mask[i] = on_face(x, n[0]) || on_face(y, n[1]) || (seeds.dimension == 3 && on_face(z, n[2]));
  }
  return mask;
}

}  // namespace hetflow::ftle
