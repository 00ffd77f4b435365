#include "hetflow/ftle/method.hpp"

#include <string>

#include "hetflow/core/error.hpp"

namespace hetflow::ftle {

int order(Integrator integrator) {
  switch (integrator) {
    case Integrator::euler: return 1;
    case Integrator::heun: return 2;
    case Integrator::rk4: return 4;
  }
  return 0;
}

Integrator parse_integrator(std::string_view text) {
  if (text == "euler") return Integrator::euler;
  if (text == "heun" || text == "rk2") return Integrator::heun;
  if (text == "rk4") return Integrator::rk4;
  throw core::Error("unknown integrator '" + std::string(text) + "': expected euler, heun (rk2) or rk4");
}

Interpolation parse_interpolation(std::string_view text) {
  if (text == "m4prime" || text == "m4") return Interpolation::m4prime;
  if (text == "linear") return Interpolation::linear;
  throw core::Error("unknown interpolation '" + std::string(text) + "': expected m4prime or linear");
}

Boundary parse_boundary(std::string_view text) {
  if (text == "clamp") return Boundary::clamp;
  if (text == "stop") return Boundary::stop;
  if (text == "periodic") return Boundary::periodic;
  throw core::Error("unknown boundary mode '" + std::string(text) + "': expected clamp, stop or periodic");
}

const char* to_string(Integrator i) {
  return i == Integrator::euler ? "euler" : i == Integrator::heun ? "heun" : "rk4";
}

const char* to_string(Interpolation i) { return i == Interpolation::m4prime ? "m4prime" : "linear"; }

const char* to_string(Boundary b) {
  return b == Boundary::clamp ? "clamp" : b == Boundary::stop ? "stop" : "periodic";
}

}  // namespace hetflow::ftle
