#include "hetflow/casefile/text_file.hpp"

#include <algorithm>
#include <cstdio>

#include "hetflow/casefile/error.hpp"

namespace hetflow::casefile {

void check_text_file(std::string_view content, const std::string& source) {
  const auto banned = [](char c) {
    const auto b = static_cast<unsigned char>(c);
    return (b < 0x20 && b != '\t' && b != '\n' && b != '\r') || b == 0x7f;
  };
  const auto it = std::find_if(content.begin(), content.end(), banned);
  if (it == content.end()) return;
  const auto offset = static_cast<std::size_t>(it - content.begin());
  const auto line = 1 + static_cast<std::size_t>(std::count(content.begin(), it, '\n'));
  char byte[8];
  std::snprintf(byte, sizeof byte, "0x%02x", static_cast<unsigned>(static_cast<unsigned char>(*it)));
  throw CaseError(source + " is not a text (YAML) case file: it holds byte " + byte + " at offset " +
                  std::to_string(offset) + " (line " + std::to_string(line) +
                  "), which YAML text cannot hold; expected the path of a YAML case file");
}

}  // namespace hetflow::casefile
