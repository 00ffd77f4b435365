#include "hetflow/io/vtk_reader.hpp"

#include <zlib.h>

#include <algorithm>
#include <bit>
#include <charconv>
#include <limits>
#include <optional>

#include "hetflow/io/atomic_file.hpp"
#include "hetflow/io/base64.hpp"
#include "hetflow/io/error.hpp"
#include "hetflow/io/xml_parser.hpp"

namespace hetflow::io {

namespace {

template <class T>
std::optional<T> parse_number(std::string_view s) {
  if (!s.empty() && s[0] == '+') s.remove_prefix(1);
  T v{};
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

// Splits on XML whitespace, calling f(token) until it returns false.
template <class F>
void for_each_token(std::string_view text, F&& f) {
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\n' || text[i] == '\r' || text[i] == '\t')) ++i;
    const std::size_t start = i;
    while (i < text.size() && text[i] != ' ' && text[i] != '\n' && text[i] != '\r' && text[i] != '\t') ++i;
    if (i > start && !f(text.substr(start, i - start))) return;
  }
}

bool checked_mul(std::uint64_t a, std::uint64_t b, std::uint64_t& out) {
  return !__builtin_mul_overflow(a, b, &out);
}

// zlib never expands data more than about 1032:1; a header claiming more is lying.
constexpr std::uint64_t kMaxZlibRatio = 1032;

class Reader {
 public:
  Reader(std::string_view content, std::string_view source) : content_(content), source_(source) {
    doc_ = parse_xml(content_, source_);
    const XmlElement& root = doc_.root;
    if (root.name != "VTKFile") fail(&root, "root element is <" + root.name + ">, expected <VTKFile>");
    if (const auto* order = root.attribute("byte_order")) {
      if (*order != "LittleEndian" && *order != "BigEndian")
        fail(&root, "byte_order '" + *order + "' is neither LittleEndian nor BigEndian");
      const bool little = *order == "LittleEndian";
      swap_ = little != (std::endian::native == std::endian::little);
    }
    if (const auto* header = root.attribute("header_type")) {
      if (*header == "UInt32") header_size_ = 4;
      else if (*header == "UInt64") header_size_ = 8;
      else fail(&root, "header_type '" + *header + "' is neither UInt32 nor UInt64");
    }
    if (const auto* compressor = root.attribute("compressor")) {
      if (*compressor == "vtkZLibDataCompressor") zlib_ = true;
      else if (!compressor->empty()) fail(&root, "compressor '" + *compressor + "' is not supported (only vtkZLibDataCompressor)");
    }
  }

  std::string type() const {
    const auto* t = doc_.root.attribute("type");
    return t ? *t : std::string();
  }

  VtkImageData image_data() {
    require_type("ImageData");
    const XmlElement& grid = required_child(doc_.root, "ImageData");
    VtkImageData out;
    out.extent = extent_attribute(grid, "WholeExtent", true);
    if (const auto* o = grid.attribute("Origin")) out.origin = doubles<3>(grid, "Origin", *o);
    if (const auto* s = grid.attribute("Spacing")) out.spacing = doubles<3>(grid, "Spacing", *s);
    if (const auto* d = grid.attribute("Direction")) out.direction = doubles<9>(grid, "Direction", *d);
    std::uint64_t points = 1;
    std::uint64_t cells = 1;
    for (std::size_t a = 0; a < 3; ++a) {
      const std::int64_t lo = out.extent[2 * a];
      const std::int64_t hi = out.extent[2 * a + 1];
      if (hi < lo || hi - lo >= (std::int64_t{1} << 31)) fail(&grid, "WholeExtent has an empty or huge axis");
      out.dims[a] = static_cast<std::size_t>(hi - lo + 1);
      if (!checked_mul(points, out.dims[a], points) || !checked_mul(cells, std::max<std::uint64_t>(out.dims[a] - 1, 1), cells))
        fail(&grid, "WholeExtent is too large");
    }
    const XmlElement& piece = single_piece(grid);
    if (extent_attribute(piece, "Extent", true) != out.extent)
      fail(&piece, "Piece Extent differs from WholeExtent; multi-piece images are not supported");
    out.point_data = field_arrays(piece, "PointData", points);
    out.cell_data = field_arrays(piece, "CellData", cells);
    return out;
  }

