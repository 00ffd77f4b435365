#include "hetflow/chem/reactor_source.hpp"

#include <numbers>

#include "hetflow/core/number_text.hpp"
#include "hetflow/core/registry.hpp"

namespace hetflow::chem {
namespace {

// A double as an OpenCL C literal that reads back to the same bits (17 significant digits, and a
// decimal point where the text would read as an integer).
std::string literal(double v) {
  std::string s = core::number_text(v);
  if (s.find_first_of(".eEni") == std::string::npos) s += ".0";
  return s;
}

}  // namespace

std::string reactor_source(const Mechanism& m) {
  std::string s = "// The constant-pressure adiabatic reactor of a " + std::to_string(m.species.size()) + "-species, " +
                  std::to_string(m.reactions.size()) + "-reaction mechanism (hetflow::chem::reactor_source).\n";
  s += "#define CHEM_K " + std::to_string(m.species.size()) + "\n";
  s += "#define CHEM_REACTIONS " + std::to_string(m.reactions.size()) + "\n";
  s += "#define CHEM_MAX_EXPONENTS " + std::to_string(reactor_max_exponents(m)) + "\n";
  s += "#define CHEM_R " + literal(gas_constant) + "\n";
  s += "#define CHEM_ONE_ATM " + literal(one_atm) + "\n";
  s += "#define CHEM_LN10 " + literal(std::numbers::ln10) + "\n";
  return s + core::kernel_source("chem/reactor.cl");
}

ode::System reactor_system(const Mechanism& m, ReactorJacobian jacobian) {
  return ode::System{static_cast<int>(m.species.size()) + 1, reactor_source(m), jacobian == ReactorJacobian::analytic, 1,
                     reactor_tables(m)};
}

}  // namespace hetflow::chem
