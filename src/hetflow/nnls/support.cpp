#include "hetflow/nnls/support.hpp"

#include <algorithm>
#include <cmath>

namespace hetflow::nnls {

Support support(const Vector& x) {
  Support s;
  double largest = 0.0;
  for (double v : x) largest = std::max(largest, std::fabs(v));
  s.threshold = support_relative_threshold * largest;
  for (double v : x) {
    if (v == 0.0)
      ++s.zero;
    else if (v > s.threshold)
      ++s.positive;
    else if (v < -s.threshold)
      ++s.negative;
    else
      ++s.tiny;
  }
  return s;
}

}  // namespace hetflow::nnls
