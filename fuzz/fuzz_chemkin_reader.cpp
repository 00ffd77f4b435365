// libFuzzer target: arbitrary bytes as a Chemkin mechanism (with its own THERMO section). Reading must
// end in a Mechanism or a MechanismError; any other exception, a crash or a sanitizer report is a bug.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "hetflow/chem/chemkin_reader.hpp"
#include "hetflow/chem/mechanism_error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    (void)hetflow::chem::parse_chemkin(text, "fuzz.inp");
  } catch (const hetflow::chem::MechanismError&) {
  }
  return 0;
}