  VtkUnstructuredGrid unstructured_grid() {
    require_type("UnstructuredGrid");
    const XmlElement& grid = required_child(doc_.root, "UnstructuredGrid");
    const XmlElement& piece = single_piece(grid);
    const std::uint64_t npoints = count_attribute(piece, "NumberOfPoints");
    const std::uint64_t ncells = count_attribute(piece, "NumberOfCells");
    VtkUnstructuredGrid out;

    const XmlElement& points = required_child(piece, "Points");
    const XmlElement& parray = required_child(points, "DataArray");
    out.points = read_array(parray, npoints, false);
    if (out.points.components != 3) fail(&parray, "Points have " + std::to_string(out.points.components) + " components, expected 3");
    if (out.points.type != ScalarType::Float32 && out.points.type != ScalarType::Float64)
      fail(&parray, "Points are " + std::string(scalar_type_name(out.points.type)) + ", expected Float32 or Float64");

    const XmlElement& cells = required_child(piece, "Cells");
    const XmlElement& offsets_el = named_array(cells, "offsets");
    out.offsets = integers(offsets_el, read_array(offsets_el, ncells, false));
    std::int64_t previous = 0;
    for (std::size_t c = 0; c < out.offsets.size(); ++c) {
      if (out.offsets[c] < previous) fail(&offsets_el, "offsets decrease at cell " + std::to_string(c));
      previous = out.offsets[c];
    }
    const XmlElement& conn_el = named_array(cells, "connectivity");
    out.connectivity = integers(conn_el, read_array(conn_el, static_cast<std::uint64_t>(previous), false));
    for (std::size_t k = 0; k < out.connectivity.size(); ++k) {
      const std::int64_t p = out.connectivity[k];
      if (p < 0 || static_cast<std::uint64_t>(p) >= npoints)
        fail(&conn_el, "connectivity entry " + std::to_string(k) + " refers to point " + std::to_string(p) + " of " +
                           std::to_string(npoints));
    }
    const XmlElement& types_el = named_array(cells, "types");
    for (const std::int64_t t : integers(types_el, read_array(types_el, ncells, false))) {
      if (t < 0 || t > 255) fail(&types_el, "cell type " + std::to_string(t) + " is out of range");
      out.types.push_back(static_cast<std::uint8_t>(t));
    }
    out.point_data = field_arrays(piece, "PointData", npoints);
    out.cell_data = field_arrays(piece, "CellData", ncells);
    return out;
  }

 private:
  [[noreturn]] void fail(const XmlElement* el, const std::string& what) const {
    std::string msg(source_);
    if (el != nullptr) msg += ":" + std::to_string(el->line);
    throw FormatError(msg + ": " + what);
  }

  void require_type(std::string_view expected) const {
    const std::string t = type();
    if (t.empty()) fail(&doc_.root, "<VTKFile> has no 'type' attribute");
    if (t != expected) fail(&doc_.root, "file holds " + t + ", expected " + std::string(expected));
  }

  const XmlElement& required_child(const XmlElement& parent, std::string_view name) const {
    const XmlElement* c = parent.child(name);
    if (c == nullptr) fail(&parent, "<" + parent.name + "> has no <" + std::string(name) + "> element");
    return *c;
  }

  const XmlElement& single_piece(const XmlElement& grid) const {
    const auto pieces = grid.children_named("Piece");
    if (pieces.empty()) fail(&grid, "<" + grid.name + "> has no <Piece>");
    if (pieces.size() > 1) fail(pieces[1], "more than one <Piece> is not supported");
    return *pieces[0];
  }

  const std::string& required_attribute(const XmlElement& el, std::string_view name) const {
    const std::string* v = el.attribute(name);
    if (v == nullptr) fail(&el, "<" + el.name + "> lacks the attribute '" + std::string(name) + "'");
    return *v;
  }

  template <std::size_t N>
  std::array<double, N> doubles(const XmlElement& el, std::string_view name, const std::string& text) const {
    std::array<double, N> out{};
    std::size_t n = 0;
    bool ok = true;
    for_each_token(text, [&](std::string_view tok) {
      const auto v = parse_number<double>(tok);
      if (!v || n == N) {
        ok = false;
        return false;
      }
      out[n++] = *v;
      return true;
    });
    if (!ok || n != N)
      fail(&el, "attribute " + std::string(name) + "=\"" + text + "\" is not " + std::to_string(N) + " numbers");
    return out;
  }

