#include "hetflow/core/link.hpp"

#include <algorithm>
#include <string>

#include "hetflow/core/error.hpp"

namespace hetflow::core {

void check_gather_range(std::size_t size, std::size_t offset, std::size_t count) {
  if (offset > size || count > size - offset) {
    throw Error("gather: bytes [" + std::to_string(offset) + ", " + std::to_string(offset + count) +
                ") lie outside an array of " + std::to_string(size));
  }
}

PartPlacement::PartPlacement(Link* link, std::span<const double> local_weights) : local_(local_weights.size()) {
  const std::vector<std::vector<double>> all =
      link ? link->all_gather(local_weights)
           : std::vector<std::vector<double>>{{local_weights.begin(), local_weights.end()}};
  const std::size_t me = link ? link->rank() : 0;
  for (std::size_t r = 0; r < all.size(); ++r) {
    if (r == me) first_ = weights_.size();
    rank_first_.push_back(weights_.size());
    weights_.insert(weights_.end(), all[r].begin(), all[r].end());
  }
}

std::size_t PartPlacement::rank_of(std::size_t part) const {
  // The last rank whose first part is at or below `part` (ranks without devices hold no part).
  const auto after = std::upper_bound(rank_first_.begin(), rank_first_.end(), part);
  return static_cast<std::size_t>(after - rank_first_.begin()) - 1;
}

}  // namespace hetflow::core
