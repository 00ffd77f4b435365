#include "hetflow/app/ftle/ftle_statistics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "hetflow/core/error.hpp"
#include "hetflow/core/number_text.hpp"

namespace hetflow::app {

FieldStats statistics(const std::vector<double>& f, const ftle::SeedGrid& seeds, std::span<const std::uint8_t> mask) {
  FieldStats s;
  s.min = std::numeric_limits<double>::infinity();
  s.max = -s.min;
  std::size_t counted = 0, negative = 0, inner = 0;
  double interior = 0;
  const auto& n = seeds.counts;
  for (std::size_t i = 0; i < f.size(); ++i) {
    if (!mask.empty() && mask[i]) continue;
    const std::size_t x = i % n[0], y = i / n[0] % n[1], z = i / (n[0] * n[1]);
    if (!std::isfinite(f[i])) {
      throw core::Error("ftle: the FTLE of seed " + std::to_string(i) + " (grid index (" + std::to_string(x) + ", " +
                        std::to_string(y) + (seeds.dimension == 3 ? ", " + std::to_string(z) : "") + ")) is " +
                        core::number_text(f[i], 6) + ": the flow map's gradient there is degenerate");
    }
    ++counted;
    s.mean += f[i];
    s.min = std::min(s.min, f[i]);
    s.max = std::max(s.max, f[i]);
    if (f[i] < 0) ++negative;
    const auto inside = [](std::size_t k, std::size_t count) { return k > 0 && k + 1 < count; };
    if (inside(x, n[0]) && inside(y, n[1]) && (seeds.dimension == 2 || inside(z, n[2]))) {
      interior += f[i];
      ++inner;
    }
  }
  if (counted == 0)
    throw core::Error(
        "ftle: every seed lies in the body or, with output.edges: nan, on the seed grid's faces: no FTLE to report");
  s.mean /= static_cast<double>(counted);
  s.interior_mean = inner ? interior / static_cast<double>(inner) : s.mean;
  s.negative_share = static_cast<double>(negative) / static_cast<double>(counted);
  return s;
}

SmallestStats smallest_statistics(const std::vector<double>& f, std::span<const std::uint8_t> mask) {
  SmallestStats s;
  s.min = std::numeric_limits<double>::infinity();
  s.max = -s.min;
  std::size_t counted = 0;
  for (std::size_t i = 0; i < f.size(); ++i) {
    if (!mask.empty() && mask[i]) continue;
    if (!std::isfinite(f[i])) {
      ++s.singular;
      continue;
    }
    ++counted;
    s.mean += f[i];
    s.min = std::min(s.min, f[i]);
    s.max = std::max(s.max, f[i]);
  }
  // JSON has no infinities: a field without a finite value reports zeros beside its count of singular seeds.
  if (counted == 0) return SmallestStats{0, 0, 0, s.singular};
  s.mean /= static_cast<double>(counted);
  return s;
}

}  // namespace hetflow::app
