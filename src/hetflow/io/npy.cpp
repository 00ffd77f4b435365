#include "hetflow/io/npy.hpp"

#include <algorithm>
#include <bit>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>

#include "hetflow/io/atomic_file.hpp"
#include "hetflow/io/error.hpp"

namespace hetflow::io {

// Values are copied byte for byte from '<f8'/'<f4' data; a big-endian host would need swaps.
static_assert(std::endian::native == std::endian::little, "npy.cpp reads little-endian data by memcpy");

namespace {

constexpr std::string_view kMagic{"\x93NUMPY", 6};

// A shape as Python prints the tuple, so messages quote what the header says: "(3,)", "(3, 4)".
std::string shape_text(const std::vector<std::size_t>& shape) {
  std::string s = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i > 0 ? ", " : "") + std::to_string(shape[i]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

// a * b, or nothing when it does not fit in size_t (a hostile header may claim any shape).
std::optional<std::size_t> checked_mul(std::size_t a, std::size_t b) {
  if (b != 0 && a > std::numeric_limits<std::size_t>::max() / b) return std::nullopt;
  return a * b;
}

struct Header {
  std::string descr;
  bool fortran_order = false;
  std::vector<std::size_t> shape;
};

// The header is a Python dict literal, e.g. {'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), }.
// numpy reads it with ast.literal_eval; we accept the subset np.save writes (either quote, any
// whitespace, trailing commas) and nothing else, and never recurse, so no input can exhaust the stack.
class HeaderParser {
 public:
  HeaderParser(std::string_view text, const std::string& name) : text_(text), name_(name) {}

  Header parse() {
    Header h;
    bool seen_descr = false, seen_order = false, seen_shape = false;
    skip_space();
    expect('{', "the header does not start with '{'");
    skip_space();
    while (!accept('}')) {
      const std::string key = string_literal("a quoted key");
      skip_space();
      expect(':', "expected ':' after '" + key + "'");
      skip_space();
      if (key == "descr") {
        once(seen_descr, key);
        if (peek() == '[') fail("structured dtypes are not supported (expected '<f8' or '<f4')");
        h.descr = string_literal("a quoted dtype after 'descr'");
      } else if (key == "fortran_order") {
        once(seen_order, key);
        const std::string w = word();
        if (w != "True" && w != "False") fail("'fortran_order' holds '" + word_or_char(w) + "', not True or False");
        h.fortran_order = w == "True";
      } else if (key == "shape") {
        once(seen_shape, key);
        h.shape = shape_tuple();
      } else {
        fail("unknown key '" + key + "' (expected 'descr', 'fortran_order' and 'shape')");
      }
      skip_space();
      if (accept(',')) {
        skip_space();
        continue;
      }
      expect('}', "expected ',' or '}' after the value of '" + key + "'");
      break;
    }
    skip_space();
    if (pos_ != text_.size()) fail("unexpected text after the closing '}'");
    if (!seen_descr) fail("missing key 'descr'");
    if (!seen_order) fail("missing key 'fortran_order'");
    if (!seen_shape) fail("missing key 'shape'");
    return h;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const { throw FormatError(name_ + ": header: " + what); }

  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  bool accept(char c) {
    if (pos_ >= text_.size() || text_[pos_] != c) return false;
    ++pos_;
    return true;
  }
  void expect(char c, const std::string& what) {
    if (!accept(c)) fail(what);
  }
  void skip_space() {
    while (pos_ < text_.size() &&
           (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r'))
      ++pos_;
  }
  void once(bool& seen, const std::string& key) {
    if (seen) fail("key '" + key + "' appears twice");
    seen = true;
  }

  std::string string_literal(const std::string& expected) {
    const char quote = peek();
    if (quote != '\'' && quote != '"') fail("expected " + expected);
    const auto end = text_.find(quote, pos_ + 1);
    if (end == std::string_view::npos) fail("unterminated string");
    std::string s(text_.substr(pos_ + 1, end - pos_ - 1));
    pos_ = end + 1;
    return s;
  }

  std::string word() {
    const auto start = pos_;
    while (pos_ < text_.size() && std::isalnum(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    return std::string(text_.substr(start, pos_ - start));
  }

  // What stands where a word was expected, for messages: the word, else the character that stopped it.
  std::string word_or_char(const std::string& w) const { return w.empty() ? std::string(1, peek()) : w; }

  std::vector<std::size_t> shape_tuple() {
    expect('(', "'shape' is not a tuple");
    std::vector<std::size_t> shape;
    skip_space();
    while (!accept(')')) {
      const std::string w = word();
      std::size_t v = 0;
      const auto r = std::from_chars(w.data(), w.data() + w.size(), v);
      if (w.empty() || r.ec != std::errc() || r.ptr != w.data() + w.size())
        fail("'shape' holds '" + word_or_char(w) + "', not a non-negative integer");
      shape.push_back(v);
      skip_space();
      if (accept(',')) {
        skip_space();
        continue;
      }
      expect(')', "'shape' is not closed by ')'");
      break;
    }
    return shape;
  }

  std::string_view text_;
  const std::string& name_;
  std::size_t pos_ = 0;
};

std::uint32_t little_endian(std::string_view bytes) {
  std::uint32_t v = 0;
  for (std::size_t i = bytes.size(); i-- > 0;) v = (v << 8) | static_cast<unsigned char>(bytes[i]);
  return v;
}

template <typename T>
std::vector<double> widen(std::string_view data, std::size_t count) {
  std::vector<double> out(count);
  for (std::size_t k = 0; k < count; ++k) {
    T v;
    std::memcpy(&v, data.data() + k * sizeof(T), sizeof(T));
    out[k] = static_cast<double>(v);
  }
  return out;
}

}  // namespace

DenseArray dense_from_c_order(std::vector<std::size_t> shape, std::span<const double> c_values) {
  DenseArray a{std::move(shape), {}};
  if (a.shape.size() < 2) {
    a.values.assign(c_values.begin(), c_values.end());
    return a;
  }
  const std::size_t rows = a.shape[0], cols = a.shape[1];
  a.values.resize(c_values.size());
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j) a.values[i + j * rows] = c_values[i * cols + j];
  return a;
}

DenseArray parse_npy(std::string_view bytes, const std::string& name) {
  const auto fail = [&](const std::string& what) -> FormatError { return FormatError(name + ": " + what); };
  if (bytes.substr(0, kMagic.size()) != kMagic.substr(0, std::min(bytes.size(), kMagic.size())))
    throw fail("not a .npy file (bad magic: it does not start with \\x93NUMPY)");
  if (bytes.size() < kMagic.size() + 2)
    throw fail("truncated header: the file ends within the " + std::to_string(kMagic.size() + 2) +
               "-byte magic and version");
  const int major = static_cast<unsigned char>(bytes[6]);
  const int minor = static_cast<unsigned char>(bytes[7]);
  if (minor != 0 || major < 1 || major > 3)
    throw fail("unsupported .npy format version " + std::to_string(major) + "." + std::to_string(minor) +
               " (expected 1.0, 2.0 or 3.0)");
  // Version 1.0 stores the header length in 2 bytes; 2.0 and 3.0 (which only adds UTF-8) in 4.
  const std::size_t len_bytes = major == 1 ? 2 : 4;
  const std::size_t preamble = 8 + len_bytes;
  if (bytes.size() < preamble)
    throw fail("truncated header: the file has " + std::to_string(bytes.size()) + " bytes, fewer than the " +
               std::to_string(preamble) + " of a version " + std::to_string(major) + ".0 preamble");
  const std::size_t header_len = little_endian(bytes.substr(8, len_bytes));
  if (header_len > bytes.size() - preamble)
    throw fail("header length " + std::to_string(header_len) + " goes beyond the end of the file (" +
               std::to_string(bytes.size() - preamble) + " bytes follow the preamble)");
  const Header h = HeaderParser(bytes.substr(preamble, header_len), name).parse();

  std::size_t item = 0;
  if (h.descr == "<f8") {
    item = 8;
  } else if (h.descr == "<f4") {
    item = 4;
  } else {
    const bool big = h.descr.size() > 1 && h.descr[0] == '>';
    throw fail("unsupported dtype '" + h.descr + "' (expected '<f8' or '<f4'" +
               (big ? "; this is big-endian: save a.astype('<f8')" : "") + ")");
  }
  if (h.shape.empty() || h.shape.size() > 2)
    throw fail("header: shape " + shape_text(h.shape) + " has " + std::to_string(h.shape.size()) +
               " dimensions; expected a vector (1) or a matrix (2)");
  std::optional<std::size_t> count = 1;
  for (const std::size_t d : h.shape)
    if (count) count = checked_mul(*count, d);
  const auto needed = count ? checked_mul(*count, item) : std::nullopt;
  const std::string_view data = bytes.substr(preamble + header_len);
  if (!needed || *needed != data.size())
    throw fail("header: shape " + shape_text(h.shape) + " needs " +
               (needed ? std::to_string(*needed) : std::string("more than 2^64")) + " bytes of data, the file has " +
               std::to_string(data.size()));

  std::vector<double> values = item == 8 ? widen<double>(data, *count) : widen<float>(data, *count);
  if (h.fortran_order || h.shape.size() == 1) return DenseArray{h.shape, std::move(values)};
  return dense_from_c_order(h.shape, values);
}

DenseArray read_npy(const std::filesystem::path& path) {
  const auto bytes = read_file_bytes(path);
  return parse_npy(std::string_view(bytes.data(), bytes.size()), path.string());
}

void check_dense(const DenseArray& array, const std::filesystem::path& path) {
  const auto& s = array.shape;
  if (s.empty() || s.size() > 2)
    throw IoError("cannot write '" + path.string() + "': an array of " + std::to_string(s.size()) +
                  " dimensions is neither a vector nor a matrix");
  const auto count = s.size() == 1 ? std::optional(s[0]) : checked_mul(s[0], s[1]);
  if (!count || *count != array.values.size())
    throw IoError("cannot write '" + path.string() + "': shape " + shape_text(s) + " does not hold " +
                  std::to_string(array.values.size()) + " values");
}

namespace {

// The file np.save writes for a float64 array of this shape: Fortran order or C order (the last axis
// fastest), format 1.0.
void write_npy_file(const std::filesystem::path& path, const std::vector<std::size_t>& shape, bool fortran,
                    std::span<const double> values) {
  std::string header = std::string("{'descr': '<f8', 'fortran_order': ") + (fortran ? "True" : "False") +
                       ", 'shape': " + shape_text(shape) + ", }";
  // As np.save does: room to grow the growth axis to 21 digits in place, then spaces and '\n' up to
  // a multiple of 64 bytes so the data is aligned. The headers written here are far below 1.0's 65535
  // bytes.
  const std::size_t growth = shape[fortran ? shape.size() - 1 : 0];
  header.append(21 - std::to_string(growth).size(), ' ');
  const std::size_t unpadded = kMagic.size() + 4 + header.size() + 1;
  header.append(64 - unpadded % 64, ' ');  // np.save pads a full 64 when already aligned
  header += '\n';

  std::string out(kMagic);
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>(header.size() >> 8);
  out += header;
  const std::size_t data_at = out.size();
  out.resize(data_at + values.size() * sizeof(double));
  if (!values.empty()) std::memcpy(out.data() + data_at, values.data(), values.size() * sizeof(double));
  write_file_atomically(path, out);
}

}  // namespace

void write_npy(const std::filesystem::path& path, const DenseArray& array) {
  check_dense(array, path);
  write_npy_file(path, array.shape, array.shape.size() == 2, array.values);
}

void write_npy_c_order(const std::filesystem::path& path, const std::vector<std::size_t>& shape,
                       std::span<const double> values) {
  std::optional<std::size_t> count = shape.empty() ? std::nullopt : std::optional<std::size_t>(1);
  for (std::size_t i = 0; i < shape.size() && count; ++i) count = checked_mul(*count, shape[i]);
  if (!count || *count != values.size())
    throw IoError("cannot write '" + path.string() + "': shape " + shape_text(shape) + " does not hold " +
                  std::to_string(values.size()) + " values");
  write_npy_file(path, shape, false, values);
}

}  // namespace hetflow::io
