#include "hetflow/optim/bounds.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "hetflow/core/number_text.hpp"
#include "hetflow/core/error.hpp"

namespace hetflow::optim {

using core::number_text;

Bounds::Bounds(std::vector<double> lower, std::vector<double> upper) : lower_(std::move(lower)), upper_(std::move(upper)) {
  if (lower_.size() != upper_.size())
    throw core::Error("bounds have " + std::to_string(lower_.size()) + " lower and " + std::to_string(upper_.size()) +
                " upper limits; they need one of each per dimension");
  for (std::size_t i = 0; i < lower_.size(); ++i) {
    // Written so that NaN fails too.
    if (!(lower_[i] < upper_[i]))
      throw core::Error("bounds of dimension " + std::to_string(i) + ": lower limit " + number_text(lower_[i]) +
                  " is not below upper limit " + number_text(upper_[i]));
  }
}

void Bounds::check_start(std::span<const double> start) const {
  if (start.empty()) throw core::Error("the start point has no coordinates");
  if (!unbounded() && start.size() != lower_.size())
    throw core::Error("the start point has " + std::to_string(start.size()) + " coordinates but the bounds have " +
                std::to_string(lower_.size()) + " dimensions");
  for (std::size_t i = 0; i < start.size(); ++i) {
    if (!std::isfinite(start[i]))
      throw core::Error("start coordinate " + std::to_string(i) + " is " + number_text(start[i]) + "; it must be finite");
    if (start[i] < lower(i) || start[i] > upper(i))
      throw core::Error("start coordinate " + std::to_string(i) + " = " + number_text(start[i]) + " lies outside its bounds [" +
                  number_text(lower(i)) + ", " + number_text(upper(i)) + "]");
  }
}

double Bounds::lower(std::size_t i) const {
  return unbounded() ? -std::numeric_limits<double>::infinity() : lower_[i];
}

double Bounds::upper(std::size_t i) const {
  return unbounded() ? std::numeric_limits<double>::infinity() : upper_[i];
}

Point Bounds::project(Point x) const {
  if (unbounded()) return x;
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = std::clamp(x[i], lower_[i], upper_[i]);
  return x;
}

}  // namespace hetflow::optim
