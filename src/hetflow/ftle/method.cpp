#include "hetflow/ftle/method.hpp"

#include <array>
#include <string>

#include "hetflow/core/error.hpp"

namespace hetflow::ftle {
namespace {

// The boundary modes' names, in the order of Boundary's values.
constexpr std::array<const char*, 6> boundary_names{"clamp",       "stop",        "periodic",
                                                    "extrapolate", "free_stream", "freeze"};

}  // namespace

int order(Integrator integrator) {
  switch (integrator) {
    case Integrator::euler: return 1;
    case Integrator::heun: return 2;
    case Integrator::rk4: return 4;
    case Integrator::dopri5: return 5;
    case Integrator::dop853: return 8;
  }
  return 0;
}

bool adaptive(Integrator integrator) { return integrator == Integrator::dopri5 || integrator == Integrator::dop853; }

Integrator parse_integrator(std::string_view text) {
  if (text == "euler") return Integrator::euler;
  if (text == "heun" || text == "rk2") return Integrator::heun;
  if (text == "rk4") return Integrator::rk4;
  if (text == "dopri5") return Integrator::dopri5;
  if (text == "dop853") return Integrator::dop853;
  throw core::Error("unknown integrator '" + std::string(text) + "': expected euler, heun (rk2), rk4, dopri5 or dop853");
}

Interpolation parse_interpolation(std::string_view text) {
  if (text == "m4prime" || text == "m4") return Interpolation::m4prime;
  if (text == "linear") return Interpolation::linear;
  throw core::Error("unknown interpolation '" + std::string(text) + "': expected m4prime or linear");
}

Boundary parse_boundary(std::string_view text) {
  for (std::size_t b = 0; b < boundary_names.size(); ++b) {
    if (text == boundary_names[b]) return static_cast<Boundary>(b);
  }
  throw core::Error("unknown boundary mode '" + std::string(text) +
                    "': expected clamp, stop, periodic, extrapolate, free_stream or freeze");
}

const char* to_string(Integrator i) {
  switch (i) {
    case Integrator::euler: return "euler";
    case Integrator::heun: return "heun";
    case Integrator::rk4: return "rk4";
    case Integrator::dopri5: return "dopri5";
    case Integrator::dop853: return "dop853";
  }
  return "";
}

const char* to_string(Interpolation i) { return i == Interpolation::m4prime ? "m4prime" : "linear"; }

const char* to_string(Boundary b) { return boundary_names[static_cast<std::size_t>(b)]; }

}  // namespace hetflow::ftle
