#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
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

  // Expects the current line to be `wanted` after moving to it.
  void expect(std::string_view wanted);

  // The next value of a binary block, in native byte order (the header's check value says the file's
  // order is native), from the byte after the last line read.
  template <class T>
  T binary(std::string_view what) {
    if (pos_ > text_.size() || text_.size() - pos_ < sizeof(T))
      fail("the file ends inside the binary " + std::string(what));
    binary_ = true;
    T v;
    std::memcpy(&v, text_.data() + pos_, sizeof(T));
    pos_ += sizeof(T);
    return v;
  }
  // Ends a binary block: the rest of its line must be empty.
  void end_binary(std::string_view what);

  // Reports "source:line: what", or "source: byte N: what" once binary data has been read, as line
  // numbers mean nothing there.
  [[noreturn]] void fail(const std::string& what) const;

 private:
  std::string_view text_;
  std::string source_;
  std::size_t pos_ = 0;
  std::string_view line_;
  std::size_t number_ = 0;
  bool binary_ = false;
};

}  // namespace hetflow::fem
