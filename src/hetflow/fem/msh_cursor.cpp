#include "hetflow/fem/msh_cursor.hpp"

#include <algorithm>
#include <charconv>

#include "hetflow/fem/mesh_error.hpp"

namespace hetflow::fem {

MshCursor::MshCursor(std::string_view text, std::string source) : text_(text), source_(std::move(source)) {}

bool MshCursor::next() {
  if (pos_ >= text_.size()) return false;
  auto end = text_.find('\n', pos_);
  if (end == std::string_view::npos) end = text_.size();
  line_ = text_.substr(pos_, end - pos_);
  pos_ = end + 1;
  if (!line_.empty() && line_.back() == '\r') line_.remove_suffix(1);
  ++number_;
  return true;
}

void MshCursor::require_next(std::string_view what) {
  if (!next()) {
    line_ = {};
    ++number_;
    fail(std::string(what) + " is missing: the file ends here");
  }
}

std::vector<std::string_view> MshCursor::fields(std::size_t min) const {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < line_.size()) {
    while (i < line_.size() && (line_[i] == ' ' || line_[i] == '\t')) ++i;
    const std::size_t start = i;
    while (i < line_.size() && line_[i] != ' ' && line_[i] != '\t') ++i;
    if (i > start) out.push_back(line_.substr(start, i - start));
  }
  if (out.size() < min)
    fail("expected at least " + std::to_string(min) + " fields, found " + std::to_string(out.size()) + ": '" +
         std::string(line_) + "'");
  return out;
}

std::int64_t MshCursor::integer(std::string_view field) const {
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), v);
  if (ec != std::errc() || end != field.data() + field.size())
    fail("expected an integer, found '" + std::string(field) + "'");
  return v;
}

double MshCursor::real(std::string_view field) const {
  double v = 0.0;
  const auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), v);
  if (ec != std::errc() || end != field.data() + field.size())
    fail("expected a number, found '" + std::string(field) + "'");
  return v;
}

void MshCursor::expect(std::string_view wanted) {
  require_next(wanted);
  if (line_ != wanted) fail("expected " + std::string(wanted) + ", found '" + std::string(line_) + "'");
}

void MshCursor::end_binary(std::string_view what) {
  if (!next() || !line_.empty())
    fail("expected a line break after the binary " + std::string(what) + ": the counts do not match the data");
}

void MshCursor::fail(const std::string& what) const {
  if (binary_) throw MeshError(source_ + ": byte " + std::to_string(std::min(pos_, text_.size())) + ": " + what);
  throw MeshError(source_ + ":" + std::to_string(number_) + ": " + what);
}

}  // namespace hetflow::fem
