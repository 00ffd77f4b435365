// libFuzzer target: arbitrary bytes as a Cantera YAML mechanism. Reading must end in a Mechanism or a
// MechanismError (yaml-cpp's own exceptions included: the reader must turn them into one); any other
// exception, a crash or a sanitizer report is a bug. Seed corpus: data/mechanisms/*.yaml.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "hetflow/chem/mechanism_error.hpp"
#include "hetflow/chem/yaml_mechanism.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    (void)hetflow::chem::parse_yaml_mechanism(text, "fuzz.yaml");
  } catch (const hetflow::chem::MechanismError&) {
  }
  return 0;
}