  std::array<std::int64_t, 6> extent_attribute(const XmlElement& el, std::string_view name, bool) const {
    const std::string& text = required_attribute(el, name);
    std::array<std::int64_t, 6> out{};
    std::size_t n = 0;
    bool ok = true;
    for_each_token(text, [&](std::string_view tok) {
      const auto v = parse_number<std::int64_t>(tok);
      if (!v || n == 6) {
        ok = false;
        return false;
      }
      out[n++] = *v;
      return true;
    });
    if (!ok || n != 6) fail(&el, "attribute " + std::string(name) + "=\"" + text + "\" is not 6 integers");
    return out;
  }

  std::uint64_t count_attribute(const XmlElement& el, std::string_view name) const {
    const std::string& text = required_attribute(el, name);
    const auto v = parse_number<std::uint64_t>(text);
    if (!v) fail(&el, "attribute " + std::string(name) + "=\"" + text + "\" is not a non-negative integer");
    return *v;
  }

  const XmlElement& named_array(const XmlElement& parent, std::string_view name) const {
    for (const auto* el : parent.children_named("DataArray")) {
      const auto* n = el->attribute("Name");
      if (n != nullptr && *n == name) return *el;
    }
    fail(&parent, "<" + parent.name + "> has no DataArray named '" + std::string(name) + "'");
  }

  std::vector<std::int64_t> integers(const XmlElement& el, const DataArray& a) const {
    if (a.type == ScalarType::Float32 || a.type == ScalarType::Float64)
      fail(&el, "DataArray '" + a.name + "' must hold integers, not " + std::string(scalar_type_name(a.type)));
    try {
      return a.to_int64();
    } catch (const FormatError& e) {
      fail(&el, e.what());
    }
  }

  std::vector<DataArray> field_arrays(const XmlElement& piece, std::string_view section, std::uint64_t tuples) {
    std::vector<DataArray> out;
    const XmlElement* sec = piece.child(section);
    if (sec == nullptr) return out;
    for (const auto* el : sec->children_named("DataArray")) out.push_back(read_array(*el, tuples, true));
    return out;
  }

  DataArray read_array(const XmlElement& el, std::uint64_t tuples, bool name_required) {
    DataArray a;
    const std::string& type_text = required_attribute(el, "type");
    if (!parse_scalar_type(type_text, a.type)) fail(&el, "DataArray has unknown type '" + type_text + "'");
    if (const auto* n = el.attribute("Name")) a.name = *n;
    else if (name_required) fail(&el, "DataArray lacks the attribute 'Name'");
    if (const auto* c = el.attribute("NumberOfComponents")) {
      const auto v = parse_number<int>(*c);
      if (!v || *v < 1 || *v > 4096) fail(&el, "DataArray '" + a.name + "' has NumberOfComponents=\"" + *c + "\"");
      a.components = *v;
    }
    const std::string label = "DataArray '" + a.name + "'";
    std::uint64_t values = 0;
    std::uint64_t bytes = 0;
    if (!checked_mul(tuples, static_cast<std::uint64_t>(a.components), values) ||
        !checked_mul(values, scalar_type_size(a.type), bytes))
      fail(&el, label + " would be impossibly large");

    const std::string& format = required_attribute(el, "format");
    if (format == "ascii") {
      a.bytes = parse_ascii(el, label, a.type, values);
    } else if (format == "binary") {
      std::string error;
      auto decoded = base64_decode(el.text, error);
      if (!decoded) fail(&el, label + ": " + error);
      a.bytes = decode_block(el, label, *decoded, bytes);
    } else if (format == "appended") {
      if (!doc_.has_raw_data) {
        const XmlElement* app = doc_.root.child("AppendedData");
        if (app != nullptr)
          fail(app, "AppendedData encoding '" + (app->attribute("encoding") ? *app->attribute("encoding") : std::string()) +
                        "' is not supported (only raw)");
        fail(&el, label + " is appended but the file has no raw <AppendedData> section");
      }
      const std::string& offset_text = required_attribute(el, "offset");
      const auto offset = parse_number<std::uint64_t>(offset_text);
      if (!offset) fail(&el, label + " has offset=\"" + offset_text + "\"");
      const auto* raw = reinterpret_cast<const std::uint8_t*>(doc_.raw_data.data());
      if (*offset >= doc_.raw_data.size())
        fail(&el, label + " starts at appended offset " + offset_text + " beyond the end of the file (" +
                      std::to_string(doc_.raw_data.size()) + " appended bytes)");
      a.bytes = decode_block(el, label, std::span(raw + *offset, doc_.raw_data.size() - *offset), bytes);
    } else {
      fail(&el, label + " has unknown format '" + format + "' (expected ascii, binary or appended)");
    }
    if (swap_) swap_bytes(a);
    return a;
  }

