#include "hetflow/core/statistics.hpp"

#include <algorithm>

#include "hetflow/core/error.hpp"

namespace hetflow::core {

Summary summarize(std::vector<double> samples) {
  if (samples.empty()) throw Error("no samples to summarize");
  std::sort(samples.begin(), samples.end());
  const std::size_t n = samples.size();
  const double median = n % 2 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
  return {median, samples.front(), samples.back(), static_cast<int>(n)};
}

}  // namespace hetflow::core
