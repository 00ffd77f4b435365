#pragma once
#include <cstddef>
#include <span>
#include <vector>

namespace hetflow::core {

class DeviceSet;

// How an index space is split across devices.
enum class Distribution {
  uniform,    // as equal as possible; the first devices take the remainder
  memory,     // proportional to each device's global memory
  bandwidth,  // proportional to each device's measured copy bandwidth
  custom      // proportional to user weights
};

// The contiguous range of an index space that one part owns, in elements.
struct Share {
  std::size_t offset = 0;
  std::size_t count = 0;
};

// A split of n elements, in whole granules (a z-plane, a matrix row), into parts.
class Partition {
 public:
  // Largest-remainder rounding of n_granules * w_k / sum(w); ties go to the lower part.
  Partition(std::size_t n_elements, std::size_t granule, std::span<const double> weights);

  std::size_t parts() const { return shares_.size(); }
  std::size_t size() const { return size_; }
  std::size_t granule() const { return granule_; }
  const Share& share(std::size_t k) const { return shares_.at(k); }

 private:
  std::size_t size_;
  std::size_t granule_;
  std::vector<Share> shares_;
};

// The weights of a distribution for the devices of `devices`; `custom` weights are checked and passed on.
std::vector<double> distribution_weights(Distribution d, const DeviceSet& devices,
                                         std::span<const double> custom = {});

}  // namespace hetflow::core
