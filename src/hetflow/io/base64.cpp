#include "hetflow/io/base64.hpp"

#include <array>

namespace hetflow::io {
namespace {

constexpr std::string_view kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

int sextet(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

}  // namespace

std::string base64_encode(std::span<const std::uint8_t> bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const std::uint32_t v = (std::uint32_t{bytes[i]} << 16) | (std::uint32_t{bytes[i + 1]} << 8) | bytes[i + 2];
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += kAlphabet[(v >> 6) & 63];
    out += kAlphabet[v & 63];
  }
  const std::size_t rest = bytes.size() - i;
  if (rest > 0) {
    std::uint32_t v = std::uint32_t{bytes[i]} << 16;
    if (rest == 2) v |= std::uint32_t{bytes[i + 1]} << 8;
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += rest == 2 ? kAlphabet[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

std::optional<std::vector<std::uint8_t>> base64_decode(std::string_view text, std::string& error) {
  std::vector<std::uint8_t> out;
  out.reserve(text.size() / 4 * 3);
  std::array<char, 4> group{};
  std::size_t filled = 0;
  std::size_t group_start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
    if (c != '=' && sextet(c) < 0) {
      error = "invalid base64 character (code " + std::to_string(static_cast<unsigned char>(c)) + ") at offset " +
              std::to_string(i);
      return std::nullopt;
    }
    if (filled == 0) group_start = i;
    group[filled++] = c;
    if (filled < 4) continue;
    filled = 0;
    const int pad = group[3] == '=' ? (group[2] == '=' ? 2 : 1) : 0;
    const bool bad_pad = group[0] == '=' || group[1] == '=' || (group[2] == '=' && group[3] != '=');
    if (bad_pad) {
      error = "misplaced base64 padding in the group at offset " + std::to_string(group_start);
      return std::nullopt;
    }
    std::uint32_t v = 0;
    for (int k = 0; k < 4; ++k) {
      const int s = group[static_cast<std::size_t>(k)] == '=' ? 0 : sextet(group[static_cast<std::size_t>(k)]);
      v = (v << 6) | static_cast<std::uint32_t>(s);
    }
    out.push_back(static_cast<std::uint8_t>(v >> 16));
    if (pad < 2) out.push_back(static_cast<std::uint8_t>((v >> 8) & 0xFF));
    if (pad < 1) out.push_back(static_cast<std::uint8_t>(v & 0xFF));
  }
  if (filled != 0) {
    error = "base64 text ends with an incomplete group of " + std::to_string(filled) + " characters";
    return std::nullopt;
  }
  return out;
}

}  // namespace hetflow::io
