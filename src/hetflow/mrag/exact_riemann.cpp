#include "hetflow/mrag/exact_riemann.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "hetflow/core/error.hpp"
#include "hetflow/core/number_text.hpp"

namespace hetflow::mrag {
namespace {

constexpr int max_newton_steps = 100;
constexpr double newton_tolerance = 1e-15;

}  // namespace

ExactRiemann::ExactRiemann(const Primitive1d& left, const Primitive1d& right, const StiffenedGas& left_gas,
                           const StiffenedGas& right_gas)
    : side_{left, right}, gas_{left_gas, right_gas} {
  const char* names[2] = {"left", "right"};
  for (int k = 0; k < 2; ++k) {
    check(gas_[k], names[k]);
    const Primitive1d& s = side_[k];
    if (!(s.rho > 0) || !(s.p + gas_[k].p_inf > 0) || !std::isfinite(s.u))
      throw core::Error(std::string("Riemann problem: the ") + names[k] +
                        " state needs a positive density and p + p_inf > 0, got rho " + core::number_text(s.rho) +
                        ", p " + core::number_text(s.p));
    c_[k] = std::sqrt(gas_[k].gamma * (s.p + gas_[k].p_inf) / s.rho);
  }
  const double du = side_[1].u - side_[0].u;
  if (2 * c_[0] / (gas_[0].gamma - 1) + 2 * c_[1] / (gas_[1].gamma - 1) <= du)
    throw core::Error("Riemann problem: the states separate fast enough to open a vacuum (u_R - u_L = " +
                      core::number_text(du) + ")");
  // p + p∞ must stay positive on both sides; Newton starts from the mean and never steps below that floor.
  const double floor = -std::min(gas_[0].p_inf, gas_[1].p_inf);
  double p = std::max(0.5 * (side_[0].p + side_[1].p), floor + 1e-8 * (std::abs(floor) + 1));
  for (int step = 0;; ++step) {
    if (step == max_newton_steps)
      throw core::Error("Riemann problem: Newton's method on the star pressure did not converge in " +
                        std::to_string(max_newton_steps) + " steps");
    double d0 = 0, d1 = 0;
    const double g = wave_function(0, p, &d0) + wave_function(1, p, &d1) + du;
    double next = p - g / (d0 + d1);
    if (next <= floor) next = 0.5 * (p + floor);
    const double change = std::abs(next - p) / (0.5 * (next + p) - floor);
    p = next;
    if (change < newton_tolerance) break;
  }
  p_star_ = p;
  double unused = 0;
  u_star_ = 0.5 * (side_[0].u + side_[1].u) + 0.5 * (wave_function(1, p, &unused) - wave_function(0, p, &unused));
  for (int k = 0; k < 2; ++k) {
    const double g = gas_[k].gamma, ratio = (p + gas_[k].p_inf) / (side_[k].p + gas_[k].p_inf);
    const double m = (g - 1) / (g + 1);
    rho_star_[k] =
        p > side_[k].p ? side_[k].rho * (ratio + m) / (m * ratio + 1) : side_[k].rho * std::pow(ratio, 1 / g);
  }
}

double ExactRiemann::wave_function(int k, double p, double* derivative) const {
  const Primitive1d& s = side_[k];
  const double g = gas_[k].gamma, pi = gas_[k].p_inf;
  if (p > s.p) {  // shock
    const double a = 2 / ((g + 1) * s.rho), b = (g - 1) / (g + 1) * (s.p + pi);
    const double q = p + pi + b, root = std::sqrt(a / q);
    *derivative = root * (1 - (p - s.p) / (2 * q));
    return (p - s.p) * root;
  }
  const double ratio = (p + pi) / (s.p + pi);  // rarefaction
  *derivative = std::pow(ratio, -(g + 1) / (2 * g)) / (s.rho * c_[k]);
  return 2 * c_[k] / (g - 1) * (std::pow(ratio, (g - 1) / (2 * g)) - 1);
}

Primitive1d ExactRiemann::fan(int k, double xi) const {
  const Primitive1d& s = side_[k];
  // The left fan carries the C+ invariant u + 2c/(γ−1) of the left state, the right fan the C− one.
  const double g = gas_[k].gamma, pi = gas_[k].p_inf, invariant_sign = k == 0 ? 1 : -1;
  const double c = 2 / (g + 1) * (c_[k] + invariant_sign * (g - 1) / 2 * (s.u - xi));
  Primitive1d out;
  out.u = 2 / (g + 1) * (invariant_sign * c_[k] + (g - 1) / 2 * s.u + xi);
  out.rho = s.rho * std::pow(c / c_[k], 2 / (g - 1));
  out.p = (s.p + pi) * std::pow(c / c_[k], 2 * g / (g - 1)) - pi;
  return out;
}

ExactRiemann::Sample ExactRiemann::sample(double xi) const {
  const int k = xi <= u_star_ ? 0 : 1;
  const double sign = k == 0 ? -1 : 1;  // the wave moves to -x on the left, +x on the right
  const Primitive1d& s = side_[k];
  const double g = gas_[k].gamma, pi = gas_[k].p_inf;
  const double ratio = (p_star_ + pi) / (s.p + pi);
  const Primitive1d star{rho_star_[k], u_star_, p_star_};
  // Positive beyond the wave, seen from the contact: there the initial state holds.
  const auto outwards = [&](double speed) { return sign * (xi - speed); };
  if (p_star_ > s.p) {
    const double shock = s.u + sign * c_[k] * std::sqrt((g + 1) / (2 * g) * ratio + (g - 1) / (2 * g));
    return {outwards(shock) > 0 ? s : star, k == 0};
  }
  const double head = s.u + sign * c_[k];
  const double tail = u_star_ + sign * c_[k] * std::pow(ratio, (g - 1) / (2 * g));
  if (outwards(head) > 0) return {s, k == 0};
  if (outwards(tail) < 0) return {star, k == 0};
  return {fan(k, xi), k == 0};
}

}  // namespace hetflow::mrag
