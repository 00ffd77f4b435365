#include "hetflow/mrag/weno5.hpp"

namespace hetflow::mrag {
namespace {

double square(double x) { return x * x; }

}  // namespace

std::array<double, 3> weno5_smoothness(double a, double b, double c, double d, double e) {
  return {13.0 / 12 * square(a - 2 * b + c) + 0.25 * square(a - 4 * b + 3 * c),
          13.0 / 12 * square(b - 2 * c + d) + 0.25 * square(b - d),
          13.0 / 12 * square(c - 2 * d + e) + 0.25 * square(3 * c - 4 * d + e)};
}

double weno5_face(double a, double b, double c, double d, double e) {
  const std::array<double, 3> is = weno5_smoothness(a, b, c, d, e);
  // The candidates' face values and the linear weights 1/10, 6/10, 3/10 that make their blend fifth order.
  const double q0 = a / 3 - 7 * b / 6 + 11 * c / 6;
  const double q1 = -b / 6 + 5 * c / 6 + d / 3;
  const double q2 = c / 3 + 5 * d / 6 - e / 6;
  const double w0 = 0.1 / square(weno5_epsilon + is[0]);
  const double w1 = 0.6 / square(weno5_epsilon + is[1]);
  const double w2 = 0.3 / square(weno5_epsilon + is[2]);
  return (w0 * q0 + w1 * q1 + w2 * q2) / (w0 + w1 + w2);
}

}  // namespace hetflow::mrag