  std::uint64_t header_value(const std::uint8_t* p) const {
    std::uint64_t v = 0;
    if (header_size_ == 4) {
      std::uint32_t w = 0;
      std::memcpy(&w, p, 4);
      if (swap_) w = __builtin_bswap32(w);
      v = w;
    } else {
      std::memcpy(&v, p, 8);
      if (swap_) v = __builtin_bswap64(v);
    }
    return v;
  }

  // One binary block (header + data) as VTK lays it out, uncompressed or zlib-compressed; `expected` is the
  // number of bytes the array must hold.
  std::vector<std::uint8_t> decode_block(const XmlElement& el, const std::string& label, std::span<const std::uint8_t> src,
                                         std::uint64_t expected) const {
    const std::size_t hs = header_size_;
    if (!zlib_) {
      if (src.size() < hs) fail(&el, label + ": data block is truncated before its header");
      const std::uint64_t n = header_value(src.data());
      if (n != expected)
        fail(&el, label + ": data block holds " + std::to_string(n) + " bytes, expected " + std::to_string(expected));
      if (n > src.size() - hs)
        fail(&el, label + ": data block of " + std::to_string(n) + " bytes is truncated (" +
                      std::to_string(src.size() - hs) + " bytes left)");
      return {src.begin() + static_cast<std::ptrdiff_t>(hs), src.begin() + static_cast<std::ptrdiff_t>(hs + n)};
    }
    if (src.size() < 3 * hs) fail(&el, label + ": compressed block header is truncated");
    const std::uint64_t nblocks = header_value(src.data());
    const std::uint64_t block_size = header_value(src.data() + hs);
    const std::uint64_t last_size = header_value(src.data() + 2 * hs);
    if (nblocks > (src.size() - 3 * hs) / hs) fail(&el, label + ": compressed block header is truncated");
    const std::size_t data_start = 3 * hs + static_cast<std::size_t>(nblocks) * hs;
    std::uint64_t total = 0;
    if (nblocks > 0) {
      const std::uint64_t last = last_size == 0 ? block_size : last_size;
      if (last > block_size || !checked_mul(nblocks - 1, block_size, total) || total + last < total)
        fail(&el, label + ": inconsistent compressed block sizes");
      total += last;
    }
    if (total != expected)
      fail(&el, label + ": compressed data holds " + std::to_string(total) + " bytes, expected " + std::to_string(expected));
    std::uint64_t compressed_total = 0;
    for (std::uint64_t b = 0; b < nblocks; ++b) {
      compressed_total += header_value(src.data() + 3 * hs + b * hs);
      if (compressed_total > src.size() - data_start)
        fail(&el, label + ": compressed blocks run past the end of the data (truncated file?)");
    }
    if (total > compressed_total * kMaxZlibRatio + 1024) fail(&el, label + ": compressed block sizes are implausible");
    std::vector<std::uint8_t> out(static_cast<std::size_t>(total));
    std::size_t in_pos = data_start;
    std::size_t out_pos = 0;
    for (std::uint64_t b = 0; b < nblocks; ++b) {
      const std::uint64_t csize = header_value(src.data() + 3 * hs + b * hs);
      const std::uint64_t usize = (b + 1 == nblocks && last_size != 0) ? last_size : block_size;
      uLongf dest_len = static_cast<uLongf>(usize);
      const int rc = uncompress(out.data() + out_pos, &dest_len, src.data() + in_pos, static_cast<uLong>(csize));
      if (rc != Z_OK || dest_len != usize)
        fail(&el, label + ": zlib block " + std::to_string(b) + " does not decompress to " + std::to_string(usize) + " bytes");
      in_pos += static_cast<std::size_t>(csize);
      out_pos += static_cast<std::size_t>(usize);
    }
    return out;
  }

