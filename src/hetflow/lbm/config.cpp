// The configuration's enumerations and the multiphase models' equations of state.
#include "hetflow/lbm/solver.hpp"

#include <cmath>
#include <string>

#include "hetflow/core/error.hpp"

namespace hetflow::lbm {

double shan_chen_pressure(double rho, const ShanChen& sc) {
  const double psi = sc.psi0 * std::exp(-sc.rho0 / rho);
  return rho / 3.0 + sc.g * psi * psi / 6.0;
}

double two_component_pressure(double rho_a, double rho_b, const TwoComponent& tc) {
  return (rho_a + rho_b) / 3.0 + tc.g * rho_a * rho_b / 3.0;
}

Pattern parse_pattern(std::string_view text) {
  if (text == "ab") return Pattern::ab;
  if (text == "aa") return Pattern::aa;
  if (text == "lagrangian") return Pattern::lagrangian;
  throw core::Error("unknown memory pattern '" + std::string(text) + "': expected ab, aa or lagrangian");
}

Storage parse_storage(std::string_view text) {
  if (text == "fp32") return Storage::fp32;
  if (text == "fp16") return Storage::fp16;
  if (text == "fp64") return Storage::fp64;
  throw core::Error("unknown storage '" + std::string(text) + "': expected fp32, fp16 or fp64");
}

Collision parse_collision(std::string_view text) {
  if (text == "bgk") return Collision::bgk;
  if (text == "trt") return Collision::trt;
  if (text == "mrt") return Collision::mrt;
  throw core::Error("unknown collision '" + std::string(text) + "': expected bgk, trt or mrt");
}

double trt_tau_minus(double tau, double magic) { return 0.5 + magic / (tau - 0.5); }

const char* to_string(Pattern p) {
  return p == Pattern::ab ? "ab" : p == Pattern::aa ? "aa" : "lagrangian";
}

const char* to_string(Storage s) { return s == Storage::fp32 ? "fp32" : s == Storage::fp16 ? "fp16" : "fp64"; }

const char* to_string(Collision c) { return c == Collision::bgk ? "bgk" : c == Collision::trt ? "trt" : "mrt"; }

}  // namespace hetflow::lbm
