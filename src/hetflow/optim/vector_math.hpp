#pragma once
#include <algorithm>
#include <cmath>
#include <span>

// The few vector operations the continuous methods share; dimensions are small (parameters of an
// inversion), so plain loops are all that is needed.
namespace hetflow::optim {

inline double dot(std::span<const double> a, std::span<const double> b) {
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

inline double norm_inf(std::span<const double> a) {
  double m = 0;
  for (double v : a) m = std::max(m, std::abs(v));
  return m;
}

inline double distance_inf(std::span<const double> a, std::span<const double> b) {
  double m = 0;
  for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, std::abs(a[i] - b[i]));
  return m;
}

}  // namespace hetflow::optim