  template <class T>
  static bool append_token(std::string_view tok, std::vector<std::uint8_t>& out) {
    T v{};
    if constexpr (std::is_floating_point_v<T>) {
      const auto p = parse_number<T>(tok);
      if (!p) return false;
      v = *p;
    } else {
      const auto p = parse_number<std::int64_t>(tok);
      std::optional<std::uint64_t> u;
      if (!p) u = parse_number<std::uint64_t>(tok);
      if (p) {
        if (*p < static_cast<std::int64_t>(std::numeric_limits<T>::min()) ||
            (*p > 0 && static_cast<std::uint64_t>(*p) > static_cast<std::uint64_t>(std::numeric_limits<T>::max())))
          return false;
        v = static_cast<T>(*p);
      } else if (u && *u <= static_cast<std::uint64_t>(std::numeric_limits<T>::max())) {
        v = static_cast<T>(*u);
      } else {
        return false;
      }
    }
    const auto* b = reinterpret_cast<const std::uint8_t*>(&v);
    out.insert(out.end(), b, b + sizeof(T));
    return true;
  }

  template <class T>
  std::vector<std::uint8_t> parse_ascii_as(const XmlElement& el, const std::string& label, std::uint64_t values) const {
    std::vector<std::uint8_t> out;
    std::uint64_t n = 0;
    std::string bad;
    for_each_token(el.text, [&](std::string_view tok) {
      if (n == values) {
        ++n;
        return false;
      }
      if (!append_token<T>(tok, out)) {
        bad = std::string(tok.substr(0, 40));
        return false;
      }
      ++n;
      return true;
    });
    if (!bad.empty()) fail(&el, label + ": '" + bad + "' is not a valid " + std::string(scalar_type_name(scalar_type_of<T>())));
    if (n != values)
      fail(&el, label + ": " + (n > values ? "more than " + std::to_string(values) : std::to_string(n)) +
                    " ascii values, expected " + std::to_string(values));
    return out;
  }

  std::vector<std::uint8_t> parse_ascii(const XmlElement& el, const std::string& label, ScalarType t,
                                        std::uint64_t values) const {
    switch (t) {
      case ScalarType::Float32: return parse_ascii_as<float>(el, label, values);
      case ScalarType::Float64: return parse_ascii_as<double>(el, label, values);
      case ScalarType::Int8: return parse_ascii_as<std::int8_t>(el, label, values);
      case ScalarType::UInt8: return parse_ascii_as<std::uint8_t>(el, label, values);
      case ScalarType::Int16: return parse_ascii_as<std::int16_t>(el, label, values);
      case ScalarType::UInt16: return parse_ascii_as<std::uint16_t>(el, label, values);
      case ScalarType::Int32: return parse_ascii_as<std::int32_t>(el, label, values);
      case ScalarType::UInt32: return parse_ascii_as<std::uint32_t>(el, label, values);
      case ScalarType::Int64: return parse_ascii_as<std::int64_t>(el, label, values);
      case ScalarType::UInt64: return parse_ascii_as<std::uint64_t>(el, label, values);
    }
    fail(&el, label + ": unsupported type");
  }

  static void swap_bytes(DataArray& a) {
    const std::size_t k = scalar_type_size(a.type);
    if (k == 1) return;
    for (std::size_t i = 0; i + k <= a.bytes.size(); i += k)
      std::reverse(a.bytes.begin() + static_cast<std::ptrdiff_t>(i), a.bytes.begin() + static_cast<std::ptrdiff_t>(i + k));
  }

  std::string_view content_;
  std::string_view source_;
  XmlDocument doc_;
  bool swap_ = false;
  bool zlib_ = false;
  std::size_t header_size_ = 4;  // VTK's default when header_type is absent
};

const DataArray* find_array(const std::vector<DataArray>& arrays, std::string_view name) {
  for (const auto& a : arrays)
    if (a.name == name) return &a;
  return nullptr;
}

std::string file_content(const std::filesystem::path& path) {
  const auto bytes = read_file_bytes(path);
  return std::string(bytes.begin(), bytes.end());
}

template <class T>
void convert_all(const std::vector<std::uint8_t>& bytes, auto& out) {
  const std::size_t n = bytes.size() / sizeof(T);
  out.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    T v{};
    std::memcpy(&v, bytes.data() + i * sizeof(T), sizeof(T));
    out[i] = static_cast<typename std::remove_reference_t<decltype(out)>::value_type>(v);
  }
}

}  // namespace

