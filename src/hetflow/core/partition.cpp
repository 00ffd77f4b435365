#include "hetflow/core/partition.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "hetflow/core/device_set.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/core/probe.hpp"

namespace hetflow::core {

Partition::Partition(std::size_t n_elements, std::size_t granule, std::span<const double> weights)
    : size_(n_elements), granule_(granule) {
  if (granule == 0) throw Error("a partition granule must hold at least one element");
  if (n_elements % granule != 0) {
    throw Error("cannot split " + std::to_string(n_elements) + " elements into granules of " +
                std::to_string(granule));
  }
  if (weights.empty()) throw Error("a partition needs at least one part");
  double sum = 0;
  for (double w : weights) {
    if (!(w >= 0) || !std::isfinite(w)) throw Error("partition weights must be finite and non-negative");
    sum += w;
  }
  if (sum <= 0) throw Error("partition weights must not all be zero");

  const std::size_t granules = n_elements / granule;
  std::vector<std::size_t> counts(weights.size());
  std::vector<std::pair<double, std::size_t>> remainders;
  std::size_t assigned = 0;
  for (std::size_t k = 0; k < weights.size(); ++k) {
    const double exact = static_cast<double>(granules) * weights[k] / sum;
    counts[k] = static_cast<std::size_t>(std::floor(exact));
    assigned += counts[k];
    remainders.emplace_back(exact - std::floor(exact), k);
  }
  // Stable sort keeps ties in part order, so a uniform split gives the remainder to the first parts.
  std::stable_sort(remainders.begin(), remainders.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  for (std::size_t i = 0; assigned < granules; ++i, ++assigned) ++counts[remainders[i % remainders.size()].second];

  std::size_t offset = 0;
  for (std::size_t c : counts) {
    shares_.push_back({offset, c * granule});
    offset += c * granule;
  }
}

std::vector<double> distribution_weights(Distribution d, const DeviceSet& devices, std::span<const double> custom) {
  std::vector<double> w(devices.size(), 1.0);
  switch (d) {
    case Distribution::uniform: break;
    case Distribution::memory:
      for (std::size_t k = 0; k < w.size(); ++k) w[k] = static_cast<double>(devices.device(k).info.global_mem);
      break;
    case Distribution::bandwidth:
      for (std::size_t k = 0; k < w.size(); ++k) {
        // A short probe: the split needs ratios, not a benchmark-grade figure.
        ProbeOptions quick;
        quick.bytes_per_array = std::min<std::size_t>(default_probe_bytes(devices.device(k).info), 64u << 20);
        quick.repeats = 5;
        w[k] = measure_bandwidth(devices.compute(k), quick).copy.median;
      }
      break;
    case Distribution::custom:
      if (custom.size() != devices.size()) {
        throw Error("custom distribution: " + std::to_string(custom.size()) + " weights for " +
                    std::to_string(devices.size()) + " devices");
      }
      w.assign(custom.begin(), custom.end());
      break;
  }
  return w;
}

}  // namespace hetflow::core
