#pragma once
#include <cstddef>
#include <span>
#include <vector>

#include "hetflow/optim/evaluation.hpp"

namespace hetflow::optim {

// A box lower ≤ x ≤ upper for continuous problems. Infinite limits are allowed (an unbounded side);
// a default-constructed Bounds leaves every dimension of any problem free. The methods keep every point
// they request inside the box by projection, finite-difference points included.
class Bounds {
 public:
  Bounds() = default;
  // core::Error naming the dimension if the sizes differ or a lower limit is not below its upper limit.
  Bounds(std::vector<double> lower, std::vector<double> upper);

  // core::Error naming the dimension and values if `start` has another dimension, is not finite or lies
  // outside the box.
  void check_start(std::span<const double> start) const;

  bool unbounded() const { return lower_.empty(); }
  double lower(std::size_t i) const;
  double upper(std::size_t i) const;
  Point project(Point x) const;

 private:
  std::vector<double> lower_;
  std::vector<double> upper_;
};

}  // namespace hetflow::optim