void DataArray::check_type(ScalarType wanted) const {
  if (wanted != type)
    throw FormatError("DataArray '" + name + "' holds " + std::string(scalar_type_name(type)) + ", not " +
                      std::string(scalar_type_name(wanted)));
}

std::vector<double> DataArray::to_double() const {
  std::vector<double> out;
  switch (type) {
    case ScalarType::Float32: convert_all<float>(bytes, out); break;
    case ScalarType::Float64: convert_all<double>(bytes, out); break;
    case ScalarType::Int8: convert_all<std::int8_t>(bytes, out); break;
    case ScalarType::UInt8: convert_all<std::uint8_t>(bytes, out); break;
    case ScalarType::Int16: convert_all<std::int16_t>(bytes, out); break;
    case ScalarType::UInt16: convert_all<std::uint16_t>(bytes, out); break;
    case ScalarType::Int32: convert_all<std::int32_t>(bytes, out); break;
    case ScalarType::UInt32: convert_all<std::uint32_t>(bytes, out); break;
    case ScalarType::Int64: convert_all<std::int64_t>(bytes, out); break;
    case ScalarType::UInt64: convert_all<std::uint64_t>(bytes, out); break;
  }
  return out;
}

std::vector<std::int64_t> DataArray::to_int64() const {
  std::vector<std::int64_t> out;
  switch (type) {
    case ScalarType::Int8: convert_all<std::int8_t>(bytes, out); break;
    case ScalarType::UInt8: convert_all<std::uint8_t>(bytes, out); break;
    case ScalarType::Int16: convert_all<std::int16_t>(bytes, out); break;
    case ScalarType::UInt16: convert_all<std::uint16_t>(bytes, out); break;
    case ScalarType::Int32: convert_all<std::int32_t>(bytes, out); break;
    case ScalarType::UInt32: convert_all<std::uint32_t>(bytes, out); break;
    case ScalarType::Int64: convert_all<std::int64_t>(bytes, out); break;
    case ScalarType::UInt64: {
      const auto u = values<std::uint64_t>();
      out.reserve(u.size());
      for (const auto v : u) {
        if (v > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
          throw FormatError("DataArray '" + name + "' holds " + std::to_string(v) + ", beyond Int64");
        out.push_back(static_cast<std::int64_t>(v));
      }
      break;
    }
    case ScalarType::Float32:
    case ScalarType::Float64: check_type(ScalarType::Int64);
  }
  return out;
}

const DataArray* VtkImageData::point_array(std::string_view name) const { return find_array(point_data, name); }
const DataArray* VtkImageData::cell_array(std::string_view name) const { return find_array(cell_data, name); }
const DataArray* VtkUnstructuredGrid::point_array(std::string_view name) const { return find_array(point_data, name); }
const DataArray* VtkUnstructuredGrid::cell_array(std::string_view name) const { return find_array(cell_data, name); }

VtkImageData parse_vti(std::string_view content, std::string_view source_name) {
  return Reader(content, source_name).image_data();
}

VtkUnstructuredGrid parse_vtu(std::string_view content, std::string_view source_name) {
  return Reader(content, source_name).unstructured_grid();
}

std::variant<VtkImageData, VtkUnstructuredGrid> parse_vtk(std::string_view content, std::string_view source_name) {
  Reader reader(content, source_name);
  const std::string t = reader.type();
  if (t == "UnstructuredGrid") return reader.unstructured_grid();
  return reader.image_data();
}

VtkImageData read_vti(const std::filesystem::path& path) {
  const std::string content = file_content(path);
  return parse_vti(content, path.string());
}

VtkUnstructuredGrid read_vtu(const std::filesystem::path& path) {
  const std::string content = file_content(path);
  return parse_vtu(content, path.string());
}

}  // namespace hetflow::io
