#include "hetflow/karst/ogata_banks.hpp"

#include <cmath>
#include <numbers>

namespace hetflow::karst {

double erfcx(double z) {
  // Directly while exp(z^2) is finite and erfc(z) not yet subnormal; beyond, the asymptotic series
  // 1/(z sqrt(pi)) sum_k (-1)^k (2k-1)!!/(2 z^2)^k, whose first term left out (k = 9) is below 1e-20 for z >= 25.
  if (z < 25) return std::exp(z * z) * std::erfc(z);
  const double q = 1 / (2 * z * z);
  double term = 1, sum = 1;
  for (int k = 1; k <= 8; ++k) {
    term *= -(2 * k - 1) * q;
    sum += term;
  }
  return sum / (z * std::sqrt(std::numbers::pi));
}

double ogata_banks(double x, double t, double velocity, double dispersion) {
  const double w = 2 * std::sqrt(dispersion * t);
  const double ahead = x - velocity * t, behind = x + velocity * t;
  return 0.5 * (std::erfc(ahead / w) + std::exp(-ahead * ahead / (w * w)) * erfcx(behind / w));
}

}  // namespace hetflow::karst
