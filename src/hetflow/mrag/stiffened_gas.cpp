#include "hetflow/mrag/stiffened_gas.hpp"

#include <cmath>
#include <string>

#include "hetflow/core/error.hpp"
#include "hetflow/core/number_text.hpp"

namespace hetflow::mrag {

void check(const StiffenedGas& gas, const char* where) {
  if (!(std::isfinite(gas.gamma) && gas.gamma > 1))
    throw core::Error(std::string(where) + ": gamma must be a finite number above 1, got " +
                      core::number_text(gas.gamma));
  if (!(std::isfinite(gas.p_inf) && gas.p_inf >= 0))
    throw core::Error(std::string(where) + ": p_inf must be finite and not negative, got " +
                      core::number_text(gas.p_inf));
}

double pressure(double big_gamma, double big_pi, double kinetic, double rho_e_total) {
  return (rho_e_total - kinetic - big_pi) / big_gamma;
}

double sound_speed(double big_gamma, double big_pi, double rho, double p) {
  return std::sqrt(((big_gamma + 1) * p + big_pi) / (big_gamma * rho));
}

}  // namespace hetflow::mrag
