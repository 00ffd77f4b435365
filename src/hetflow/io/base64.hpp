#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace hetflow::io {

std::string base64_encode(std::span<const std::uint8_t> bytes);

// Decodes standard base64, ignoring whitespace. Each 4-character group is decoded on its own, so
// several separately padded streams written back to back (VTK encodes a block header and its data
// separately) decode to the concatenation of their bytes. On malformed text returns nullopt and sets
// `error` to what is wrong and where.
std::optional<std::vector<std::uint8_t>> base64_decode(std::string_view text, std::string& error);

}  // namespace hetflow::io
