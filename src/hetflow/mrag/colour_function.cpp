#include "hetflow/mrag/colour_function.hpp"

#include <cmath>
#include <iomanip>
#include <sstream>
#include <string>

#include "hetflow/core/error.hpp"
#include "hetflow/core/number_text.hpp"

namespace hetflow::mrag {
namespace {

constexpr double pi = 3.14159265358979323846;

std::string exact_text(double v) {
  std::ostringstream out;
  out << std::setprecision(17) << v;
  return out.str();
}

}  // namespace

double ColourFunction::heaviside(double phi) const {
  if (phi < -epsilon) return 0;
  if (phi > epsilon) return 1;
  return 0.5 + phi / (2 * epsilon) + std::sin(pi * phi / epsilon) / (2 * pi);
}

double ColourFunction::colour(double big_gamma) const {
  const double g1 = 1 / (gamma1 - 1), g2 = 1 / (gamma2 - 1);
  return g1 == g2 ? 1 : 2 * (big_gamma - g2) / (g1 - g2) - 1;
}

void ColourFunction::define(core::BuildOptions& options) const {
  options.define("COLOUR_FUNCTION", 1);
  options.define("GAMMA1", exact_text(gamma1));
  options.define("GAMMA2", exact_text(gamma2));
  options.define("PHI_EPSILON", exact_text(epsilon));
}

void check(const ColourFunction& colour) {
  if (!(colour.gamma1 > 1 && colour.gamma2 > 1 && std::isfinite(colour.gamma1) && std::isfinite(colour.gamma2)))
    throw core::Error("colour function: both gammas must be finite and above 1, got " +
                      core::number_text(colour.gamma1) + " and " + core::number_text(colour.gamma2));
  if (!(colour.epsilon > 0 && std::isfinite(colour.epsilon)))
    throw core::Error("colour function: epsilon must be finite and positive, got " + core::number_text(colour.epsilon));
}

}  // namespace hetflow::mrag
