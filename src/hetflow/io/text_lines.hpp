#pragma once
#include <cstddef>
#include <string_view>

namespace hetflow::io {

// Calls f(line, number) for every line of text (numbered from 1, without its '\n' or a CRLF's '\r'),
// so that the text readers report errors by line the same way.
template <class F>
void for_each_line(std::string_view text, F&& f) {
  std::size_t pos = 0, number = 0;
  while (pos < text.size()) {
    auto end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    f(line, ++number);
  }
}

}  // namespace hetflow::io
