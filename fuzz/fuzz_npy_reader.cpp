// libFuzzer entry for the .npy reader: any bytes must either parse or raise FormatError — never
// crash, hang, read out of bounds, allocate what the data cannot back, or throw anything else.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "hetflow/io/error.hpp"
#include "hetflow/io/npy.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view content(reinterpret_cast<const char*>(data), size);
  try {
    const auto a = hetflow::io::parse_npy(content, "fuzz.npy");
    // What the solvers rely on: the shape accounts for every value.
    std::size_t count = 1;
    for (const std::size_t n : a.shape) count *= n;
    if (count != a.values.size()) __builtin_trap();
  } catch (const hetflow::io::FormatError&) {
  }
  return 0;
}
