// libFuzzer entry for the raw voxel reader: the input is a YAML header, a NUL byte, then the raw
// voxel bytes. Any input must end in a Geometry or an io::IoError — never a crash, a hang, an
// out-of-bounds read, an allocation the raw bytes do not justify, or another exception.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>

#include "hetflow/io/error.hpp"
#include "hetflow/lbm/geometry_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto* split = static_cast<const std::uint8_t*>(std::memchr(data, 0, size));
  const std::size_t header_size = split == nullptr ? size : static_cast<std::size_t>(split - data);
  const std::string_view header(reinterpret_cast<const char*>(data), header_size);
  const std::span<const std::uint8_t> raw =
      split == nullptr ? std::span<const std::uint8_t>() : std::span<const std::uint8_t>(split + 1, data + size);
  try {
    const auto h = hetflow::lbm::parse_raw_header(header, "fuzz.yaml");
    const auto g = hetflow::lbm::decode_raw_voxels(h, raw, "fuzz.yaml", "fuzz.raw");
    if (!g.any_fluid() || g.size() * hetflow::lbm::raw_type_size(h.type) != raw.size()) __builtin_trap();
  } catch (const hetflow::io::IoError&) {
  }
  return 0;
}
