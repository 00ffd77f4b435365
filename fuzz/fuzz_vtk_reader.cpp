// libFuzzer entry for the VTK XML reader: any bytes must either parse or raise FormatError/IoError —
// never crash, hang, read out of bounds or throw anything else.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "hetflow/io/error.hpp"
#include "hetflow/io/vtk_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view content(reinterpret_cast<const char*>(data), size);
  try {
    (void)hetflow::io::parse_vtk(content, "fuzz.vti");
  } catch (const hetflow::io::IoError&) {
  }
  return 0;
}
