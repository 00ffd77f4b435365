#pragma once
#include <cstddef>

#include "hetflow/ftle/seed_grid.hpp"

namespace hetflow::ftle {

// n seeds per axis (1 along unused axes) with spacing 0.05, centred on the origin: the stagnation point
// of the linear test flows.
inline SeedGrid centred_seeds(int dimension, std::size_t n) {
  const double h = 0.05;
  SeedGrid s;
  s.dimension = dimension;
  for (int d = 0; d < 3; ++d) {
    const auto a = static_cast<std::size_t>(d);
    s.counts[a] = d < dimension ? n : 1;
    s.origin[a] = d < dimension ? -h * static_cast<double>(n - 1) / 2 : 0.0;
    s.spacing[a] = h;
  }
  return s;
}

}  // namespace hetflow::ftle
