#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace hetflow::fem {

// Walks the lines of a .msh text and parses their fields, reporting every error as "source:line: ...".
class MshCursor {
 public:
  MshCursor(std::string_view text, std::string source);

  // Moves to the next line; false at the end of the text.
  bool next();
  // Moves to the next line, failing with "<what> is missing" at the end of the text.
  void require_next(std::string_view what);
  std::string_view line() const { return line_; }
  std::size_t number() const { return number_; }
  const std::string& source() const { return source_; }

  // The whitespace-separated fields of the current line; at least `min` of them.
  std::vector<std::string_view> fields(std::size_t min = 0) const;
  std::int64_t integer(std::string_view field) const;
  double real(std::string_view field) const;

  [[noreturn]] void fail(const std::string& what) const;

 private:
  std::string_view text_;
  std::string source_;
  std::size_t pos_ = 0;
  std::string_view line_;
  std::size_t number_ = 0;
};

}  // namespace hetflow::fem
