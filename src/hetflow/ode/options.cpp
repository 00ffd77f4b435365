#include "hetflow/ode/options.hpp"

#include <algorithm>
#include <cmath>

#include "hetflow/core/error.hpp"
#include "hetflow/core/number_text.hpp"

namespace hetflow::ode {
namespace {

using core::number_text;

[[noreturn]] void bad(const std::string& name, const std::string& value, const std::string& expected) {
  throw core::Error("RADAU5 option " + name + " = " + value + ": expected " + expected);
}

void check_tolerance_list(const std::vector<double>& values, const char* name, int n) {
  if (values.size() != 1 && values.size() != static_cast<std::size_t>(n))
    bad(name, std::to_string(values.size()) + " values", "1 value or one per component (" + std::to_string(n) + ")");
}

}  // namespace

void validate(const Options& o, int n) {
  check_tolerance_list(o.rtol, "rtol", n);
  check_tolerance_list(o.atol, "atol", n);
  if (!(o.uround > 1e-19 && o.uround < 1.0)) bad("uround", number_text(o.uround), "1e-19 < uround < 1");
  for (std::size_t i = 0; i < o.rtol.size(); ++i)
    if (!(o.rtol[i] > 10.0 * o.uround) || !std::isfinite(o.rtol[i]))
      bad("rtol[" + std::to_string(i) + "]", number_text(o.rtol[i]),
          "a finite value > 10 uround = " + number_text(10 * o.uround));
  for (std::size_t i = 0; i < o.atol.size(); ++i)
    if (!(o.atol[i] > 0.0) || !std::isfinite(o.atol[i]))
      bad("atol[" + std::to_string(i) + "]", number_text(o.atol[i]), "a finite value > 0");
  if (!std::isfinite(o.h0)) bad("h0", number_text(o.h0), "a finite initial step (0: 1e-6)");
  if (!std::isfinite(o.h_max)) bad("h_max", number_text(o.h_max), "a finite step size (0: |t_end - t0|)");
  if (o.nmax < 1) bad("nmax", std::to_string(o.nmax), "at least 1");
  if (o.nit < 1 || o.nit > 50) bad("nit", std::to_string(o.nit), "1 .. 50");
  if (!(o.safe > 0.001 && o.safe < 1.0)) bad("safe", number_text(o.safe), "0.001 < safe < 1");
  if (!(o.thet < 1.0) || !std::isfinite(o.thet)) bad("thet", number_text(o.thet), "a finite value < 1");
  if (!(o.fnewt >= 0.0) || !std::isfinite(o.fnewt))
    bad("fnewt", number_text(o.fnewt), "a finite value >= 0 (0: default)");
  if (!(o.quot1 <= 1.0) || !(o.quot2 >= 1.0) || !(o.quot1 > 0.0) || !std::isfinite(o.quot2))
    bad("quot1, quot2", number_text(o.quot1) + ", " + number_text(o.quot2), "0 < quot1 <= 1 <= quot2");
  if (!(o.min_step_ratio > 0.0 && o.min_step_ratio <= 1.0))
    bad("min_step_ratio", number_text(o.min_step_ratio), "0 < min_step_ratio <= 1");
  if (!(o.max_step_ratio >= 1.0) || !std::isfinite(o.max_step_ratio))
    bad("max_step_ratio", number_text(o.max_step_ratio), "a finite value >= 1");
  if (o.groups_per_unit > 4096) bad("groups_per_unit", std::to_string(o.groups_per_unit), "0 .. 4096 (0: default)");
  if (o.max_registers != 0 && (o.max_registers < 16 || o.max_registers > 255))
    bad("max_registers", std::to_string(o.max_registers), "16 .. 255 (0: default)");
  if (o.lu_panel < -1 || o.lu_panel > 16)
    bad("lu_panel", std::to_string(o.lu_panel), "-1 .. 16 (-1: default, 0: none)");
}

Tolerances transformed_tolerances(const Options& o, int n) {
  Tolerances t{std::vector<double>(static_cast<std::size_t>(n)), std::vector<double>(static_cast<std::size_t>(n))};
  // RADAU5 computes the exponent as 2.0D0/3.0D0; pow is glibc's on both sides, so rtol' is the Fortran's.
  const double expm = 2.0 / 3.0;
  for (std::size_t i = 0; i < t.rtol.size(); ++i) {
    const double rtol = o.rtol[o.rtol.size() == 1 ? 0 : i];
    const double atol = o.atol[o.atol.size() == 1 ? 0 : i];
    const double quot = atol / rtol;
    t.rtol[i] = 0.1 * std::pow(rtol, expm);
    t.atol[i] = t.rtol[i] * quot;
  }
  return t;
}

double newton_tolerance(const Options& o, const Tolerances& t) {
  if (o.fnewt != 0.0) return o.fnewt;
  return std::max(10.0 * o.uround / t.rtol[0], std::min(0.03, std::pow(t.rtol[0], 0.5)));
}

const char* to_string(Mapping mapping) {
  switch (mapping) {
    case Mapping::work_item:
      return "work_item";
    case Mapping::work_group:
      return "work_group";
    case Mapping::phased:
      return "phased";
    case Mapping::automatic:
      break;
  }
  return "automatic";
}

const char* to_string(Jacobian jacobian) {
  switch (jacobian) {
    case Jacobian::analytic:
      return "analytic";
    case Jacobian::finite_difference:
      return "finite_difference";
    case Jacobian::automatic:
      break;
  }
  return "automatic";
}

std::optional<Mapping> mapping_named(std::string_view name) {
  for (const Mapping m : {Mapping::work_item, Mapping::work_group, Mapping::phased, Mapping::automatic})
    if (name == to_string(m)) return m;
  return std::nullopt;
}

std::optional<Jacobian> jacobian_named(std::string_view name) {
  for (const Jacobian j : {Jacobian::analytic, Jacobian::finite_difference, Jacobian::automatic})
    if (name == to_string(j)) return j;
  return std::nullopt;
}

}  // namespace hetflow::ode
