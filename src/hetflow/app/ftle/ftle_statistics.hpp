#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "hetflow/ftle/seed_grid.hpp"

namespace hetflow::app {

// What the manifest reports of an FTLE field.
struct FieldStats {
  double mean = 0, min = 0, max = 0, interior_mean = 0;
  // The share of seeds whose FTLE is below zero: where the flow compresses every direction over T, or
  // where an interpolated or clamped velocity does (boundaries, coarse data), which a user should see.
  double negative_share = 0;
};

// Statistics of the field over the seeds not flagged in `mask` (the body's and, with output.edges: nan,
// the faces' seeds: NanSeeds; empty: every seed); a non-finite value there (a degenerate flow-map
// gradient) stops the run with its seed. At least one seed must be left (the case checks it).
FieldStats statistics(const std::vector<double>& f, const ftle::SeedGrid& seeds, std::span<const std::uint8_t> mask);

// The smallest exponent's field (output.lambda_min) over the seeds outside the body: mean, min and max
// of its finite values, and the seeds where it is not finite (a singular flow-map gradient gives -inf,
// which is a value of the field, not a failure).
struct SmallestStats {
  double mean = 0, min = 0, max = 0;
  std::size_t singular = 0;
};
SmallestStats smallest_statistics(const std::vector<double>& f, std::span<const std::uint8_t> mask);

}  // namespace hetflow::app
